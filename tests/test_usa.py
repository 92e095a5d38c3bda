"""The shipped USA map: the board against the reference data, and its rules as data (issue 17).

The USA board plugs in through the same entry-point door as Europe. Nothing in the engine knows
its name: every difference (no stations, three regular tickets, unkept ones under the deck,
route scores up to length 6, the longest-path bonus, the tie-breakers) is a ``Rules`` field in
``usa.json``.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_routes_equal_reference, color_name, reference_data, routes_between

from ttr_rules import (
    Action,
    BuildStation,
    Color,
    GameMap,
    KeepTickets,
    Phase,
    Rules,
    apply_action,
    available_maps,
    final_scores,
    from_json,
    legal_actions,
    load_map,
    longest_path,
    new_game,
    observe,
    record_game,
    replay,
    scenario,
    to_json,
    winners,
)
from ttr_rules.testing import check_invariants, check_map

A, B, C = 0, 1, 2


@cache
def usa() -> GameMap:
    return load_map("usa")


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return reference_data("usa")


def rid(a: str, b: str, color: Color | None = None) -> int:
    tracks = routes_between(usa(), a, b)
    if color is not None:
        tracks = tuple(t for t in tracks if t.color is color)
    return tracks[0].id


# --------------------------------------------------------------------------- the board


def test_usa_is_an_installed_map() -> None:
    assert "usa" in available_maps()
    assert usa().name == "usa"


def test_usa_cities_and_locations(reference: dict[str, Any]) -> None:
    game_map = usa()
    assert game_map.cities == tuple(reference["cities"])
    assert len(game_map.cities) == 36
    assert len(game_map.locations) == 36
    for lat, lon in game_map.locations:
        assert 24 < lat < 52 and -125 < lon < -70


def test_usa_aliases(reference: dict[str, Any]) -> None:
    aliases = set(usa().aliases)
    for detail in reference["city_details"]:
        for alias in (*detail["aliases"], detail["ascii"], detail["ticket_card_label"]):
            if alias != detail["name"]:
                assert (alias, detail["name"]) in aliases
    assert ("Montreal", "Montréal") in aliases
    assert ("Sault Ste. Marie", "Sault St. Marie") in aliases


def test_usa_routes_match_reference_field_by_field(reference: dict[str, Any]) -> None:
    game_map = usa()
    assert len(game_map.routes) == 100
    assert_routes_equal_reference(game_map, reference["routes"])


def test_usa_double_routes(reference: dict[str, Any]) -> None:
    game_map = usa()
    groups: dict[str, list[int]] = {}
    for ref in reference["routes"]:
        if ref["double_group"] is not None:
            groups.setdefault(ref["double_group"], []).append(ref["id"] - 1)
    assert len(groups) == 22
    gray_pairs = 0
    for i, j in groups.values():
        assert game_map.routes[i].double_of == j
        assert game_map.routes[j].double_of == i
        gray_pairs += game_map.routes[i].color is None and game_map.routes[j].color is None
    assert gray_pairs == 10
    paired = {i for ids in groups.values() for i in ids}
    assert all(r.double_of is None for r in game_map.routes if r.id not in paired)


def test_usa_totals_and_tickets(reference: dict[str, Any]) -> None:
    game_map = usa()
    routes = game_map.routes
    assert len({frozenset((r.a, r.b)) for r in routes}) == 78
    assert sum(r.length for r in routes) == 309
    assert Counter(r.length for r in routes) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}
    assert not any(r.tunnel or r.ferry_locomotives for r in routes)
    colours = Counter(color_name(r) for r in routes)
    assert colours == {**{c.value: 7 for c in Color if c is not Color.LOCOMOTIVE}, "gray": 44}
    got = [(t.a, t.b, t.points, t.long) for t in game_map.tickets]
    assert got == [(t["a"], t["b"], t["points"], t["long"]) for t in reference["tickets"]]
    assert len(got) == 30 and sum(t.points for t in game_map.tickets) == 349
    assert not any(t.long for t in game_map.tickets)


def test_usa_rules_are_data() -> None:
    rules = usa().rules
    assert rules.stations_per_player == 0
    assert (rules.initial_long_tickets, rules.initial_regular_tickets) == (0, 3)
    assert rules.initial_keep_at_least == 2
    assert rules.initial_discard == "bottom"
    assert rules.route_scores == (0, 1, 2, 4, 7, 10, 15)
    assert rules.longest_path_bonus == 10
    assert rules.tie_breakers == ("tickets", "express")
    assert rules.problems() == []
    # Everything else is the shared base game: 45 trains, 110 cards, 3 face-up locomotives.
    same = ("trains_per_player", "cards_per_color", "locomotive_cards", "face_up_locomotive_limit")
    assert all(getattr(rules, name) == getattr(Rules(), name) for name in same)


def test_longest_path_is_an_alias_of_the_express_tie_breaker() -> None:
    assert Rules(tie_breakers=("tickets", "longest_path")).tie_breakers == ("tickets", "express")


# --------------------------------------------------------------------------- play


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_map_usa(players: int) -> None:
    report = check_map(usa(), games=2, players=[players])
    assert report.ok, report


def test_initial_offer_is_three_regular_tickets_two_kept() -> None:
    state = new_game("usa", players=3, seed=4)
    for seat in range(3):
        offered = state.players[seat].offered
        assert len(offered) == 3
        assert not any(usa().tickets[t].long for t in offered)
    keeps = [a for a in legal_actions(state) if isinstance(a, KeepTickets)]
    assert keeps and len(keeps) == len(legal_actions(state))
    assert {len(a.tickets) for a in keeps} == {2, 3}


def test_unkept_initial_tickets_go_under_the_ticket_deck() -> None:
    state = new_game("usa", players=2, seed=9)
    first, second, third = state.players[0].offered
    before = state.ticket_deck
    after = apply_action(state, KeepTickets(frozenset({first, second})))
    assert after.ticket_deck == (*before, third)
    assert after.ticket_box == state.ticket_box == ()


def _play_random(state: Any, seed: int) -> Any:
    import random

    rng = random.Random(seed)
    while legal_actions(state):
        actions = legal_actions(state)
        assert not any(isinstance(a, BuildStation) for a in actions)
        state = apply_action(state, rng.choice(actions))
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_two_and_three_players_close_the_second_track(players: int) -> None:
    end = _play_random(new_game("usa", players=players, seed=21), seed=21)
    check_invariants(end)
    for route in usa().routes:
        if route.double_of is not None:
            owners = (end.route_owner[route.id], end.route_owner[route.double_of])
            assert None in owners, route


def test_no_station_is_ever_legal_and_the_game_records_and_replays() -> None:
    start = new_game("usa", players=4, seed=3)
    actions: list[Action] = []
    state = start
    import random

    rng = random.Random(3)
    while legal_actions(state):
        action = rng.choice(legal_actions(state))
        assert not isinstance(action, BuildStation)
        actions.append(action)
        state = apply_action(state, action)
    record = record_game(start, actions)
    assert record.map == "usa"
    assert replay(record) == state
    assert from_json(to_json(state), type(state)) == state
    view = observe(state, 1)
    assert view.map is usa() or view.map == usa()
    assert all(s.station_bonus == 0 and s.station_routes == () for s in final_scores(state))


def test_second_track_closed_in_a_two_player_scenario() -> None:
    pair = routes_between(usa(), "Boston", "New York")
    state = scenario(
        "usa",
        players=2,
        routes={pair[0].id: A},
        hands=[{Color.RED: 2, Color.YELLOW: 2}, {Color.RED: 2, Color.YELLOW: 2}],
        current=B,
    )
    claims = [a for a in legal_actions(state) if getattr(a, "route", None) in {r.id for r in pair}]
    assert claims == []


# --------------------------------------------------------------------------- scoring


def test_routes_of_five_and_six_score_ten_and_fifteen() -> None:
    state = scenario(
        "usa",
        players=2,
        routes={
            rid("Portland", "San Francisco", Color.GREEN): A,  # 5
            rid("Calgary", "Winnipeg"): B,  # 6
        },
    )
    assert state.players[A].route_points == 10
    assert state.players[B].route_points == 15
    assert state.players[A].trains == 40 and state.players[B].trains == 39


def test_shared_longest_path_bonus_and_tie_breakers() -> None:
    state = scenario(
        "usa",
        players=3,
        routes={
            rid("Calgary", "Winnipeg"): A,  # 6
            rid("Duluth", "Helena"): B,  # 6
            rid("Seattle", "Vancouver"): C,  # 1
        },
    )
    scores = final_scores(state)
    assert [longest_path(state, seat) for seat in range(3)] == [6, 6, 1]
    assert [s.express_bonus for s in scores] == [10, 10, 0]
    assert [s.total for s in scores] == [25, 25, 1]
    # Tied on points, tickets (none) and the longest path: still tied.
    assert winners(state) == (A, B)


def test_tie_broken_by_completed_tickets_first() -> None:
    ticket = next(t for t in usa().tickets if {t.a, t.b} == {"Denver", "El Paso"})
    state = scenario(
        "usa",
        players=2,
        routes={
            rid("Denver", "Santa Fe"): A,  # 2
            rid("Santa Fe", "El Paso"): A,  # 2
            rid("Calgary", "Helena"): B,  # 4
            rid("Seattle", "Vancouver"): B,  # 1, not joined to Calgary–Helena
        },
        tickets=[[ticket.id], []],
    )
    scores = final_scores(state)
    assert scores[A].tickets_completed == 1
    # A: 2 + 2 route points + 4 ticket; B: 7 + 1 route points; both have a 4-space path.
    assert (scores[A].total, scores[B].total) == (18, 18)
    assert winners(state) == (A,)
    assert state.phase is Phase.START


# --------------------------------------------------------------------------- every map user


def test_greedy_agents_play_the_usa_and_the_board_renders() -> None:
    import xml.etree.ElementTree as ET

    from ttr_rules.agents import play_game
    from ttr_rules.render import svg, text

    end = play_game(["greedy", "random", "greedy"], map="usa", seed=5)
    assert end.is_terminal
    assert all(s.station_bonus == 0 for s in final_scores(end))
    root = ET.fromstring(svg(end))
    spaces = [e for e in root.iter() if "space" in e.get("class", "").split()]
    assert len(spaces) == 309
    assert "Sault St. Marie" in text(observe(end, 0))


def test_usa_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ttr_rules.cli import main

    assert main(["map-info", "usa"]) == 0
    assert "309 spaces" in capsys.readouterr().out
    assert main(["simulate", "--map", "usa", "--players", "4", "--games", "3", "--quiet"]) == 0
    assert main(["simulate", "--map", "usa", "--games", "1", "--record", str(tmp_path)]) == 0
    (record,) = tmp_path.iterdir()
    assert main(["replay", str(record)]) == 0
    assert main(["render", str(record), "-o", str(tmp_path / "usa.svg")]) == 0
    assert (tmp_path / "usa.svg").read_text(encoding="utf-8").startswith("<")


def test_usa_action_space_masks_the_legal_actions() -> None:
    from ttr_rules.rl import ActionSpace

    space = ActionSpace(usa(), 2)
    state = new_game("usa", players=2, seed=1)
    mask = space.mask(state)
    assert int(mask.sum()) == len(legal_actions(state))
    assert all(space.action(space.index(a, state), state) == a for a in legal_actions(state))
