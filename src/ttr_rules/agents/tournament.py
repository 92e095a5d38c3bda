"""Tournaments between agents: the schedule and the statistics (no game playing here).

:func:`schedule` lists the games of a round robin with the seats rotated; whoever plays them
(``ttr tournament`` uses :func:`ttr_rules.sim.run_games`) hands the outcomes to
:func:`summarize`, which computes per agent the win rate with its 95% Wilson confidence
interval, the mean score and the mean margin over the best other player, Elo-style ratings fitted
to all pairwise results (a Bradley–Terry model), and the head-to-head table.

Results are plain :class:`MatchResult` values (agent names by seat, totals, winners), so the
statistics are pure functions that are easy to test. (The game's own ending is
:class:`ttr_rules.Outcome`; this module's former ``Outcome`` is a deprecated alias of
:class:`MatchResult`.)
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from attrs import frozen

__all__ = [
    "AgentStats",
    "MatchResult",
    "Pairing",
    "Standings",
    "Tally",
    "bradley_terry_elo",
    "lineup_count",
    "pairings",
    "schedule",
    "summarize",
    "wilson_interval",
]


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ties may count as half a
    success. ``(0.0, 1.0)`` for no trials.

    >>> low, high = wilson_interval(95, 100)
    >>> round(low, 3), round(high, 3)
    (0.888, 0.978)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@frozen
class Pairing:
    """One scheduled game: its deal seed and the agent of every seat."""

    seed: int
    seats: tuple[str, ...]


def _lineups(agents: Sequence[str], players: int) -> Iterator[tuple[str, ...]]:
    """The line-ups of a round robin: every set of ``players`` different agents; with fewer
    agents than seats, every agent alone against each other agent in all other seats."""
    if len(agents) >= players:
        return itertools.combinations(agents, players)
    return ((a,) + (b,) * (players - 1) for a, b in itertools.permutations(agents, 2))


def schedule(agents: Sequence[str], players: int, games: int, seed: int = 0) -> list[Pairing]:
    """A round robin: ``games`` games for every line-up, the seats rotated from game to game.

    Consecutive groups of ``players`` games share a deal (the same seed) and rotate the
    line-up through every seat, so each agent plays each deal from each seat (duplicate
    style): seat advantage and lucky deals cancel out. Seeds are consecutive from ``seed``.
    :func:`pairings` gives the same games one at a time, for schedules too long to hold.

    >>> for pairing in schedule(["greedy", "random"], 2, 4):
    ...     print(pairing.seed, pairing.seats)
    0 ('greedy', 'random')
    0 ('random', 'greedy')
    1 ('greedy', 'random')
    1 ('random', 'greedy')
    """
    return list(pairings(agents, players, games, seed))


def pairings(agents: Sequence[str], players: int, games: int, seed: int = 0) -> Iterator[Pairing]:
    """The games of :func:`schedule`, made one at a time as they are asked for (the arguments
    are checked at the call, before the first game). Its length is
    ``games * lineup_count(len(agents), players)``.

    >>> [p.seed for p in pairings(["a", "b", "c"], 2, 2)]
    [0, 0, 1, 1, 2, 2]
    """
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    if len(set(agents)) != len(agents):
        raise ValueError(f"agents are named twice: {', '.join(agents)}")
    if players < 2:
        raise ValueError(f"players must be at least 2, got {players}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    return _pairings(tuple(agents), players, games, seed)


def lineup_count(agents: int, players: int) -> int:
    """How many line-ups a round robin of ``agents`` agents in ``players`` seats has.

    >>> lineup_count(3, 2), lineup_count(2, 4)
    (3, 2)
    """
    return math.comb(agents, players) if agents >= players else agents * (agents - 1)


def _pairings(agents: tuple[str, ...], players: int, games: int, seed: int) -> Iterator[Pairing]:
    next_seed = seed
    for lineup in _lineups(agents, players):
        for game in range(games):
            shift = game % players
            if shift == 0 and game:
                next_seed += 1
            yield Pairing(next_seed, lineup[-shift:] + lineup[:-shift] if shift else lineup)
        next_seed += 1


@frozen
class MatchResult:
    """One finished game of a tournament: the agent of every seat, the final totals and the
    winners."""

    seats: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@frozen
class AgentStats:
    """One agent's results over a tournament (wins split evenly among tied winners)."""

    agent: str
    games: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    #: Mean of (own total − best other total).
    mean_margin: float
    elo: float


@frozen
class Standings:
    """The tournament table (best Elo first) and the head-to-head results.

    ``head_to_head[(a, b)]`` is ``(points, comparisons)``: a's score against b over every
    pair of seats a and b held in the same game (1 for finishing ahead, ½ for a tie).
    """

    players: int
    games: int
    table: tuple[AgentStats, ...]
    head_to_head: dict[tuple[str, str], tuple[float, int]]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (what ``ttr tournament --json`` prints)."""
        return {
            "players": self.players,
            "games": self.games,
            "agents": [
                {
                    "agent": s.agent,
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": s.win_rate,
                    "ci95": [s.ci_low, s.ci_high],
                    "mean_score": s.mean_score,
                    "mean_margin": s.mean_margin,
                    "elo": s.elo,
                }
                for s in self.table
            ],
            "head_to_head": [
                {"agent": a, "opponent": b, "score": p, "comparisons": n}
                for (a, b), (p, n) in sorted(self.head_to_head.items())
            ],
        }


def _beats(outcome: MatchResult, i: int, j: int) -> float:
    """Seat ``i``'s result against seat ``j``: 1 ahead, ½ level, 0 behind (winners rank
    above everyone else, E77's tie-breakers included)."""
    wi, wj = i in outcome.winners, j in outcome.winners
    if wi != wj:
        return 1.0 if wi else 0.0
    ti, tj = outcome.totals[i], outcome.totals[j]
    return 1.0 if ti > tj else 0.5 if ti == tj else 0.0


