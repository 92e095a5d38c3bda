"""The ``ttr`` command line (also ``python -m ttr_rules``).

Each subcommand is a :class:`Command`: a name, a help line, a function that adds its arguments
to an :class:`argparse.ArgumentParser`, and a handler that runs it and returns the exit status.
To add one, write those two functions (in any module) and append a :class:`Command` to
:data:`COMMANDS`, or call :func:`register` before :func:`main` runs.

Errors are printed to stderr as ``ttr: error: ...`` with a non-zero exit status, never as a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from attrs import frozen

from .cards import CARD_COLORS
from .errors import MapError, MapLoadError
from .maps import GameMap, available_maps, load_map, load_map_file
from .record_cli import configure_replay, configure_show, run_replay, run_show
from .simulate import configure_simulate, run_simulate

__all__ = ["COMMANDS", "Command", "build_parser", "main", "register"]

#: What a subcommand's handler receives and returns: the parsed arguments, the exit status.
Handler = Callable[[argparse.Namespace], int]


@frozen
class Command:
    """A ``ttr`` subcommand."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Handler


# --------------------------------------------------------------------------- ttr maps


def _configure_maps(parser: argparse.ArgumentParser) -> None:
    parser.description = "List the installed maps."


def _run_maps(args: argparse.Namespace) -> int:
    rows = [("name", "version", "cities", "routes", "tickets", "title")]
    status = 0
    for name in available_maps():
        try:
            m = load_map(name)
        except MapError as exc:
            _error(str(exc))
            status = 1
            continue
        rows.append(
            (
                m.name,
                m.version,
                str(len(m.cities)),
                str(len(m.routes)),
                str(len(m.tickets)),
                m.title,
            )
        )
    print(_table(rows, numeric=(2, 3, 4)))
    return status


def _table(rows: Sequence[Sequence[str]], numeric: Iterable[int] = ()) -> str:
    """Rows as aligned text columns (numeric columns right-aligned)."""
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


# --------------------------------------------------------------------------- ttr map-info


def _configure_map_info(parser: argparse.ArgumentParser) -> None:
    parser.description = "Show a map's statistics: routes by length and colour, tickets by value."
    parser.add_argument("name", metavar="NAME", help="an installed map's name, or a map file")


def _run_map_info(args: argparse.Namespace) -> int:
    print("\n".join(map_info_lines(_map_named(args.name))))
    return 0


def _map_named(name: str) -> GameMap:
    """An installed map, or the map file at ``name`` when it names an existing file."""
    if name.endswith(".json") or Path(name).is_file():
        return load_map_file(name)
    return load_map(name)


def map_info_lines(game_map: GameMap) -> list[str]:
    """The text of ``ttr map-info``: counts by length, colour, tunnels, ferries, tickets."""
    m = game_map
    routes = m.routes
    ferries = [r for r in routes if r.ferry_locomotives]
    colours = Counter(r.color.value if r.color is not None else "gray" for r in routes)
    long_tickets = sum(t.long for t in m.tickets)
    title = f" - {m.title}" if m.title else ""
    return [
        f"{m.name} {m.version}{title}",
        f"digest: {m.digest}",
        f"cities: {len(m.cities)}",
        f"routes: {len(routes)} tracks, {sum(r.length for r in routes)} spaces",
        "  by length: " + _counts(Counter(r.length for r in routes)),
        "  by colour: " + ", ".join(f"{c} {colours[c]}" for c in _COLOUR_ORDER if colours[c]),
        f"  tunnels: {sum(r.tunnel for r in routes)}",
        f"  ferries: {len(ferries)} ({sum(r.ferry_locomotives for r in ferries)} locomotives)",
        f"  double routes: {sum(r.double_of is not None for r in routes) // 2}",
        f"tickets: {len(m.tickets)} ({long_tickets} long, {len(m.tickets) - long_tickets} "
        f"regular), {sum(t.points for t in m.tickets)} points",
        "  by value: " + _counts(Counter(t.points for t in m.tickets)),
    ]


_COLOUR_ORDER = (*(c.value for c in CARD_COLORS), "gray")


def _counts(counter: Counter[int]) -> str:
    """``1×4, 2×35`` for a counter of integers, in increasing order."""
    return ", ".join(f"{value}×{n}" for value, n in sorted(counter.items()))


# --------------------------------------------------------------------------- ttr validate-map


def _configure_validate_map(parser: argparse.ArgumentParser) -> None:
    parser.description = "Check a map file; print every problem (exit status 1 if any)."
    parser.add_argument("file", metavar="FILE", help="a map file in the ttr-rules JSON format")


def _run_validate_map(args: argparse.Namespace) -> int:
    try:
        game_map = load_map_file(args.file)
    except MapLoadError as exc:
        for line in exc.problems or (str(exc),):
            print(line)
        return 1
    print(f"ok: {args.file}: {game_map}")
    return 0


# --------------------------------------------------------------------------- the parser


#: The subcommands, in the order ``ttr --help`` lists them.
COMMANDS: list[Command] = [
    Command("maps", "list the installed maps", _configure_maps, _run_maps),
    Command("map-info", "show a map's statistics", _configure_map_info, _run_map_info),
    Command("validate-map", "check a map file", _configure_validate_map, _run_validate_map),
    Command("simulate", "play random games and print the scores", configure_simulate, run_simulate),
    Command("replay", "replay a game record turn by turn", configure_replay, run_replay),
    Command("show", "show a player's view at a turn of a record", configure_show, run_show),
]


def register(command: Command) -> None:
    """Add (or replace, by name) a subcommand."""
    COMMANDS[:] = [c for c in COMMANDS if c.name != command.name]
    COMMANDS.append(command)


def build_parser(commands: Iterable[Command] | None = None) -> argparse.ArgumentParser:
    """The ``ttr`` argument parser with one subparser per command."""
    parser = argparse.ArgumentParser(
        prog="ttr", description="Ticket to Ride Europe rules library: maps and tools."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS if commands is None else commands:
        sub = subparsers.add_parser(command.name, help=command.help)
        command.configure(sub)
        sub.set_defaults(handler=command.run)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ttr-rules")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ttr`` with ``argv`` (default: ``sys.argv[1:]``) and return the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler = args.handler
    try:
        return handler(args)
    except (MapError, ValueError, LookupError, OSError) as exc:
        _error(str(exc))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback on the command line
        _error(f"unexpected {type(exc).__name__}: {exc}")
    return 1


def _error(message: str) -> None:
    print(f"ttr: error: {message}", file=sys.stderr)
