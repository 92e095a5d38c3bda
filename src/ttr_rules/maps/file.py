"""The JSON map format: reading, writing and validating map files.

A map file is a JSON object described by the JSON Schema shipped with the library
(:func:`map_schema`; the format is documented in ``docs/map-format.md``).
:func:`load_map_file` reads one, checks everything a map author can get wrong and raises
:class:`~ttr_rules.errors.MapLoadError` listing *every* problem at once, each as
``"<file>: <json path>: <message>"``, for example ``europe.json: routes[17].length: must be >= 1``.

Validation happens here, at the boundary; the :class:`~ttr_rules.maps.GameMap` that comes out is
trusted by the engine. :func:`~ttr_rules.maps.validate_map` (:mod:`ttr_rules.maps.check`) runs
the same content checks on a map built in memory (for instance by a plugin or by
:meth:`GameMap.create <ttr_rules.maps.GameMap.create>`).

The core checks are plain Python. When the optional ``jsonschema`` package is installed, a file
that passes them is also checked against the schema, as a safety net.
"""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import re
import stat
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import (
    Any,
    Literal,
    TypeAlias,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

import attrs

from ..cards import CARD_COLORS, Color
from ..errors import MapLoadError
from ..rules import Rules
from .check import Problem, alias_collisions, content_problems, did_you_mean
from .model import GameMap, Geometry, Route, Ticket, pair_double_routes

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "MapSource",
    "json_error_text",
    "load_map_file",
    "map_from_dict",
    "map_problems",
    "map_schema",
    "map_to_dict",
    "parse_map_text",
    "read_file_bytes",
]

#: The value of the ``format`` member of every map file.
FORMAT = "ttr-rules-map"
#: The version of the map format that this library reads and writes.
FORMAT_VERSION = 1

#: What :func:`load_map_file` accepts: a path or a :mod:`importlib.resources` traversable.
MapSource: TypeAlias = str | os.PathLike[str] | Traversable

#: Colour names accepted in a map file: the eight card colours, ``pink`` (purple) and ``gray``.
_ROUTE_COLORS: dict[str, Color | None] = {
    **{c.value: c for c in CARD_COLORS},
    "pink": Color.PURPLE,
    "gray": None,
}

_TOP_KEYS = (
    "$schema",
    "format",
    "format_version",
    "name",
    "version",
    "title",
    "description",
    "frame",
    "board",
    "cities",
    "countries",
    "routes",
    "tickets",
    "bonus_titles",
    "rules",
)
_CITY_KEYS = ("name", "lat", "lon", "position", "aliases")
_ROUTE_KEYS = (
    "a",
    "b",
    "length",
    "color",
    "tunnel",
    "ferry_locomotives",
    "double_of",
    "bend",
    "card_substitute",
    "mountain",
    "spaces",
)
_FRAME_KEYS = ("width", "height", "car_length", "car_width")

#: The largest bend of a route's picture (its middle half as far off the line as it is long).
MAX_BEND = 0.5
_TICKET_KEYS = ("a", "b", "points", "long", "destinations", "penalty")
_COUNTRY_KEYS = ("name", "end_points", "aliases", "label_position")
_DESTINATION_KEYS = ("to", "points")


# --------------------------------------------------------------------------- public functions


#: The largest file read from disk (maps, records, states, views, aggregates): far above any
#: game's (a record of a long game with its map embedded is well under 1 MiB), small enough
#: that a hostile or mistaken file (``/dev/zero``, a disk image) is refused before it is read.
MAX_FILE_BYTES = 16 * 1024 * 1024


