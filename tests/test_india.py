"""The India map (issue 45): the installed plugin equals shared/reference/india.json field by
field, and its special rules play out: the Grand Tour (Mandala) counted and not counted (U35),
ferries, doubles at 4 players, returned tickets to the bottom of the deck (docs/maps.md)."""

from __future__ import annotations

import itertools
from typing import Any

import attrs
import networkx as nx
import pytest
from helpers import assert_routes_equal_reference, reference_data, routes_between
from hypothesis import given

from ttr_rules import (
    ClaimRoute,
    Color,
    KeepTickets,
    apply_action,
    final_scores,
    legal_actions,
    load_map,
    new_game,
    scenario,
)
from ttr_rules.maps import GameMap, map_from_dict, map_to_dict
from ttr_rules.render.text import score_table
from ttr_rules.scoring.bonuses import GRAND_TOUR_POINTS, bonus_scorer, grand_tour
from ttr_rules.testing import check_invariants, check_map
from ttr_rules.testing.strategies import games

L = Color.LOCOMOTIVE


@pytest.fixture(scope="module")
def india() -> GameMap:
    return load_map("india")


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return reference_data("india")


def route_ids(game_map: GameMap, a: str, b: str) -> list[int]:
    return [r.id for r in routes_between(game_map, a, b)]


# ------------------------------------------------------------------ the map against the data


def test_cities_equal_the_reference(india: GameMap, reference: dict[str, Any]) -> None:
    assert list(india.cities) == reference["cities"] and len(india.cities) == 39
    for detail in reference["city_details"]:
        mine = {alias for alias, city in india.aliases if city == detail["name"]}
        assert mine == set(detail["aliases"])
    assert dict(india.countries) == {}


def test_routes_equal_the_reference_field_by_field(
    india: GameMap, reference: dict[str, Any]
) -> None:
    assert len(india.routes) == 108
    assert_routes_equal_reference(india, reference["routes"])


def test_tickets_equal_the_reference(india: GameMap, reference: dict[str, Any]) -> None:
    mine = [(t.a, t.b, t.points, t.long, t.destinations) for t in india.tickets]
    assert mine == [(t["a"], t["b"], t["points"], t["long"], ()) for t in reference["tickets"]]
    assert (len(india.tickets), sum(t.points for t in india.tickets)) == (58, 473)


def test_totals(india: GameMap) -> None:
    routes = india.routes
    doubles = [r for r in routes if r.double_of is not None and r.id < r.double_of]
    ferries = [r for r in routes if r.ferry_locomotives]
    assert (len(routes), len(doubles), sum(r.tunnel for r in routes)) == (108, 28, 0)
    assert (len(ferries), sum(r.ferry_locomotives for r in ferries)) == (8, 12)
    assert sum(r.length for r in routes) == 238


def test_rules_as_data(india: GameMap, reference: dict[str, Any]) -> None:
    rules = india.rules
    parts = reference["components"]
    assert (rules.min_players, rules.max_players) == (2, 4)
    assert (rules.trains_per_player, rules.stations_per_player) == (45, 0)
    assert (rules.initial_long_tickets, rules.initial_regular_tickets) == (0, 4)
    assert rules.initial_keep_at_least == 2
    assert (rules.initial_discard, rules.returned_ticket_discard) == ("bottom", "bottom")
    assert rules.double_route_min_players == 4
    scores = {int(k): v for k, v in parts["route_scoring"].items()}
    assert {n: rules.route_score(n) for n in scores} == scores
    assert rules.bonuses == ("express", "grand_tour") and rules.longest_path_bonus == 10
    assert rules.face_up_locomotive_limit == 3 and rules.face_up_locomotive_ends_draw  # U33
    assert rules.tie_breakers == ("tickets", "express")  # U34
    table = parts["grand_tour"]["points_by_qualifying_tickets"]
    assert list(GRAND_TOUR_POINTS) == [table[k] for k in ("0", "1", "2", "3", "4", "5_or_more")]
    assert india.bonus_title("express") == "the Indian Express"
    assert india.bonus_title("grand_tour") == "the Grand Tour"


def test_map_file_round_trip(india: GameMap) -> None:
    again = map_from_dict(map_to_dict(india))
    assert again == india and again.digest == india.digest


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_map(india: GameMap, players: int) -> None:
    report = check_map(india, games=1, players=[players], seed=players)
    assert report.ok, report


# ------------------------------------------------------------------ the Grand Tour (U35)


def _network(india: GameMap) -> dict[int, int]:
    """Every route for seat 0, one track of each double (a player never owns both, E33)."""
    return {r.id: 0 for r in india.routes if r.double_of is None or r.id < r.double_of}


#: Trains enough for a seat that owns most of the board (the Grand Tour's scenarios).
BIG = attrs.evolve(load_map("india").rules, trains_per_player=300)


