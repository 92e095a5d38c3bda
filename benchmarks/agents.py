"""Agent acceptance matches (a script, not a test): who beats whom, and how fast.

Each match puts one ``candidate`` agent against ``players - 1`` copies of an ``opponent``;
the candidate's seat rotates from game to game and every deal is played from every seat
(duplicate style), so neither the seat nor the deal favours anyone. Prints, per match, the
candidate's wins (ties split), win rate with its 95% Wilson interval, mean margin over the best
opponent and mean seconds per decision (its own decisions only).

    python benchmarks/agents.py                      # the whole acceptance table (long!)
    python benchmarks/agents.py --match greedy-random --players 2 --games 200
    python benchmarks/agents.py --match mcts-greedy --players 2 --games 100 --workers 2

The acceptance figures (issue 12): greedy beats random in at least 95% of 200 two-player games
and 90% of 100 four-player games; mcts at its default budget beats greedy in at least 60% of 100
two-player games at no more than 0.5 s per decision; the same table for 3 and 4 players.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from ttr_rules import PlayerView, final_scores, winners
from ttr_rules.actions import Action
from ttr_rules.agents import Agent, make_agent, play_game
from ttr_rules.agents.tournament import wilson_interval

#: (candidate, opponent, players, games) of the acceptance table.
MATCHES: tuple[tuple[str, str, int, int], ...] = (
    ("greedy", "random", 2, 200),
    ("greedy", "random", 4, 100),
    ("mcts", "greedy", 2, 100),
    ("mcts", "greedy", 3, 100),
    ("mcts", "greedy", 4, 100),
)


class Timed:
    """Wraps an agent and times its decisions."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.decisions = 0

    def act(self, view: PlayerView) -> Action:
        began = time.perf_counter()
        action = self.agent.act(view)
        self.seconds += time.perf_counter() - began
        self.decisions += 1
        return action


def one_game(job: tuple[str, str, int, int, int]) -> tuple[float, int, float, int]:
    """Game ``index`` of a match: (candidate's win share, margin, seconds, decisions)."""
    candidate, opponent, players, index, seed = job
    seat = index % players
    deal = seed + index // players
    timed = Timed(make_agent(candidate, seed=deal * 10 + seat))
    agents: list[Agent] = [
        timed if s == seat else make_agent(opponent, seed=deal * 10 + s) for s in range(players)
    ]
    end = play_game(agents, seed=deal)
    best = winners(end)
    totals = [s.total for s in final_scores(end)]
    share = 1 / len(best) if seat in best else 0.0
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return share, margin, timed.seconds, timed.decisions


@dataclass
class MatchResult:
    candidate: str
    opponent: str
    players: int
    games: int
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    mean_margin: float
    seconds_per_decision: float
    wall_seconds: float


def _played(
    jobs: list[tuple[str, str, int, int, int]], workers: int
) -> Iterator[tuple[float, int, float, int]]:
    if workers <= 1:
        yield from map(one_game, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(one_game, jobs)


def run_match(
    candidate: str, opponent: str, players: int, games: int, seed: int, workers: int
) -> MatchResult:
    jobs = [(candidate, opponent, players, i, seed) for i in range(games)]
    began = time.perf_counter()
    rows = []
    for row in _played(jobs, workers):
        rows.append(row)
        share = sum(r[0] for r in rows)
        seconds = sum(r[2] for r in rows) / max(1, sum(r[3] for r in rows))
        print(
            f"  {candidate} vs {opponent} ({players}p) game {len(rows)}: wins {share:g}, "
            f"margin {row[1]:+d}, {seconds * 1000:.0f} ms per decision so far",
            file=sys.stderr,
            flush=True,
        )
    wins = sum(r[0] for r in rows)
    low, high = wilson_interval(wins, len(rows))
    decisions = sum(r[3] for r in rows)
    return MatchResult(
        candidate=candidate,
        opponent=opponent,
        players=players,
        games=len(rows),
        wins=wins,
        win_rate=wins / len(rows),
        ci95=(low, high),
        mean_margin=sum(r[1] for r in rows) / len(rows),
        seconds_per_decision=sum(r[2] for r in rows) / decisions if decisions else 0.0,
        wall_seconds=time.perf_counter() - began,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match", help="CANDIDATE-OPPONENT, e.g. mcts-greedy (default: all)")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument("--games", type=int, help="games per match (default: the table's)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="one JSON object per match")
    args = parser.parse_args()
    for candidate, opponent, players, games in MATCHES:
        if args.match and args.match != f"{candidate}-{opponent}":
            continue
        if args.players and players not in args.players:
            continue
        row = run_match(candidate, opponent, players, args.games or games, args.seed, args.workers)
        if args.json:
            print(json.dumps(asdict(row)), flush=True)
            continue
        low, high = row.ci95
        print(
            f"{candidate} vs {opponent}, {players} players: {row.wins:g}/{row.games} "
            f"= {row.win_rate:.1%} (95% CI {low:.1%}–{high:.1%}), "
            f"mean margin {row.mean_margin:+.1f}, "
            f"{row.seconds_per_decision * 1000:.1f} ms per {candidate} decision, "
            f"{row.wall_seconds:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
