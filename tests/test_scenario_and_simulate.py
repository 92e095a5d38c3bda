"""``scenario()`` input validation (issue 3, item 8); ``ttr simulate`` is tested in
``test_cli_simulate.py``."""

from __future__ import annotations

from typing import Any

import pytest

from ttr_rules import Color, Phase, Rules, load_map, new_game, scenario

R, G, L = Color.RED, Color.GREEN, Color.LOCOMOTIVE


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"players": 6}, "players"),
        ({"current": 2}, "current"),
        ({"hands": [{R: 1}]}, "hands"),
        ({"hands": [{R: 13}, {}]}, "red"),
        ({"hands": [{R: -1}, {}]}, "hands[0]"),
        ({"face_up": [R, R, R]}, "face_up"),
        ({"face_up": [R, R, R, R, "mauve"]}, "face_up[4]"),
        ({"deck": [L] * 15}, "locomotive"),
        ({"discard": ["nope"]}, "discard[0]"),
        ({"routes": {999: 0}}, "routes"),
        ({"routes": {0: 5}}, "routes[0]"),
        ({"stations": {"Atlantis": 0}}, "Atlantis"),
        ({"stations": {"Wien": 0, "Roma": 0, "Paris": 0, "Riga": 0}}, "stations"),
        ({"tickets": [[999], []]}, "tickets[0]"),
        ({"tickets": [[1], [1]]}, "tickets[1]"),
        ({"tickets": [[("Paris", "Atlantis", 5)], []]}, "Atlantis"),
        ({"ticket_deck": [1000]}, "ticket_deck"),
        ({"trains": [45]}, "trains"),
        ({"trains": [45, -1]}, "trains[1]"),
        ({"shuffle": "sorted"}, "shuffle"),
    ],
)
def test_scenario_rejects_inconsistent_input_naming_it(kwargs: dict[str, Any], named: str) -> None:
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        scenario("europe", **kwargs)


def test_scenario_rejects_both_tracks_of_a_double_route_for_one_player() -> None:
    track = next(r for r in load_map("europe").routes if r.double_of is not None)
    assert track.double_of is not None
    with pytest.raises(ValueError, match="routes"):
        scenario("europe", 4, routes={track.id: 1, track.double_of: 1})


def test_scenario_places_routes_and_derives_points_and_trains() -> None:
    europe = load_map("europe")
    route = europe.routes[0]
    state = scenario(europe, 3, routes={route.id: 2}, current=1)
    assert state.phase is Phase.START and state.current == 1
    assert state.route_owner[route.id] == 2
    assert state.players[2].route_points == state.rules.route_score(route.length)
    assert state.players[2].trains == 45 - route.length
    assert len(state.deck) == 110 - 5 and state.discard == ()
    assert len(state.ticket_deck) == 40 and len(state.ticket_box) == 6


def test_scenario_unplaced_cards_go_to_discard_or_out_of_play() -> None:
    only_deck = scenario(deck=[R, G], face_up=[R, R, R, R, R])
    assert len(only_deck.discard) == 110 - 7 and only_deck.out_of_play == ()
    both = scenario(deck=[R], discard=[G], face_up=[None] * 5)
    assert both.deck == (R,) and both.discard == (G,) and len(both.out_of_play) == 108


def test_scenario_injected_tickets_extend_a_copy_of_the_map() -> None:
    state = scenario(tickets=[[("Brest", "Berlin", 9)], []])
    ticket = state.map.tickets[state.players[0].tickets[0]]
    assert (ticket.a, ticket.b, ticket.points) == ("Brest", "Berlin", 9)
    assert state.map.digest != load_map("europe").digest
    assert len(load_map("europe").tickets) == 46


@pytest.mark.parametrize(
    "rules",
    [Rules(tickets_drawn=0), Rules(trains_per_player=-1), Rules(initial_keep_at_least=9)],
    ids=["tickets_drawn=0", "trains_per_player=-1", "initial_keep_at_least=9"],
)
def test_scenario_rejects_the_rules_new_game_rejects(rules: Rules) -> None:
    with pytest.raises(ValueError) as from_new_game:
        new_game(players=2, rules=rules)
    with pytest.raises(ValueError) as from_scenario:
        scenario(players=2, rules=rules)
    assert str(from_scenario.value) == str(from_new_game.value)
    assert str(from_scenario.value).startswith("rules: ")


def test_scenario_rules_override() -> None:
    state = scenario(rules=Rules(trains_per_player=20), routes={0: 0})
    assert state.players[0].trains == 20 - state.map.routes[0].length
