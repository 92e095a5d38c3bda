"""The ``ttr`` command line (also ``python -m ttr_rules``).

Each subcommand is a :class:`Command`: a name, a help line, a function that adds its arguments
to an :class:`argparse.ArgumentParser`, and a handler that runs it and returns the exit status.
A command lives in its own module of this package (``cli/<command>.py`` with ``configure`` and
``run``; related commands may share one module) and is registered by one line in
:data:`COMMANDS`; :func:`register` adds one at run time. A command module imports its optional
third-party libraries inside ``run``, so that ``ttr --help`` needs none of them.

Errors are printed to stderr as ``ttr: error: ...`` with a non-zero exit status, never as a
traceback. A closed output pipe (``ttr simulate | head``) ends the command quietly with status 0.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence

from attrs import frozen

from ..errors import AgentError, MapError, MapLoadError
from . import edit, maps, play, records, render, serve, simulate, stats, tournament
from .common import error, shown

__all__ = ["COMMANDS", "Command", "Handler", "build_parser", "main", "register"]

#: What a subcommand's handler receives and returns: the parsed arguments, the exit status.
Handler = Callable[[argparse.Namespace], int]


@frozen
class Command:
    """A ``ttr`` subcommand."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Handler


#: The subcommands, in the order ``ttr --help`` lists them.
COMMANDS: list[Command] = [
    Command("maps", "list the installed maps", maps.configure_maps, maps.run_maps),
    Command("map-info", "show a map's statistics", maps.configure_map_info, maps.run_map_info),
    Command("validate-map", "check a map file", maps.configure_validate_map, maps.run_validate_map),
    Command(
        "simulate", "play games between agents, print scores", simulate.configure, simulate.run
    ),
    Command("stats", "play games, write a map-balance report", stats.configure, stats.run),
    Command("replay", "replay a record turn by turn", records.configure_replay, records.run_replay),
    Command("show", "show a view at a turn of a record", records.configure_show, records.run_show),
    Command(
        "render",
        "draw a board, or a record, state or view on it, as SVG or PNG",
        render.configure,
        render.run,
    ),
    Command("play", "play a game in the terminal against agents", play.configure, play.run),
    Command("tournament", "a round robin between agents", tournament.configure, tournament.run),
    Command("serve", "run the web front end", serve.configure, serve.run),
    Command("edit", "draw or change a map in the browser", edit.configure, edit.run),
]


def register(command: Command) -> None:
    """Add (or replace, by name) a subcommand."""
    COMMANDS[:] = [c for c in COMMANDS if c.name != command.name]
    COMMANDS.append(command)


def build_parser(commands: Iterable[Command] | None = None) -> argparse.ArgumentParser:
    """The ``ttr`` argument parser with one subparser per command."""
    parser = argparse.ArgumentParser(
        prog="ttr",
        description="Ticket to Ride rules library: every installed board ('ttr maps' lists "
        "them), with its tools.",
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
        status = handler(args)
        sys.stdout.flush()  # a closed pipe shows here rather than at the interpreter's exit
        return status
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:
        error(os_error_text(exc))
    except MapLoadError as exc:
        error(map_error_text(exc))
    except (MapError, ValueError, LookupError, AgentError) as exc:
        error(str(exc))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback on the command line
        error(f"unexpected {type(exc).__name__}: {exc}")
    return 1


def map_error_text(exc: MapLoadError) -> str:
    """A map that does not load, on one line: its first problem, and how many more there are
    (``ttr validate-map`` lists them all).

    >>> map_error_text(MapLoadError("invalid", problems=("m.json: name: is required",) * 3))
    'invalid map file: m.json: name: is required (and 2 more problems: ttr validate-map lists them)'
    """
    if len(exc.problems) <= 1:
        return str(exc)
    more = len(exc.problems) - 1
    plural = "problem" if more == 1 else "problems"
    return (
        f"invalid map file: {exc.problems[0]} "
        f"(and {more} more {plural}: ttr validate-map lists them)"
    )


def os_error_text(exc: OSError) -> str:
    """An operating system's refusal in plain words, naming the file: ``rec.json: No such file
    or directory`` (not Python's ``[Errno 2] ...: 'rec.json'``).

    >>> os_error_text(FileNotFoundError(2, "No such file or directory", "rec.json"))
    'rec.json: No such file or directory'
    """
    if exc.strerror is None:
        return str(exc)
    names = [shown(name) for name in (exc.filename, exc.filename2) if name is not None]
    return ": ".join([" -> ".join(names), exc.strerror] if names else [exc.strerror])


def _silence_stdout() -> None:
    """After the reader of our output went away: send what is left to the null device, so that
    the interpreter's final flush does not report the broken pipe a second time."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests capture stdout)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
