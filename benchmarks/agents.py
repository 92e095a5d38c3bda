"""Agent acceptance matches (a script, not a test): who beats whom, and how fast.

Each match puts one candidate agent against ``players - 1`` copies of an opponent (``greedy``
by default); the candidate's seat rotates from game to game and every deal is played from
every seat (duplicate style), so neither the seat nor the deal favours anyone. Prints, per
match, the candidate's wins (ties split), win rate with its 95% Wilson interval, mean margin
over the best opponent, mean and longest seconds per decision (its own decisions only).

    python benchmarks/agents.py                      # the whole table of docs/agents.md (long!)
    python benchmarks/agents.py --candidate mcts --players 3 --games 12
    python benchmarks/agents.py --candidate mcts:iterations=24,endgame=20 --players 4
    python benchmarks/agents.py --markdown           # rows for docs/agents.md's table

A candidate is ``NAME`` or ``NAME:KEY=VALUE,...`` (options of ``make_agent``): that is how a
variant is measured before it becomes a default. The acceptance figures are in issue 33: at
its default budget ``mcts`` wins at least 70%, 45%, 36% and 28% of the games against a field of
``greedy`` at 2, 3, 4 and 5 players (100 games at 2, 60 at 3-5), with a positive mean margin
and no decision over 2 s.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace

from ttr_rules import PlayerView, final_scores, winners
from ttr_rules.actions import Action
from ttr_rules.agents import Agent, make_agent, play_game
from ttr_rules.agents.tournament import wilson_interval

#: Every shipped agent and difficulty level, measured against ``greedy``.
CANDIDATES = ("random", "easy", "medium", "greedy", "mcts", "hard")
#: Levels that are another agent under a new name (the same agent, the same seeds, the same
#: games): measured once, reported under both names.
SAME_AS = {"medium": "greedy", "hard": "mcts"}
#: Games per match by player count (the acceptance sizes).
GAMES = {2: 100, 3: 60, 4: 60, 5: 60}


class Timed:
    """Wraps an agent and times its decisions."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.longest = 0.0
        self.decisions = 0

    def act(self, view: PlayerView) -> Action:
        began = time.perf_counter()
        action = self.agent.act(view)
        spent = time.perf_counter() - began
        self.seconds += spent
        self.longest = max(self.longest, spent)
        self.decisions += 1
        return action


def build(spec: str, seed: int) -> Agent:
    """An agent from ``NAME`` or ``NAME:KEY=VALUE,...`` (values read as JSON when they can
    be, e.g. ``mcts:iterations=24,endgame=20``): how variants are measured before they
    become defaults."""
    name, _, rest = spec.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return make_agent(name, seed=seed, **options)


def one_game(job: tuple[str, str, int, int, int]) -> tuple[float, int, float, int, float]:
    """Game ``index`` of a match: (candidate's win share, margin, seconds, decisions, longest
    decision in seconds)."""
    candidate, opponent, players, index, seed = job
    seat = index % players
    deal = seed + index // players
    timed = Timed(build(candidate, deal * 10 + seat))
    agents: list[Agent] = [
        timed if s == seat else build(opponent, deal * 10 + s) for s in range(players)
    ]
    end = play_game(agents, seed=deal)
    best = winners(end)
    totals = [s.total for s in final_scores(end)]
    share = 1 / len(best) if seat in best else 0.0
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return share, margin, timed.seconds, timed.decisions, timed.longest


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
    longest_decision: float
    wall_seconds: float


def _played(
    jobs: list[tuple[str, str, int, int, int]], workers: int
) -> Iterator[tuple[float, int, float, int, float]]:
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
        longest_decision=max(r[4] for r in rows),
        wall_seconds=time.perf_counter() - began,
    )


def markdown_row(row: MatchResult) -> str:
    """One row of docs/agents.md's results table."""
    low, high = row.ci95
    return (
        f"| {row.candidate} | {row.players} | {row.games} | {row.wins:g} | "
        f"{row.win_rate:.1%} ({low:.1%}–{high:.1%}) | {row.mean_margin:+.1f} | "
        f"{row.seconds_per_decision:.3f} | {row.longest_decision:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--candidate", action="append", help="NAME or NAME:KEY=VALUE,... (default: every agent)"
    )
    parser.add_argument("--opponent", default="greedy", help="the field (default greedy)")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument("--games", type=int, help="games per match (default: 100 at 2, 60 else)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="one JSON object per match")
    parser.add_argument("--markdown", action="store_true", help="rows of the docs' table")
    args = parser.parse_args()
    if args.markdown:
        print(
            "| agent | players | games | wins | win rate (95% CI) | mean margin | s/decision "
            "| longest s |"
        )
        print("|---|---|---|---|---|---|---|---|")
    for players in args.players or sorted(GAMES):
        measured: dict[str, MatchResult] = {}
        wanted = args.candidate or CANDIDATES
        for candidate in sorted(wanted, key=lambda name: name in SAME_AS):
            games = args.games or GAMES[players]
            twin = measured.get(SAME_AS.get(candidate, ""))
            if twin is not None:
                row = replace(twin, candidate=candidate)
            else:
                row = run_match(candidate, args.opponent, players, games, args.seed, args.workers)
            measured[candidate] = row
            if args.json:
                print(json.dumps(asdict(row)), flush=True)
            elif args.markdown:
                print(markdown_row(row), flush=True)
            else:
                low, high = row.ci95
                print(
                    f"{candidate} vs {args.opponent}, {players} players: {row.wins:g}/{row.games} "
                    f"= {row.win_rate:.1%} (95% CI {low:.1%}–{high:.1%}), "
                    f"mean margin {row.mean_margin:+.1f}, "
                    f"{row.seconds_per_decision * 1000:.1f} ms per decision "
                    f"(longest {row.longest_decision:.2f} s), {row.wall_seconds:.0f} s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