def bradley_terry_elo(
    results: dict[tuple[str, str], tuple[float, int]],
    agents: Sequence[str],
    iterations: int = 500,
) -> dict[str, float]:
    """Elo-style ratings fitted to pairwise results (Bradley–Terry by minorization–
    maximization), centred on 1500: a 400-point gap means 10:1 odds.

    Every agent gets a virtual half win and half loss against a 1500-rated reference, so
    that an unbeaten agent still gets a finite rating.

    >>> elo = bradley_terry_elo({("a", "b"): (75.0, 100), ("b", "a"): (25.0, 100)}, ["a", "b"])
    >>> round(elo["a"] - elo["b"])
    190
    """
    strength = {a: 1.0 for a in agents}
    for _ in range(iterations):
        new: dict[str, float] = {}
        for a in agents:
            wins = 0.5  # the virtual games against a reference of strength 1
            denominator = 1.0 / (strength[a] + 1.0)
            for b in agents:
                if b == a:
                    continue
                won, n = results.get((a, b), (0.0, 0))
                wins += won
                if n:
                    denominator += n / (strength[a] + strength[b])
            new[a] = wins / denominator
        # Keep the geometric mean at 1 (ratings centred on 1500).
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {a: v / mean for a, v in new.items()}
        if all(abs(new[a] - strength[a]) < 1e-10 for a in agents):
            strength = new
            break
        strength = new
    return {a: 1500.0 + 400.0 * math.log10(strength[a]) for a in agents}


class Tally:
    """The running totals of a tournament, one :class:`MatchResult` at a time: memory stays the
    size of the table however many games are added (``ttr tournament`` streams millions).

    >>> tally = Tally(["greedy", "random"])
    >>> tally.add(MatchResult(("greedy", "random"), (120, 40), (0,)))
    >>> tally.standings().table[0].agent
    'greedy'
    """

    def __init__(self, agents: Sequence[str] = ()) -> None:
        self.names: list[str] = list(dict.fromkeys(agents))
        self.games = dict.fromkeys(self.names, 0)
        self.wins = dict.fromkeys(self.names, 0.0)
        self.scores = dict.fromkeys(self.names, 0.0)
        self.margins = dict.fromkeys(self.names, 0.0)
        self.h2h: dict[tuple[str, str], tuple[float, int]] = {}
        self.players = 0
        self.count = 0

    def add(self, o: MatchResult) -> None:
        """Count one finished game."""
        for name in o.seats:
            if name not in self.games:
                self.names.append(name)
                self.games[name], self.wins[name] = 0, 0.0
                self.scores[name], self.margins[name] = 0.0, 0.0
        self.count += 1
        self.players = max(self.players, len(o.seats))
        for seat, name in enumerate(o.seats):
            self.games[name] += 1
            if seat in o.winners:
                self.wins[name] += 1.0 / len(o.winners)
            self.scores[name] += o.totals[seat]
            best_other = max(t for s, t in enumerate(o.totals) if s != seat)
            self.margins[name] += o.totals[seat] - best_other
        for i, j in itertools.permutations(range(len(o.seats)), 2):
            a, b = o.seats[i], o.seats[j]
            if a == b:
                continue
            won, n = self.h2h.get((a, b), (0.0, 0))
            self.h2h[(a, b)] = (won + _beats(o, i, j), n + 1)

    def standings(self) -> Standings:
        """The table of the games added so far."""
        elo = bradley_terry_elo(self.h2h, self.names)
        table = []
        for name in self.names:
            n = self.games[name]
            wins = self.wins[name]
            low, high = wilson_interval(wins, n)
            table.append(
                AgentStats(
                    agent=name,
                    games=n,
                    wins=wins,
                    win_rate=wins / n if n else 0.0,
                    ci_low=low,
                    ci_high=high,
                    mean_score=self.scores[name] / n if n else 0.0,
                    mean_margin=self.margins[name] / n if n else 0.0,
                    elo=elo[name],
                )
            )
        table.sort(key=lambda s: (-s.elo, s.agent))
        return Standings(
            players=self.players, games=self.count, table=tuple(table), head_to_head=dict(self.h2h)
        )


def summarize(outcomes: Iterable[MatchResult], agents: Sequence[str] | None = None) -> Standings:
    """The standings of a tournament from its game outcomes (one pass; see :class:`Tally`).

    >>> games = [MatchResult(("greedy", "random"), (120, 40), (0,)),
    ...          MatchResult(("random", "greedy"), (55, 98), (1,))]
    >>> table = summarize(games).table
    >>> [(s.agent, s.wins, s.mean_margin) for s in table]
    [('greedy', 2.0, 61.5), ('random', 0.0, -61.5)]
    """
    tally = Tally(agents or ())
    for outcome in outcomes:
        tally.add(outcome)
    return tally.standings()


def __getattr__(name: str) -> Any:
    """``Outcome``, the former name of :class:`MatchResult`, still imports with a warning."""
    if name == "Outcome":
        warnings.warn(
            "ttr_rules.agents.tournament.Outcome is renamed MatchResult "
            "(ttr_rules.Outcome is the game's ending)",
            DeprecationWarning,
            stacklevel=2,
        )
        return MatchResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
