"""Imports into the workbench: a whole map file, or routes or tickets from CSV (a spreadsheet's
export). Each import is one edit (undo takes it back) and refuses, in words, what it cannot
read; cities a CSV names that the map lacks are added on a circle, to be dragged into place."""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any

from ...maps.file import json_error_text
from .edits import add_city, add_route, add_ticket
from .workbench import ROUTE_COLORS, EditError, not_editable

__all__ = ["MAX_UPLOAD_BYTES", "import_csv", "map_document"]

#: The largest file an import takes (a printed board with its geometry is some 100 KB).
MAX_UPLOAD_BYTES = 2 * 1024 * 1024

_ROUTE_COLUMNS = ("a", "b", "length")
_TICKET_COLUMNS = ("a", "b")
_TRUE = {"1", "true", "yes", "y", "x"}
_FALSE = {"", "0", "false", "no", "n"}


def map_document(text: str) -> dict[str, Any]:
    """The map document of a map file's text (its problems are the workbench's to show)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except RecursionError:
        raise EditError("the file's JSON is nested too deeply") from None
    except ValueError as exc:
        raise EditError(f"the file is not JSON: {json_error_text(exc)}") from None
    wrong = not_editable(data)
    if wrong:
        raise EditError(f"the file is {wrong}")
    return dict(data)


def import_csv(document: dict[str, Any], text: str, kind: str) -> None:
    """Add the routes (columns ``a,b,length`` and optionally ``color,tunnel,
    ferry_locomotives,mountain``) or tickets (``a,b`` and optionally ``points``: the shortest
    path when empty) of a CSV text with a header row.

    >>> doc = {"cities": [], "routes": [], "tickets": []}
    >>> import_csv(doc, "a,b,length,color\\nBern,Basel,2,red\\n", "routes")
    >>> [c["name"] for c in doc["cities"]], doc["routes"][0]["color"]
    (['Bern', 'Basel'], 'red')
    """
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
    try:
        rows = list(reader)
    except csv.Error as exc:  # a field past the csv module's limit, a stray quote at the end
        raise EditError(f"line {reader.line_num + 1}: the CSV cannot be read ({exc})") from None
    required = _ROUTE_COLUMNS if kind == "routes" else _TICKET_COLUMNS
    header = set(rows[0]) if rows else set()
    missing = [c for c in required if c not in header]
    if not rows or missing:
        raise EditError(f"the CSV needs a header row with the columns {', '.join(required)}")
    for line, row in enumerate(rows, 2):
        try:
            _import_row(document, row, kind)
        except EditError as exc:
            raise EditError(f"line {line}: {exc}") from None


def _import_row(document: dict[str, Any], row: dict[str, Any], kind: str) -> None:
    a, b = (str(row.get(k) or "").strip() for k in ("a", "b"))
    for name in (a, b):
        if not name or len(name) > 60 or not name.isprintable():
            raise EditError("a city's name is 1 to 60 printable characters")
        if all(c.get("name") != name for c in document["cities"]):
            add_city(document, name, *_circle(len(document["cities"])))
    if kind == "routes":
        color = (row.get("color") or "gray").strip().lower()
        if color not in ROUTE_COLORS:
            raise EditError(f"'{color[:20]}' is no colour ({', '.join(ROUTE_COLORS)})")
        fields = {
            "length": _number(row, "length", 1, 20),
            "color": color,
            "tunnel": _yes(row, "tunnel"),
            "ferry_locomotives": _number(row, "ferry_locomotives", 0, 20, 0),
            "mountain": _number(row, "mountain", 0, 20, 0),
        }
        add_route(document, a, b, fields)
    else:
        points = (row.get("points") or "").strip()
        add_ticket(document, a, b, _number(row, "points", 1, 100) if points else None)


def _circle(n: int) -> tuple[float, float]:
    """The ``n``-th free spot on a circle round the board's middle."""
    turn = n * 2.399963  # the golden angle: spots never fall on each other
    radius = 0.1 + 0.35 * ((n % 12) / 12)
    return (
        round(0.5 + radius * math.cos(turn), 4),
        round(0.5 + radius * math.sin(turn), 4),
    )


def _number(row: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    text = str(row.get(key) or "").strip()
    if not text and default is not None:
        return default
    if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
        raise EditError(f"{key} must be a whole number from {low} to {high}, not '{text[:20]}'")
    return int(text)


def _yes(row: dict[str, Any], key: str) -> bool:
    text = str(row.get(key) or "").strip().lower()
    if text not in _TRUE | _FALSE:
        raise EditError(f"{key} must be yes or no, not '{text[:20]}'")
    return text in _TRUE