def read_file_bytes(path: str | os.PathLike[str], *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises :class:`OSError` for a file that cannot be read, a folder (``IsADirectoryError``),
    a device or a pipe, and a file over ``limit`` bytes, before reading it (so ``/dev/zero``
    is refused at once, not read until memory runs out).

    >>> read_file_bytes("/dev/zero")
    Traceback (most recent call last):
    ...
    OSError: [Errno 22] not a regular file: '/dev/zero'
    """
    with open(path, "rb") as source:
        kind = os.fstat(source.fileno()).st_mode
        name = os.fsdecode(path)
        if stat.S_ISDIR(kind):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", name)
        if not stat.S_ISREG(kind):
            raise OSError(errno.EINVAL, "not a regular file", name)
        data = source.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"over {limit // 2**20} MiB, more than any game file", name)
    return data


def map_schema() -> dict[str, Any]:
    """The JSON Schema of the map format, as shipped in ``ttr_rules/schemas/map.schema.json``.

    >>> map_schema()["title"]
    'ttr-rules map file'
    """
    text = files("ttr_rules").joinpath("schemas", "map.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def load_map_file(path: MapSource) -> GameMap:
    """Read, validate and build the map in the JSON file at ``path``.

    ``path`` may be a string, a :class:`os.PathLike` or an :mod:`importlib.resources`
    traversable (what ``files(package) / "map.json"`` returns). Raises
    :class:`~ttr_rules.errors.MapLoadError` whose ``problems`` name the file and the JSON path of
    every problem found.

    >>> from importlib.resources import files
    >>> europe = load_map_file(files("ttr_rules_europe") / "europe.json")
    >>> europe.name, europe.routes[23]
    ('europe', Route(id=23, a='Brest', b='Paris', length=3, ...))
    """
    if not isinstance(path, str | os.PathLike | Traversable):
        line = f"expected the path of a map file, got {type(path).__name__}"
        raise MapLoadError(line, problems=(line,))
    source = _source_name(path)
    try:
        data = _read_bytes(path)
    except OSError as exc:
        line = f"{source}: cannot read the map file: {exc.strerror or exc}"
        raise MapLoadError(line, problems=(line,)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise MapLoadError(line, problems=(line,)) from None
    return parse_map_text(text, source)


def parse_map_text(text: str, source: str = "<string>") -> GameMap:
    """Build a map from the text of a map file; ``source`` names the file in messages."""
    if not isinstance(text, str):
        line = f"{source}: expected the text of a map file, got {type(text).__name__}"
        raise MapLoadError(line, problems=(line,))
    try:
        data = json.loads(text.removeprefix("\ufeff"), parse_constant=_reject_constant)
        return map_from_dict(data, source)
    except RecursionError:
        line = f"{source}: JSON nested too deeply"
        raise MapLoadError(line, problems=(line,)) from None
    except MapLoadError:
        raise
    except ValueError as exc:
        line = f"{source}: {_json_error_text(exc)}"
        raise MapLoadError(line, problems=(line,)) from None


def map_from_dict(data: Any, source: str = "<map>") -> GameMap:
    """Build a map from the decoded JSON of a map file; raises ``MapLoadError`` if it is invalid."""
    game_map, problems = _build(data)
    if problems or game_map is None:
        lines = tuple(f"{source}: {p}" for p in problems)
        raise MapLoadError(_summary(source, lines), problems=lines)
    return game_map


def map_problems(data: Any) -> list[str]:
    """Every problem of the decoded JSON of a map file, as ``"<json path>: <message>"`` lines."""
    return [str(p) for p in _build(data)[1]]


def map_to_dict(game_map: GameMap) -> dict[str, Any]:
    """The map-file JSON object of ``game_map`` (rules are written only where they differ).

    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> data = map_to_dict(europe)
    >>> data["format"], len(data["routes"]), data["rules"]
    ('ttr-rules-map', 101, {})
    >>> map_from_dict(data) == europe
    True
    """
    locations = dict(zip(game_map.cities, game_map.locations, strict=False))
    bends = dict(game_map.bends)
    geometry = game_map.geometry
    positions = dict(zip(game_map.cities, geometry.positions, strict=False)) if geometry else {}
    rows = geometry.spaces if geometry else ()
    aliases: dict[str, list[str]] = {}
    for alias, city in game_map.aliases:
        aliases.setdefault(city, []).append(alias)
    labels = geometry.country_labels if geometry else ()
    countries: list[dict[str, Any]] = [
        {"name": name, "end_points": list(ends), "aliases": aliases.get(name, [])}
        for name, ends in game_map.countries.items()
    ]
    for country, label in zip(countries, labels, strict=False):
        if label is not None:
            country["label_position"] = list(label)
    cities: list[dict[str, Any]] = []
    for city in game_map.cities:
        entry: dict[str, Any] = {"name": city}
        if city in locations:
            entry["lat"], entry["lon"] = locations[city]
        if city in positions:
            entry["position"] = list(positions[city])
        entry["aliases"] = aliases.get(city, [])
        cities.append(entry)
    routes = [_route_to_dict(r, bends.get(r.id, 0.0)) for r in game_map.routes]
    for entry, row in zip(routes, rows, strict=False):
        entry["spaces"] = [list(space) for space in row]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": game_map.name,
        "version": game_map.version,
        "title": game_map.title,
        **({"frame": _frame_to_dict(geometry)} if geometry else {}),
        **({"board": game_map.board} if game_map.board else {}),
        "cities": cities,
        **({"countries": countries} if countries else {}),
        "routes": routes,
        "tickets": [_ticket_to_dict(t) for t in game_map.tickets],
        **({"bonus_titles": dict(game_map.bonus_titles)} if game_map.bonus_titles else {}),
        "rules": _rules_overrides(game_map.rules),
    }


def _ticket_to_dict(ticket: Ticket) -> dict[str, Any]:
    if not ticket.destinations:
        return {"a": ticket.a, "b": ticket.b, "points": ticket.points, "long": ticket.long}
    return {
        "a": ticket.a,
        "destinations": [{"to": place, "points": points} for place, points in ticket.destinations],
        "penalty": ticket.penalty,
        "long": ticket.long,
    }


# --------------------------------------------------------------------------- reading helpers


def _source_name(path: MapSource) -> str:
    if isinstance(path, str | os.PathLike):
        return os.fspath(path)
    return str(path)


def _read_bytes(path: MapSource) -> bytes:
    if isinstance(path, str | os.PathLike):
        return read_file_bytes(path)
    return path.read_bytes()


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _json_error_text(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"line {exc.lineno} column {exc.colno}: invalid JSON: {exc.msg}"
    return f"invalid JSON: {json_error_text(exc)}"


def json_error_text(exc: ValueError) -> str:
    """A JSON decoder's complaint in plain words (Python's limit on the digits of a number
    names a Python function to call).

    >>> try:
    ...     json.loads("9" * 5000)
    ... except ValueError as exc:
    ...     json_error_text(exc)
    'a number with more than 4300 digits'
    """
    if "integer string conversion" in str(exc):
        return f"a number with more than {sys.get_int_max_str_digits()} digits"
    return str(exc)


def _summary(source: str, lines: tuple[str, ...]) -> str:
    count = f"{len(lines)} problem" + ("" if len(lines) == 1 else "s")
    return f"invalid map file {source} ({count}):\n" + "\n".join(f"  {line}" for line in lines)


# --------------------------------------------------------------------------- building


class _Collector:
    """Problems found so far, and the JSON paths whose values could not be read.

    Content checks run on a map built with harmless substitutes for unreadable values; their
    problems about (or involving) such a *tainted* path are dropped, so that one mistake does
    not cascade into follow-up reports.
    """

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.tainted: set[str] = set()
        #: Every path that holds a tainted one (``routes`` and ``routes[3]`` for
        #: ``routes[3].length``): with ``tainted``, a problem's overlap is a few set look-ups.
        self.holding: set[str] = set()

    def add(self, path: str, message: str, *, taint: bool = False) -> None:
        self.problems.append(Problem(path, message))
        if taint:
            self.tainted.add(path)
            self.holding.update(_holders(path))

    def add_checked(self, problems: Iterable[Problem]) -> None:
        """Add content problems, skipping those about values that could not be read."""
        for p in problems:
            if not any(self._overlaps(q) for q in (p.path, *p.involves)):
                self.problems.append(p)

    def _overlaps(self, path: str) -> bool:
        """Whether ``path`` is a tainted path, lies inside one or holds one."""
        return (
            path in self.tainted
            or path in self.holding
            or any(outer in self.tainted for outer in _holders(path))
        )


def _holders(path: str) -> Iterator[str]:
    """The paths that hold ``path``, outermost first: ``a``, ``a.b`` for ``a.b[2]``.

    >>> list(_holders("routes[3].length"))
    ['routes', 'routes[3]']
    """
    for match in re.finditer(r"[.\[]", path):
        if match.start():
            yield path[: match.start()]


#: The members whose values the content checks use: unreadable ones are *tainted*.
_CONTENT_FIELDS = frozenset(
    {"name", "a", "b", "length", "ferry_locomotives", "points", "to", "penalty", "end_points"}
)


def _build(data: Any) -> tuple[GameMap | None, list[Problem]]:
    out = _Collector()
    if not isinstance(data, dict):
        out.add("(root)", "must be a JSON object")
        return None, out.problems
    _check_header(data, out)
    cities, locations, aliases, positions = _read_cities(data.get("cities"), out)
    routes, explicit, bends, spaces = _read_routes(data.get("routes"), out)
    geometry = _geometry(_read_frame(data, out), positions, spaces, out)
    countries, country_aliases, labels = _read_countries(data.get("countries"), out)
    geometry = _with_country_labels(geometry, labels, out)
    aliases.extend(country_aliases)
    tickets = _read_tickets(data.get("tickets"), out)
    rules = _read_rules(data.get("rules", {}), out)
    titles = _read_bonus_titles(data.get("bonus_titles", {}), out)
    out.problems.extend(alias_collisions([*cities, *countries], aliases))
    paired = pair_double_routes(routes)
    out.add_checked(_explicit_double_problems(paired, explicit))
    game_map = GameMap.create(
        name=data["name"] if isinstance(data.get("name"), str) else "",
        version=data["version"] if isinstance(data.get("version"), str) else "",
        cities=cities,
        routes=paired,
        tickets=tickets,
        rules=rules,
        title=data["title"] if isinstance(data.get("title"), str) else "",
        locations=locations if len(locations) == len(cities) else (),
        aliases=aliases,
        bends=bends,
        countries=countries,
        geometry=geometry,
        bonus_titles=titles,
        board=data["board"] if isinstance(data.get("board"), str) else "",
    )
    out.add_checked(content_problems(game_map))
    if not out.problems:
        out.problems.extend(_schema_problems(data))
    problems = sorted(out.problems, key=_document_order)
    return (None if problems else game_map), problems


def _document_order(problem: Problem) -> list[tuple[int, int, str]]:
    """Sort key putting problems in the order of the places they name in the file."""
    key: list[tuple[int, int, str]] = []
    for n, token in enumerate(re.findall(r"[^.\[\]]+", problem.path)):
        if n == 0:
            rank = _TOP_KEYS.index(token) if token in _TOP_KEYS else len(_TOP_KEYS)
            key.append((0, rank, token))
        elif token.isdigit():
            key.append((1, int(token), ""))
        else:
            key.append((2, 0, token))
    return key


def _check_header(data: dict[str, Any], out: _Collector) -> None:
    _unknown_keys(data, _TOP_KEYS, "", out)
    for key in ("format", "format_version", "name", "version", "cities", "routes", "tickets"):
        if key not in data:
            out.add(key, "is required", taint=True)
    if "format" in data and data["format"] != FORMAT:
        out.add("format", f'must be "{FORMAT}"')
    if "format_version" in data and data["format_version"] != FORMAT_VERSION:
        out.add(
            "format_version",
            f"unsupported version {data['format_version']!r}; "
            f"this library reads version {FORMAT_VERSION}",
        )
    name = data.get("name")
    if "name" in data and not _is_map_name(name):
        out.add("name", "must be a non-empty string of lowercase letters, digits, '_', '.', '-'")
    for key in ("version", "title", "description", "$schema", "board"):
        if key in data and not isinstance(data[key], str):
            out.add(key, "must be a string")
    if isinstance(data.get("version"), str) and not data["version"]:
        out.add("version", "must not be empty")


def _is_map_name(name: Any) -> bool:
    if not isinstance(name, str) or not name:
        return False
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789_.-")
    return name[0].isalnum() and all(ch in allowed for ch in name)


def _unknown_keys(
    entry: dict[str, Any], known: tuple[str, ...], path: str, out: _Collector
) -> None:
    for key in entry:
        if key not in known:
            where = f"{path}.{key}" if path else str(key)
            out.add(where, f"unknown field{did_you_mean(str(key), known)}")


def _list_of_objects(
    raw: Any, path: str, out: _Collector
) -> list[tuple[int, str, dict[str, Any] | None]]:
    """The ``(index, path, object)`` items of the JSON list ``raw``.

    Items that are not objects are reported and given as None, so that indexes stay aligned.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        out.add(path, "must be a list", taint=True)
        return []
    items: list[tuple[int, str, dict[str, Any] | None]] = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            out.add(f"{path}[{i}]", "must be an object", taint=True)
        items.append((i, f"{path}[{i}]", item if isinstance(item, dict) else None))
    return items


