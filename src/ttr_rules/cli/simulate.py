"""``ttr simulate``: play many games between agents and print their scores.

One line per game on stdout (or, with ``--json``, one JSON object per game and nothing else),
then a summary: wins and mean score by seat, game length, throughput. The games run in this
process, on ``--workers N`` local processes or on a Ray cluster (``--ray [ADDRESS]``); the same
seeds give the same games whatever runs them. Ctrl-C stops the workers at once, prints the
summary of the finished games and exits with status 130.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..sim import BalanceStats, GameResult
from ..words import seat_name, signed
from .common import json_line
from .games import GameSetup, add_game_arguments, game_setup, played, uninterrupted

__all__ = ["configure", "run", "summary_lines"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play games between agents (default: random legal players) and print each game's "
        "scores and a summary. Ctrl-C stops early and prints the summary of finished games."
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per game (seed, scores, winners, ...) and nothing else on "
        "stdout; the summary goes to stderr",
    )


def game_line(index: int, result: GameResult) -> str:
    """``game 3 (seed 2): Player 2 wins; Player 1 71, Player 2 96, Player 3 58; 181 turns,
    290 decisions`` (seats named as every sentence names them, a negative score with a true
    minus)."""
    best = result.winners
    who = " and ".join(seat_name(s) for s in best) + (" win (tie)" if len(best) > 1 else " wins")
    scores = ", ".join(
        f"{seat_name(seat)} {signed(total, plus=False)}" for seat, total in enumerate(result.totals)
    )
    ended = "" if result.termination == "trains" else f", ended by {result.termination}"
    return (
        f"game {index} (seed {result.seed}): {who}; {scores}; "
        f"{result.turns} turns, {result.decisions} decisions{ended}"
    )


def summary_lines(
    stats: BalanceStats | None, setup: GameSetup, seconds: float, interrupted: bool
) -> list[str]:
    """The summary of the finished games (``stats`` None when none finished)."""
    done = 0 if stats is None else stats.games
    head = f"{done} of {setup.games}" if interrupted else f"{done}"
    games = "game" if (setup.games if interrupted else done) == 1 else "games"
    where = f"{setup.players} players on {setup.map.name} ({setup.agent_names})"
    rate = f": {done / seconds:.1f} games/s" if done and seconds > 0 else ""
    lines = [
        ("interrupted after " if interrupted else "")
        + f"{head} {games} of {where} in {seconds:.2f} s{rate}"
    ]
    if stats is None:
        return lines
    n = stats.games
    seats = range(stats.players)
    wins = "  ".join(f"{seat_name(s)} {stats.wins[s]} ({stats.wins[s] / n:.0%})" for s in seats)
    ties = f" ({stats.ties} tied games count for each winner)" if stats.ties else ""
    means = "  ".join(
        f"{seat_name(s)} {m:.1f}".replace("-", "−")
        for s, m in zip(seats, stats.mean_scores(), strict=True)
    )
    ends = ", ".join(f"{k} {v}" for k, v in sorted(stats.terminations.items()))
    lines += [
        f"wins by seat: {wins}{ties}",
        f"mean score by seat: {means}",
        f"per game: {stats.mean_turns():.1f} turns, {stats.mean_decisions():.1f} decisions "
        f"on average; ended by {ends}",
    ]
    return lines


def run(args: argparse.Namespace) -> int:
    setup = game_setup(args)
    stats: BalanceStats | None = None
    began = time.perf_counter()
    interrupted = False
    try:
        with played(args, setup.specs(), setup.games) as (results, progress):
            for index, result in enumerate(results, start=1):
                with uninterrupted():
                    if stats is None:
                        stats = BalanceStats.for_result(
                            result, len(setup.map.routes), len(setup.map.tickets)
                        )
                    stats.add(result)
                    if args.json:
                        progress.line(json_line(result.to_dict()))
                    elif not args.quiet:
                        progress.line(game_line(index, result))
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - began
    lines = summary_lines(stats, setup, seconds, interrupted)
    if args.json:
        if not args.quiet or interrupted:
            print("\n".join(lines), file=sys.stderr)
    else:
        print("\n".join(lines), flush=True)
    return 130 if interrupted else 0
