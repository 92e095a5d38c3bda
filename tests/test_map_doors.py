"""Every door that takes a map validates it once and refuses a broken one with ``MapError``
(``problems`` filled): ``new_game``, ``scenario``, ``play_game``, ``from_json``, the registry."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from ttr_rules import (
    GameMap,
    GameState,
    MapError,
    MapLoadError,
    PlayerView,
    Rules,
    SerializationError,
    from_json,
    load_map,
    new_game,
    observe,
    scenario,
    to_json,
)
from ttr_rules.agents import play_game
from ttr_rules.maps import map_from_dict, map_to_dict, validate_map
from ttr_rules.maps.check import checked_map

CITIES = ("Ayr", "Bude", "Cork", "Deal", "Eton", "Fife")


def _map(
    routes: list[tuple[str, str, int, Any]] | None = None,
    tickets: list[tuple[str, str, int] | tuple[str, str, int, bool]] | None = None,
    **rules: Any,
) -> GameMap:
    """A small ring map; valid unless the arguments break it."""
    ring = [(a, b, 2, None) for a, b in zip(CITIES, CITIES[1:] + CITIES[:1], strict=True)]
    regular = [(a, b, 3) for a in CITIES for b in CITIES if a < b]
    longs = [(a, b, 9, True) for a, b in (("Ayr", "Deal"), ("Bude", "Eton"), ("Cork", "Fife"))]
    rules.setdefault("max_players", 3)
    return GameMap.create(
        "ring",
        CITIES,
        ring + (routes or []),
        regular + longs + (tickets or []),
        rules=Rules(**rules),
    )


def _refused(door: Callable[[], object], *expected: str) -> MapError:
    with pytest.raises(MapError) as info:
        door()
    problems = info.value.problems
    for part in expected:
        assert any(part in p for p in problems), problems
    assert all(p in str(info.value) for p in problems)
    return info.value


def test_the_ring_map_is_valid() -> None:
    assert validate_map(_map()) == []
    assert new_game(_map(), players=3).map.name == "ring"


def test_a_length_0_route_is_refused_by_new_game() -> None:
    broken = _map(routes=[("Ayr", "Cork", 0, None)])
    _refused(lambda: new_game(broken, players=2), "routes[6].length: must be >= 1")


def test_a_ticket_to_an_unknown_city_is_refused_by_new_game() -> None:
    broken = _map(tickets=[("Ayr", "Zug", 4)])
    _refused(lambda: new_game(broken, players=2), "unknown city 'Zug'")


def test_a_route_longer_than_the_score_table_is_refused_by_new_game() -> None:
    broken = _map(routes=[("Ayr", "Deal", 9, None)])  # the table scores lengths 0 to 8
    _refused(
        lambda: new_game(broken, players=2),
        "routes[6].length: 9 is longer than rules.route_scores covers (up to 8)",
    )


def test_too_few_tickets_for_five_players_is_refused_by_new_game_for_five() -> None:
    short = _map(max_players=5)  # 3 long tickets: enough for 3 players, not for 5
    assert new_game(short, players=3).map is short
    _refused(lambda: new_game(short, players=5), "3 long tickets are too few to deal 5")
    assert validate_map(short) == [
        "tickets: 3 long tickets are too few to deal 5 at setup (1 to each of 5 players)"
    ]


def test_a_ticket_no_player_can_complete_is_refused() -> None:
    # Ayr–Deal is 6 trains round the ring; with 4 trains and one station it takes 4 (Ayr–Bude
    # free, Bude–Cork–Deal), so 3 trains and one station cannot complete it.
    assert validate_map(_map(trains_per_player=4, stations_per_player=1)) == []
    broken = _map(trains_per_player=3, stations_per_player=1)
    error = _refused(lambda: new_game(broken, players=2), "no player can complete it")
    assert "tickets[2]: Ayr–Deal needs at least 4 trains, more than the 3" in error.problems[0]


def test_route_scores_are_indexed_by_length_from_zero() -> None:
    copied = _map(route_scores=(1, 2, 4, 7, 10, 15, 18, 21))  # the table without length 0
    _refused(lambda: new_game(copied), "rules.route_scores: is indexed by route length")
    assert Rules().route_score(1) == 1


def test_every_door_refuses_a_broken_map() -> None:
    broken = _map(routes=[("Ayr", "Cork", 0, None)])
    problem = "routes[6].length: must be >= 1"
    _refused(lambda: scenario(broken, players=2), problem)
    _refused(lambda: play_game(["random", "random"], map=broken), problem)
    state = new_game(_map(), players=2)
    _refused(lambda: from_json(to_json(state), GameState, map=broken), problem)


def test_a_map_is_checked_once_per_content() -> None:
    ring = _map()
    assert checked_map(ring) is ring
    same = _map()
    assert same is not ring and checked_map(same) is same
    # Same digest, other content: checked again, and refused.
    forged = attrs.evolve(ring, version="2")
    with pytest.raises(MapLoadError, match="digest: does not match"):
        checked_map(forged)


def test_from_json_reads_a_view_with_a_given_map() -> None:
    ring = map_from_dict(map_to_dict(_map()))  # as a client builds it from GET /api/maps/ring
    state = new_game(ring, players=2, seed=3)
    view = observe(state, 1)
    data = json.loads(to_json(view))
    assert "embedded" in data["map"]  # not installed: the JSON carries the map
    del data["map"]["embedded"]  # as a server that trusts the client to have it
    reference = json.dumps(data)
    with pytest.raises(SerializationError, match="cannot be loaded"):
        from_json(reference, PlayerView)
    assert from_json(reference, PlayerView, map=ring) == view
    with pytest.raises(SerializationError, match="is not the given map 'europe'"):
        from_json(reference, PlayerView, map="europe")


def test_installed_maps_still_load_and_play() -> None:
    europe = load_map("europe")
    assert checked_map(europe) is europe
    assert new_game(europe, seed=1) == new_game("europe", seed=1)
