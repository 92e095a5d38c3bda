"""What several ``ttr`` commands share: the error line, aligned text tables and JSON lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["error", "json_line", "table"]


def error(message: str) -> None:
    """Print ``ttr: error: message`` to stderr (the one form of every command's errors)."""
    print(f"ttr: error: {message}", file=sys.stderr)


def json_line(value: Any) -> str:
    """``value`` as one compact line of JSON (the ``--json`` output of the streaming commands).

    >>> json_line({"turn": 0, "events": [1, 2]})
    '{"turn":0,"events":[1,2]}'
    """
    return json.dumps(value, separators=(",", ":"))


def table(rows: Sequence[Sequence[str]], numeric: Iterable[int] = ()) -> str:
    """Rows as aligned text columns (the ``numeric`` columns right-aligned).

    >>> print(table([("name", "routes"), ("europe", "101")], numeric=(1,)))
    name    routes
    europe     101
    """
    right = set(numeric)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
