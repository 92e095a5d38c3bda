"""Variant files: another ticket deck and rules on an installed board (docs/map-format.md).

A variant (USA 1910, Europa 1912's decks) keeps its board's cities and routes and brings its
own tickets, deal and bonuses. Its file names the board instead of copying it::

    {"format": "ttr-rules-variant", "format_version": 1, "name": "usa-1910", "version": "1.0",
     "board": "usa", "title": "...", "tickets": [...], "rules": {"bonuses": ["globetrotter"]}}

:func:`load_variant_file` reads the board through the registry and builds an ordinary
:class:`~ttr_rules.maps.GameMap` whose ``board`` names it: the board's map-file content with the
variant's name, version, title and tickets, and the board's rules overridden by the variant's.
Every check of a map file applies (a problem is reported at the variant file's own JSON path),
and the digest is that of the whole content, so a record names the variant and replays it.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..errors import MapLoadError
from .file import MapSource, json_error_text, map_from_dict, map_to_dict, read_file_bytes
from .model import GameMap
from .registry import load_map

__all__ = ["VARIANT_FORMAT", "load_variant_file", "variant_from_dict"]

#: The ``format`` member of a variant file.
VARIANT_FORMAT = "ttr-rules-variant"
_KEYS = ("format", "format_version", "name", "version", "title", "description", "board")
_REQUIRED = ("format", "format_version", "name", "version", "board", "tickets")


def load_variant_file(path: MapSource) -> GameMap:
    """Read the variant file at ``path`` (a path or an :mod:`importlib.resources` traversable)
    and build its map on its installed board; :class:`~ttr_rules.errors.MapLoadError` lists
    every problem."""
    if isinstance(path, str | os.PathLike):
        source, raw = os.fsdecode(path), read_file_bytes(path)
    else:
        source, raw = path.name, path.read_bytes()
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        text = json_error_text(exc) if isinstance(exc, ValueError) else "not UTF-8 text"
        raise MapLoadError(f"{source}: {text}", (f"(root): {text}",)) from None
    return variant_from_dict(data, source)


def variant_from_dict(data: Any, source: str = "<variant>") -> GameMap:
    """The map of a decoded variant file (see the module's docstring).

    >>> usa = map_to_dict(load_map("usa"))
    >>> variant = variant_from_dict({
    ...     "format": "ttr-rules-variant", "format_version": 1, "name": "usa-short",
    ...     "version": "1", "board": "usa", "tickets": usa["tickets"][:20],
    ...     "rules": {"bonuses": []}})
    >>> variant.board, len(variant.routes), len(variant.tickets), variant.rules.bonuses
    ('usa', 100, 20, ())
    """
    problems = _header_problems(data)
    if problems:
        lines = "".join(f"\n  {p}" for p in problems)
        raise MapLoadError(f"{source}: not a variant file:{lines}", tuple(problems))
    board = load_map(data["board"])
    content = map_to_dict(board)
    rules = data.get("rules", {})
    if isinstance(rules, dict):
        rules = {**content["rules"], **rules}
    content.update(
        name=data["name"],
        version=data["version"],
        title=data.get("title", ""),
        board=board.name,
        tickets=data["tickets"],
        rules=rules,
    )
    return map_from_dict(content, source)


def _header_problems(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return ["(root): must be a JSON object"]
    found = [f"{key}: is required" for key in _REQUIRED if key not in data]
    found += [
        f"{key}: unknown key (expected one of {', '.join((*_KEYS, 'tickets', 'rules'))})"
        for key in data
        if key not in (*_KEYS, "tickets", "rules")
    ]
    if "format" in data and data["format"] != VARIANT_FORMAT:
        found.append(f'format: must be "{VARIANT_FORMAT}"')
    if "format_version" in data and data["format_version"] != 1:
        found.append("format_version: must be 1")
    for key in ("name", "version", "title", "board"):
        if key in data and not isinstance(data[key], str):
            found.append(f"{key}: must be a string")
    return found
