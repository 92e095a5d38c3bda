"""What several ``ttr`` commands share: the error line, aligned text tables, JSON lines, and
the check of every output path before any work starts (:func:`check_output_file`,
:func:`check_output_dir`): a command that would fail to write, or would replace a file without
``--force``, refuses at once instead of after an hour of games."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "check_output_dir",
    "check_output_file",
    "error",
    "integer",
    "json_line",
    "one_line",
    "same_file",
    "shown",
    "table",
]


def error(message: str) -> None:
    """Print ``ttr: error: message`` to stderr (the one form of every command's errors), on
    one line whatever the message holds (a file name with a newline, a map's list of
    problems)."""
    print(f"ttr: error: {one_line(message)}", file=sys.stderr)


def one_line(message: str) -> str:
    """``message`` on one line: lines joined by ``; `` (by a space after a line that ends
    with a colon, which introduces the lines after it), other control characters escaped.

    >>> one_line("map.json: 2 problems\\n  routes[0]: no such city\\n  a\\tb")
    'map.json: 2 problems; routes[0]: no such city; a\\\\tb'
    >>> one_line("the map 'toy' cannot deal 3 players:\\n  tickets: too few\\n  more")
    "the map 'toy' cannot deal 3 players: tickets: too few; more"
    """
    parts = [part.strip() for part in message.splitlines() if part.strip()]
    text = "".join(
        part if not i else (" " if parts[i - 1].endswith(":") else "; ") + part
        for i, part in enumerate(parts)
    )
    return shown(text)


def integer(text: str) -> int:
    """The ``type`` of every whole-number option: ASCII digits with an optional minus sign, at
    most 30 of them (``int`` alone would take ``٣``, `` 3`` and ``1_000``, and thousands of
    digits).

    >>> integer("-12")
    -12
    >>> integer("٣")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number, got '٣'
    """
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 30):
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{shown(text)[:40]}'")
    return int(text)


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


def shown(path: str | bytes | os.PathLike[str]) -> str:
    """A path as an error message shows it: on one line, control characters escaped.

    >>> shown("maps/europe\\ncopy.json")
    'maps/europe\\\\ncopy.json'
    """
    text = os.fsdecode(path)
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def check_output_file(
    path: str | os.PathLike[str], *, force: bool, inputs: Iterable[str | os.PathLike[str]] = ()
) -> Path:
    """Check, before any work, that ``path`` can be written: its folder exists and is
    writable, it is not a folder, not one of the ``inputs`` (even with ``force``), and does
    not exist unless ``force``. Raises :class:`ValueError` saying why; returns the path.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     out = Path(folder) / "board.svg"
    ...     _ = out.write_text("mine")
    ...     check_output_file(out, force=False)
    Traceback (most recent call last):
    ...
    ValueError: .../board.svg exists; pass --force to replace it
    """
    out = Path(path)
    for source in inputs:
        if same_file(out, Path(source)):
            raise ValueError(f"{shown(out)} is the input file; choose another output")
    if out.is_dir():
        raise ValueError(f"{shown(out)} is a folder; name a file to write")
    _check_writable_folder(out.parent, out)
    if not out.parent.is_dir():
        raise ValueError(f"cannot write {shown(out)}: folder {shown(out.parent)} does not exist")
    if not force and (out.exists() or out.is_symlink()):
        raise ValueError(f"{shown(out)} exists; pass --force to replace it")
    return out


def check_output_dir(
    path: str | os.PathLike[str], *, force: bool, names: Iterable[str] = ()
) -> Path:
    """Check, before any work, that the folder ``path`` exists or can be made and is
    writable, and (unless ``force``) that none of the files ``names`` that will be written in
    it exists. Raises :class:`ValueError` saying why; returns the path."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{shown(folder)} is not a folder")
    _check_writable_folder(folder, folder)
    if not force and folder.is_dir():
        taken = sorted(name for name in names if (folder / name).exists())
        if taken:
            more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
            raise ValueError(
                f"{shown(folder / taken[0])}{more} already exist{'' if more else 's'} "
                "(another run's?); pass --force to replace them or choose another folder"
            )
    return folder


def _check_writable_folder(folder: Path, target: Path) -> None:
    """``folder`` exists (or its nearest existing ancestor does, for a folder to be made) as
    a writable folder."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"cannot write {shown(target)}: {shown(existing)} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(
            f"cannot write {shown(target)}: no permission to write in {shown(existing)}"
        )


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether ``a`` and ``b`` both exist and are one file (through links too)."""
    try:
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except OSError:
        return False
