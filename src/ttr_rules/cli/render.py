"""``ttr render FILE [--turn N] [--player P] -o board.svg``: draw a game as an SVG (or PNG).

``FILE`` is a game record (``ttr simulate --record``, ``ttr play --record``), a state or a
player view written with :func:`ttr_rules.to_json`; a map file or an installed map's name
(``ttr render europe``) draws the bare board. For a record, the last route claimed (or
station built) before the position shown is highlighted. ``--png`` (or an output name ending in
``.png``) converts the picture with the optional ``cairosvg`` (``pip install
"ttr-rules[png]"``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import SerializationError
from ..events import RouteClaimed, StationBuilt
from ..maps import FORMAT, GameMap, available_maps
from ..maps.file import read_file_bytes
from ..records import GameRecord, ReplayStep
from ..render import svg
from ..serialization import decode_json, structure
from ..state import GameState
from ..views import PlayerView, observe
from .common import check_output_file, integer, shown
from .maps import map_named
from .records import add_map_argument, given_map, steps_to_turn

__all__ = ["configure", "load_position", "run", "write_png"]

PNG_HINT = 'ttr render --png needs the optional cairosvg: pip install "ttr-rules[png]"'


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Draw a game record, a state or a view (JSON) as an SVG picture of the board, or a PNG; "
        "a map's name or map file draws the bare board."
    )
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a game record, state or view (JSON), or a map: an installed map's name (see "
        "'ttr maps') or a map file, for the bare board",
    )
    parser.add_argument(
        "--turn",
        type=integer,
        default=None,
        help="for a record: the turn to draw, at its start (default: the end of the record)",
    )
    parser.add_argument(
        "--player",
        type=integer,
        default=None,
        help="draw what this seat sees, with its tickets marked (default: everything)",
    )
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        help="the file to write (default: board.svg, or board.png with --png)",
    )
    parser.add_argument(
        "--png", action="store_true", help="write a PNG (needs cairosvg: the png extra)"
    )
    parser.add_argument("--force", action="store_true", help="replace the output file if it exists")
    add_map_argument(parser)
    parser.add_argument(
        "--size", type=integer, default=800, help="the picture's width in pixels (default 800)"
    )
    parser.add_argument(
        "--no-highlight",
        action="store_true",
        help="do not highlight the record's last claimed route or built station",
    )


#: The widest picture ``--size`` may ask for: a PNG of it already takes about 260 MB to draw.
MAX_SIZE = 10_000


def run(args: argparse.Namespace) -> int:
    if args.output == "":
        raise ValueError("-o names no file")
    if args.size > MAX_SIZE:
        raise ValueError(f"--size must be at most {MAX_SIZE:,} pixels, got {args.size:,}")
    output = Path(args.output or ("board.png" if args.png else "board.svg"))
    check_output_file(output, force=args.force, inputs=[args.file])
    board = _bare_board(args)
    if board is not None:
        _write(svg(board, size=args.size), output, png=args.png)
        return 0
    position, last = load_position(Path(args.file), args.turn, given_map(args))
    if args.player is not None:
        if isinstance(position, PlayerView):
            if position.player != args.player:
                raise ValueError(f"the file holds the view of seat {position.player}")
        else:
            position = observe(position, args.player)
    tickets = position.player if isinstance(position, PlayerView) else None
    highlight = None if args.no_highlight else last
    document = svg(position, size=args.size, highlight=highlight, tickets_of=tickets)
    _write(document, output, png=args.png)
    return 0


def _write(document: str, output: Path, *, png: bool) -> None:
    if png or output.suffix.lower() == ".png":
        write_png(document, output)
    else:
        output.write_text(document, encoding="utf-8")
    print(f"wrote {output}")


def _bare_board(args: argparse.Namespace) -> GameMap | None:
    """The map ``FILE`` names (an installed map, or a map file), or None for a game file."""
    path = Path(args.file)
    if path.is_file() and not _is_map_file(path):
        return None
    if not path.exists() and args.file not in available_maps():
        names = ", ".join(available_maps())
        raise ValueError(
            f"{shown(args.file)} is neither a file nor an installed map (installed: {names})"
        )
    for option, given in (("--turn", args.turn), ("--player", args.player), ("--map", args.map)):
        if given is not None:
            raise ValueError(f"{option} applies to a game, not to a bare board")
    return map_named(args.file)


def _is_map_file(path: Path) -> bool:
    """Whether the file at ``path`` is a map file (its first bytes name the map format)."""
    with path.open("rb") as source:
        head = source.read(4096)
    return FORMAT.encode() in head


def load_position(
    path: Path, turn: int | None, game_map: GameMap | None = None
) -> tuple[GameState | PlayerView, int | str | None]:
    """The position in ``path`` (a record at ``turn``, played on ``game_map`` when given, a
    state or a view) and, for a record, the last route claimed or city where a station was
    built before it (None if none)."""
    text = read_file_bytes(path)
    try:
        data: Any = decode_json(text)
        if not isinstance(data, dict):
            problem = (
                f"expected a JSON object (a record, a state or a view), got {_json_type(data)}"
            )
            raise SerializationError(problem, (problem,))
        if "actions" in data:
            record = structure(data, GameRecord)
        elif turn is not None:
            raise ValueError("--turn applies to game records only")
        elif "seats" in data:
            view: PlayerView = structure(data, PlayerView)
            return view, None
        else:
            return structure(data, GameState), None
    except SerializationError as exc:
        raise SerializationError(f"{shown(path)}: {exc}", exc.problems) from None
    state, steps = steps_to_turn(record, turn, game_map)
    return state, _last_board_change(steps)


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _last_board_change(steps: list[ReplayStep]) -> int | str | None:
    for replayed in reversed(steps):
        for event in replayed.events:
            if isinstance(event, RouteClaimed):
                return event.route
            if isinstance(event, StationBuilt):
                return event.city
    return None


def write_png(document: str, output: Path) -> None:
    """Convert the SVG ``document`` to a PNG file with cairosvg (the ``png`` extra)."""
    try:
        import cairosvg
    except ImportError:
        raise ValueError(PNG_HINT) from None
    except OSError as exc:  # cairosvg is installed but the cairo library is not
        raise ValueError(f"cairosvg cannot load the cairo library ({exc})") from None
    cairosvg.svg2png(bytestring=document.encode("utf-8"), write_to=str(output))
