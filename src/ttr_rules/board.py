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
from .maps import GameMap, Route

__all__ = ["Board", "board_for", "payment_index", "payment_indices"]

_LOCO = LOCOMOTIVE_CODE
#: The smallest stride of the payment tables: Europe's longest route (8) and third station.
_MIN_STRIDE = 9


def payment_index(color_code: int, locomotives: int, stride: int) -> int:
    """Position of a ``(colour, locomotives)`` payment in a per-route or per-city action table
    whose rows (one per card kind) have ``stride`` entries (``Board.stride``)."""
    return color_code * stride + locomotives


def payment_indices(
    counts: tuple[int, ...], total: int, color_code: int, ferry: int, stride: int
) -> list[int]:
    """The :func:`payment_index` of every payment of ``total`` cards that ``counts`` allows.

    ``color_code`` −1 means any one colour (gray); at least ``ferry`` locomotives are used
    (E35). Colour by colour, fewest locomotives first, the all-locomotive payment last.
    """
    locos = counts[_LOCO]
    high = (locos if locos < total else total - 1) + 1
    out: list[int] = []
    for code in range(8) if color_code < 0 else (color_code,):
        low = total - counts[code]
        base = code * stride
        out += range(base + (low if low > ferry else ferry), base + high)
    if locos >= total:
        out.append(_LOCO * stride + total)
    return out


def _claim_table(route_id: int, length: int, stride: int) -> tuple[ClaimRoute | None, ...]:
    table: list[ClaimRoute | None] = [None] * (9 * stride)
    for code, color in enumerate(COLORS):
        if color is Color.LOCOMOTIVE:
            table[payment_index(code, length, stride)] = ClaimRoute(route_id, color, length)
        else:
            for locos in range(length):
                table[payment_index(code, locos, stride)] = ClaimRoute(route_id, color, locos)
    return tuple(table)


def _station_table(city: str, stride: int) -> tuple[BuildStation | None, ...]:
    """Every station payment of up to ``stride − 1`` cards."""
    table: list[BuildStation | None] = [None] * (9 * stride)
    for code, color in enumerate(COLORS):
        for locos in range(stride):
            if color is not Color.LOCOMOTIVE or locos:
                table[payment_index(code, locos, stride)] = BuildStation(city, color, locos)
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
    claim_tables: tuple[tuple[ClaimRoute | None, ...], ...]
    station_tables: tuple[tuple[BuildStation | None, ...], ...]
    max_length: int
    #: Entries per card kind in the payment tables: more than the longest route and than the
    #: costliest station the tables serve (``payment_index``).
    stride: int
    #: Routes by colour code (−1 gray), then by kind: ``(length, ferry locomotives, route
    #: ids)`` in increasing length.
    kinds_by_color: tuple[tuple[int, tuple[tuple[int, int, tuple[int, ...]], ...]], ...]
    #: Station actions by (stations of every player, payment indices): a bounded memo.
    station_cache: dict[object, list[Action]] = field(factory=dict)


def _kinds_by_color(
    routes: tuple[Route, ...],
) -> tuple[tuple[int, tuple[tuple[int, int, tuple[int, ...]], ...]], ...]:
    """Route ids grouped by colour code, then by (length, ferry locomotives), shortest first."""
    groups: dict[int, dict[tuple[int, int], list[int]]] = {}
    for r in routes:
        code = -1 if r.color is None else r.color.code
        groups.setdefault(code, {}).setdefault((r.length, r.ferry_locomotives), []).append(r.id)
    return tuple(
        (code, tuple((length, ferry, tuple(ids)) for (length, ferry), ids in sorted(kinds.items())))
        for code, kinds in sorted(groups.items())
    )


def _build(game_map: GameMap) -> Board:
    routes = game_map.routes
    max_length = max((r.length for r in routes), default=0)
    # A game may use other Rules than the map's (E53 variants): station payments beyond the
    # tables are built on demand (see moves.stations).
    stride = max(_MIN_STRIDE, max_length + 1, game_map.rules.stations_per_player + 1)
    return Board(
        length=tuple(r.length for r in routes),
        color=tuple(-1 if r.color is None else r.color.code for r in routes),
        ferry=tuple(r.ferry_locomotives for r in routes),
        tunnel=tuple(r.tunnel for r in routes),
        double=tuple(-1 if r.double_of is None else r.double_of for r in routes),
        city_index={c: i for i, c in enumerate(game_map.cities)},
        claim_tables=tuple(_claim_table(r.id, r.length, stride) for r in routes),
        station_tables=tuple(_station_table(c, stride) for c in game_map.cities),
        max_length=max_length,
        stride=stride,
        kinds_by_color=_kinds_by_color(routes),
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
