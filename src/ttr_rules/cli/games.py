"""What ``ttr simulate``, ``ttr stats`` and ``ttr tournament`` share: the options that describe
many games and where they run, and the loop that plays them with a progress bar.

* :func:`add_game_arguments` — ``--map NAME|FILE.json``, ``--players``, ``--games``, ``--seed``,
  ``--agents a,b,...``, ``--workers N`` (alias ``--jobs``), ``--ray [ADDRESS]``,
  ``--batch-size``, ``--record DIR``, ``--quiet``;
* :func:`game_setup` — the map, the seats' agents and the specs those options describe;
* :func:`add_runner_arguments` — only where the games run (``--workers``, ``--ray``,
  ``--batch-size``) and ``--quiet``, for commands that describe their games otherwise
  (``ttr tournament``);
* :func:`played` — a context manager yielding the results as they arrive, with the progress bar
  on stderr (rich, when installed and stderr is a terminal; never with ``--quiet``);
* :func:`uninterrupted` — a block that a Ctrl-C does not cut in two (from
  :mod:`ttr_rules.sim.interrupts`).

Stopping: a :class:`KeyboardInterrupt` (Ctrl-C) leaves :func:`played` after the workers have
been stopped (see :func:`ttr_rules.sim.run_games`); the caller prints what finished and exits
with status 130. Game lines are printed with :meth:`Progress.line`, which keeps them on stdout
and off the bar.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from ..maps import GameMap
from ..rules import Rules
from ..sim import AgentSpec, GameResult, GameSpec, game_specs, run_games
from ..sim.interrupts import uninterrupted
from ..sim.runner import record_name
from .common import check_output_dir, integer
from .maps import map_named

__all__ = [
    "MAX_BATCH_SIZE",
    "MAX_GAMES",
    "GameSetup",
    "Progress",
    "add_game_arguments",
    "add_runner_arguments",
    "check_agents",
    "check_game_count",
    "check_runner_arguments",
    "game_setup",
    "played",
    "uninterrupted",
]


def add_game_arguments(
    parser: argparse.ArgumentParser, *, agents: str = "random", games: int = 10
) -> None:
    """The options describing many games and where they run."""
    what = parser.add_argument_group("games")
    what.add_argument(
        "--map",
        default="europe",
        help="an installed map's name or a map file (default: europe)",
    )
    what.add_argument(
        "--players",
        type=integer,
        help="players per game (default: the number of --agents, or 4 within the map's range)",
    )
    what.add_argument(
        "--games", type=integer, default=games, help=f"number of games (default {games})"
    )
    what.add_argument("--seed", type=integer, default=0, help="seed of the first game (default 0)")
    what.add_argument(
        "--agents",
        default=agents,
        metavar="A,B,...",
        help=f"agent of each seat, in seat order; one name plays every seat (default {agents}); "
        "options as name:key=value, e.g. mcts:iterations=200",
    )
    add_runner_arguments(parser)
    parser.add_argument(
        "--record",
        type=Path,
        metavar="DIR",
        help=f"write every game's record (JSON) here, named by its seed ({record_name(7)} for "
        "seed 7); a record of a map file is replayed with `ttr replay FILE --map MAPFILE`",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace output files that exist (records, report) instead of refusing",
    )


def add_runner_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the games run and how much is shown: ``--workers N`` (alias ``--jobs``),
    ``--ray [ADDRESS]``, ``--batch-size K``, ``--quiet``."""
    where = parser.add_argument_group("where the games run")
    where.add_argument(
        "--workers",
        "--jobs",
        type=integer,
        default=1,
        metavar="N",
        help="local worker processes (default 1: this process); with --ray and no address, "
        "the CPUs of the local Ray instance",
    )
    where.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run the games as Ray tasks: on a local Ray instance, or on the cluster at ADDRESS "
        "('auto', host:port or ray://host:port); needs the 'ray' extra",
    )
    where.add_argument(
        "--batch-size", type=integer, metavar="K", help="games per task (default: per backend)"
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar and no line per game: the summary only",
    )


#: The most games one command plays (a year of random games at 30 a second).
MAX_GAMES = 10**9
#: The most games one task takes (a batch is a list in memory: the bound keeps it small).
MAX_BATCH_SIZE = 10_000
#: Local worker processes per CPU, at most (each is a Python process of its own).
WORKERS_PER_CPU = 4


