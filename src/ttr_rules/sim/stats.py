"""Aggregates of many games for a map's balance report: :class:`BalanceStats`.

An accumulator: :meth:`BalanceStats.add` takes one :class:`~ttr_rules.sim.GameResult` at a
time (nothing of the game is kept but counts), :meth:`BalanceStats.merge` combines two
aggregates of disjoint batches into the aggregate of both (in any order: the result does not
depend on how games were split or ordered), and :meth:`to_dict` / :meth:`from_dict` give the raw
aggregates as JSON-ready data and back. Everything here is deterministic arithmetic without I/O.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .games import GameResult

__all__ = ["BalanceStats", "wilson_interval"]

#: The per-seat sums of the score breakdown, by their name in :meth:`BalanceStats.to_dict`.
_PARTS = (
    "route_points",
    "ticket_points",
    "station_bonus",
    "express_bonus",
    "tickets_completed",
    "tickets_failed",
    "longest_path",
)


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for the default ``z``).

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def _counter(data: Mapping[str, int] | Mapping[int, int]) -> Counter[int]:
    return Counter({int(k): int(v) for k, v in data.items()})


def _dump(counter: Counter[int]) -> dict[str, int]:
    return {str(k): counter[k] for k in sorted(counter)}


class BalanceStats:
    """Counts over the games of one map, player count and seating of agents.

    ``routes`` and ``tickets`` are the map's numbers of routes and tickets; results of another
    map, player count or agents are refused (:class:`ValueError`).

    Per seat: ``wins`` (games the seat is among the winners), ``express`` (games it holds the
    European Express), ``stations_built``, the score sums and histograms. Per route:
    ``route_claims`` (games it was claimed) and ``route_claims_by_winner``. Per ticket:
    ``ticket_kept`` and ``ticket_completed``. Per game: histograms of the winning
    ``margin``, of ``turns`` and ``decisions``; the ``terminations``; tunnel and station counts.
    """

    def __init__(self, map: str, players: int, agents: tuple[str, ...], routes: int, tickets: int):
        self.map = map
        self.players = players
        self.agents = agents
        self.games = 0
        self.ties = 0
        self.wins = [0] * players
        self.express = [0] * players
        self.express_winner_won = 0
        self.express_shared = 0
        self.stations_built = [0] * players
        self.stations_used = 0
        self.station_hist: Counter[int] = Counter()
        self.score_sum = [0] * players
        self.score_sq = [0] * players
        self.parts = {name: [0] * players for name in _PARTS}
        self.scores: list[Counter[int]] = [Counter() for _ in range(players)]
        self.margin: Counter[int] = Counter()
        self.turns: Counter[int] = Counter()
        self.decisions: Counter[int] = Counter()
        self.terminations: Counter[str] = Counter()
        self.route_claims = [0] * routes
        self.route_claims_by_winner = [0] * routes
        self.ticket_kept = [0] * tickets
        self.ticket_completed = [0] * tickets
        self.tunnels = dict.fromkeys(_TUNNEL_FIELDS, 0)
        #: Per bonus other than the Express, by name (``PlayerScore.bonuses``: the
        #: Globetrotter, a plugin's): ``holders`` per seat, games ``shared`` and games where a
        #: holder ``winner_won``.
        self.bonuses: dict[str, dict[str, Any]] = {}

    @classmethod
    def for_result(cls, result: GameResult, routes: int, tickets: int) -> BalanceStats:
        """An empty aggregate for games like ``result``."""
        return cls(result.map, result.players, result.agents, routes, tickets)

    @classmethod
    def of(cls, results: Iterable[GameResult], routes: int, tickets: int) -> BalanceStats:
        """The aggregate of ``results`` (at least one)."""
        it = iter(results)
        first = next(it, None)
        if first is None:
            raise ValueError("no results to aggregate")
        stats = cls.for_result(first, routes, tickets)
        stats.add(first)
        for result in it:
            stats.add(result)
        return stats

    # ------------------------------------------------------------------ accumulating

    def _check(self, map: str, players: int, agents: tuple[str, ...]) -> None:
        mine = (self.map, self.players, self.agents)
        if (map, players, agents) != mine:
            raise ValueError(f"games of {(map, players, agents)} do not aggregate with {mine}")

    def add(self, result: GameResult) -> None:
        """Count one game."""
        self._check(result.map, result.players, result.agents)
        self.games += 1
        best = set(result.winners)
        self.ties += len(best) > 1
        totals = result.totals
        for seat, score in enumerate(result.scores):
            self.wins[seat] += seat in best
            self.express[seat] += score.express_bonus > 0
            built = len(score.station_routes)
            self.stations_built[seat] += built
            self.station_hist[built] += 1
            self.stations_used += sum(rid is not None for _, rid in score.station_routes)
            self.score_sum[seat] += score.total
            self.score_sq[seat] += score.total * score.total
            self.scores[seat][score.total] += 1
            for name in _PARTS:
                self.parts[name][seat] += getattr(score, name)
        holders = {s.player for s in result.scores if s.express_bonus > 0}
        self.express_shared += len(holders) > 1
        self.express_winner_won += bool(holders & best)
        self._count_bonuses(result, best)
        ranked = sorted(totals, reverse=True)
        self.margin[ranked[0] - ranked[1] if len(ranked) > 1 else 0] += 1
        self.turns[result.turns] += 1
        self.decisions[result.decisions] += 1
        self.terminations[result.termination] += 1
        for rid, owner in enumerate(result.route_owner):
            if owner is not None:
                self.route_claims[rid] += 1
                self.route_claims_by_winner[rid] += owner in best
        for seat in range(result.players):
            for tid in result.tickets[seat]:
                self.ticket_kept[tid] += 1
            for tid in result.completed[seat]:
                self.ticket_completed[tid] += 1
        t = result.tunnels
        for name in self.tunnels:
            self.tunnels[name] += getattr(t, name)

    def merge(self, other: BalanceStats) -> BalanceStats:
        """A new aggregate of both (neither operand changes)."""
        self._check(other.map, other.players, other.agents)
        if len(other.route_claims) != len(self.route_claims) or len(other.ticket_kept) != len(
            self.ticket_kept
        ):
            raise ValueError("aggregates of maps of different sizes do not merge")
        return BalanceStats.from_dict(_merged(self.to_dict(), other.to_dict()))

    # ------------------------------------------------------------------ derived figures

    def win_rates(self) -> list[tuple[float, float, float]]:
        """Per seat: the win rate and its 95 % Wilson interval."""
        return [(w / self.games, *wilson_interval(w, self.games)) for w in self.wins]

    def mean_scores(self) -> list[float]:
        return [s / self.games for s in self.score_sum]

    def score_sd(self) -> list[float]:
        """Per seat: the (population) standard deviation of the final score."""
        n = self.games
        return [
            math.sqrt(max(0.0, sq / n - (s / n) ** 2))
            for s, sq in zip(self.score_sum, self.score_sq, strict=True)
        ]

    def mean_turns(self) -> float:
        return sum(k * v for k, v in self.turns.items()) / self.games

    def mean_decisions(self) -> float:
        return sum(k * v for k, v in self.decisions.items()) / self.games

    def claim_rates(self) -> list[float]:
        """Per route: the share of games in which it was claimed."""
        return [c / self.games for c in self.route_claims]

    def completion_rates(self) -> list[float | None]:
        """Per ticket: completed / kept (None for a ticket nobody kept)."""
        return [
            c / k if k else None
            for c, k in zip(self.ticket_completed, self.ticket_kept, strict=True)
        ]

    # ------------------------------------------------------------------ raw data

    def _count_bonuses(self, result: GameResult, best: set[int]) -> None:
        points: dict[str, list[int]] = {}
        for seat, score in enumerate(result.scores):
            for name, value in score.bonuses:
                points.setdefault(name, [0] * result.players)[seat] = value
        for name, values in points.items():
            counts = self.bonuses.setdefault(
                name, {"holders": [0] * self.players, "shared": 0, "winner_won": 0}
            )
            holders = {seat for seat, value in enumerate(values) if value > 0}
            for seat in holders:
                counts["holders"][seat] += 1
            counts["shared"] += len(holders) > 1
            counts["winner_won"] += bool(holders & best)

    def to_dict(self) -> dict[str, Any]:
        """The raw aggregates as JSON-ready data (:meth:`from_dict` reads it back)."""
        return {
            "map": self.map,
            "players": self.players,
            "agents": list(self.agents),
            "games": self.games,
            "ties": self.ties,
            "wins": list(self.wins),
            "express": list(self.express),
            "express_winner_won": self.express_winner_won,
            "express_shared": self.express_shared,
            "stations_built": list(self.stations_built),
            "stations_used": self.stations_used,
            "station_hist": _dump(self.station_hist),
            "score_sum": list(self.score_sum),
            "score_sq": list(self.score_sq),
            "parts": {name: list(v) for name, v in self.parts.items()},
            "scores": [_dump(c) for c in self.scores],
            "margin": _dump(self.margin),
            "turns": _dump(self.turns),
            "decisions": _dump(self.decisions),
            "terminations": dict(sorted(self.terminations.items())),
            "route_claims": list(self.route_claims),
            "route_claims_by_winner": list(self.route_claims_by_winner),
            "ticket_kept": list(self.ticket_kept),
            "ticket_completed": list(self.ticket_completed),
            "tunnels": dict(self.tunnels),
            "bonuses": {
                name: {
                    "holders": list(c["holders"]),
                    "shared": c["shared"],
                    "winner_won": c["winner_won"],
                }
                for name, c in sorted(self.bonuses.items())
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BalanceStats:
        """The aggregate :meth:`to_dict` described. Raises :class:`ValueError` naming the
        first problem of data of another shape, checked before anything is allocated (a
        claimed player count is checked against the lists it comes with, and the rules'
        limit of 10).

        >>> BalanceStats.from_dict({"players": 10**9})
        Traceback (most recent call last):
        ...
        ValueError: players: 1000000000 is not a player count (1 to 10)
        """
        _check_shape(data)
        players = int(data["players"])
        stats = cls(
            data["map"],
            players,
            tuple(data["agents"]),
            len(data["route_claims"]),
            len(data["ticket_kept"]),
        )
        for name in (
            "games",
            "ties",
            "express_winner_won",
            "express_shared",
            "stations_used",
        ):
            setattr(stats, name, int(data[name]))
        for name in (
            "wins",
            "express",
            "stations_built",
            "score_sum",
            "score_sq",
            "route_claims",
            "route_claims_by_winner",
            "ticket_kept",
            "ticket_completed",
        ):
            setattr(stats, name, [int(x) for x in data[name]])
        for name in ("station_hist", "margin", "turns", "decisions"):
            setattr(stats, name, _counter(data[name]))
        stats.scores = [_counter(c) for c in data["scores"]]
        stats.parts = {name: [int(x) for x in data["parts"][name]] for name in _PARTS}
        stats.terminations = Counter({str(k): int(v) for k, v in data["terminations"].items()})
        stats.tunnels = {name: int(data["tunnels"][name]) for name in stats.tunnels}
        stats.bonuses = {
            str(name): {
                "holders": [int(x) for x in c["holders"]],
                "shared": int(c["shared"]),
                "winner_won": int(c["winner_won"]),
            }
            for name, c in data.get("bonuses", {}).items()
        }
        return stats

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BalanceStats) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<BalanceStats {self.map} {self.players} players {self.games} games>"


#: The most players any rules allow (``Rules.max_players`` is at most 10, docs/errors.md).
_MAX_PLAYERS = 10
_COUNTS = ("games", "ties", "express_winner_won", "express_shared", "stations_used")
_PER_SEAT = ("wins", "express", "stations_built", "score_sum", "score_sq", "agents", "scores")
_PER_ROUTE = ("route_claims", "route_claims_by_winner")
_PER_TICKET = ("ticket_kept", "ticket_completed")
_TUNNEL_FIELDS = ("attempts", "free", "paid", "declined", "extra_cards")
_TABLES = ("station_hist", "margin", "turns", "decisions", "terminations", "tunnels", "parts")


def _check_shape(data: object) -> None:
    """Raise ValueError for aggregates that :meth:`BalanceStats.to_dict` cannot have written."""
    if not isinstance(data, Mapping):
        raise ValueError("expected a JSON object")
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError("players: expected an integer")
    if not 1 <= players <= _MAX_PLAYERS:
        raise ValueError(f"players: {players} is not a player count (1 to {_MAX_PLAYERS})")
    missing = [
        k
        for k in ("map", "players", *_COUNTS, *_PER_SEAT, *_PER_ROUTE, *_PER_TICKET, *_TABLES)
        if k not in data
    ]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    if not isinstance(data["map"], str):
        raise ValueError("map: expected a map name")
    for name in _COUNTS:
        if not isinstance(data[name], int) or data[name] < 0:
            raise ValueError(f"{name}: expected a count (an integer >= 0)")
    sizes = {name: players for name in _PER_SEAT}
    sizes.update(dict.fromkeys(_PER_ROUTE, _length(data, _PER_ROUTE[0])))
    sizes.update(dict.fromkeys(_PER_TICKET, _length(data, _PER_TICKET[0])))
    for name, size in sizes.items():
        if _length(data, name) != size:
            raise ValueError(f"{name}: {_length(data, name)} entries, expected {size}")
    for name in _TABLES:
        if not isinstance(data[name], Mapping):
            raise ValueError(f"{name}: expected a JSON object")
    for name in _PARTS:
        if _length(data["parts"], name) != players:
            raise ValueError(f"parts.{name}: expected {players} entries")
    _check_values(data, players)


#: Per-seat and per-board lists of counts (never negative); scores and their parts may be.
_COUNT_LISTS = ("wins", "express", "stations_built", "score_sq", *_PER_ROUTE, *_PER_TICKET)
#: Histograms whose counts add up to the games (``station_hist``: to games × players).
_PER_GAME_TABLES = ("margin", "turns", "decisions")


def _check_values(data: Mapping[str, Any], players: int) -> None:
    """Every number of well-shaped aggregates is an integer of the right sign, and the
    histograms count the games the aggregates claim (in time linear in the data)."""
    games = data["games"]
    if not all(isinstance(a, str) for a in data["agents"]):
        raise ValueError("agents: expected agent names")
    for name in _COUNT_LISTS:
        if not all(_is_count(x) for x in data[name]):
            raise ValueError(f"{name}: expected counts (integers >= 0)")
    for name in ("wins", "express"):
        if any(x > games for x in data[name]):
            raise ValueError(f"{name}: more than the {games} games")
    lists = [("score_sum", data["score_sum"])]
    lists += [(f"parts.{name}", data["parts"][name]) for name in _PARTS]
    for name, values in lists:
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in values):
            raise ValueError(f"{name}: expected integers")
    tables = [(name, data[name], games) for name in _PER_GAME_TABLES]
    tables += [("station_hist", data["station_hist"], games * players)]
    tables += [(f"scores[{seat}]", table, games) for seat, table in enumerate(data["scores"])]
    for name, table, total in tables:
        if not isinstance(table, Mapping) or not all(_is_int_text(k) for k in table):
            raise ValueError(f"{name}: expected a table of integers")
        _check_counts(name, table.values(), total)
    _check_counts("terminations", data["terminations"].values(), games)
    _check_bonuses(data.get("bonuses", {}), players, games)
    if not all(_is_count(data["tunnels"].get(name)) for name in _TUNNEL_FIELDS):
        raise ValueError(f"tunnels: expected counts of {', '.join(_TUNNEL_FIELDS)}")


def _check_bonuses(bonuses: Any, players: int, games: int) -> None:
    """The named bonuses' counts (absent from aggregates written before they were counted)."""
    if not isinstance(bonuses, Mapping):
        raise ValueError("bonuses: expected a JSON object")
    for name, counts in bonuses.items():
        where = f"bonuses.{name}"
        if not isinstance(counts, Mapping) or set(counts) != {"holders", "shared", "winner_won"}:
            raise ValueError(f"{where}: expected holders, shared and winner_won")
        holders = counts["holders"]
        if not isinstance(holders, list) or len(holders) != players:
            raise ValueError(f"{where}.holders: expected {players} entries")
        for part, values in (("holders", holders), ("", [counts["shared"], counts["winner_won"]])):
            if not all(_is_count(x) and x <= games for x in values):
                label = f"{where}.{part}" if part else where
                raise ValueError(f"{label}: expected counts from 0 to the {games} games")


