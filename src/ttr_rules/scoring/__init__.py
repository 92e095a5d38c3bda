"""Final scoring: routes, tickets with stations, the European Express, tie-breakers.

The scoring order of the rules (E78): route points (scored during play, E29/E71),
then tickets with the stations' routes assigned (E55–E58, E65, U9; :mod:`.tickets`), stations
left in reserve (E59), the European Express for the longest trail (E72–E75, U10; the graph search
is :mod:`.trail`), and finally the winner with the tie-breakers (E77, U11, U12). Every function
here is pure and valid on any state: before the end of the game the scores are provisional.
End-of-game bonuses are named scorers (:mod:`.bonuses`, ``Rules.bonuses``).
:func:`ttr_rules.outcome` (beside the engine, which says why a game ended) gives a finished
game's reason, winners and scores at once; scoring only reads a final state.

Cities are small ints (their index in ``GameMap.cities``, from the map's index
:mod:`ttr_rules.maps.index`) and connectivity is a union-find over them (:mod:`.unionfind`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from attrs import frozen

from ..events import Termination
from ..maps.index import Edge, map_index
from ..rules import TIE_BREAKERS, Rules
from ..state import GameState
from ..words import seat_name, signed
from .bonuses import bonus_scorer, express_holders
from .tickets import TicketResult, ticket_result
from .trail import longest_trail, network_trail
from .unionfind import component_labels

__all__ = [
    "Outcome",
    "PlayerScore",
    "final_scores",
    "longest_path",
    "longest_trail",
    "rank_winners",
    "winners",
]


@frozen
class PlayerScore:
    """One player's score breakdown.

    ``total == route_points + ticket_points + station_bonus + express_bonus`` plus the points
    of the other bonuses (E76). ``bonuses`` has one ``(name, points)`` pair per bonus the game
    scores other than ``express`` (``Rules.bonuses``), in order: the Globetrotter, a plugin's.
    ``station_routes`` has one ``(city, route id or None)`` pair per built station, in building
    order: the opponent route the station uses for every ticket (E56, U9), None when it helps no
    ticket. ``mountain_points`` is the part of ``route_points`` that the X marks of mountain
    routes scored (U27).
    """

    player: int
    route_points: int
    ticket_points: int
    tickets_completed: int
    tickets_failed: int
    station_bonus: int
    longest_path: int
    express_bonus: int
    total: int
    station_routes: tuple[tuple[str, int | None], ...] = ()
    bonuses: tuple[tuple[str, int], ...] = ()
    mountain_points: int = 0

    def __str__(self) -> str:
        """One line: the total and where it comes from (the score table with every player is
        :func:`ttr_rules.render.format_scores`).

        >>> print(PlayerScore(1, 40, -4, 2, 1, 4, 12, 0, 40))  # doctest: +NORMALIZE_WHITESPACE
        Player 2: 40 points (routes 40, tickets −4: 2 done 1 failed, stations +4, express 0,
        path 12)
        """
        ticket = signed(self.ticket_points)
        station = signed(self.station_bonus)
        express = signed(self.express_bonus)
        others = "".join(f", {name} {signed(points)}" for name, points in self.bonuses)
        return (
            f"{seat_name(self.player)}: {self.total} points"
            f" (routes {self.route_points}, tickets {ticket}:"
            f" {self.tickets_completed} done {self.tickets_failed} failed, stations {station},"
            f" express {express}{others}, path {self.longest_path})"
        )


def _owned_edges(state: GameState, ends: Sequence[Edge]) -> list[list[Edge]]:
    """The ends and length of every claimed route, by owner seat."""
    owned: list[list[Edge]] = [[] for _ in state.players]
    for rid, owner in enumerate(state.route_owner):
        if owner is not None:
            owned[owner].append(ends[rid])
    return owned


def longest_path(state: GameState, player: int) -> int:
    """The length in train spaces of ``player``'s longest continuous trail (E72).

    Only the player's own routes count: stations and the opponent routes they reach neither
    count nor bridge the trail (E73).

    >>> from ttr_rules import scenario
    >>> state = scenario(players=2, routes={23: 0, 59: 0})  # Brest-Paris, Paris-Frankfurt
    >>> longest_path(state, 0), longest_path(state, 1)
    (6, 0)
    """
    index = map_index(state.map)
    ends = index.route_ends
    edges = [
        ends[rid]
        for rid, owner in enumerate(state.route_owner)
        if owner is not None and owner == player  # None == int is slow
    ]
    return network_trail(edges, len(index.city_routes))


# --------------------------------------------------------------------------------------------
# Final scores, Express, winners (E59, E74–E78)


def final_scores(state: GameState) -> tuple[PlayerScore, ...]:
    """Every player's score breakdown, by seat (E76, E78).

    Valid on any state; before the end it is provisional. Tickets are the kept ones (offered
    tickets not yet kept do not count). Route points are those scored during play (E29).

    >>> from ttr_rules import scenario
    >>> state = scenario(players=2, routes={23: 0, 59: 0, 0: 1})
    >>> [(s.route_points, s.longest_path, s.express_bonus, s.station_bonus, s.total)
    ...  for s in final_scores(state)]
    [(8, 6, 10, 12, 30), (1, 1, 0, 12, 13)]
    """
    return tuple(
        PlayerScore(
            player=tally.seat,
            route_points=tally.route_points,
            ticket_points=tally.tickets.points,
            tickets_completed=tally.tickets.completed,
            tickets_failed=tally.tickets.failed,
            station_bonus=tally.station_bonus,
            longest_path=tally.longest_path,
            express_bonus=tally.express_bonus,
            total=tally.total,
            station_routes=tuple(zip(player.stations, tally.tickets.assignment, strict=True)),
            bonuses=tally.bonuses,
            mountain_points=marks * state.rules.mountain_points,
        )
        for tally, player, marks in zip(
            _tallies(state), state.players, _mountain_marks(state), strict=True
        )
    )


def _mountain_marks(state: GameState) -> list[int]:
    """The X marks of the mountain routes each seat owns (U27)."""
    marks = [0] * len(state.players)
    mountain = map_index(state.map).mountain
    for route, owner in enumerate(state.route_owner):
        if owner is not None:
            marks[owner] += mountain[route]
    return marks


class _Tally(NamedTuple):
    """One player's score in plain numbers: :class:`PlayerScore` without the records (what
    :func:`winners` needs)."""

    seat: int
    route_points: int
    tickets: TicketResult
    station_bonus: int
    longest_path: int
    express_bonus: int
    total: int
    bonuses: tuple[tuple[str, int], ...]


def _tallies(state: GameState) -> list[_Tally]:
    """Every player's score, by seat, in the scoring order of E78: tickets with the stations
    assigned (E55–E58, E65), stations in reserve (E59), the European Express (E72–E75)."""
    rules = state.rules
    index = map_index(state.map)
    size = len(index.city_routes)
    networks = []
    paths = []
    for edges in _owned_edges(state, index.route_ends):
        network = component_labels(size, edges)
        networks.append(network)
        paths.append(network_trail(edges, size, network))
    # The express from the paths just computed (the same as the registered ``express``
    # scorer, without walking the networks again); the other bonuses from their scorers.
    scores_express = "express" in rules.bonuses
    holders = express_holders(paths, rules) if scores_express else frozenset()
    others = [(name, bonus_scorer(name)(state)) for name in rules.bonuses if name != "express"]
    tallies = []
    for seat, player in enumerate(state.players):
        tickets = ticket_result(state, seat, networks[seat])
        reserve = max(0, rules.stations_per_player - len(player.stations))
        station_bonus = reserve * rules.station_bonus
        express = rules.longest_path_bonus if seat in holders else 0
        extra = tuple((name, points[seat]) for name, points in others)
        total = player.route_points + tickets.points + station_bonus + express
        total += sum(points for _, points in extra)
        tallies.append(
            _Tally(
                seat,
                player.route_points,
                tickets,
                station_bonus,
                paths[seat],
                express,
                total,
                extra,
            )
        )
    return tallies


#: What the ranking reads of a player: ``(player, total, tickets completed, stations built,
#: longest path)``.
_Entry = tuple[int, int, int, int, int]


def rank_winners(scores: Sequence[PlayerScore], rules: Rules) -> tuple[int, ...]:
    """The winners among ``scores``: most points, then ``rules.tie_breakers`` in order (E77).

    ``"tickets"``: most completed tickets; ``"stations"``: fewest stations built (E60, U12);
    ``"express"``: holding the European Express (E74). Players still tied all win (U11).

    >>> from ttr_rules import PlayerScore, Rules
    >>> def tied(player: int, completed: int) -> PlayerScore:
    ...     return PlayerScore(player, 40, 10, completed, 0, 0, 12, 0, 50)
    >>> rank_winners([tied(0, 3), tied(1, 2)], Rules())  # more tickets completed
    (0,)
    >>> rank_winners([tied(0, 3), tied(1, 3)], Rules())  # still tied: a shared win
    (0, 1)
    """
    return _ranked(
        [
            (s.player, s.total, s.tickets_completed, len(s.station_routes), s.longest_path)
            for s in scores
        ],
        rules,
    )


def _ranked(entries: Sequence[_Entry], rules: Rules) -> tuple[int, ...]:
    """:func:`rank_winners` on plain entries. The tie-breakers are only weighed when the most
    points are tied."""
    for name in rules.tie_breakers:
        if name not in TIE_BREAKERS:  # refused even when no tie needs it
            raise ValueError(f"unknown tie-breaker {name!r}")
    if not entries:
        return ()
    totals = [entry[1] for entry in entries]
    top_total = max(totals)
    if totals.count(top_total) == 1:
        return (entries[totals.index(top_total)][0],)
    holders = express_holders([entry[4] for entry in entries], rules)

    def key(entry: _Entry) -> tuple[int, ...]:
        parts = [entry[1]]
        for name in rules.tie_breakers:
            if name == "tickets":
                parts.append(entry[2])
            elif name == "stations":
                parts.append(-entry[3])
            else:  # "express": the names were checked above
                parts.append(int(entry[0] in holders))
        return tuple(parts)

    keys = {entry[0]: key(entry) for entry in entries}
    top = max(keys.values())
    return tuple(sorted(seat for seat, k in keys.items() if k == top))


def winners(state: GameState) -> tuple[int, ...]:
    """The winning seats, ascending, after the tie-breakers (E77, E78, U11, U12).

    More than one only when still tied after every tie-breaker.

    >>> from ttr_rules import scenario
    >>> winners(scenario(players=2, routes={23: 0, 59: 0, 0: 1}))
    (0,)
    >>> winners(scenario(players=3))  # nobody has scored: a three-way tie
    (0, 1, 2)
    """
    entries = [
        (t.seat, t.total, t.tickets.completed, len(p.stations), t.longest_path)
        for t, p in zip(_tallies(state), state.players, strict=True)
    ]
    return _ranked(entries, state.rules)


# --------------------------------------------------------------------------------------------
# The typed end of a game (python-chess's ``Outcome``)


@frozen
class Outcome:
    """How a finished game ended."""

    #: Why it ended: the final round was played (E66) or everybody passed (E20, U1).
    reason: Termination
    #: The winning seats, ascending, after the tie-breakers (E77); more than one only when
    #: still tied (U11).
    winners: tuple[int, ...]
    #: Every player's final score breakdown, by seat (E76).
    scores: tuple[PlayerScore, ...]

    @property
    def winner(self) -> int | None:
        """The one winner, or None when players are still tied."""
        return self.winners[0] if len(self.winners) == 1 else None