def check_runner_arguments(args: argparse.Namespace) -> None:
    """Raise :class:`ValueError` for a bad ``--workers`` or ``--batch-size``, or ``--ray``
    without Ray installed."""
    most_workers = WORKERS_PER_CPU * (os.cpu_count() or 1)
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.workers > most_workers and not args.ray:  # a cluster's size is its own
        raise ValueError(
            f"--workers must be at most {most_workers} ({WORKERS_PER_CPU} per CPU of this "
            f"machine), got {args.workers:,}"
        )
    if args.batch_size is not None and not 1 <= args.batch_size <= MAX_BATCH_SIZE:
        raise ValueError(
            f"--batch-size must be between 1 and {MAX_BATCH_SIZE:,}, got {args.batch_size:,}"
        )
    if args.ray is not None:
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise ValueError("--ray needs Ray: pip install 'ttr-rules[ray]'")
        if args.ray:  # an address: refused here, before any output is checked or made
            from ..sim.runner import check_ray_address

            check_ray_address(args.ray)


def check_game_count(games: int, seed: int, per: int = 1) -> None:
    """Raise :class:`ValueError` for a ``--games`` below 1 or over :data:`MAX_GAMES` (``per``
    games each: a tournament's line-ups), or a ``--seed`` that is negative or leaves no room
    for the games' seeds (each game's seed names its record file)."""
    if games < 1:
        raise ValueError("--games must be at least 1")
    if games * per > MAX_GAMES:
        total = "" if per == 1 else f" ({games:,} × {per:,} line-ups)"
        raise ValueError(f"--games: at most {MAX_GAMES:,} games, got {games * per:,}{total}")
    if not 0 <= seed <= _MAX_SEED - games * per:
        raise ValueError(f"--seed must be between 0 and {_MAX_SEED - games * per}, got {seed}")


#: Seeds are non-negative 63-bit integers, as NumPy's and Ray's seeds are.
_MAX_SEED = 2**63 - 1


class GameSetup:
    """The games the options describe: the map, every seat's agent, the specs."""

    def __init__(self, args: argparse.Namespace) -> None:
        from ..game import check_player_count

        check_game_count(args.games, args.seed)
        check_runner_arguments(args)
        self.map: GameMap = map_named(args.map)
        names = [AgentSpec.parse(a) for a in args.agents.split(",") if a.strip()]
        if not names:
            raise ValueError("--agents names no agent")
        players = args.players
        if players is None:
            players = len(names) if len(names) > 1 else _default_players(self.map.rules)
        try:  # before a list of that length is made
            check_player_count(players, self.map.rules)
        except ValueError as exc:
            raise ValueError(f"--{exc}") from None
        if len(names) == 1:
            names *= players
        if len(names) != players:
            raise ValueError(f"--agents names {len(names)} agents for {players} players")
        check_agents(names)
        self.players = players
        self.agents = tuple(names)
        self.games: int = args.games
        # An installed map goes to the workers by name (each loads it); a map file as data.
        self._map_arg: str | GameMap = self.map if _is_file(args.map) else self.map.name
        self._seed: int = args.seed
        # Reject a bad player count before starting any worker.
        GameSpec(seed=args.seed, map=self.map, players=players).seat_agents()
        from .. import new_game

        new_game(self.map, players, seed=args.seed)
        if args.record is not None:
            seeds = range(args.seed, args.seed + args.games)
            taken = _records_in(args.record, seeds)
            check_output_dir(args.record, force=args.force, names=taken)

    def specs(self) -> Iterable[GameSpec]:
        return game_specs(
            self.games, seed=self._seed, map=self._map_arg, players=self.players, agents=self.agents
        )

    @property
    def agent_names(self) -> str:
        """``greedy×4`` or ``greedy,random,random``."""
        texts = [str(a) for a in self.agents]
        if len(set(texts)) == 1:
            return f"{texts[0]}×{len(texts)}"
        return ",".join(texts)


def check_agents(specs: Iterable[AgentSpec]) -> None:
    """Make each agent of ``specs`` once, so that an unknown option or a bad value is a
    :class:`ValueError` naming the agent and the option (an unknown name: ``make_agent``'s
    :class:`LookupError` listing the agents) before any game starts."""
    from ..agents import AgentOptionError, make_agent

    for spec in dict.fromkeys(specs):
        options = dict(spec.options)
        if "seed" in options:
            raise ValueError(
                f"agent {spec}: the option 'seed' cannot be set: each seat's agent is seeded "
                "from the game's seed (use --seed)"
            )
        try:
            make_agent(spec.name, seed=0, **options)
        except AgentOptionError:
            raise  # names the agent and the option already
        except TypeError as exc:
            raise ValueError(f"agent {spec}: {_option_problem(exc, options)}") from None
        except ValueError as exc:
            if f"agent {spec.name!r}" in str(exc):
                raise ValueError(str(exc)) from None  # make_agent named the agent already
            raise ValueError(f"agent {spec}: {exc}") from None
        except (LookupError, KeyboardInterrupt):
            raise
        except (Exception, SystemExit) as exc:  # a plugin's factory: name the agent
            text = " ".join(str(exc).split())[:300]
            kind = type(exc).__name__
            raise ValueError(
                f"agent {spec} could not be built: {kind}: {text}"
                if text
                else f"agent {spec} could not be built: {kind}"
            ) from None