# Field readers: each returns the value or a harmless substitute after reporting the problem.


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _read(
    entry: dict[str, Any],
    key: str,
    path: str,
    out: _Collector,
    check: Callable[[Any], bool],
    what: str,
    default: Any,
    *,
    required: bool = False,
) -> Any:
    if key not in entry:
        if required:
            out.add(f"{path}.{key}", "is required", taint=key in _CONTENT_FIELDS)
        return default
    value = entry[key]
    if not check(value):
        out.add(f"{path}.{key}", f"must be {what}", taint=key in _CONTENT_FIELDS)
        return default
    return value


def _read_str(entry: dict[str, Any], key: str, path: str, out: _Collector) -> str:
    value: str = _read(
        entry, key, path, out, lambda v: isinstance(v, str), "a string", "", required=True
    )
    return value


def _read_cities(
    raw: Any, out: _Collector
) -> tuple[
    list[str], list[tuple[float, float]], list[tuple[str, str]], list[tuple[float, float] | None]
]:
    """The cities, their locations, aliases and positions on the board's frame (None where
    a city has none)."""
    cities: list[str] = []
    locations: list[tuple[float, float]] = []
    aliases: list[tuple[str, str]] = []
    positions: list[tuple[float, float] | None] = []
    items = _list_of_objects(raw, "cities", out)
    for _, path, entry in items:
        if entry is None:
            cities.append("")
            positions.append(None)
            continue
        positions.append(_read_point(entry, "position", path, out))
        _unknown_keys(entry, _CITY_KEYS, path, out)
        name = _read_str(entry, "name", path, out)
        cities.append(name)
        location = _read_location(entry, path, out)
        if location is not None:
            locations.append(location)
        names = _read(entry, "aliases", path, out, _is_str_list, "a list of strings", [])
        aliases.extend((alias, name) for alias in names)
    if locations and len(locations) != len(items):
        out.add("cities", "give lat and lon for every city or for none")
    return cities, locations, aliases, positions


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and v for v in value)


