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

A plugin that fails to load is *broken*: :func:`playable_maps` (what a front end offers
players) leaves it out and :func:`broken_maps` says why. Whatever a plugin does while it loads
is contained: an exception of any kind (``sys.exit()`` included), something else than a map,
or a load that takes more than :data:`LOAD_SECONDS` (the plugin is imported in a thread of its
own, which is then left behind) makes it broken, never stops the caller. A plugin's errors
never show where it is installed: file paths in them are cut to the part below the
``sys.path`` entry (or to the file's name), so that a server's error answers do not reveal its
file system.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterable
from importlib.resources.abc import Traversable
from typing import Any

import importlib_metadata
from attrs import frozen

from ..errors import MapConflictError, MapError, MapLoadError, MapNotFoundError
from .check import checked_map
from .file import load_map_file
from .model import GameMap

__all__ = [
    "ENTRY_POINT_GROUP",
    "LOAD_SECONDS",
    "BrokenMap",
    "MapPlugin",
    "available_maps",
    "broken_maps",
    "clear_cache",
    "discover",
    "load_map",
    "map_groups",
    "playable_maps",
    "resolve_map",
]

#: The entry-point group that map plugins register under.
ENTRY_POINT_GROUP = "ttr_rules.maps"

#: How long a map plugin may take to import and build its map, in seconds; past it the plugin
#: is broken (its thread runs on unobserved: a thread cannot be stopped).
LOAD_SECONDS = 10.0

_cache: dict[str, GameMap] = {}
#: The errors of broken plugins by name, so that each is imported once.
_failed: dict[str, MapError] = {}
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
        _failed.clear()


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
        cached, failed = _cache.get(key), _failed.get(key)
    if cached is not None:
        return cached
    if failed is not None:
        raise _again(failed)
    plugin = _find(name, key)
    try:
        game_map = _load_plugin(plugin)
    except MapError as exc:
        with _lock:
            _failed[key] = exc
        raise
    with _lock:
        return _cache.setdefault(key, game_map)


@frozen
class BrokenMap:
    """An installed map plugin that cannot be played: its name, the distribution(s) providing
    it, why (the :class:`~ttr_rules.errors.MapError`'s message after the plugin's name, without
    install paths) and the error's ``problems``."""

    name: str
    distribution: str
    reason: str
    problems: tuple[str, ...]


def playable_maps() -> tuple[str, ...]:
    """The sorted names of the installed maps that load and pass validation: the maps to
    offer players. Imports every plugin (once: results are cached until :func:`clear_cache`).

    >>> {"europe", "usa"} <= set(playable_maps())
    True
    """
    broken = {b.name for b in broken_maps()}
    return tuple(name for name in available_maps() if name not in broken)


def map_groups(names: Iterable[str] | None = None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The playable maps (or ``names``, installed maps) grouped by board (``GameMap.board``),
    boards sorted by name: each board with its own name first when it is among them, then its
    variants' names, sorted. What menus show (``ttr maps``, the web lobby).

    >>> dict(map_groups())["usa"]
    ('usa', 'usa-1910', 'usa-big-cities', 'usa-mega')
    """
    groups: dict[str, list[str]] = {}
    for name in playable_maps() if names is None else names:
        board = load_map(name).board
        groups.setdefault(board or name, []).append(name)
    return tuple(
        (board, tuple(sorted(names, key=lambda name: (name != board, name))))
        for board, names in sorted(groups.items())
    )


def broken_maps() -> tuple[BrokenMap, ...]:
    """The installed map plugins that fail to load, sorted by name, each with the reason
    (imports every plugin once, as :func:`playable_maps`).

    >>> broken_maps()
    ()
    """
    out = []
    for name, plugins in discover().items():
        try:
            load_map(name)
        except MapError as exc:
            dists = ", ".join(sorted({p.distribution for p in plugins}))
            reason = str(exc).removeprefix(_where(plugins[0])).lstrip(" :")
            out.append(BrokenMap(name, dists, reason, exc.problems))
    return tuple(out)


def _again(error: MapError) -> MapError:
    """A fresh copy of a remembered load error (raising one instance twice would chain its
    tracebacks)."""
    return type(error)(str(error), error.problems)


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
        playable = playable_maps()
        known = ", ".join(playable) if playable else "none are installed"
        raise MapNotFoundError(f"no map named {name!r}; available maps: {known}")
    if len(providers) > 1:
        names = "; ".join(p.describe() for p in providers)
        raise MapConflictError(
            f"map {key!r} is provided by more than one distribution: {names}. "
            "Uninstall all but one of them."
        )
    return providers[0]


def _load_plugin(plugin: MapPlugin) -> GameMap:
    """Import the plugin, build its map and validate it, wrapping every failure in a
    :class:`~ttr_rules.errors.MapLoadError` whose text shows no install path."""
    try:
        return _within_bound(plugin)
    except MapError as exc:
        problems = tuple(_without_paths(p) for p in exc.problems)
        raise type(exc)(_without_paths(str(exc)), problems) from exc


def _where(plugin: MapPlugin) -> str:
    """How a plugin's errors name it."""
    return f"map plugin {plugin.name!r} from {plugin.describe()}"


def _within_bound(plugin: MapPlugin) -> GameMap:
    """:func:`_build_plugin_map` in a thread of its own, waited for :data:`LOAD_SECONDS` at
    most; whatever it raises (``SystemExit`` included) becomes a
    :class:`~ttr_rules.errors.MapLoadError`."""
    outcome: list[GameMap | BaseException] = []

    def build() -> None:
        try:
            outcome.append(_build_plugin_map(plugin))
        except BaseException as exc:  # a plugin's sys.exit() ends only this thread's work
            outcome.append(exc)

    worker = threading.Thread(target=build, name=f"map plugin {plugin.name}", daemon=True)
    worker.start()
    worker.join(LOAD_SECONDS)
    if not outcome:
        seconds = f"{LOAD_SECONDS:g} second" + ("" if LOAD_SECONDS == 1 else "s")
        raise MapLoadError(f"{_where(plugin)} did not load within {seconds}")
    result = outcome[0]
    if isinstance(result, GameMap):
        return result
    if isinstance(result, MapError):
        raise result
    raise MapLoadError(f"{_where(plugin)} failed to load: {_described(result)}") from result


def _described(exc: BaseException) -> str:
    """An exception raised by a plugin as one line: its class and the start of its text (whose
    ``__str__`` may itself fail).

    >>> _described(SystemExit(3)), _described(ValueError("a\\nb"))
    ('SystemExit: 3', 'ValueError: a b')
    """
    try:
        text = " ".join(str(exc).split())
    except Exception:
        text = ""
    kind = type(exc).__name__
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{kind}: {text}" if text else kind


def _build_plugin_map(plugin: MapPlugin) -> GameMap:
    where = _where(plugin)
    try:
        target = plugin.entry_point.load()
        if callable(target) and not isinstance(target, GameMap):
            target = target()
        game_map = checked_map(_to_map(target, where), f"{where} provides a map")
    except MapError:
        raise
    except (Exception, SystemExit) as exc:  # anything else a plugin raises, or its garbage
        raise MapLoadError(f"{where} failed to load: {_described(exc)}") from exc
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


#: An absolute file path (POSIX, or Windows with a drive), up to its last separator.
_ABSOLUTE = re.compile(r"(?<![\w.~-])(?:[A-Za-z]:)?[\\/](?:[^\s'\"\\/:]+[\\/])+")


def _without_paths(text: str, roots: Iterable[str] | None = None) -> str:
    """``text`` with each absolute file path cut to the part below its ``sys.path`` entry
    (``roots``), or else to the file's name: what a plugin's error may show to anyone.

    >>> site = "/opt/venv/lib/site-packages"
    >>> _without_paths(f"{site}/ttr_rules_alpine/alpine.json: routes[4]: bad", [site])
    'ttr_rules_alpine/alpine.json: routes[4]: bad'
    >>> _without_paths("No such file or directory: '/srv/maps/x.json'", [])
    "No such file or directory: 'x.json'"
    """
    if roots is None:
        roots = [p for p in sys.path if p and os.path.isabs(p)]
    for root in sorted({os.path.abspath(r) for r in roots}, key=len, reverse=True):
        text = text.replace(root.rstrip(os.sep) + os.sep, "")
    return _ABSOLUTE.sub("", text)
