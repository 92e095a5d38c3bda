"""The front-end kit: labels, grouping, ticket status and the planning graph, on played
positions of every shipped map."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from ttr_rules import (
    ClaimRoute,
    DrawFaceUp,
    GameState,
    apply_action,
    format_action,
    legal_actions,
    new_game,
    observe,
    parse_action,
    scenario,
)
from ttr_rules.frontend import (
    action_label,
    cards_needed,
    group_actions,
    planning_graph,
    route_label,
    ticket_status,
)


def _positions(map_name: str, players: int, seed: int, count: int) -> list[GameState]:
    rng = random.Random(seed)
    state = new_game(map_name, players, seed=seed)
    seen: list[GameState] = []
    while not state.is_terminal and len(seen) < count:
        seen.append(state)
        state = apply_action(state, rng.choice(legal_actions(state)))
    return seen


@pytest.mark.parametrize("map_name", ["europe", "usa"])
def test_groups_hold_every_legal_action_once_with_payable_targets(map_name: str) -> None:
    for state in _positions(map_name, 3, 5, 120):
        view = observe(state, state.current)
        groups = group_actions(view)
        grouped = [a for g in groups for a in g.actions]
        assert sorted(map(str, grouped)) == sorted(map(str, legal_actions(state)))
        for group in groups:
            for target in group.targets:
                assert target.payable and target.choices
                if group.kind == "claim":
                    claims = [c.action for c in target.choices]
                    assert all(isinstance(c, ClaimRoute) for c in claims)
                    assert {c.route for c in claims if isinstance(c, ClaimRoute)} == {target.route}
                    locos = [c.locomotives for c in claims if isinstance(c, ClaimRoute)]
                    assert locos[0] == min(locos)  # the suggested payment first
                for choice in target.choices:
                    assert parse_action(choice.notation, state) == choice.action
                    assert choice.label


def test_labels_number_face_up_slots_as_the_notation_and_tell_double_tracks_apart() -> None:
    state = new_game("europe", 2, seed=1)
    view = observe(state, 0)
    for slot in range(5):
        label = action_label(DrawFaceUp(slot), view)
        assert f"(slot {slot})" in label and format_action(DrawFaceUp(slot), view.map).endswith(
            str(slot)
        )
    doubles = [r for r in view.map.routes if r.double_of is not None]
    for route in doubles:
        assert route_label(view.map, route.id) != route_label(view.map, route.double_of or 0)
    first, second = sorted(view.map.route_between("Berlin", "Frankfurt"), key=lambda r: r.id)
    assert "#1" in route_label(view.map, first.id) and "#2" in route_label(view.map, second.id)
    claim = ClaimRoute(second.id, second.color or first.color, 0)  # type: ignore[arg-type]
    assert "#2" in action_label(claim, view)
    gray = [r for r in doubles if r.color is None and r.double_of is not None]
    for route in gray:  # both tracks take any colour: the notation names the track too
        number = "#1" if route.id < (route.double_of or 0) else "#2"
        colour = first.color or second.color
        gray_claim = ClaimRoute(route.id, colour, route.ferry_locomotives)  # type: ignore[arg-type]
        assert number in action_label(gray_claim, view)
        assert number in format_action(gray_claim, view.map)


def test_planning_graph_applies_the_double_route_rule() -> None:
    europe = new_game("europe", 2, seed=1).map
    first, second = sorted(europe.route_between("Berlin", "Frankfurt"), key=lambda r: r.id)
    # 2 players (fewer than 4): once a track is taken, the other is closed to everyone (E32)
    two = observe(scenario("europe", 2, routes={first.id: 1}), 0)
    assert not planning_graph(two).has_edge("Berlin", "Frankfurt")
    assert planning_graph(two, 1)["Berlin"]["Frankfurt"][first.id]["owned"]
    assert second.id not in planning_graph(two, 1)["Berlin"]["Frankfurt"]
    # 4 players: the other track stays open to the others (E31 closes it to the owner only)
    four = observe(scenario("europe", 4, routes={first.id: 1}), 0)
    assert list(planning_graph(four)["Berlin"]["Frankfurt"]) == [second.id]
    assert list(planning_graph(four, 1)["Berlin"]["Frankfurt"]) == [first.id]
    graph = planning_graph(observe(new_game("europe", 2, seed=3), 0))
    assert isinstance(graph, nx.MultiGraph) and graph.number_of_edges() == len(europe.routes)


def test_ticket_status_done_connected_and_missing() -> None:
    europe = new_game("europe", 2, seed=1).map
    route = europe.route_between("Paris", "Bruxelles")[0]
    onward = europe.route_between("Bruxelles", "Amsterdam")[0]
    state = scenario(
        "europe",
        2,
        routes={route.id: 0, onward.id: 0},
        tickets=[[("Paris", "Amsterdam", 5), ("Paris", "Berlin", 9)], []],
    )
    done, open_ = ticket_status(observe(state, 0))
    assert done.done and done.progress == "done" and not done.missing
    assert not open_.done and open_.reachable and open_.missing
    assert open_.connected + open_.missing_trains > 0
    assert all(state.route_owner[r] is None for r in open_.missing)
    assert sum(cards_needed(observe(state, 0)).values()) <= open_.missing_trains
    with pytest.raises(ValueError, match="does not show the tickets of seat 1"):
        ticket_status(observe(state, 0), 1)


def test_a_ticket_cut_off_cannot_be_finished() -> None:
    europe = new_game("europe", 2, seed=1).map
    lisboa = [r.id for r in europe.routes if "Lisboa" in (r.a, r.b)]
    state = scenario(
        "europe", 2, routes=dict.fromkeys(lisboa, 1), tickets=[[("Lisboa", "Paris", 8)], []]
    )
    (status,) = ticket_status(observe(state, 0))
    assert not status.reachable and status.progress == "cannot be finished"


def test_unpayable_routes_are_listed_after_the_payable_ones() -> None:
    state = _positions("europe", 2, 2, 3)[-1]
    view = observe(state, state.current)
    (claim,) = [g for g in group_actions(view, unpayable=True) if g.kind == "claim"]
    flags = [t.payable for t in claim.targets]
    assert flags == sorted(flags, reverse=True) and not flags[-1]
    assert all(t.cost and not t.choices for t in claim.targets if not t.payable)