def _option_problem(exc: TypeError, options: dict[str, Any]) -> str:
    """A factory's TypeError in the words of the command line (without the Python names)."""
    text = str(exc)
    for key in options:
        if f"'{key}'" in text and "unexpected keyword" in text:
            return f"unknown option {key!r}"
    return re.sub(r"^[\w.<>]+\(\) ", "", text).replace("keyword argument", "option")


def _records_in(folder: Path, seeds: range) -> list[str]:
    """The record files of ``seeds`` already in ``folder`` (one listing of the folder, however
    many games)."""
    if not folder.is_dir():
        return []
    found = []
    for entry in os.scandir(folder):
        match = _RECORD_NAME.fullmatch(entry.name)
        if match and int(match.group(1)) in seeds:
            found.append(entry.name)
    return found


_RECORD_NAME = re.compile(r"game-(\d+)\.json")


def game_setup(args: argparse.Namespace) -> GameSetup:
    """Check the options and describe the games (raises :class:`ValueError` on bad options)."""
    return GameSetup(args)


def _is_file(name: str) -> bool:
    return name.endswith(".json") or Path(name).is_file()


def _runner_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {
        "batch_size": args.batch_size,
        "records_dir": getattr(args, "record", None),
        "overwrite": getattr(args, "force", True),
    }
    if args.ray is not None:
        options["backend"] = "ray"
        options["ray_address"] = args.ray or None
        options["workers"] = args.workers if args.workers > 1 else None
    elif args.workers > 1:
        options["backend"] = "process"
        options["workers"] = args.workers
    return options


class Progress:
    """The progress bar on stderr (or nothing), and the way to print lines beside it."""

    def __init__(self, total: int, enabled: bool) -> None:
        self._bar: Any = None
        self._task: Any = None
        self._through_bar = False
        self.total = total
        if enabled and sys.stderr.isatty():
            try:
                from rich.console import Console
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    TextColumn,
                    TimeElapsedColumn,
                    TimeRemainingColumn,
                )
                from rich.progress import (
                    Progress as RichProgress,
                )
            except ImportError:  # the 'progress' extra is not installed: no bar
                return
            self._bar = RichProgress(
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(file=sys.stderr),
                redirect_stdout=False,
                redirect_stderr=False,
                transient=True,
            )
            # Lines for stdout go through the bar's console only when stdout is the same
            # terminal (printed above the bar); otherwise they go to stdout untouched.
            self._through_bar = _same_terminal()

    def __enter__(self) -> Progress:
        self._began = time.monotonic()
        self._done = 0
        if self._bar is not None:
            self._bar.start()
            self._task = self._bar.add_task("games", total=self.total, rate="")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self) -> None:
        if self._bar is not None:
            self._done += 1
            elapsed = time.monotonic() - self._began
            rate = f"{self._done / elapsed:.1f} games/s" if elapsed > 0 else ""
            self._bar.update(self._task, advance=1, rate=rate)

    def line(self, text: str) -> None:
        """Print ``text`` as one line of the command's output."""
        if self._through_bar:
            self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, flush=self._bar is not None)


def _same_terminal() -> bool:
    try:
        return os.isatty(1) and os.ttyname(1) == os.ttyname(2)
    except OSError:
        return False


@contextmanager
def played(
    args: argparse.Namespace, specs: Iterable[GameSpec], total: int
) -> Iterator[tuple[Iterator[GameResult], Progress]]:
    """The results of the ``total`` games of ``specs`` as they arrive (run where
    :func:`add_runner_arguments`' options say), and the progress display; the workers are
    stopped when the block ends, however it ends."""
    stream = run_games(specs, **_runner_options(args))
    with Progress(total, enabled=not args.quiet) as progress, closing(stream):
        yield _advancing(stream, progress), progress


def _advancing(stream: Iterator[GameResult], progress: Progress) -> Iterator[GameResult]:
    for result in stream:
        progress.advance()
        yield result


def _default_players(rules: Rules) -> int:
    """Four players, or the nearest count the board takes (Nordic and Switzerland seat at most
    three).

    >>> _default_players(Rules(max_players=3)), _default_players(Rules())
    (3, 4)
    """
    return min(max(4, rules.min_players), rules.max_players)
