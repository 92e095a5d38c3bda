"""Shared helpers for the rules tests: map lookups, the boards' reference data and small
card-building shortcuts.

Route facts are always looked up from the map data, never hard-coded as ids.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ttr_rules import Color, GameMap, Route, Rules, load_map
from ttr_rules.testing import card_census

__all__ = [
    "FIXTURE_RULES",
    "B",
    "G",
    "K",
    "L",
    "O",
    "P",
    "R",
    "W",
    "Y",
    "assert_routes_equal_reference",
    "card_census",
    "color_name",
    "europe",
    "find_route",
    "hand",
    "reference_data",
    "route_id",
    "routes_between",
]

#: Rules for a synthetic fixture map with few tickets: two players, no tickets dealt at setup,
#: so that the map passes validation (every door checks it).
FIXTURE_RULES = Rules(
    max_players=2, initial_long_tickets=0, initial_regular_tickets=0, initial_keep_at_least=0
)

# The card letters of the rules catalogue (docs/rules/catalogue.md).
R = Color.RED
G = Color.GREEN
B = Color.BLUE
Y = Color.YELLOW
K = Color.BLACK
W = Color.WHITE
O = Color.ORANGE  # noqa: E741 - the catalogue's letter for orange
P = Color.PURPLE
L = Color.LOCOMOTIVE


@cache
def europe() -> GameMap:
    """The Europe map (loaded once per test session)."""
    return load_map("europe")


def routes_between(game_map: GameMap, a: str, b: str) -> tuple[Route, ...]:
    """Every track between cities ``a`` and ``b`` (either direction), in id order."""
    return tuple(r for r in game_map.routes if {r.a, r.b} == {a, b})


def find_route(game_map: GameMap, a: str, b: str, color: Color | None = None) -> Route:
    """The one track between ``a`` and ``b``; ``color`` picks a track of a double route.

    ``color=None`` accepts any single track, or the gray track when the pair has several.
    Raises ``LookupError`` when no track (or more than one) matches.
    """
    tracks = routes_between(game_map, a, b)
    if not tracks:
        raise LookupError(f"no route between {a} and {b} on {game_map.name}")
    if color is None and len(tracks) == 1:
        return tracks[0]
    matches = [r for r in tracks if r.color == color]
    if len(matches) != 1:
        described = ", ".join(str(r) for r in tracks)
        raise LookupError(f"{len(matches)} routes {a}-{b} of colour {color}: {described}")
    return matches[0]


def route_id(game_map: GameMap, a: str, b: str, color: Color | None = None) -> int:
    """The id of the track between ``a`` and ``b`` (see :func:`find_route`)."""
    return find_route(game_map, a, b, color).id


def hand(*cards: Color, **counts: int) -> dict[Color, int]:
    """A ``{Color: count}`` mapping: ``hand(Color.RED, Color.RED)`` or
    ``hand(red=2, locomotive=1)``."""
    result: dict[Color, int] = {}
    for card in cards:
        result[card] = result.get(card, 0) + 1
    for name, n in counts.items():
        color = Color[name.upper()]
        result[color] = result.get(color, 0) + n
    return result


def reference_data(name: str) -> dict[str, Any]:
    """The reference data of board ``name``: ``tests/data/<name>_reference.json``, the test copy
    of ``shared/reference/<name>.json`` (a fresh dict at each call, free to change)."""
    path = Path(__file__).parent / "data" / f"{name}_reference.json"
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def color_name(route: Route) -> str:
    """A track's colour as the reference data writes it: ``"gray"`` for a gray track."""
    return route.color.value if route.color is not None else "gray"


def assert_routes_equal_reference(game_map: GameMap, routes: list[dict[str, Any]]) -> None:
    """Each track of ``game_map`` equals the reference's route at its place: id (the
    reference counts from 1), ends, length, colour, tunnel, ferry locomotives and whether it
    is one of a double route (map-specific fields are the caller's to compare)."""
    assert len(game_map.routes) == len(routes)
    for route, ref in zip(game_map.routes, routes, strict=True):
        assert route.id == ref["id"] - 1, ref
        assert (route.a, route.b, route.length) == (ref["a"], ref["b"], ref["length"]), ref
        assert color_name(route) == ref["color"], ref
        assert (route.tunnel, route.ferry_locomotives) == (ref["tunnel"], ref["ferry_locomotives"])
        assert (route.double_of is None) == (ref["double_group"] is None), ref