def _looped(india: GameMap, routes: dict[int, int], ticket: int) -> bool:
    """Two paths with no route in common, by networkx (the reference for the scorer)."""
    graph = nx.MultiGraph()
    graph.add_edges_from((india.routes[r].a, india.routes[r].b) for r in routes)
    t = india.tickets[ticket]
    if t.a not in graph or t.b not in graph or not nx.has_path(graph, t.a, t.b):
        return False
    return bool(nx.edge_connectivity(nx.Graph(graph), t.a, t.b) >= 2)


def test_the_grand_tour_counts_tickets_joined_by_two_distinct_paths(india: GameMap) -> None:
    routes = _network(india)
    looped = [t.id for t in india.tickets if _looped(india, routes, t.id)]
    assert len(looped) >= 5
    for count in range(6):
        state = scenario(india, routes=routes, tickets=[looped[:count], []], rules=BIG)
        assert grand_tour(state) == (GRAND_TOUR_POINTS[count], 0)
    state = scenario(india, routes=routes, tickets=[looped[:7], []], rules=BIG)
    assert grand_tour(state)[0] == 40  # five or more: 40
    assert final_scores(state)[0].bonuses == (("grand_tour", 40),)


def test_the_grand_tour_is_not_counted_on_one_path(india: GameMap) -> None:
    ticket = next(t for t in india.tickets if {t.a, t.b} == {"Agra", "Bhopal"} or t.points == 5)
    graph = nx.Graph()
    for r in india.routes:
        if not graph.has_edge(r.a, r.b):
            graph.add_edge(r.a, r.b, weight=r.length, route=r.id)
    cities = nx.dijkstra_path(graph, ticket.a, ticket.b)
    path = {graph[u][v]["route"]: 0 for u, v in itertools.pairwise(cities)}
    state = scenario(india, routes=path, tickets=[[ticket.id], []])
    assert final_scores(state)[0].tickets_completed == 1  # completed, but on one path only
    assert grand_tour(state) == (0, 0)
    unfinished = scenario(india, routes={}, tickets=[[ticket.id], []])
    assert grand_tour(unfinished) == (0, 0)


def test_a_double_route_alone_gives_no_second_path(india: GameMap) -> None:
    agra_bhopal = route_ids(india, "Agra", "Bhopal")
    assert len(agra_bhopal) == 2
    tickets: list[list[Any]] = [[("Agra", "Bhopal", 1)], [("Agra", "Bhopal", 1)], [], []]
    state = scenario(india, 4, routes={agra_bhopal[0]: 0, agra_bhopal[1]: 1}, tickets=tickets)
    assert grand_tour(state) == (0, 0, 0, 0)


def test_the_score_table_names_the_bonuses(india: GameMap) -> None:
    routes = _network(india)
    looped = [t.id for t in india.tickets if _looped(india, routes, t.id)][:2]
    state = scenario(india, routes=routes, tickets=[looped, []], rules=BIG)
    table = score_table(final_scores(state), game_map=india)
    assert "grand_tour+" in table and "the Grand Tour bonus" in table
    assert "the Indian Express, the bonus for the longest path" in table
    assert bonus_scorer("grand_tour") is grand_tour


# ------------------------------------------------------------------ other rules


def test_a_ferry_needs_its_locomotives(india: GameMap) -> None:
    (ferry,) = route_ids(india, "Bombay", "Calicut")  # gray 6, 2 locomotives
    with_two = scenario(india, hands=[{L: 2, Color.RED: 4}, {}])
    assert ClaimRoute(ferry, Color.RED, 2) in legal_actions(with_two)
    without = scenario(india, hands=[{L: 1, Color.RED: 6}, {}])
    assert not [a for a in legal_actions(without) if getattr(a, "route", None) == ferry]


@pytest.mark.parametrize(("players", "both_open"), [(2, False), (3, False), (4, True)])
def test_doubles_open_to_both_tracks_only_at_four(
    india: GameMap, players: int, both_open: bool
) -> None:
    first, second = route_ids(india, "Agra", "Bhopal")
    colour = india.routes[second].color
    assert colour is not None
    hands: list[dict[Color, int]] = [{}, {colour: 1}, {}, {}][:players]
    state = scenario(india, players, current=1, routes={first: 0}, hands=hands)
    listed = [a for a in legal_actions(state) if getattr(a, "route", None) == second]
    assert bool(listed) is both_open


def test_returned_tickets_go_under_the_deck(india: GameMap) -> None:
    state = new_game(india, 2, seed=5)
    offered = state.players[0].offered
    assert len(offered) == 4
    kept = KeepTickets(frozenset(sorted(offered)[:2]))
    after = apply_action(state, kept)
    returned = set(offered) - set(kept.tickets)
    assert returned <= set(after.ticket_deck[-len(returned) :]) and not after.ticket_box


@given(games("india", max_steps=120))
def test_random_games_keep_every_invariant(game: Any) -> None:
    for state in game.positions():
        check_invariants(state)
