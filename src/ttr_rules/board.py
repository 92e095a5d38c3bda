"""Per-map lookup tables for the engine's hot path, built once per map.

The engine never walks :class:`~ttr_rules.GameMap` objects while generating or applying moves:
it reads these flat tuples instead, and hands out action objects created once here, so that
``legal_actions`` allocates almost nothing.
"""

from __future__ import annotations

import weakref

from attrs import field, frozen

from .actions import Action, BuildStation, ClaimRoute
from .cards import COLORS, LOCOMOTIVE_CODE, Color
from .maps import GameMap

__all__ = ["Board", "board_for", "payment_index", "payment_indices"]

_LOCO = LOCOMOTIVE_CODE
#: Card kinds (0–8) × locomotive counts (0–8): ``payment_index(color_code, locos)``.
_MAX_PAYMENT = 9


def payment_index(color_code: int, locomotives: int) -> int:
    """Position of a ``(colour, locomotives)`` payment in a per-route or per-city action table."""
    return color_code * _MAX_PAYMENT + locomotives


def payment_indices(counts: tuple[int, ...], total: int, color_code: int, ferry: int) -> list[int]:
    """The :func:`payment_index` of every payment of ``total`` cards that ``counts`` allows.

    ``color_code`` −1 means any one colour (gray); at least ``ferry`` locomotives are used
    (E35). Colour by colour, fewest locomotives first, the all-locomotive payment last.
    """
    locos = counts[_LOCO]
    high = (locos if locos < total else total - 1) + 1
    out: list[int] = []
    for code in range(8) if color_code < 0 else (color_code,):
        low = total - counts[code]
        base = code * _MAX_PAYMENT
        out += range(base + (low if low > ferry else ferry), base + high)
    if locos >= total:
        out.append(_LOCO * _MAX_PAYMENT + total)
    return out


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
    #: Routes by colour code (−1 gray), then by kind: ``(length, ferry locomotives, route
    #: ids)`` in increasing length.
    kinds_by_color: tuple[tuple[int, tuple[tuple[int, int, tuple[int, ...]], ...]], ...]
    #: Station actions by (stations of every player, payment indices): a bounded memo.
    station_cache: dict[object, list[Action]] = field(factory=dict)


def _build(game_map: GameMap) -> Board:
    routes = game_map.routes
    max_length = max((r.length for r in routes), default=0)
    up_to = tuple(tuple(r.id for r in routes if r.length <= n) for n in range(max_length + 1))
    # Every cost the tables can index, not just the map's default stations_per_player: a game
    # may be played with other Rules (E53 variant), and a missing entry would be a None action.
    max_cost = _MAX_PAYMENT - 1
    route_kinds = [
        (r.length, -1 if r.color is None else r.color.code, r.ferry_locomotives) for r in routes
    ]
    kinds_by_color = tuple(
        (
            code,
            tuple(
                (
                    length,
                    ferry,
                    tuple(
                        r.id
                        for r, k in zip(routes, route_kinds, strict=True)
                        if k == (length, code, ferry)
                    ),
                )
                for length, kind_code, ferry in sorted(set(route_kinds))
                if kind_code == code
            ),
        )
        for code in sorted({k[1] for k in route_kinds})
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
        kinds_by_color=kinds_by_color,
    )


# Keyed by id() (hashing a whole map on every call would cost more than the look-up saves);
# an entry is dropped when its map is garbage-collected, so an id is never reused stale.
_BOARDS: dict[int, Board] = {}


def board_for(game_map: GameMap) -> Board:
    """The (cached) tables of ``game_map``."""
    board = _BOARDS.get(id(game_map))
    if board is None:
        board = _BOARDS[id(game_map)] = _build(game_map)
        weakref.finalize(game_map, _BOARDS.pop, id(game_map), None)
    return board
