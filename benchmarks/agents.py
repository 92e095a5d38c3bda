"""Agent acceptance matches (a script, not a test): who beats whom, and how fast.

Each match puts one candidate agent against ``players - 1`` copies of an opponent (``greedy``
by default); the candidate's seat rotates from game to game and every deal is played from
every seat (duplicate style), so neither the seat nor the deal favours anyone. Prints, per
match, the candidate's wins (ties split), win rate with its 95% Wilson interval, mean margin
over the best opponent (in the text and JSON output also its 95% interval, and the mean margin
over the mean of the opponents), mean and longest seconds per decision (its own decisions
only), in wall-clock time and in CPU time of the process (on a shared machine the wall clock
counts the time other programs took the core; the CPU time is what the agent itself spent).

The field can also be an agent that is not in the package, written here from the rules alone:
``--opponent ticket-runner`` (:class:`TicketRunner`: it builds the shortest paths of its
tickets), so the strength is not only measured against the package's own ``greedy``.

    python benchmarks/agents.py                      # the whole table of docs/agents.md (long!)
    python benchmarks/agents.py --candidate mcts --players 3 --games 12
    python benchmarks/agents.py --candidate mcts:iterations=24,endgame=20 --players 4
    python benchmarks/agents.py --markdown           # rows for docs/agents.md's table
    python benchmarks/agents.py --candidate mcts --players 3 --opponent ticket-runner
    python benchmarks/agents.py --candidate mcts --players 3 --per-game games.jsonl

A candidate is ``NAME`` or ``NAME:KEY=VALUE,...`` (options of ``make_agent``): that is how a
variant is measured before it becomes a default. The acceptance figures are in issue 33: at
its default budget ``mcts`` wins at least 70%, 45%, 36% and 28% of the games against a field of
``greedy`` at 2, 3, 4 and 5 players (100 games at 2, 60 at 3-5), with a positive mean margin
and no decision over 2 s.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from typing import TextIO

from ttr_rules import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PlayerView,
    available_maps,
    final_scores,
    view_legal_actions,
    winners,
)
from ttr_rules.actions import Action
from ttr_rules.agents import Agent, available_agents, make_agent, play_game, register_agent
from ttr_rules.agents.planning import STRONG_STYLE
from ttr_rules.agents.tournament import wilson_interval

#: ``greedy`` in the style ``mcts`` plays its own seat with (no search): what the style buys.
STRONG_GREEDY = "greedy:" + ",".join(
    f"{name}={getattr(STRONG_STYLE, name):g}"
    for name in (
        "claim_weight",
        "points_weight",
        "ticket_weight",
        "tickets_min_trains",
        "tunnel_weight",
        "last_chance",
    )
)
#: Every shipped agent and difficulty level, measured against ``greedy``, and three
#: ablations: the strong style without search, the search without the strong style, and the
#: search trusting its means alone (no confidence test before leaving the style's choice).
CANDIDATES = (
    "random",
    "easy",
    "medium",
    "greedy",
    STRONG_GREEDY,
    "mcts:style=greedy",
    "mcts:confidence=0",
    "mcts",
    "hard",
)
#: Levels that are another agent under a new name (the same agent, the same seeds, the same
#: games): measured once, reported under both names.
SAME_AS = {"medium": "greedy", "hard": "mcts"}
#: Games per match by player count: four times the acceptance's least (100 at 2 players, 60
#: at 3-5), whose intervals are too wide to tell 68% from 76% or a margin of -5 from +3.
GAMES = {2: 400, 3: 200, 4: 200, 5: 200}


class TicketRunner:
    """An opponent from outside the package, written here from the rules alone (none of the
    package's planners): it keeps the offered tickets worth most for their distance, claims
    the routes of the shortest paths joining its tickets (its own routes free, others' routes
    closed), longest first with the fewest locomotives, draws the colours those routes need
    (face up when one shows, else blind), draws new tickets when its tickets are joined and
    it has 15 trains or more, and otherwise claims the longest route it can pay for."""

    name = "ticket-runner"

    def __init__(self, *, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: PlayerView) -> Action:
        options = view_legal_actions(view)
        seat = view.seats[view.player or 0]
        keeps = [a for a in options if isinstance(a, KeepTickets)]
        if keeps:
            worth = {t: self._ticket_worth(view, t) for t in seat.offered or ()}
            return max(keeps, key=lambda a: (sum(worth[t] for t in a.tickets), -len(a.tickets)))
        needed: set[int] = set()
        for ticket in seat.tickets or ():
            needed.update(self._path(view, ticket) or ())
        claims = [a for a in options if isinstance(a, ClaimRoute)]
        routes = view.map.routes
        wanted = [a for a in claims if a.route in needed]
        if wanted:
            return max(wanted, key=lambda a: (routes[a.route].length, -a.locomotives))
        if not needed and seat.trains >= 15 and DrawTickets() in options:
            return DrawTickets()
        colours = {routes[r].color for r in needed}
        for action in options:
            if isinstance(action, DrawFaceUp) and view.face_up[action.slot] in colours:
                return action
        if DrawBlind() in options:
            return DrawBlind()
        if claims:
            return max(claims, key=lambda a: (routes[a.route].length, -a.locomotives))
        return options[0]

    def _ticket_worth(self, view: PlayerView, ticket: int) -> float:
        path = self._path(view, ticket)
        if path is None:
            return -float(view.map.tickets[ticket].points)
        length = sum(view.map.routes[r].length for r in path)
        return view.map.tickets[ticket].points - 0.7 * length

    @staticmethod
    def _path(view: PlayerView, ticket: int) -> list[int] | None:
        """The open routes of a shortest path joining the ticket's cities (by trains), or
        None when the board no longer joins them."""
        game_map = view.map
        start, goal = game_map.tickets[ticket].a, game_map.tickets[ticket].b
        best: dict[str, int] = {start: 0}
        came: dict[str, tuple[str, int]] = {}
        frontier = [(0, start)]
        while frontier:
            cost, city = heapq.heappop(frontier)
            if city == goal:
                break
            if cost > best[city]:
                continue
            for route in game_map.routes:
                if city not in (route.a, route.b):
                    continue
                owner = view.route_owner[route.id]
                if owner is not None and owner != view.player:
                    continue
                other = route.b if city == route.a else route.a
                step = cost + (0 if owner == view.player else route.length)
                if step < best.get(other, 1 << 30):
                    best[other] = step
                    came[other] = (city, route.id)
                    heapq.heappush(frontier, (step, other))
        if goal not in best:
            return None
        path = []
        city = goal
        while city != start:
            city, route_id = came[city]
            if view.route_owner[route_id] is None:
                path.append(route_id)
        return path


if TicketRunner.name not in available_agents():
    register_agent(TicketRunner.name, TicketRunner)


class Timed:
    """Wraps an agent and times its decisions, by the wall clock and by the CPU time."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.longest = 0.0
        self.cpu = 0.0
        self.longest_cpu = 0.0
        self.decisions = 0

    def act(self, view: PlayerView) -> Action:
        began, began_cpu = time.perf_counter(), time.process_time()
        action = self.agent.act(view)
        spent, spent_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        self.seconds += spent
        self.longest = max(self.longest, spent)
        self.cpu += spent_cpu
        self.longest_cpu = max(self.longest_cpu, spent_cpu)
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


@dataclass(frozen=True)
class GameResult:
    """One game of a match, from the candidate's side."""

    index: int
    share: float  # the candidate's win share (ties split)
    margin: int  # over the best other player
    margin_over_mean: float  # over the mean of the other players
    seconds: float
    cpu: float
    decisions: int
    longest: float
    longest_cpu: float


#: One game of a match: candidate, opponent, players, index, first deal's seed, map.
Job = tuple[str, str, int, int, int, str]


def one_game(job: Job) -> GameResult:
    """Game ``index`` of a match (the deal ``seed + index // players``, the candidate in seat
    ``index % players``)."""
    candidate, opponent, players, index, seed, game_map = job
    seat = index % players
    deal = seed + index // players
    timed = Timed(build(candidate, deal * 10 + seat))
    agents: list[Agent] = [
        timed if s == seat else build(opponent, deal * 10 + s) for s in range(players)
    ]
    end = play_game(agents, map=game_map, seed=deal)
    best = winners(end)
    totals = [s.total for s in final_scores(end)]
    others = totals[:seat] + totals[seat + 1 :]
    return GameResult(
        index=index,
        share=1 / len(best) if seat in best else 0.0,
        margin=totals[seat] - max(others),
        margin_over_mean=totals[seat] - sum(others) / len(others),
        seconds=timed.seconds,
        cpu=timed.cpu,
        decisions=timed.decisions,
        longest=timed.longest,
        longest_cpu=timed.longest_cpu,
    )


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
    #: Half the width of the mean margin's 95% interval (normal approximation).
    margin_ci95: float
    #: The mean margin over the mean of the other players (not only the best one).
    mean_margin_over_mean: float
    seconds_per_decision: float
    longest_decision: float
    cpu_per_decision: float
    longest_cpu: float
    wall_seconds: float


def _played(jobs: list[Job], workers: int) -> Iterator[GameResult]:
    if workers <= 1:
        yield from map(one_game, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(one_game, jobs)


def run_match(
    candidate: str,
    opponent: str,
    players: int,
    games: int,
    seed: int,
    workers: int,
    per_game: TextIO | None = None,
    game_map: str = "europe",
) -> MatchResult:
    jobs = [(candidate, opponent, players, i, seed, game_map) for i in range(games)]
    began = time.perf_counter()
    rows: list[GameResult] = []
    for row in _played(jobs, workers):
        rows.append(row)
        if per_game is not None:
            record = {"candidate": candidate, "opponent": opponent, "players": players}
            print(json.dumps(record | asdict(row)), file=per_game, flush=True)
        cpu = sum(r.cpu for r in rows) / max(1, sum(r.decisions for r in rows))
        print(
            f"  {candidate} vs {opponent} ({players}p) game {len(rows)}: "
            f"wins {sum(r.share for r in rows):g}, margin {row.margin:+d}, "
            f"{cpu * 1000:.0f} ms CPU per decision so far",
            file=sys.stderr,
            flush=True,
        )
    wins = sum(r.share for r in rows)
    low, high = wilson_interval(wins, len(rows))
    decisions = max(1, sum(r.decisions for r in rows))
    return MatchResult(
        candidate=candidate,
        opponent=opponent,
        players=players,
        games=len(rows),
        wins=wins,
        win_rate=wins / len(rows),
        ci95=(low, high),
        mean_margin=statistics.fmean(r.margin for r in rows),
        margin_ci95=_half_width([r.margin for r in rows]),
        mean_margin_over_mean=statistics.fmean(r.margin_over_mean for r in rows),
        seconds_per_decision=sum(r.seconds for r in rows) / decisions,
        longest_decision=max(r.longest for r in rows),
        cpu_per_decision=sum(r.cpu for r in rows) / decisions,
        longest_cpu=max(r.longest_cpu for r in rows),
        wall_seconds=time.perf_counter() - began,
    )


def _half_width(values: list[int]) -> float:
    """Half the width of the 95% interval of the mean of ``values`` (0 for one value)."""
    if len(values) < 2:
        return 0.0
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def markdown_row(row: MatchResult) -> str:
    """One row of docs/agents.md's results table."""
    low, high = row.ci95
    return (
        f"| {row.candidate} | {row.players} | {row.games} | {row.wins:g} | "
        f"{row.win_rate:.1%} ({low:.1%}–{high:.1%}) | {row.mean_margin:+.1f} | "
        f"{row.cpu_per_decision:.3f} | {row.longest_cpu:.2f} | "
        f"{row.seconds_per_decision:.3f} | {row.longest_decision:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--candidate", action="append", help="NAME or NAME:KEY=VALUE,... (default: every agent)"
    )
    parser.add_argument("--opponent", default="greedy", help="the field (default greedy)")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument("--games", type=int, help="games per match (default: 400 at 2, 200 else)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    parser.add_argument(
        "--map", default="europe", choices=available_maps(), help="the map (default europe)"
    )
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="one JSON object per match")
    parser.add_argument("--markdown", action="store_true", help="rows of the docs' table")
    parser.add_argument(
        "--per-game", type=argparse.FileType("a"), help="append each game as a JSON line here"
    )
    args = parser.parse_args()
    if args.markdown:
        print(
            "| agent | players | games | wins | win rate (95% CI) | mean margin "
            "| CPU s/decision | longest CPU s | wall s/decision | longest wall s |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
    for players in args.players or sorted(GAMES):
        measured: dict[str, MatchResult] = {}
        wanted = args.candidate or CANDIDATES
        for candidate in sorted(wanted, key=lambda name: name in SAME_AS):
            games = args.games or GAMES[players]
            twin = measured.get(SAME_AS.get(candidate, ""))
            if twin is not None:
                row = replace(twin, candidate=candidate)
            else:
                row = run_match(
                    candidate,
                    args.opponent,
                    players,
                    games,
                    args.seed,
                    args.workers,
                    args.per_game,
                    args.map,
                )
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
                    f"mean margin {row.mean_margin:+.1f} ± {row.margin_ci95:.1f} "
                    f"(over the mean of the others {row.mean_margin_over_mean:+.1f}), "
                    f"{row.cpu_per_decision * 1000:.1f} ms CPU per decision "
                    f"(longest {row.longest_cpu:.2f} s; wall clock "
                    f"{row.seconds_per_decision * 1000:.1f} ms, longest "
                    f"{row.longest_decision:.2f} s), {row.wall_seconds:.0f} s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
