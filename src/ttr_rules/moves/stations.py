"""Building train stations (E51–E54).

A station goes in any city without one (E51); the n-th station of a player costs n cards of
one colour, locomotives wild (E52); one per turn (it is the whole turn), at most
``stations_per_player`` (E53).
Stations use no trains, so they are legal with none left and never trigger the end (E54).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import attrgetter, itemgetter

from ..actions import Action, BuildStation
from ..cards import COLORS
from ..errors import Reason
from ..events import StationBuilt
from ..maps.index import MapIndex, map_index, payment_indices
from ..state import GameState, Phase, evolve
from ..words import counted, seat_name
from .common import (
    START,
    ActionRules,
    Problem,
    can_pay,
    pay,
    payment_cards,
    payment_problem,
    wrong_phase,
)
from .draft import Draft

__all__ = [
    "ACTIONS",
    "apply",
    "build",
    "build_problem",
    "built_cities",
    "problem",
    "station_actions",
]

_stations_of = attrgetter("stations")


def built_cities(state: GameState) -> set[str]:
    """Every city with a station (E51)."""
    return {city for p in state.players for city in p.stations}


def station_actions(state: GameState, board: MapIndex) -> Sequence[Action]:
    """Every city without a station × every affordable payment of the next station's cost: a
    shared tuple (the same one for the same stations and payments), or a new list for costs
    beyond the map's tables."""
    player = state.players[state.current]
    built = len(player.stations)
    if built >= state.rules.stations_per_player:
        return ()
    cost = built + 1
    if cost >= board.stride:
        return _uncached_station_actions(state, cost)
    payments = tuple(payment_indices(player.hand.counts, cost, -1, 0, board.stride))
    if not payments:
        return ()
    key = (tuple(map(_stations_of, state.players)), payments)
    actions = board.station_cache.get(key)
    if actions is None:
        if len(board.station_cache) > 4096:
            board.station_cache.clear()
        taken = built_cities(state)
        free = [
            table
            for city, table in zip(state.map.cities, board.station_tables, strict=True)
            if city not in taken
        ]
        # Each city's payments taken by an itemgetter, city by city (C loops: a generator
        # over cities and payments cost about 70,000 instructions a miss, one in 14 calls).
        if len(payments) == 1:
            actions = tuple(map(itemgetter(payments[0]), free))
        else:
            actions = tuple(chain.from_iterable(map(itemgetter(*payments), free)))
        board.station_cache[key] = actions
    return actions


def _uncached_station_actions(state: GameState, cost: int) -> list[Action]:
    """Station actions for a cost beyond the board's tables (rules with many stations)."""
    hand = state.players[state.current].hand
    payments = [
        (c, k)
        for c in COLORS
        for k in range(cost + 1)
        if payment_problem(c, k, cost, -1) is None and can_pay(hand, c, k, cost)
    ]
    taken = built_cities(state)
    return [
        BuildStation(city, c, k)
        for city in state.map.cities
        if city not in taken
        for c, k in payments
    ]


def build_problem(state: GameState, action: BuildStation) -> Problem | None:
    """Why ``action`` is not a legal station build now, or None when it is: a known city
    without a station (E51), a station left (E53), the n-th station paid with n cards of one
    colour, locomotives wild (E52)."""
    if state.phase is not START:
        return wrong_phase(state.phase)
    board = map_index(state.map)
    if not isinstance(action.city, str) or action.city not in board.city_index:
        return Problem(Reason.NO_SUCH_CITY, f"the map has no city named {action.city}")
    owner = state.station_owner(action.city)
    if owner is not None:
        return Problem(Reason.STATION_TAKEN, f"{seat_name(owner)} has a station in {action.city}")
    player = state.players[state.current]
    cost = len(player.stations) + 1
    if cost > state.rules.stations_per_player:
        built = f"all {counted(len(player.stations), 'station')} built"
        return Problem(
            Reason.NO_STATIONS_LEFT,
            built if state.rules.stations_per_player else "this game has no stations",
        )
    found = payment_problem(action.color, action.locomotives, cost, -1)
    if found is not None:
        return found
    if not can_pay(player.hand, action.color, action.locomotives, cost):
        return Problem(
            Reason.NOT_ENOUGH_CARDS,
            f"the hand holds {player.hand}; this station costs {counted(cost, 'card')}",
        )
    return None


def build(draft: Draft, action: BuildStation) -> Phase:
    """Pay the station's cost and place it; the turn ends (E52, E53)."""
    player = draft.player
    cost = len(player.stations) + 1
    paid = payment_cards(action.color, action.locomotives, cost)
    draft.player = evolve(
        draft.player,
        hand=pay(player.hand, action.color, action.locomotives, cost),
        stations=(*player.stations, action.city),
    )
    draft.discard = draft.discard + paid
    if draft.log is not None:
        draft.log.append(StationBuilt(draft.state.current, action.city, paid))
    return START


#: The station family: its action class with its check and its transition.
ACTIONS: ActionRules = {BuildStation: (build_problem, build)}


def problem(state: GameState, action: BuildStation) -> Problem | None:
    """Why ``action`` is not legal now, or None when it is (see :func:`build_problem`)."""
    return build_problem(state, action)


def apply(draft: Draft, action: BuildStation) -> Phase:
    """Apply a legal station build (see :func:`build`)."""
    return build(draft, action)