def _read_location(entry: dict[str, Any], path: str, out: _Collector) -> tuple[float, float] | None:
    if "lat" not in entry and "lon" not in entry:
        return None
    lat = _read(entry, "lat", path, out, _is_number, "a number", 0.0, required=True)
    lon = _read(entry, "lon", path, out, _is_number, "a number", 0.0, required=True)
    if not -90 <= lat <= 90:
        out.add(f"{path}.lat", "must be between -90 and 90")
    if not -180 <= lon <= 180:
        out.add(f"{path}.lon", "must be between -180 and 180")
    return (float(lat), float(lon))


def _read_routes(
    raw: Any, out: _Collector
) -> tuple[
    list[Route],
    dict[int, Any],
    list[tuple[int, float]],
    list[tuple[tuple[float, float, float], ...] | None],
]:
    """The routes (ids = list positions), the explicit ``double_of`` values by route id,
    the routes' bends and their car spaces (drawing only; None where a route has none)."""
    routes: list[Route] = []
    explicit: dict[int, Any] = {}
    bends: list[tuple[int, float]] = []
    spaces: list[tuple[tuple[float, float, float], ...] | None] = []
    for index, path, entry in _list_of_objects(raw, "routes", out):
        if entry is None:
            routes.append(Route(index, "", "", 1))
            spaces.append(None)
            continue
        spaces.append(_read_spaces(entry, path, out))
        _unknown_keys(entry, _ROUTE_KEYS, path, out)
        color = _read_color(entry, path, out)
        route = Route(
            id=index,
            a=_read_str(entry, "a", path, out),
            b=_read_str(entry, "b", path, out),
            length=_read(entry, "length", path, out, _is_int, "an integer", 1, required=True),
            color=color,
            tunnel=_read(entry, "tunnel", path, out, _is_bool, "true or false", False),
            ferry_locomotives=_read(
                entry, "ferry_locomotives", path, out, _is_int, "an integer", 0
            ),
            card_substitute=_read(entry, "card_substitute", path, out, _is_int, "an integer", 0),
            mountain=_read(entry, "mountain", path, out, _is_int, "an integer", 0),
        )
        routes.append(route)
        if entry.get("double_of") is not None:
            explicit[index] = entry["double_of"]
        bend = _read(
            entry, "bend", path, out, _is_bend, f"a number from -{MAX_BEND} to {MAX_BEND}", 0
        )
        if bend:
            bends.append((index, float(bend)))
    return routes, explicit, bends, spaces


