"""``ttr stats``: play many games between agents and write a map-balance report.

``ttr stats --map europe --agents greedy,greedy,greedy,greedy --games 2000 -o report/`` writes
``report/index.html`` (a self-contained page with plots: win rate by seat with 95% intervals,
score and margin distributions, game length, route claim and ticket completion rates, the
routes and tickets rarely used, stations, tunnels, the European Express) and
``report/aggregates.json`` (the raw aggregates). The games run like ``ttr simulate``'s
(``--workers``, ``--ray``); Ctrl-C stops them and reports on the games already finished
(exit status 130). Needs the ``stats`` extra (matplotlib).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from ..game import check_player_count
from ..maps import GameMap
from ..maps.file import read_file_bytes
from ..serialization import decode_json
from ..sim import BalanceStats
from ..words import counted
from .common import check_output_dir, same_file, shown
from .games import add_game_arguments, game_setup, played, uninterrupted
from .simulate import summary_lines

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play games between agents and write a balance report: an HTML page with plots and "
        "the raw aggregates as JSON (needs the 'stats' extra: pip install 'ttr-rules[stats]')."
    )
    add_game_arguments(parser, agents="greedy", games=100)
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("report"),
        metavar="DIR",
        help="directory of the report (default: report)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="also print the raw aggregates (JSON) on stdout instead of the summary",
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        type=Path,
        metavar="AGGREGATES",
        help="play nothing: write the report of these aggregates.json files merged (runs of "
        "the same map, players and agents, e.g. from several machines)",
    )


#: The files ``ttr stats`` writes in its output folder.
REPORT_FILES = ("index.html", "aggregates.json")


def _read_aggregates(path: Path) -> tuple[BalanceStats, str]:
    """The aggregates and the note of one ``aggregates.json``, or a ValueError naming the
    file and its problem."""
    try:
        data = decode_json(read_file_bytes(path))
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        if "aggregates" not in data:
            raise ValueError("no aggregates in it")
        note = data.get("note", "")
        return BalanceStats.from_dict(data["aggregates"]), note if isinstance(note, str) else ""
    except OSError as exc:
        raise ValueError(f"{shown(path)}: cannot read it: {exc.strerror or exc}") from None
    except ValueError as exc:
        what = str(exc).removeprefix(f"{os.fsdecode(path)}: ").removeprefix("$: ")
        raise ValueError(
            f"{shown(path)}: not the aggregates.json of a ttr stats report: {what}"
        ) from None


def _merged_report(args: argparse.Namespace) -> int:
    from ..sim.report import write_report
    from .maps import map_named

    check_output_dir(args.output, force=args.force, names=REPORT_FILES)
    written = args.output / "aggregates.json"
    for path in args.merge:
        if same_file(path, written):  # even with --force: the merge would lose a part
            raise ValueError(
                f"{shown(path)} is one of the inputs; write the merged report to another folder"
            )
    read = [_read_aggregates(path) for path in args.merge]
    parts = [stats for stats, _ in read]
    notes = [note for _, note in read]
    stats = parts[0]
    for path, part in zip(args.merge[1:], parts[1:], strict=True):
        try:
            stats = stats.merge(part)
        except ValueError as exc:
            first = shown(args.merge[0])
            raise ValueError(f"{shown(path)}: does not merge with {first}: {exc}") from None
    game_map = map_named(args.map if args.map != "europe" or stats.map == "europe" else stats.map)
    if game_map.name != stats.map:
        raise ValueError(f"the aggregates are of map {stats.map!r}, not {game_map.name!r}")
    _check_against_map(stats, game_map)
    note = notes[0] if len(parts) == 1 else f"Merged from {len(parts)} runs: " + " ".join(notes)
    page = write_report(stats, game_map, args.output, note=note)
    if args.json:
        print(json.dumps(stats.to_dict()))
    else:
        games = counted(stats.games, "game")
        print(f"{games} of {stats.players} players on {stats.map}\nreport: {page}")
    return 0


def _check_against_map(stats: BalanceStats, game_map: GameMap) -> None:
    """Aggregates that the map's rules and board cannot have produced are refused."""
    check_player_count(stats.players, game_map.rules)
    routes, tickets = len(game_map.routes), len(game_map.tickets)
    if len(stats.route_claims) != routes or len(stats.ticket_kept) != tickets:
        raise ValueError(
            f"the aggregates count {len(stats.route_claims)} routes and "
            f"{len(stats.ticket_kept)} tickets; map {game_map.name} has {routes} and {tickets}"
        )


def run(args: argparse.Namespace) -> int:
    try:
        import matplotlib  # noqa: F401  (checked before any game is played)
    except ImportError:
        raise ValueError("ttr stats needs matplotlib: pip install 'ttr-rules[stats]'") from None
    from ..sim.report import write_report

    if args.merge:
        return _merged_report(args)
    setup = game_setup(args)
    check_output_dir(args.output, force=args.force, names=REPORT_FILES)
    stats: BalanceStats | None = None
    began = time.perf_counter()
    interrupted = False
    try:
        with played(args, setup.specs(), setup.games) as (results, _):
            for result in results:
                with uninterrupted():
                    if stats is None:
                        stats = BalanceStats.for_result(
                            result, len(setup.map.routes), len(setup.map.tickets)
                        )
                    stats.add(result)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - began
    lines = summary_lines(stats, setup, seconds, interrupted)
    if stats is not None:
        where = "Ray" if args.ray is not None else counted(args.workers, "worker")
        note = (
            f"Seeds {args.seed}–{args.seed + stats.games - 1}, played in {seconds:.0f} s on "
            f"{where}" + (" (interrupted)." if interrupted else ".")
        )
        page = write_report(stats, setup.map, args.output, note=note)
        lines.append(f"report: {page}")
    else:
        lines.append("no game finished: no report written")
    if args.json:
        if stats is not None:
            print(json.dumps(stats.to_dict()))
        if not args.quiet or interrupted:
            print("\n".join(lines), file=sys.stderr)
    else:
        print("\n".join(lines), flush=True)
    return 130 if interrupted else 0
