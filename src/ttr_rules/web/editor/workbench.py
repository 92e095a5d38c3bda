"""The map designer's workbench: one map being edited, as the map-file JSON it will be saved as.

The document is the decoded JSON of a map file (docs/map-format.md), so that a map with
problems can still be edited and shown; each edit makes a new document and keeps the old one
for undo. Saves replace the file atomically and every edit is also written to a recovery file
beside it. The app (:mod:`.app`) is a thin door on it.
"""

from __future__ import annotations

import copy
import heapq
import json
import math
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...errors import MapError
from ...maps import (
    FORMAT,
    FORMAT_VERSION,
    available_maps,
    deal_problems,
    load_map,
    map_from_dict,
    map_problems,
    map_to_dict,
)
from ...maps.file import json_error_text, read_file_bytes
from ..games import write_private

__all__ = [
    "BACKGROUND_PLACE",
    "BACKGROUND_TYPES",
    "BLANK_FRAME",
    "MAX_CITIES",
    "MAX_HISTORY",
    "EditError",
    "Workbench",
    "background_kind",
    "blank_map",
    "not_editable",
    "open_workbench",
    "places_of",
    "recovery_path",
    "shortest_between",
    "shortest_spaces",
]

#: The board of a blank map, in pixels (positions are fractions of it).
BLANK_FRAME = {"width": 1000.0, "height": 700.0}
#: The most cities, routes and tickets one map may hold in the editor.
MAX_CITIES = 500
MAX_ROUTES = 2000
MAX_TICKETS = 2000
#: The edits kept for undo.
MAX_HISTORY = 200
#: The colours a route may have (the map file's words).
ROUTE_COLORS = ("gray", "red", "orange", "yellow", "green", "blue", "purple", "black", "white")
_PATH = re.compile(r"^(cities|routes|tickets)\[(\d+)\]")
_RULE = re.compile(r"^rules\.([a-z_]+)")
#: How the problem of a board in pieces begins (``maps.check``): it is located on a cut-off city.
_DISCONNECTED = "routes: the board is not connected"


class EditError(ValueError):
    """An edit that cannot be made, in plain words."""


def blank_map(name: str = "new-map") -> dict[str, Any]:
    """The document of an empty board.

    >>> blank_map("alps")["cities"], blank_map()["frame"]["width"]
    ([], 1000.0)
    """
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": name,
        "version": "1",
        "title": name.replace("-", " ").capitalize(),
        "frame": dict(BLANK_FRAME),
        "cities": [],
        "routes": [],
        "tickets": [],
        "rules": {},
    }


def recovery_path(path: Path) -> Path:
    """The autosave file kept beside ``path``.

    >>> recovery_path(Path("maps/alps.json")).as_posix()
    'maps/alps.autosave.json'
    """
    return path.with_name(path.stem + ".autosave.json")


def shortest_spaces(routes: list[dict[str, Any]], a: str, b: str) -> int | None:
    """The fewest car spaces on a path from ``a`` to ``b`` (None: no path).

    >>> roads = [{"a": "A", "b": "B", "length": 2}, {"a": "B", "b": "C", "length": 3}]
    >>> shortest_spaces(roads, "A", "C"), shortest_spaces(roads, "A", "D")
    (5, None)
    """
    return shortest_between(routes, {a}, {b})


def places_of(document: dict[str, Any], place: str) -> set[str]:
    """The cities where ``place`` is reached: a country's border end-points, else the city.

    >>> sorted(places_of({"countries": [{"name": "Land", "end_points": ["L1", "L2"]}]}, "Land"))
    ['L1', 'L2']
    """
    for country in document.get("countries") or ():
        if isinstance(country, dict) and country.get("name") == place:
            ends = country.get("end_points")
            return {e for e in ends if isinstance(e, str)} if isinstance(ends, list) else set()
    return {place}


def shortest_between(routes: list[dict[str, Any]], starts: set[str], ends: set[str]) -> int | None:
    """The fewest car spaces on a path from any of ``starts`` to any of ``ends`` (None: no
    path)."""
    near: dict[str, list[tuple[int, str]]] = {}
    for route in routes:
        length = route.get("length")
        if isinstance(length, int) and length > 0:
            near.setdefault(route["a"], []).append((length, route["b"]))
            near.setdefault(route["b"], []).append((length, route["a"]))
    best = dict.fromkeys(starts, 0)
    queue = [(0, start) for start in sorted(starts)]
    while queue:
        cost, city = heapq.heappop(queue)
        if city in ends:
            return cost
        if cost > best.get(city, math.inf):
            continue
        for length, other in near.get(city, ()):
            if cost + length < best.get(other, math.inf):
                best[other] = cost + length
                heapq.heappush(queue, (cost + length, other))
    return None