# --------------------------------------------------------------------------- geometry


def _read_frame(data: dict[str, Any], out: _Collector) -> tuple[float, float, float, float] | None:
    """The ``frame`` member: width, height, car length and width (0 where not given)."""
    if "frame" not in data:
        return None
    raw = data["frame"]
    if not isinstance(raw, dict):
        out.add("frame", "must be an object", taint=True)
        return None
    _unknown_keys(raw, _FRAME_KEYS, "frame", out)
    size = [
        _read(
            raw,
            key,
            "frame",
            out,
            _is_size,
            "a positive number",
            0,
            required=key in ("width", "height"),
        )
        for key in _FRAME_KEYS
    ]
    if not size[0] or not size[1]:
        return None
    return float(size[0]), float(size[1]), float(size[2]), float(size[3])


def _is_size(value: Any) -> bool:
    return _is_number(value) and math.isfinite(value) and value > 0


def _is_fraction(value: Any) -> bool:
    return _is_number(value) and 0 <= value <= 1


def _is_angle(value: Any) -> bool:
    return _is_number(value) and -360 <= value <= 360


def _read_point(
    entry: dict[str, Any], key: str, path: str, out: _Collector
) -> tuple[float, float] | None:
    if key not in entry:
        return None
    value = entry[key]
    if not (isinstance(value, list) and len(value) == 2 and all(map(_is_fraction, value))):
        out.add(f"{path}.{key}", "must be [x, y], two numbers from 0 to 1", taint=True)
        return None
    return float(value[0]), float(value[1])


