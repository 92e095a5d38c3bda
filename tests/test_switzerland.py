"""The Swiss map (issue 45): the installed plugin equals shared/reference/switzerland.json field
by field, and every special rule and refusal plays out: country tickets (the best value, the
penalty, no path through a country), locomotives wild only on tunnels, two face-up locomotives
in one turn, returned tickets out of the game, doubles at 3 players (docs/maps.md)."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import attrs
import networkx as nx
import pytest
from helpers import assert_routes_equal_reference, reference_data, route_id
from hypothesis import given

from ttr_rules import (
    ClaimRoute,
    Color,
    DrawFaceUp,
    GameState,
    KeepTickets,
    Reason,
    apply_action,
    final_scores,
    legal_actions,
    load_map,
    new_game,
    scenario,
    why_illegal,
)
from ttr_rules.frontend import ticket_status
from ttr_rules.maps import GameMap, map_from_dict, map_to_dict
from ttr_rules.scoring import longest_path, winners
from ttr_rules.testing import check_invariants, check_map
from ttr_rules.testing.strategies import games
from ttr_rules.views import observe

L = Color.LOCOMOTIVE


@pytest.fixture(scope="module")
def swiss() -> GameMap:
    return load_map("switzerland")


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return reference_data("switzerland")


def path_routes(game_map: GameMap, a: str, b: str) -> list[int]:
    """The route ids of a shortest path (in spaces) from place ``a`` to place ``b``."""
    graph = nx.Graph()
    for r in game_map.routes:
        if not graph.has_edge(r.a, r.b):
            graph.add_edge(r.a, r.b, weight=r.length, route=r.id)
    cities = nx.dijkstra_path(graph, a, b)
    return [graph[u][v]["route"] for u, v in itertools.pairwise(cities)]


def ticket_id(game_map: GameMap, a: str, first: str | None = None) -> int:
    return next(
        t.id
        for t in game_map.tickets
        if t.a == a and (t.destinations[0][0] if t.destinations else t.b) == (first or t.b)
    )


# ------------------------------------------------------------------ the map against the data


def test_cities_countries_and_end_points_equal_the_reference(
    swiss: GameMap, reference: dict[str, Any]
) -> None:
    ends = [e for c in reference["countries"] for e in c["end_points"]]
    assert list(swiss.cities) == reference["cities"] + ends
    assert (len(reference["cities"]), len(ends)) == (34, 17)
    assert dict(swiss.countries) == {
        c["name"]: tuple(c["end_points"]) for c in reference["countries"]
    }
    aliases = Counter(place for _, place in swiss.aliases)
    for detail in [*reference["city_details"], *reference["countries"]]:
        mine = {alias for alias, place in swiss.aliases if place == detail["name"]}
        assert mine == set(detail["aliases"]) and aliases[detail["name"]] == len(mine)  # once
    for end in reference["end_point_details"]:  # each end-point ends one track, at its city
        (route,) = [r for r in swiss.routes if end["name"] in (r.a, r.b)]
        assert route.id == end["route_id"] - 1 and end["swiss_city"] in (route.a, route.b)


def test_routes_equal_the_reference_field_by_field(
    swiss: GameMap, reference: dict[str, Any]
) -> None:
    assert len(swiss.routes) == 88
    assert_routes_equal_reference(swiss, reference["routes"])


def test_tickets_equal_the_reference(swiss: GameMap, reference: dict[str, Any]) -> None:
    assert len(swiss.tickets) == 46
    for ticket, ref in zip(swiss.tickets, reference["tickets"], strict=True):
        assert ticket.a == ref["a"] and not ticket.long
        if ref["kind"] == "city_to_city":
            assert (ticket.b, ticket.points, ticket.destinations) == (ref["b"], ref["points"], ())
        else:
            wanted = tuple((d["to"], d["points"]) for d in ref["destinations"])
            assert (ticket.destinations, ticket.penalty) == (wanted, ref["penalty"])
            assert (ticket.b, ticket.points) == ("", max(v for _, v in wanted))
    kinds = Counter(ref["kind"] for ref in reference["tickets"])
    assert kinds == {"city_to_city": 34, "city_to_country": 4, "country_to_country": 8}
    assert len(set(swiss.tickets)) == 46 and len({str(t) for t in swiss.tickets}) == 42


def test_totals(swiss: GameMap) -> None:
    routes = swiss.routes
    doubles = [r for r in routes if r.double_of is not None and r.id < r.double_of]
    assert (len(routes), len(doubles), sum(r.tunnel for r in routes)) == (88, 12, 42)
    assert sum(r.length for r in routes) == 205
    plain = [t for t in swiss.tickets if not t.destinations]
    assert sum(t.points for t in plain) == 258
    assert sum(t.penalty for t in swiss.tickets if t.destinations) == 55


def test_rules_as_data(swiss: GameMap, reference: dict[str, Any]) -> None:
    rules = swiss.rules
    parts = reference["components"]
    assert (rules.min_players, rules.max_players) == (2, 3)
    assert (rules.trains_per_player, rules.stations_per_player) == (40, 0)
    assert (rules.initial_long_tickets, rules.initial_regular_tickets) == (0, 5)
    assert rules.initial_keep_at_least == 2
    assert (rules.initial_discard, rules.returned_ticket_discard) == ("box", "box")
    assert (rules.tickets_drawn, rules.tickets_keep_at_least) == (3, 1)
    scores = {int(k): v for k, v in parts["route_scoring"].items()}
    assert {n: rules.route_score(n) for n in scores} == scores
    assert rules.double_route_min_players == 3
    assert rules.bonuses == ("express",) and rules.longest_path_bonus == 10
    assert rules.face_up_locomotive_limit == 3 and not rules.face_up_locomotive_ends_draw  # U33
    assert rules.wild_locomotives == ("tunnel",)
    assert rules.tie_breakers == ("tickets", "express")  # U34
    assert (rules.cards_per_color, rules.locomotive_cards) == (12, 14)
    assert swiss.bonus_title("express") == "the longest-path bonus"


def test_map_file_round_trip(swiss: GameMap) -> None:
    again = map_from_dict(map_to_dict(swiss))
    assert again == swiss and again.digest == swiss.digest


@pytest.mark.parametrize("players", [2, 3])
def test_check_map(swiss: GameMap, players: int) -> None:
    report = check_map(swiss, games=2, players=[players], seed=players)
    assert report.ok, report


def test_four_players_refused(swiss: GameMap) -> None:
    with pytest.raises(ValueError, match="player"):
        new_game(swiss, 4)


# ------------------------------------------------------------------ country tickets (U31, U32)


def test_a_country_ticket_scores_the_best_value_reached(swiss: GameMap) -> None:
    zurich = ticket_id(swiss, "Zürich", "France")  # France 7, Deutschland 3, Österreich 7,
    # Italia 11; -3 when none is reached
    germany = path_routes(swiss, "Zürich", "Deutschland 2")
    italy = path_routes(swiss, "Zürich", "Italia 3")
    assert swiss.tickets[zurich].targets[3] == ("Italia", 11)

    def ticket_points(routes: list[int]) -> int:
        state = scenario(swiss, routes=dict.fromkeys(routes, 0), tickets=[[zurich], []])
        return final_scores(state)[0].ticket_points

    assert ticket_points(germany) == 3
    assert ticket_points(germany + italy) == 11  # only the highest value scores
    assert ticket_points([]) == -3  # the lowest value is lost


def test_a_country_to_country_ticket(swiss: GameMap) -> None:
    france = ticket_id(swiss, "France", "Deutschland")  # Deutschland 5, Österreich 14, Italia 11
    routes = path_routes(swiss, "France 4", "Deutschland 1")
    state = scenario(swiss, routes=dict.fromkeys(routes, 0), tickets=[[france], [france + 1]])
    scores = final_scores(state)
    assert (scores[0].ticket_points, scores[0].tickets_completed) == (5, 1)
    assert (scores[1].ticket_points, scores[1].tickets_failed) == (-5, 1)  # the other copy


def test_no_path_runs_through_a_country(swiss: GameMap) -> None:
    ticket = ticket_id(swiss, "Schaffhausen", "St. Gallen")  # 4 points
    border = [
        route_id(swiss, "Schaffhausen", "Deutschland 2"),
        route_id(swiss, "St. Gallen", "Deutschland 5"),
    ]
    state = scenario(swiss, routes=dict.fromkeys(border, 0), tickets=[[ticket], []])
    score = final_scores(state)[0]
    assert (score.ticket_points, score.tickets_completed) == (-4, 0)
    assert longest_path(state, 0) == 2  # the two tracks do not join in Deutschland


def test_ticket_status_follows_the_best_destination(swiss: GameMap) -> None:
    zurich = ticket_id(swiss, "Zürich", "France")
    germany = path_routes(swiss, "Zürich", "Deutschland 2")
    state = scenario(swiss, routes=dict.fromkeys(germany, 0), tickets=[[zurich], []])
    (status,) = ticket_status(observe(state, 0))
    assert status.done and (status.destination, status.points) == ("Deutschland", 3)
    assert status.line == ("Zürich", "Deutschland 2")
    (open_status,) = ticket_status(observe(scenario(swiss, tickets=[[zurich], []]), 0))
    assert not open_status.done and open_status.destination == "Deutschland"  # the nearest


def test_tie_broken_by_completed_country_tickets(swiss: GameMap) -> None:
    """Equal totals: the seat that completed a country ticket wins (U34)."""
    zurich = ticket_id(swiss, "Zürich", "France")
    germany = path_routes(swiss, "Zürich", "Deutschland 2")
    rules = attrs.evolve(swiss.rules, longest_path_bonus=0)  # totals from routes and tickets
    points = sum(rules.route_score(swiss.routes[r].length) for r in germany) + 3
    closed = {*germany, *(swiss.routes[r].double_of for r in germany)}
    ones = [r.id for r in swiss.routes if r.length == 1 and r.id not in closed]
    ones = [r for r in ones if swiss.routes[r].double_of not in ones[: ones.index(r)]]
    routes = {**dict.fromkeys(germany, 0), **dict.fromkeys(ones[:points], 1)}
    state = scenario(swiss, routes=routes, tickets=[[zurich], []], rules=rules)
    scores = final_scores(state)
    assert scores[0].total == scores[1].total
    assert (scores[0].tickets_completed, scores[1].tickets_completed) == (1, 0)
    assert winners(state) == (0,)


# ------------------------------------------------------------------ cards and tickets


def claims(state: GameState, route: int) -> list[ClaimRoute]:
    return [a for a in legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route]


def test_a_locomotive_is_refused_on_a_plain_route(swiss: GameMap) -> None:
    route = route_id(swiss, "Bern", "Fribourg", Color.ORANGE)  # orange 1, plain
    state = scenario(swiss, hands=[{L: 3, Color.ORANGE: 1}, {}])
    assert claims(state, route) == [ClaimRoute(route, Color.ORANGE)]
    assert why_illegal(state, ClaimRoute(route, L, 1)) is Reason.LOCOMOTIVE_NOT_WILD


def test_locomotives_are_wild_on_tunnels(swiss: GameMap) -> None:
    tunnel = route_id(swiss, "Basel", "Olten")  # orange 2, tunnel
    state = scenario(swiss, hands=[{L: 2}, {}])
    assert claims(state, tunnel) == [ClaimRoute(tunnel, L, 2)]


def test_two_face_up_locomotives_in_one_turn(swiss: GameMap) -> None:
    row = [L, L, Color.RED, Color.BLUE, Color.GREEN]
    state = scenario(swiss, face_up=row, deck=[Color.WHITE] * 10)
    after = apply_action(state, DrawFaceUp(0))
    assert after.current == 0 and DrawFaceUp(1) in legal_actions(after)
    done = apply_action(after, DrawFaceUp(1))
    assert done.current == 1 and done.players[0].hand.counts[L.code] == 2


def test_returned_tickets_leave_the_game(swiss: GameMap) -> None:
    state = new_game(swiss, 2, seed=3)
    offered = state.players[0].offered
    assert len(offered) == 5
    kept = KeepTickets(frozenset(sorted(offered)[:2]))
    after = apply_action(state, kept)
    assert set(offered) - set(kept.tickets) <= set(after.ticket_box)


@pytest.mark.parametrize(("players", "both_open"), [(2, False), (3, True)])
def test_doubles_open_to_both_tracks_only_at_three(
    swiss: GameMap, players: int, both_open: bool
) -> None:
    first = route_id(swiss, "Bern", "Fribourg", Color.ORANGE)
    second = route_id(swiss, "Bern", "Fribourg", Color.YELLOW)
    hands: list[dict[Color, int]] = [{}, {Color.YELLOW: 1}, {}][:players]
    state = scenario(swiss, players, current=1, routes={first: 0}, hands=hands)
    assert bool(claims(state, second)) is both_open


@given(games("switzerland", max_steps=120))
def test_random_games_keep_every_invariant(game: Any) -> None:
    for state in game.positions():
        check_invariants(state)


def test_an_injected_ticket_keeps_the_countries(swiss: GameMap) -> None:
    """A scenario's injected ticket and a view's blanked ones keep the map's countries."""
    zurich = ticket_id(swiss, "Zürich", "France")
    state = scenario(swiss, tickets=[[zurich, ("Bern", "Basel", 5)], [("Brig", "Sion", 2)]])
    assert state.map.countries == swiss.countries
    assert final_scores(state)[0].ticket_points == -3 - 5
    view = observe(state, 0)  # the other seat's injected ticket is blanked
    assert view.map.countries == swiss.countries
    assert [s.destination for s in ticket_status(view)] == ["Deutschland", "Basel"]


def test_map_info_counts_the_countries(swiss: GameMap) -> None:
    from ttr_rules.cli.maps import map_info, map_info_lines

    info = map_info(swiss)
    assert info["countries"] == {"France": 4, "Deutschland": 5, "Österreich": 3, "Italia": 5}
    assert (info["several_destinations"], info["penalties"]) == (12, 55)
    assert "cities: 34 and 17 border end-points" in map_info_lines(swiss)