#: Where a background lies by default: stretched over the frame, and free to be moved.
BACKGROUND_PLACE: dict[str, Any] = {"x": 0.0, "y": 0.0, "scale": 1.0, "locked": False}
_PLACE_RANGES = {"x": (-1.0, 1.0), "y": (-1.0, 1.0), "scale": (0.1, 10.0)}
_PLACE_WORDS = {
    "x": "a background's x is a number from -1 to 1 (a fraction of the board's width)",
    "y": "a background's y is a number from -1 to 1 (a fraction of the board's height)",
    "scale": "a background's scale is a number from 0.1 to 10",
    "locked": "a background's locked is true or false",
}


def _placed(key: str, value: Any, fallback: Any) -> Any:
    """``value`` when it is a valid ``key`` of a background's placing, else ``fallback``."""
    if key == "locked":
        return value if isinstance(value, bool) else fallback
    low, high = _PLACE_RANGES[key]
    ok = isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high
    return float(value) if ok else fallback


#: The kinds of background image, by file extension, and their media types.
BACKGROUND_TYPES = {"png": "image/png", "jpg": "image/jpeg", "svg": "image/svg+xml"}


def background_kind(data: bytes) -> str:
    """The extension of an image's bytes (``png``, ``jpg`` or ``svg``), told by their start,
    never by a name; raises ``EditError`` for anything else.

    >>> background_kind(b"\\x89PNG\\r\\n\\x1a\\n...."), background_kind(b"<?xml?><svg>")
    ('png', 'svg')
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<?xml", b"<svg", b"<!--")) and b"<svg" in head:
        return "svg"
    raise EditError("a background is a PNG, JPEG or SVG image")


class Workbench:
    """The map being edited, its undo and redo history, and the file it is saved to.

    Every method takes the workbench's lock: two browser tabs edit one document in turn.
    """

    def __init__(self, document: dict[str, Any], path: Path) -> None:
        self.path = path
        self.document = document
        self.saved = copy.deepcopy(document)
        self._undo: list[dict[str, Any]] = []
        self._redo: list[dict[str, Any]] = []
        self.revision = 0
        self.lock = threading.Lock()

    # ----------------------------------------------------------------- reading

    def state(self) -> dict[str, Any]:
        """What the page shows: the map, its problems, the tickets' shortest paths, the
        history and whether there are unsaved changes."""
        return {
            "map": self.document,
            "problems": self.problems(),
            "tickets": [self._ticket_facts(t) for t in self.document["tickets"]],
            "can_undo": bool(self._undo),
            "can_redo": bool(self._redo),
            "unsaved": self.document != self.saved,
            "revision": self.revision,
            "file": self.path.name,
            "recovery": recovery_path(self.path).is_file() and self._recovery_differs(),
            "background": self.background() is not None,
            "background_place": self.background_place(),
        }

    def problems(self) -> list[dict[str, Any]]:
        """Every problem ``ttr validate-map`` reports, each with the city, route or ticket it
        is about (when its path names one; a deal short of tickets: the rule of the player
        count)."""
        lines = map_problems(self.document)
        if lines:
            return [self._located(line) for line in lines]
        deal = deal_problems(map_from_dict(self.document))
        return [self._located(str(p), p.involves[0]) for p in deal]

    def _located(self, line: str, involves: str = "") -> dict[str, Any]:
        found: dict[str, Any] = {"message": line}
        rule = _RULE.match(line) or _RULE.match(involves)
        if rule:
            found["rule"] = rule.group(1)
        cut_off = _first_cut_off(self.document) if line.startswith(_DISCONNECTED) else None
        if cut_off is not None:
            found["city"] = cut_off
        match = _PATH.match(line)
        if match:
            kind, index = match.group(1), int(match.group(2))
            items = self.document[kind]
            if index < len(items):
                if kind == "cities":
                    found["city"] = items[index].get("name")
                else:
                    found[kind[:-1]] = index
        return found

    def _ticket_facts(self, ticket: dict[str, Any]) -> dict[str, Any]:
        """The shortest path of a ticket and its points' difference from it (of each
        destination, on a ticket to several)."""
        if not isinstance(ticket, dict):
            return {"shortest": None, "difference": None}
        if "destinations" not in ticket:
            return self._path_facts(ticket.get("a"), ticket.get("b"), ticket.get("points"))
        found = ticket["destinations"] if isinstance(ticket["destinations"], list) else []
        each = [
            {"to": d.get("to"), **self._path_facts(ticket.get("a"), d.get("to"), d.get("points"))}
            for d in found
            if isinstance(d, dict)
        ]
        return {"shortest": None, "difference": None, "destinations": each}

    def _path_facts(self, a: Any, b: Any, points: Any) -> dict[str, Any]:
        if not isinstance(a, str) or not isinstance(b, str):
            return {"shortest": None, "difference": None}
        document = self.document
        shortest = shortest_between(
            document["routes"], places_of(document, a), places_of(document, b)
        )
        off = points - shortest if shortest is not None and isinstance(points, int) else None
        return {"shortest": shortest, "difference": off}

    def _recovery_differs(self) -> bool:
        try:
            return bool(self._read_recovery() != self.document)
        except (OSError, ValueError):
            return False

    def _read_recovery(self) -> Any:
        return json.loads(read_file_bytes(recovery_path(self.path)).decode("utf-8"))

    # ----------------------------------------------------------------- editing

    def apply(self, edit: Callable[[dict[str, Any]], None]) -> None:
        """Change the document by ``edit`` (on a copy: an ``EditError`` leaves it as it was),
        keep the old one for undo and write the recovery file."""
        changed = copy.deepcopy(self.document)
        edit(changed)
        if changed == self.document:
            return
        self._undo.append(self.document)
        del self._undo[:-MAX_HISTORY]
        self._redo.clear()
        self.document = changed
        self._changed()

    def undo(self) -> None:
        if not self._undo:
            raise EditError("there is nothing to undo")
        self._redo.append(self.document)
        self.document = self._undo.pop()
        self._changed()

    def redo(self) -> None:
        if not self._redo:
            raise EditError("there is nothing to redo")
        self._undo.append(self.document)
        self.document = self._redo.pop()
        self._changed()

    def recover(self) -> None:
        """Take the recovery file's map as an edit (undo goes back)."""
        try:
            data = self._read_recovery()
        except (OSError, ValueError) as exc:
            raise EditError(f"the recovery file cannot be read: {exc}") from None
        if not_editable(data):
            raise EditError("the recovery file holds no map")
        self.apply(lambda document: document.update(data))

    def _changed(self) -> None:
        self.revision += 1
        write_atomically(recovery_path(self.path), self.document)

    # ----------------------------------------------------------------- background

    def background(self) -> Path | None:
        """The background image kept beside the map file, if there is one."""
        for kind in BACKGROUND_TYPES:
            path = self.path.with_name(f"{self.path.stem}.background.{kind}")
            if path.is_file():
                return path
        return None

    def set_background(self, data: bytes | None) -> None:
        """Keep ``data`` (a PNG, JPEG or SVG image) as the background, beside the map file,
        in place of any other (None: remove it, and its placing)."""
        kind = None if data is None else background_kind(data)
        for other in BACKGROUND_TYPES:
            if other != kind:
                self.path.with_name(f"{self.path.stem}.background.{other}").unlink(missing_ok=True)
        if data is not None:
            write_private(self.path.with_name(f"{self.path.stem}.background.{kind}"), data)
        else:
            self._place_path().unlink(missing_ok=True)
        self.revision += 1

    def _place_path(self) -> Path:
        return self.path.with_name(f"{self.path.stem}.background.json")

    def background_place(self) -> dict[str, Any]:
        """Where the background lies under the board: its top left corner ``x``, ``y`` and its
        ``scale`` (1: stretched to the frame) in fractions of the frame, and whether it is
        ``locked``; kept beside the map file (``NAME.background.json``), not in the map."""
        try:
            kept = json.loads(read_file_bytes(self._place_path(), limit=4096).decode("utf-8"))
        except (OSError, ValueError):
            return dict(BACKGROUND_PLACE)
        if not isinstance(kept, dict):
            return dict(BACKGROUND_PLACE)
        return {
            key: _placed(key, kept.get(key), fallback) for key, fallback in BACKGROUND_PLACE.items()
        }

    def place_background(self, place: dict[str, Any]) -> None:
        """Move, scale or lock the background (``place``: some of ``x``, ``y``, ``scale``,
        ``locked``; each checked as :data:`BACKGROUND_PLACE` says)."""
        if self.background() is None:
            raise EditError("the map has no background image to place")
        unknown = sorted(set(place) - set(BACKGROUND_PLACE))
        if unknown:
            raise EditError(f"a background is placed by x, y, scale and locked, not {unknown[0]}")
        merged = {**self.background_place(), **place}
        for key, value in merged.items():
            if _placed(key, value, None) is None:
                raise EditError(_PLACE_WORDS[key])
        write_private(self._place_path(), json.dumps(merged) + "\n")
        self.revision += 1

    # ----------------------------------------------------------------- saving

    def save(self) -> None:
        """Write the map file (atomically) and drop the recovery file."""
        write_atomically(self.path, self.document)
        self.saved = copy.deepcopy(self.document)
        self.revision += 1
        recovery_path(self.path).unlink(missing_ok=True)


