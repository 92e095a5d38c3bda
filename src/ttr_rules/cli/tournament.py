"""``ttr tournament``: a round robin between agents, with win rates, margins and ratings.

The games are played by :func:`ttr_rules.sim.run_games` (in this process, on ``--workers``
local processes or with ``--ray [ADDRESS]``), with the progress bar of
:mod:`ttr_rules.cli.games`; the schedule and the statistics are
:mod:`ttr_rules.agents.tournament`. Ctrl-C stops the workers, prints the standings of the
finished games and exits with status 130.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..maps import GameMap
from .common import integer, table
from .games import (
    add_runner_arguments,
    check_agents,
    check_game_count,
    check_runner_arguments,
    played,
    uninterrupted,
)
from .maps import map_named

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play a round robin between agents (seats rotated, every deal played from every seat) "
        "and print win rates with 95% confidence intervals, mean scores and margins, and "
        "Elo-style ratings."
    )
    parser.add_argument(
        "--agents",
        default="greedy,random",
        help="comma-separated agents, each NAME or NAME:OPTION=VALUE:... "
        "(e.g. mcts:iterations=16); default greedy,random",
    )
    parser.add_argument(
        "--games", type=integer, default=10, help="games per line-up (default 10)", metavar="N"
    )
    parser.add_argument("--players", type=integer, default=2, help="players per game (default 2)")
    parser.add_argument(
        "--seed", type=integer, default=0, help="seed of the first deal (default 0)"
    )
    parser.add_argument(
        "--map", default="europe", help="installed map name or map file (default: europe)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the standings as one JSON object"
    )
    add_runner_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..agents.tournament import MatchResult, Tally, lineup_count, pairings
    from ..game import check_player_count
    from ..sim import AgentSpec, GameSpec

    check_runner_arguments(args)
    specs = [AgentSpec.parse(text) for text in args.agents.split(",") if text.strip()]
    labels = [str(s) for s in specs]
    check_agents(specs)  # unknown names and bad options fail here, before any game
    game_map = map_named(args.map)
    try:
        check_player_count(args.players, game_map.rules)
    except ValueError as exc:
        raise ValueError(f"--{exc}") from None
    check_game_count(args.games, args.seed, lineup_count(len(labels), args.players))
    # The schedule is made game by game as the runner asks (millions of games fit in memory).
    schedule = pairings(labels, args.players, args.games, args.seed)
    total = args.games * lineup_count(len(labels), args.players)
    # An installed map goes to the workers by name (each loads it); a map file as data.
    from_file = args.map.endswith(".json") or Path(args.map).is_file()
    sent: str | GameMap = game_map if from_file else game_map.name
    games = (
        GameSpec(seed=p.seed, map=sent, players=args.players, agents=p.seats) for p in schedule
    )
    began = time.perf_counter()
    tally = Tally(labels)
    interrupted = False
    try:
        with played(args, games, total) as (results, _progress):
            for result in results:
                with uninterrupted():
                    tally.add(MatchResult(result.agents, result.totals, result.winners))
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - began
    status = 130 if interrupted else 0
    if not tally.count:
        print(f"interrupted before any of the {total} games finished", file=sys.stderr)
        return status
    standings = tally.standings()
    if args.json:
        print(json.dumps({**standings.to_dict(), "seconds": round(seconds, 3)}))
        if interrupted:
            print(f"interrupted after {tally.count} of {total} games", file=sys.stderr)
        return status
    rows = [("agent", "games", "wins", "win rate", "95% CI", "mean score", "margin", "Elo")]
    for s in standings.table:
        rows.append(
            (
                s.agent,
                str(s.games),
                f"{s.wins:g}",
                f"{s.win_rate:.1%}",
                f"{s.ci_low:.1%}–{s.ci_high:.1%}",
                f"{s.mean_score:.1f}",
                f"{s.mean_margin:+.1f}",
                f"{s.elo:.0f}",
            )
        )
    print(table(rows, numeric=(1, 2, 3, 5, 6, 7)))
    done = f"{tally.count} of {total}" if interrupted else f"{tally.count}"
    noun = "game" if (total if interrupted else tally.count) == 1 else "games"
    print(
        ("\ninterrupted after " if interrupted else "\n")
        + f"{done} {noun} of {args.players} players on {game_map.name} in {seconds:.1f} s "
        "(seats rotated; ratings: Bradley–Terry fit of every pairwise result, mean 1500)"
    )
    return status