def _read_spaces(
    entry: dict[str, Any], path: str, out: _Collector
) -> tuple[tuple[float, float, float], ...] | None:
    if "spaces" not in entry:
        return None
    raw = entry["spaces"]
    if not isinstance(raw, list):
        out.add(f"{path}.spaces", "must be a list of [x, y, angle]", taint=True)
        return None
    read: list[tuple[float, float, float]] = []
    for i, space in enumerate(raw):
        if not (
            isinstance(space, list)
            and len(space) == 3
            and _is_fraction(space[0])
            and _is_fraction(space[1])
            and _is_angle(space[2])
        ):
            out.add(
                f"{path}.spaces[{i}]",
                "must be [x, y, angle]: x and y from 0 to 1, the angle from -360 to 360 degrees",
                taint=True,
            )
            return None
        read.append((float(space[0]), float(space[1]), float(space[2])))
    return tuple(read)


def _geometry(
    frame: tuple[float, float, float, float] | None,
    positions: list[tuple[float, float] | None],
    spaces: list[tuple[tuple[float, float, float], ...] | None],
    out: _Collector,
) -> Geometry | None:
    """The board as printed, when the frame and every city's position are given (problems
    are reported for a partial one)."""
    placed = [p for p in positions if p is not None]
    laid = [row for row in spaces if row is not None]
    if placed and len(placed) < len(positions):
        out.add("cities", "give a position for every city or for none")
    if laid and len(laid) < len(spaces):
        out.add("routes", "give spaces for every route or for none")
    if (placed or laid) and frame is None and "frame" not in out.tainted:
        out.add("frame", "is required with positions or spaces (the board's width and height)")
    if laid and not placed:
        out.add("routes", "spaces need the cities' positions")
    if frame is None or not placed or len(placed) < len(positions):
        return None
    width, height, car_length, car_width = frame
    return Geometry(
        width=width,
        height=height,
        positions=tuple(placed),
        spaces=tuple(laid) if laid and len(laid) == len(spaces) else (),
        car_length=car_length,
        car_width=car_width,
    )


def _is_bend(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= MAX_BEND
    )


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _read_color(entry: dict[str, Any], path: str, out: _Collector) -> Color | None:
    value = entry.get("color", "gray")
    if isinstance(value, str) and value in _ROUTE_COLORS:
        return _ROUTE_COLORS[value]
    names = ", ".join([c.value for c in CARD_COLORS] + ["gray"])
    out.add(f"{path}.color", f"unknown colour {value!r}; expected one of {names} (or pink)")
    return None


def _read_tickets(raw: Any, out: _Collector) -> list[Ticket]:
    tickets: list[Ticket] = []
    for index, path, entry in _list_of_objects(raw, "tickets", out):
        if entry is None:
            tickets.append(Ticket(index, "", "", 1))
            continue
        _unknown_keys(entry, _TICKET_KEYS, path, out)
        a = _read_str(entry, "a", path, out)
        long = _read(entry, "long", path, out, _is_bool, "true or false", False)
        if "destinations" in entry:
            tickets.append(_read_multi_ticket(index, a, long, entry, path, out))
            continue
        tickets.append(
            Ticket(
                id=index,
                a=a,
                b=_read_str(entry, "b", path, out),
                points=_read(entry, "points", path, out, _is_int, "an integer", 1, required=True),
                long=long,
            )
        )
    return tickets


