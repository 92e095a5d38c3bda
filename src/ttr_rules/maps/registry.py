"""Map plugins: discovery through entry points, and loading.

A distribution provides a map by registering an entry point in the group ``ttr_rules.maps``::

    [project.entry-points."ttr_rules.maps"]
    europe = "ttr_rules_europe:load"

The entry point names a :class:`~ttr_rules.maps.GameMap`, a path (or
:mod:`importlib.resources` traversable) to a map file, or a callable returning either.

Discovery (:func:`discover`, :func:`available_maps`) reads installed metadata only and imports
nothing. Loading (:func:`load_map`) imports one plugin, validates its map and caches it by name;
:func:`resolve_map` accepts a name or a map, as every function taking ``map=`` does.
Map names are case-insensitive.
"""

from __future__ import annotations

import os
import threading
from importlib.resources.abc import Traversable
from typing import Any

import importlib_metadata
from attrs import frozen

from ..errors import MapConflictError, MapLoadError, MapNotFoundError
from .check import checked_map
from .file import load_map_file
from .model import GameMap

__all__ = [
    "ENTRY_POINT_GROUP",
    "MapPlugin",
    "available_maps",
    "clear_cache",
    "discover",
    "load_map",
    "resolve_map",
]

#: The entry-point group that map plugins register under.
ENTRY_POINT_GROUP = "ttr_rules.maps"

_cache: dict[str, GameMap] = {}
_lock = threading.Lock()


@frozen
class MapPlugin:
    """One installed map: its (lowercase) name, the distribution and the entry point."""

    name: str
    distribution: str
    entry_point: importlib_metadata.EntryPoint

    def describe(self) -> str:
        """``distribution (entry point name = value)``, for messages."""
        return (
            f"{self.distribution} (entry point {self.entry_point.name} = {self.entry_point.value})"
        )


def discover() -> dict[str, tuple[MapPlugin, ...]]:
    """Every installed map plugin by lowercase name, reading metadata only.

    A name with more than one provider is kept with all of them; :func:`load_map` refuses it.
    """
    found: dict[str, list[MapPlugin]] = {}
    for ep in importlib_metadata.entry_points(group=ENTRY_POINT_GROUP):
        name = ep.name.strip().lower()
        dist = ep.dist.name if ep.dist is not None else "<unknown distribution>"
        found.setdefault(name, []).append(MapPlugin(name, dist, ep))
    return {name: tuple(plugins) for name, plugins in sorted(found.items())}


def available_maps() -> tuple[str, ...]:
    """The sorted, lowercase names of the installed maps (imports nothing).

    >>> "europe" in available_maps()
    True
    """
    return tuple(discover())


#: Map names longer than this are refused without a look-up (and never echoed whole).
_MAX_NAME = 200


def clear_cache() -> None:
    """Forget the maps loaded so far (after installing or removing plugins, and in tests)."""
    with _lock:
        _cache.clear()


def load_map(name: str) -> GameMap:
    """The installed map called ``name`` (case-insensitive), imported and validated once.

    Raises :class:`~ttr_rules.errors.MapNotFoundError` (listing the available maps) for an
    unknown name, :class:`~ttr_rules.errors.MapConflictError` when two distributions provide the
    name, and :class:`~ttr_rules.errors.MapLoadError` naming the distribution and entry point
    when the plugin fails to import or its map is invalid.

    >>> europe = load_map("Europe")
    >>> europe.name, len(europe.cities), len(europe.routes), len(europe.tickets)
    ('europe', 47, 101, 46)
    >>> load_map("atlantis")
    Traceback (most recent call last):
    ...
    ttr_rules.errors.MapNotFoundError: no map named 'atlantis'; available maps: europe, ...
    """
    if not isinstance(name, str):
        raise MapNotFoundError(f"a map name is a string, got {type(name).__name__}")
    if len(name) > _MAX_NAME:
        raise MapNotFoundError(f"no map named {name[:_MAX_NAME]!r}... ({len(name)} characters)")
    key = name.strip().lower()
    with _lock:
        cached = _cache.get(key)
    if cached is not None:
        return cached
    plugin = _find(name, key)
    game_map = _load_plugin(plugin)
    with _lock:
        return _cache.setdefault(key, game_map)


def resolve_map(game_map: str | GameMap) -> GameMap:
    """``game_map`` itself once it passes :func:`~ttr_rules.maps.validate_map` (checked once
    per map: :func:`~ttr_rules.maps.check.checked_map`), or the installed map of that name
    (:func:`load_map`). Raises :class:`~ttr_rules.errors.MapError` with ``problems`` filled.

    >>> from ttr_rules.maps import resolve_map
    >>> resolve_map("Europe") is resolve_map(resolve_map("europe"))
    True
    """
    if isinstance(game_map, GameMap):
        return checked_map(game_map)
    return load_map(game_map)


def _find(name: str, key: str) -> MapPlugin:
    plugins = discover()
    providers = plugins.get(key)
    if not providers:
        known = ", ".join(plugins) if plugins else "none are installed"
        raise MapNotFoundError(f"no map named {name!r}; available maps: {known}")
    if len(providers) > 1:
        names = "; ".join(p.describe() for p in providers)
        raise MapConflictError(
            f"map {key!r} is provided by more than one distribution: {names}. "
            "Uninstall all but one of them."
        )
    return providers[0]


def _load_plugin(plugin: MapPlugin) -> GameMap:
    """Import the plugin, build its map and validate it, wrapping every failure."""
    where = f"map plugin {plugin.name!r} from {plugin.describe()}"
    try:
        target = plugin.entry_point.load()
        if callable(target) and not isinstance(target, GameMap):
            target = target()
    except Exception as exc:
        raise MapLoadError(f"{where} failed to load: {type(exc).__name__}: {exc}") from exc
    game_map = checked_map(_to_map(target, where), f"{where} provides a map")
    if game_map.name.lower() != plugin.name:
        message = f"{where} provides a map named {game_map.name!r}, not {plugin.name!r}"
        raise MapLoadError(message, problems=(message,))
    return game_map


def _to_map(target: Any, where: str) -> GameMap:
    """The map named by what the entry point gave: a GameMap, or a map file to load."""
    if isinstance(target, GameMap):
        return target
    if isinstance(target, str | os.PathLike | Traversable):
        try:
            return load_map_file(target)
        except MapLoadError as exc:
            raise MapLoadError(f"{where}: {exc}", problems=exc.problems) from exc
    raise MapLoadError(
        f"{where} gave {type(target).__name__}, not a GameMap or the path of a map file"
    )