def _check_counts(name: str, counts: Iterable[Any], total: int) -> None:
    values = list(counts)
    if not all(_is_count(x) for x in values):
        raise ValueError(f"{name}: expected counts (integers >= 0)")
    if sum(values) != total:
        raise ValueError(f"{name}: its counts add up to {sum(values)}, expected {total}")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_int_text(key: str) -> bool:
    """A histogram key: a short decimal integer (``"-3"``, ``"120"``)."""
    return len(key) <= 12 and key.lstrip("-").isdigit() and key.isascii()


def _length(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, list):
        raise ValueError(f"{name}: expected a list")
    return len(value)


_IDENTITY = ("map", "players", "agents")


def _merged(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two ``to_dict`` aggregates summed field by field (the identity fields kept)."""
    return {k: a[k] if k in _IDENTITY else _sum(a[k], b[k]) for k in a}


def _sum(a: Any, b: Any) -> Any:
    if isinstance(a, dict):  # histograms and named counts: the union of the keys
        keys = sorted(set(a) | set(b), key=_key)
        return {k: _sum(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k)) for k in keys}
    if isinstance(a, list):
        return [_sum(x, y) for x, y in zip(a, b, strict=True)]
    return a + b


def _key(k: str) -> tuple[int, int | str]:
    """Histogram keys in numeric order, names in text order."""
    try:
        return (0, int(k))
    except ValueError:
        return (1, k)