def _read_multi_ticket(
    index: int, a: str, long: bool, entry: dict[str, Any], path: str, out: _Collector
) -> Ticket:
    """A ticket to several destinations: ``destinations`` [{to, points}] and ``penalty``; its
    ``b`` and ``points`` are absent (or null): the model's are derived."""
    for key in ("b", "points"):
        if entry.get(key) is not None:
            out.add(f"{path}.{key}", "must be absent (or null) on a ticket with destinations")
    destinations: list[tuple[str, int]] = []
    for _, where, item in _list_of_objects(entry["destinations"], f"{path}.destinations", out):
        if item is None:
            continue
        _unknown_keys(item, _DESTINATION_KEYS, where, out)
        place = _read_str(item, "to", where, out)
        points = _read(item, "points", where, out, _is_int, "an integer", 1, required=True)
        destinations.append((place, points))
    if not destinations:
        out.add(f"{path}.destinations", "must list at least one destination", taint=True)
        destinations.append(("", 1))
    penalty = _read(entry, "penalty", path, out, _is_int, "an integer", 1, required=True)
    best = max(points for _, points in destinations)
    return Ticket(index, a, "", best, long, tuple(destinations), penalty)


def _read_bonus_titles(raw: Any, out: _Collector) -> list[tuple[str, str]]:
    """The ``bonus_titles`` member: the name people read for each bonus, by bonus name."""
    if not isinstance(raw, dict):
        out.add("bonus_titles", "must be an object")
        return []
    titles: list[tuple[str, str]] = []
    for bonus, title in raw.items():
        if not isinstance(title, str) or not title.strip():
            out.add(f"bonus_titles.{bonus}", "must be a non-empty string")
        else:
            titles.append((bonus, title))
    return titles


def _read_countries(
    raw: Any, out: _Collector
) -> tuple[dict[str, list[str]], list[tuple[str, str]], list[tuple[float, float] | None]]:
    """The ``countries`` member: each country's border end-points (places listed in
    ``cities``), its aliases and where its name is printed (None where not given)."""
    countries: dict[str, list[str]] = {}
    aliases: list[tuple[str, str]] = []
    labels: list[tuple[float, float] | None] = []
    for _, path, entry in _list_of_objects(raw, "countries", out):
        if entry is None:
            continue
        labels.append(_read_point(entry, "label_position", path, out))
        _unknown_keys(entry, _COUNTRY_KEYS, path, out)
        name = _read_str(entry, "name", path, out)
        ends = _read(
            entry, "end_points", path, out, _is_str_list, "a list of strings", [], required=True
        )
        if name in countries:
            out.add(f"{path}.name", f"duplicate country {name!r}")
        countries[name] = list(ends)
        names = _read(entry, "aliases", path, out, _is_str_list, "a list of strings", [])
        aliases.extend((alias, name) for alias in names)
    return countries, aliases, labels


def _with_country_labels(
    geometry: Geometry | None, labels: list[tuple[float, float] | None], out: _Collector
) -> Geometry | None:
    """``geometry`` with the countries' label positions (a country without one, such as one
    just added in the workbench, has its name drawn nowhere); they need the board as printed:
    the frame and the cities' positions."""
    if all(p is None for p in labels):
        return geometry
    if geometry is None:
        out.add("countries", "label_position needs the frame and the cities' positions")
        return None
    return attrs.evolve(geometry, country_labels=tuple(labels))


# --------------------------------------------------------------------------- rule overrides


def _read_rules(raw: Any, out: _Collector) -> Rules:
    """The map's rules: the defaults with the overrides of the ``rules`` member applied."""
    if not isinstance(raw, dict):
        out.add("rules", "must be an object", taint=True)
        return Rules()
    hints = _rule_hints()
    overrides: dict[str, Any] = {}
    for key, value in raw.items():
        path = f"rules.{key}"
        if key not in hints:
            out.add(path, f"unknown rule{did_you_mean(str(key), hints)}")
        elif not _matches(value, hints[key]):
            out.add(path, f"must be {_describe(hints[key])}", taint=True)
        else:
            overrides[key] = tuple(value) if isinstance(value, list) else value
    rules = Rules(**overrides)
    for name, message in rules.problems():
        out.add(f"rules.{name}", message, taint=True)
    return rules


