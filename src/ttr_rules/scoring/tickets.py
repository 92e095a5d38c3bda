"""Tickets scored on the final network, with the best assignment of stations (E55–E58, E65, U9).

A player's own routes join cities into components (a union-find over city indices). Tickets
already connected score whatever the stations do; for the others, every built station may use
one opponent route at its city, and the assignment that scores the most is searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import NamedTuple

from ..maps.index import Edge, MapIndex, MultiTicket, map_index
from ..state import GameState
from .unionfind import component_labels

__all__ = [
    "Assignment",
    "TicketResult",
    "multi_ticket_value",
    "ticket_connected",
    "ticket_result",
    "ticket_value",
]

#: The route (by id) each built station uses, in building order; None = no route (U9).
Assignment = tuple[int | None, ...]


class TicketResult(NamedTuple):
    """One player's kept tickets scored: points, completed and failed counts, and the route
    each built station uses (None: no route), in building order."""

    points: int
    completed: int
    failed: int
    assignment: Assignment


#: A station's usable route: ``(component, component, station index, route id)``, the two
#: components of the own network it joins first.
_Option = tuple[int, int, int, int]


def ticket_result(state: GameState, player: int, network: Sequence[int]) -> TicketResult:
    """Kept tickets scored on the final network (E65), with the best station assignment.

    ``network`` labels each city by its component of the player's own routes
    (:func:`~ttr_rules.scoring.unionfind.component_labels`). Tickets already
    connected score whatever the stations do; the others ("open" tickets) are decided by the
    search over station assignments (:func:`_best_assignment`).
    """
    index = map_index(state.map)
    points = completed = 0
    open_tickets: list[Edge] = []
    ticket_ends = index.ticket_ends
    multi = index.ticket_multi
    for tid in state.players[player].tickets:
        spec = multi[tid]
        if spec is not None:  # several destinations: never open (no stations on such maps)
            value = multi_ticket_value(spec, network)
            points += value
            completed += value > 0
            continue
        a, b, value = ticket_ends[tid]
        ra = network[a]
        rb = network[b]
        if ra == rb:
            points += value
            completed += 1
        else:
            points -= value
            open_tickets.append((ra, rb, value))
    stations = state.players[player].stations
    assignment: Assignment = (None,) * len(stations)
    if stations and open_tickets:
        options = _station_options(state, index, player, network)
        gain, extra, assignment = _best_assignment(
            len(stations), options, open_tickets, len(network)
        )
        points += gain
        completed += extra
    failed = len(state.players[player].tickets) - completed
    return TicketResult(points, completed, failed, assignment)


def multi_ticket_value(spec: MultiTicket, network: Sequence[int]) -> int:
    """What a ticket to several destinations scores on ``network`` (component labels by city
    index): the highest value among the destinations joined to its origin, or minus its
    penalty when none is (U31; a country reaches by any of its end-points, which join no
    path, U32).

    >>> spec = ((0,), (((1,), 5), ((2, 3), 8)), 5)  # from city 0: to 1 for 5, to 2 or 3 for 8
    >>> multi_ticket_value(spec, [0, 0, 2, 3]), multi_ticket_value(spec, [0, 0, 2, 0])
    (5, 8)
    >>> multi_ticket_value(spec, [0, 1, 2, 3])
    -5
    """
    origins, targets, penalty = spec
    joined = {network[place] for place in origins}
    best = -penalty
    for places, value in targets:
        if value > best and any(network[place] in joined for place in places):
            best = value
    return best


def ticket_value(index: MapIndex, ticket: int, network: Sequence[int]) -> int:
    """What ticket ``ticket`` scores on ``network`` (component labels by city index) without
    stations: its points or minus them, or for a ticket to several destinations the best value
    reached or minus its penalty (U31).

    >>> from ttr_rules import load_map
    >>> index = map_index(load_map("europe"))
    >>> size = len(index.city_routes)
    >>> ticket_value(index, 0, list(range(size)))  # nothing joined: Brest-Petrograd lost
    -20
    """
    spec = index.ticket_multi[ticket]
    if spec is not None:
        return multi_ticket_value(spec, network)
    a, b, value = index.ticket_ends[ticket]
    return value if network[a] == network[b] else -value


def ticket_connected(index: MapIndex, ticket: int, network: Sequence[int]) -> bool:
    """Whether ``network`` joins ticket ``ticket``: its two cities, or its origin to one of
    its destinations (without stations)."""
    return ticket_value(index, ticket, network) > 0


def _station_options(
    state: GameState, index: MapIndex, player: int, network: Sequence[int]
) -> list[_Option]:
    """Every opponent route a station may use (E55, E58), by station then route id, between
    the components ``network`` labels.

    Only a claimed route of another player touching the station's city qualifies. A route
    inside one component of the own network changes nothing and is dropped; of several routes
    joining the same two components for one station only the lowest id is kept: both are
    exact, since the tie-break prefers no route, then the lowest id (U9).
    """
    owner = state.route_owner
    ends = index.route_ends
    options: list[_Option] = []
    for s, city in enumerate(state.players[player].stations):
        seen: set[tuple[int, int]] = set()
        for rid in index.city_routes[index.city_index[city]]:
            holder = owner[rid]
            if holder is None or holder == player:
                continue
            a, b, _ = ends[rid]
            ra = network[a]
            rb = network[b]
            pair = (ra, rb) if ra < rb else (rb, ra)
            if ra != rb and pair not in seen:
                seen.add(pair)
                options.append((ra, rb, s, rid))
    return options


def _useful_options(
    options: list[_Option], open_tickets: list[Edge], size: int
) -> tuple[list[_Option], list[Edge]]:
    """The options that may complete a ticket in some assignment, and the open tickets they
    may complete together.

    Options are edges between own-network components. Only a ticket with both ends on option
    edges can be completed by them ("candidates"); without one no option helps, which is
    usually known at once. An edge to a component that no other option touches and that holds
    no candidate's end cannot lie on a path between the ends of a candidate, so such dangling
    edges are removed repeatedly; then edges of option-graph components holding no candidate
    whose ends they connect are removed. A dropped option scores exactly as "no route", which
    the tie-break prefers, so the result is unchanged (U9).
    """
    touched = set()
    for a, b, _, _ in options:
        touched.add(a)
        touched.add(b)
    candidates = [t for t in open_tickets if t[0] in touched and t[1] in touched]
    if not candidates:
        return [], []
    terminals = {x for a, b, _ in candidates for x in (a, b)}
    while True:
        degree: dict[int, int] = {}
        for a, b, _, _ in options:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        kept = [
            o
            for o in options
            if (degree[o[0]] > 1 or o[0] in terminals) and (degree[o[1]] > 1 or o[1] in terminals)
        ]
        if len(kept) == len(options):
            break
        options = kept
    link = component_labels(size, options)
    reachable = [t for t in candidates if link[t[0]] == link[t[1]]]
    roots = {link[a] for a, _, _ in reachable}
    return [o for o in options if link[o[0]] in roots], reachable


def _best_assignment(
    station_count: int, options: list[_Option], open_tickets: list[Edge], size: int
) -> tuple[int, int, Assignment]:
    """Search every assignment of stations to usable routes (U9). The routes of several
    stations chain, so a ticket may be completed through station routes alone (E57).

    Returns the ticket points gained over "no station route", the extra tickets completed and
    the assignment (components are labelled below ``size``). Assignments are visited in
    lexicographic order (None before any route id, stations in building order) and one replaces
    the best only when strictly better in (points, completed), so the first best found has the
    lowest route ids.
    """
    options, reachable = _useful_options(options, open_tickets, size)
    none: Assignment = (None,) * station_count
    if not options:
        return 0, 0, none
    choices: list[list[_Option | None]] = [[None] for _ in range(station_count)]
    for usable in options:
        choices[usable[2]].append(usable)
    ceiling = (sum(2 * v for _, _, v in reachable), len(reachable))
    can_stop = all(v >= 0 for _, _, v in reachable)
    best_key = (0, 0)
    best = none
    for combo in product(*choices):
        gain, done = _gain(combo, reachable)
        if (gain, done) > best_key:
            best_key = (gain, done)
            best = tuple(None if o is None else o[3] for o in combo)
            if can_stop and best_key == ceiling:
                break
    return best_key[0], best_key[1], best


def _gain(combo: Sequence[_Option | None], tickets: list[Edge]) -> tuple[int, int]:
    """The points gained (twice each value: a failed ticket's loss undone) and the tickets
    completed when the stations use the routes of ``combo`` (E57: they chain).

    A union-find in a dict over the few joined components, without path compression: a combo
    has one edge per station at most."""
    parent: dict[int, int] = {}
    for option in combo:
        if option is not None:
            a = option[0]
            while a in parent:
                a = parent[a]
            b = option[1]
            while b in parent:
                b = parent[b]
            if a != b:
                parent[a] = b
    gain = done = 0
    for a, b, value in tickets:
        while a in parent:
            a = parent[a]
        while b in parent:
            b = parent[b]
        if a == b:
            gain += 2 * value
            done += 1
    return gain, done