def write_atomically(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` as JSON to ``path`` atomically (a crash leaves the old file or the
    new one, never half of one)."""
    write_private(path, json.dumps(document, ensure_ascii=False, indent=1) + "\n")


def open_workbench(argument: str | None, folder: Path) -> Workbench:
    """The workbench for ``ttr edit ARGUMENT`` run in ``folder``: a map file (a new one starts
    blank), or a copy of an installed map saved as ``NAME.json`` in ``folder``; without an
    argument, a blank map in ``new-map.json`` (``new-map-2.json``, ... when taken). Raises
    ``EditError`` in words for anything else.
    """
    if argument is None:
        path = _free_file(folder, "new-map")
        return Workbench(blank_map(path.stem), path)
    path = folder / argument
    if path.exists() or argument.endswith(".json") or os.sep in argument or "/" in argument:
        return _open_file(path)
    if argument in available_maps():
        target = folder / f"{argument}.json"
        if target.exists():
            raise EditError(f"{target.name} is already here: open it with 'ttr edit {target.name}'")
        try:
            document = map_to_dict(load_map(argument))
        except MapError as exc:
            raise EditError(f"the installed map '{argument}' does not load: {exc}") from None
        return Workbench(document, target)
    raise EditError(
        f"'{_shown(argument)}' is neither an installed map ('ttr maps' lists them) "
        "nor a map file (a new one ends in .json)"
    )


def _open_file(path: Path) -> Workbench:
    if not path.exists():
        if not path.parent.is_dir():
            raise EditError(f"{_shown(str(path.parent))}: no such folder")
        return Workbench(blank_map(_map_name(path.stem)), path)
    try:
        text = read_file_bytes(path).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise EditError(f"{_shown(str(path))}: not UTF-8 text") from None
    except OSError as exc:
        raise EditError(f"{_shown(str(path))}: {exc.strerror or exc}") from None
    try:
        document = json.loads(text)
    except RecursionError:
        raise EditError(f"{_shown(str(path))}: JSON nested too deeply") from None
    except ValueError as exc:
        raise EditError(f"{_shown(str(path))}: {json_error_text(exc)}") from None
    wrong = not_editable(document)
    if wrong:
        raise EditError(f"{_shown(str(path))}: {wrong}")
    return Workbench(document, path)


def _free_file(folder: Path, stem: str) -> Path:
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


def _map_name(stem: str) -> str:
    """A map name from a file name: lower case, other characters as ``-``.

    >>> _map_name("My Alps!")
    'my-alps-'
    """
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789_.-")
    name = "".join(c if c in allowed else "-" for c in stem.lower())[:40]
    return name if name[:1].isalnum() else "map-" + name


def _shown(text: str) -> str:
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)[
        :200
    ]


def _first_cut_off(document: dict[str, Any]) -> str | None:
    """The first city that no chain of routes joins to the first city (None: all are)."""
    names = [c.get("name") for c in document["cities"] if isinstance(c, dict)]
    near: dict[Any, list[Any]] = {}
    for route in document["routes"]:
        if isinstance(route, dict):
            near.setdefault(route.get("a"), []).append(route.get("b"))
            near.setdefault(route.get("b"), []).append(route.get("a"))
    reached = set(names[:1])
    stack = list(reached)
    while stack:
        for other in near.get(stack.pop(), ()):
            if other not in reached:
                reached.add(other)
                stack.append(other)
    return next((n for n in names if n not in reached and isinstance(n, str)), None)


def not_editable(data: Any) -> str:
    """Why ``data`` (decoded JSON) is no map document the workbench can edit, in words; empty
    when it is one: an object whose cities, routes and tickets are lists of objects, no longer
    than the workbench's limits (any other problem is the problem list's to show).

    >>> not_editable({"cities": [], "routes": [{}], "tickets": [7]})
    'not a map file (tickets[0] is not an object)'
    >>> not_editable([]), not_editable(blank_map())
    ('not a map file (no cities, routes and tickets)', '')
    """
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), list) for k in ("cities", "routes", "tickets")
    ):
        return "not a map file (no cities, routes and tickets)"
    for key, most in (("cities", MAX_CITIES), ("routes", MAX_ROUTES), ("tickets", MAX_TICKETS)):
        if len(data[key]) > most:
            return f"too big to edit ({len(data[key])} {key}; a map holds at most {most})"
        for index, item in enumerate(data[key]):
            if not isinstance(item, dict):
                return f"not a map file ({key}[{index}] is not an object)"
    return ""