@functools.cache
def _rule_hints() -> dict[str, Any]:
    names = {f.name for f in attrs.fields(Rules) if f.init}
    return {k: v for k, v in get_type_hints(Rules).items() if k in names}


def _matches(value: Any, hint: Any) -> bool:
    """Whether the JSON ``value`` fits the type ``hint`` (JSON lists stand for tuples)."""
    origin = get_origin(hint)
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return _is_int(value)
    if hint is float:
        return _is_number(value)
    if hint is str:
        return isinstance(value, str)
    if origin in (Union, types.UnionType):
        return any(_matches(value, arg) for arg in get_args(hint))
    if origin is Literal:
        return any(type(value) is type(arg) and value == arg for arg in get_args(hint))
    if origin is tuple:
        return isinstance(value, list) and _matches_items(value, get_args(hint))
    return False


def _matches_items(value: list[Any], args: tuple[Any, ...]) -> bool:
    if len(args) == 2 and args[1] is Ellipsis:
        return all(_matches(v, args[0]) for v in value)
    return len(value) == len(args) and all(_matches(v, a) for v, a in zip(value, args, strict=True))


def _describe(hint: Any) -> str:
    """How a type hint reads in a message: ``an integer or null``, ``a list of strings``..."""
    simple = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
    if hint is type(None):
        return "null"
    if hint in simple:
        return simple[hint]
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(arg) for arg in get_args(hint))
    if origin is Literal:
        return " or ".join(json.dumps(arg) for arg in get_args(hint))
    if origin is tuple:
        item = _describe(get_args(hint)[0])
        return f"a list of {item.removeprefix('an ').removeprefix('a ')}s"
    return str(hint)


def _rules_overrides(rules: Rules) -> dict[str, Any]:
    defaults = Rules()
    found: dict[str, Any] = {}
    for f in attrs.fields(Rules):
        if not f.init:  # derived
            continue
        value = getattr(rules, f.name)
        if value != getattr(defaults, f.name):
            found[f.name] = list(value) if isinstance(value, tuple) else value
    return found


# --------------------------------------------------------------------------- double routes


def _explicit_double_problems(routes: list[Route], explicit: dict[int, Any]) -> Iterator[Problem]:
    """Check the optional ``double_of`` members against the tracks that join the same cities."""
    for i, value in sorted(explicit.items()):
        path = f"routes[{i}].double_of"
        if not _is_int(value) or not 0 <= value < len(routes) or value == i:
            yield Problem(path, "must be the index of another route")
            continue
        mine, other = routes[i], routes[value]
        if {mine.a, mine.b} != {other.a, other.b}:
            yield Problem(
                path,
                f"routes[{value}] joins {other.a}–{other.b}, not {mine.a}–{mine.b}; "
                "the tracks of a double route join the same two cities",
                (f"routes[{value}]",),
            )
        elif explicit.get(value, i) != i:
            yield Problem(
                path, f"routes[{value}].double_of names another route", (f"routes[{value}]",)
            )


# --------------------------------------------------------------------------- optional schema


def _schema_problems(data: Any) -> list[Problem]:
    """Problems that ``jsonschema`` finds (if installed) and the plain checks did not."""
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - jsonschema is a test extra
        return []
    validator = jsonschema.Draft202012Validator(map_schema())
    return [
        Problem(_json_path(error.absolute_path) or "(root)", error.message)
        for error in validator.iter_errors(data)
    ]


def _json_path(parts: Iterable[str | int]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _frame_to_dict(geometry: Geometry) -> dict[str, float]:
    frame = {"width": geometry.width, "height": geometry.height}
    if geometry.car_length:
        frame["car_length"] = geometry.car_length
    if geometry.car_width:
        frame["car_width"] = geometry.car_width
    return frame


def _route_to_dict(route: Route, bend: float) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "a": route.a,
        "b": route.b,
        "length": route.length,
        "color": route.color.value if route.color is not None else "gray",
        "tunnel": route.tunnel,
        "ferry_locomotives": route.ferry_locomotives,
        **({"card_substitute": route.card_substitute} if route.card_substitute else {}),
        **({"mountain": route.mountain} if route.mountain else {}),
    }
    if bend:
        entry["bend"] = bend
    return entry
