"""Building train stations (E51–E54).

A station goes in any city without one (E51); the n-th station of a player costs n cards of
one colour, locomotives wild (E52); one per turn (it is the whole turn), at most
``stations_per_player`` (E53).
Stations use no trains, so they are legal with none left and never trigger the end (E54).
"""

from __future__ import annotations

from operator import attrgetter

from ..actions import Action, BuildStation
from ..cards import COLORS
from ..errors import IllegalActionError, Reason
from ..events import Event, StationBuilt
from ..maps.index import MapIndex, map_index, payment_indices
from ..piles import Piles
from ..state import GameState, Phase
from .claim import _payment_problem
from .common import can_pay, pay, payment_cards, with_player
from .turn import finish_action

__all__ = ["apply_build_station", "station_actions", "station_problem"]

# Enum members are looked up once here: ``Phase.START`` in a function body costs an enum
# class-attribute look-up (about 0.2 µs on Python 3.11) every time it runs.
_START = Phase.START


_stations_of = attrgetter("stations")


def built_cities(state: GameState) -> set[str]:
    return {city for p in state.players for city in p.stations}


def station_actions(state: GameState, board: MapIndex) -> list[Action]:
    """Every city without a station × every affordable payment of the next station's cost."""
    player = state.players[state.current]
    built = len(player.stations)
    if built >= state.rules.stations_per_player:
        return []
    cost = built + 1
    if cost >= board.stride:
        return _uncached_station_actions(state, cost)
    payments = tuple(payment_indices(player.hand.counts, cost, -1, 0, board.stride))
    if not payments:
        return []
    key = (tuple(map(_stations_of, state.players)), payments)
    actions: list[Action] | None = board.station_cache.get(key)
    if actions is None:
        if len(board.station_cache) > 4096:
            board.station_cache.clear()
        taken = built_cities(state)
        actions = board.station_cache[key] = [
            table[i]  # type: ignore[misc]
            for city, table in zip(state.map.cities, board.station_tables, strict=True)
            if city not in taken
            for i in payments
        ]
    return actions


def _uncached_station_actions(state: GameState, cost: int) -> list[Action]:
    """Station actions for a cost beyond the board's tables (rules with many stations)."""
    hand = state.players[state.current].hand
    payments = [
        (c, k)
        for c in COLORS
        for k in range(cost + 1)
        if _payment_problem(c, k, cost, -1) is None and can_pay(hand, c, k, cost)
    ]
    taken = built_cities(state)
    return [
        BuildStation(city, c, k)
        for city in state.map.cities
        if city not in taken
        for c, k in payments
    ]


def station_problem(state: GameState, action: BuildStation) -> tuple[Reason, str] | None:
    """Why ``action`` is not a legal station build now, or None when it is."""
    if state.phase is not _START:
        return Reason.WRONG_PHASE, f"phase is {state.phase.value}"
    board = map_index(state.map)
    if not isinstance(action.city, str) or action.city not in board.city_index:
        return Reason.NO_SUCH_CITY, f"{action.city!r}"
    owner = state.station_owner(action.city)
    if owner is not None:
        return Reason.STATION_TAKEN, f"player {owner} has a station in {action.city}"
    player = state.players[state.current]
    cost = len(player.stations) + 1
    if cost > state.rules.stations_per_player:
        return Reason.NO_STATIONS_LEFT, f"{len(player.stations)} built"
    problem = _payment_problem(action.color, action.locomotives, cost, -1)
    if problem is not None:
        return problem
    if not can_pay(player.hand, action.color, action.locomotives, cost):
        return Reason.NOT_ENOUGH_CARDS, f"hand {player.hand}, station costs {cost}"
    return None


def apply_build_station(
    state: GameState, action: BuildStation, log: list[Event] | None
) -> GameState:
    """Pay the station's cost and place it; the turn ends (E52, E53)."""
    problem = station_problem(state, action)
    if problem is not None:
        raise IllegalActionError(problem[0], action, problem[1])
    seat = state.current
    player = state.players[seat]
    cost = len(player.stations) + 1
    paid = payment_cards(action.color, action.locomotives, cost)
    player = player.replace(
        hand=pay(player.hand, action.color, action.locomotives, cost),
        stations=(*player.stations, action.city),
    )
    piles = Piles(state, log)
    piles.discard = piles.discard + paid
    if log is not None:
        log.append(StationBuilt(seat, action.city, paid))
    players = with_player(state.players, seat, player)
    return finish_action(state, piles, players, log, _START)
