"""Per-map lookup tables for the engine's hot path, built once per map.

The engine never walks :class:`~ttr_rules.GameMap` objects while generating or applying moves:
it reads these flat tuples instead, and hands out action objects created once here, so that
``legal_actions`` allocates almost nothing.
"""

from __future__ import annotations

from attrs import frozen

from .actions import BuildStation, ClaimRoute
from .cards import COLORS, LOCOMOTIVE_CODE, Color
from .maps import GameMap

__all__ = ["Board", "board_for", "payment_index"]

_LOCO = LOCOMOTIVE_CODE
#: Card kinds (0–8) × locomotive counts (0–8): ``payment_index(color_code, locos)``.
_MAX_PAYMENT = 9


def payment_index(color_code: int, locomotives: int) -> int:
    """Position of a ``(colour, locomotives)`` payment in a per-route or per-city action table."""
    return color_code * _MAX_PAYMENT + locomotives


def _claim_table(route_id: int, length: int) -> tuple[ClaimRoute | None, ...]:
    table: list[ClaimRoute | None] = [None] * (9 * _MAX_PAYMENT)
    for code, color in enumerate(COLORS):
        for locos in range(min(length, _MAX_PAYMENT - 1) + 1):
            if color is Color.LOCOMOTIVE:
                if locos == length:
                    table[payment_index(code, locos)] = ClaimRoute(route_id, color, locos)
            elif locos < length:
                table[payment_index(code, locos)] = ClaimRoute(route_id, color, locos)
    return tuple(table)


def _station_table(city: str, max_cost: int) -> tuple[BuildStation | None, ...]:
    table: list[BuildStation | None] = [None] * (9 * _MAX_PAYMENT)
    for cost in range(1, max_cost + 1):
        for code, color in enumerate(COLORS):
            if color is Color.LOCOMOTIVE:
                table[payment_index(code, cost)] = BuildStation(city, color, cost)
            else:
                for locos in range(cost):
                    table[payment_index(code, locos)] = BuildStation(city, color, locos)
    return tuple(table)


@frozen(eq=False)
class Board:
    """Flat per-route and per-city tables of one map."""

    length: tuple[int, ...]
    #: Colour code of each route, -1 for gray.
    color: tuple[int, ...]
    ferry: tuple[int, ...]
    tunnel: tuple[bool, ...]
    #: The other track of a double route, -1 when none.
    double: tuple[int, ...]
    city_index: dict[str, int]
    #: ``routes_up_to[n]``: ids of routes of length ≤ n, in id order.
    routes_up_to: tuple[tuple[int, ...], ...]
    claim_tables: tuple[tuple[ClaimRoute | None, ...], ...]
    station_tables: tuple[tuple[BuildStation | None, ...], ...]
    max_length: int
    #: Routes grouped by kind: ``(length, colour code, ferry locomotives, route ids)``, by
    #: increasing length.
    kind_routes: tuple[tuple[int, int, int, tuple[int, ...]], ...]


def _build(game_map: GameMap) -> Board:
    routes = game_map.routes
    max_length = max((r.length for r in routes), default=0)
    up_to = tuple(
        tuple(r.id for r in routes if r.length <= n) for n in range(max_length + 1)
    )
    max_cost = min(game_map.rules.stations_per_player, _MAX_PAYMENT - 1)
    route_kinds = [
        (r.length, -1 if r.color is None else r.color.code, r.ferry_locomotives) for r in routes
    ]
    kind_routes = tuple(
        (*kind, tuple(r.id for r, k in zip(routes, route_kinds, strict=True) if k == kind))
        for kind in sorted(set(route_kinds))
    )
    return Board(
        length=tuple(r.length for r in routes),
        color=tuple(-1 if r.color is None else r.color.code for r in routes),
        ferry=tuple(r.ferry_locomotives for r in routes),
        tunnel=tuple(r.tunnel for r in routes),
        double=tuple(-1 if r.double_of is None else r.double_of for r in routes),
        city_index={c: i for i, c in enumerate(game_map.cities)},
        routes_up_to=up_to,
        claim_tables=tuple(_claim_table(r.id, r.length) for r in routes),
        station_tables=tuple(_station_table(c, max_cost) for c in game_map.cities),
        max_length=max_length,
        kind_routes=kind_routes,
    )


# Keyed by id(); the map is kept alive beside its board so that an id is never reused.
_BOARDS: dict[int, tuple[GameMap, Board]] = {}


def board_for(game_map: GameMap) -> Board:
    """The (cached) tables of ``game_map``."""
    entry = _BOARDS.get(id(game_map))
    if entry is None:
        entry = _BOARDS[id(game_map)] = (game_map, _build(game_map))
    return entry[1]
