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
import sys
import time
from pathlib import Path

from ..sim import BalanceStats
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


def _merged_report(args: argparse.Namespace) -> int:
    from ..sim.report import write_report
    from .maps import map_named

    files = [json.loads(path.read_text(encoding="utf-8")) for path in args.merge]
    parts = [BalanceStats.from_dict(data["aggregates"]) for data in files]
    notes = [data.get("note", "") for data in files]
    stats = parts[0]
    for part in parts[1:]:
        stats = stats.merge(part)
    game_map = map_named(args.map if args.map != "europe" or stats.map == "europe" else stats.map)
    if game_map.name != stats.map:
        raise ValueError(f"the aggregates are of map {stats.map!r}, not {game_map.name!r}")
    note = notes[0] if len(parts) == 1 else f"Merged from {len(parts)} runs: " + " ".join(notes)
    page = write_report(stats, game_map, args.output, note=note)
    if args.json:
        print(json.dumps(stats.to_dict()))
    else:
        print(f"{stats.games} games of {stats.players} players on {stats.map}\nreport: {page}")
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        import matplotlib  # noqa: F401  (checked before any game is played)
    except ImportError:
        raise ValueError("ttr stats needs matplotlib: pip install 'ttr-rules[stats]'") from None
    from ..sim.report import write_report

    if args.merge:
        return _merged_report(args)
    setup = game_setup(args)
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
        where = "Ray" if args.ray is not None else f"{args.workers} worker(s)"
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
