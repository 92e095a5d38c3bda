"""The Nordic Countries board: the map against the reference data, each of its rules (as
general rule data) with its refusals, and payments listed exactly once (docs/maps.md,
docs/rules.md "Payments", policies U23–U26)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import (
    ClaimRoute,
    Color,
    DrawFaceUp,
    GameState,
    IllegalActionError,
    KeepTickets,
    Reason,
    Rules,
    apply_action,
    final_scores,
    format_action,
    legal_actions,
    load_map,
    new_game,
    outcome,
    parse_action,
    scenario,
    why_illegal,
)
from ttr_rules.cards import COLORS
from ttr_rules.maps import GameMap, map_from_dict, map_to_dict
from ttr_rules.moves.payments import payment_cards_of, payment_counts, route_payments
from ttr_rules.scoring.bonuses import bonus_scorer, globetrotter
from ttr_rules.testing import check_map, playout, random_chooser

REFERENCE = Path(__file__).parent / "data" / "nordic_reference.json"
L = Color.LOCOMOTIVE


@pytest.fixture(scope="module")
def nordic() -> GameMap:
    return load_map("nordic")


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text("utf-8"))
    return data


def route_between(game_map: GameMap, a: str, b: str, **fields: Any) -> int:
    found = [
        r.id
        for r in game_map.routes
        if {r.a, r.b} == {a, b} and all(getattr(r, k) == v for k, v in fields.items())
    ]
    assert len(found) == 1, found
    return found[0]


# ------------------------------------------------------------------ the map against the data


def test_cities_and_spellings_equal_the_reference(
    nordic: GameMap, reference: dict[str, Any]
) -> None:
    assert list(nordic.cities) == reference["cities"]
    aliases = Counter(city for _, city in nordic.aliases)
    for detail in reference["city_details"]:
        mine = {alias for alias, city in nordic.aliases if city == detail["name"]}
        assert mine == set(detail["aliases"])
        assert aliases[detail["name"]] == len(detail["aliases"])
    assert len(nordic.locations) == 39


def test_routes_equal_the_reference_field_by_field(
    nordic: GameMap, reference: dict[str, Any]
) -> None:
    assert len(nordic.routes) == len(reference["routes"]) == 81
    for route, ref in zip(nordic.routes, reference["routes"], strict=True):
        assert route.id == ref["id"] - 1
        assert (route.a, route.b, route.length) == (ref["a"], ref["b"], ref["length"])
        assert (route.color.value if route.color else "gray") == ref["color"]
        assert (route.tunnel, route.ferry_locomotives) == (ref["tunnel"], ref["ferry_locomotives"])
        other = nordic.routes[route.double_of] if route.double_of is not None else None
        group = f"{other.a}-{other.b}" if other is not None else None
        assert (group is None) == (ref["double_group"] is None)
        expected = 4 if {route.a, route.b} == {"Lieksa", "Murmansk"} else 0
        assert route.card_substitute == expected


def test_tickets_equal_the_reference(nordic: GameMap, reference: dict[str, Any]) -> None:
    mine = [(t.a, t.b, t.points, t.long) for t in nordic.tickets]
    assert mine == [(t["a"], t["b"], t["points"], t["long"]) for t in reference["tickets"]]


def test_totals(nordic: GameMap) -> None:
    routes = nordic.routes
    pairs = {frozenset((r.a, r.b)) for r in routes}
    doubles = [r for r in routes if r.double_of is not None and r.id < r.double_of]
    unlike = [
        r
        for r in doubles
        if attrs.evolve(r, id=0, color=None, double_of=None)
        != attrs.evolve(routes[r.double_of or 0], id=0, color=None, double_of=None)
    ]
    ferries = [r for r in routes if r.ferry_locomotives]
    assert (len(routes), len(pairs), len(doubles), len(unlike)) == (81, 67, 14, 3)
    assert sum(r.tunnel for r in routes) == 10
    assert (len(ferries), sum(r.ferry_locomotives for r in ferries)) == (24, 30)
    assert sum(r.length for r in routes) == 207
    assert (len(nordic.tickets), sum(t.points for t in nordic.tickets)) == (46, 460)


def test_rules_as_data(nordic: GameMap, reference: dict[str, Any]) -> None:
    rules = nordic.rules
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
    assert rules.bonuses == ("globetrotter",) and rules.globetrotter_bonus == 10
    assert rules.face_up_locomotive_limit is None and not rules.face_up_locomotive_ends_draw
    assert rules.wild_locomotives == ("tunnel", "ferry")
    assert rules.locomotive_substitute == parts["ferry"]["any_cards_per_locomotive"] == 3
    assert rules.tie_breakers == ("tickets", "express")
    assert rules.end_trigger_trains == parts["end_game_trigger_trains_left_at_most"]
    assert (rules.cards_per_color, rules.locomotive_cards) == (12, 14)


def test_map_file_round_trip(nordic: GameMap) -> None:
    assert map_from_dict(map_to_dict(nordic)) == nordic


@pytest.mark.parametrize("players", [2, 3])
def test_check_map(nordic: GameMap, players: int) -> None:
    report = check_map(nordic, games=3, players=[players], seed=players)
    assert report.ok, report


def test_four_players_refused(nordic: GameMap) -> None:
    with pytest.raises(ValueError, match="player"):
        new_game(nordic, 4)


# ------------------------------------------------------------------ each rule, each refusal


def claims(state: GameState, route: int) -> list[ClaimRoute]:
    return [a for a in legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route]


def test_locomotive_refused_on_a_plain_route(nordic: GameMap) -> None:
    route = route_between(nordic, "Ålborg", "Århus")  # purple 1, plain
    state = scenario(nordic, hands=[{L: 3, Color.PURPLE: 1}, {}])
    assert claims(state, route) == [ClaimRoute(route, Color.PURPLE)]
    problem = why_illegal(state, ClaimRoute(route, L, 1))
    assert problem is Reason.LOCOMOTIVE_NOT_WILD


def test_locomotives_wild_on_tunnels_and_ferries(nordic: GameMap) -> None:
    tunnel = route_between(nordic, "Kiruna", "Narvik", color=Color.PURPLE)
    ferry = route_between(nordic, "Narvik", "Tromsø")  # yellow 3, one locomotive
    state = scenario(nordic, hands=[{L: 3}, {}])
    assert claims(state, tunnel) == [ClaimRoute(tunnel, L, 1)]
    assert claims(state, ferry) == [ClaimRoute(ferry, L, 3)]


def test_ferry_takes_any_three_cards_for_a_locomotive(nordic: GameMap) -> None:
    ferry = route_between(nordic, "Narvik", "Tromsø")  # yellow 3, one locomotive
    state = scenario(nordic, hands=[{Color.YELLOW: 2, Color.RED: 2, Color.BLUE: 1}, {}])
    paid = ClaimRoute(ferry, Color.YELLOW, 0, (Color.RED, Color.RED, Color.BLUE))
    assert claims(state, ferry) == [paid]
    after = apply_action(state, paid)
    assert after.route_owner[ferry] == 0 and sum(after.players[0].hand.counts) == 0
    assert after.players[0].route_points == 4


def test_short_substitute_set_refused(nordic: GameMap) -> None:
    ferry = route_between(nordic, "Narvik", "Tromsø")
    state = scenario(nordic, hands=[{Color.YELLOW: 2, Color.RED: 2}, {}])
    short = ClaimRoute(ferry, Color.YELLOW, 0, (Color.RED, Color.RED))
    problem = why_illegal(state, short)
    assert problem is Reason.BAD_SUBSTITUTE_SET
    assert claims(state, ferry) == []


def test_lieksa_murmansk_takes_sets_of_four(nordic: GameMap) -> None:
    route = route_between(nordic, "Lieksa", "Murmansk")
    hand = {Color.RED: 8, Color.BLUE: 2, Color.GREEN: 1, L: 1}
    state = scenario(nordic, hands=[hand, {}])
    paid = ClaimRoute(route, Color.RED, 0, (Color.BLUE, Color.BLUE, Color.GREEN, L))
    assert paid in claims(state, route)
    after = apply_action(state, paid)
    assert after.players[0].route_points == 27 and sum(after.players[0].hand.counts) == 0


def test_lieksa_murmansk_refuses_a_locomotive_outside_a_set(nordic: GameMap) -> None:
    route = route_between(nordic, "Lieksa", "Murmansk")
    state = scenario(nordic, hands=[{Color.RED: 8, L: 1}, {}])
    assert claims(state, route) == []
    problem = why_illegal(state, ClaimRoute(route, Color.RED, 1))
    assert problem is Reason.LOCOMOTIVE_NOT_WILD


def test_one_spelling_per_multiset(nordic: GameMap) -> None:
    ferry = route_between(nordic, "Narvik", "Tromsø")
    state = scenario(nordic, hands=[{Color.YELLOW: 5, L: 1}, {}])
    listed = claims(state, ferry)
    other = ClaimRoute(ferry, Color.YELLOW, 0, (Color.YELLOW,) * 3)  # 5 yellow: 2 + a set
    assert other in listed
    route = nordic.routes[ferry]
    multisets = {tuple(payment_counts(payment_cards_of(c, route, nordic.rules))) for c in listed}
    assert len(listed) == len(multisets)
    with pytest.raises(IllegalActionError):
        apply_action(state, ClaimRoute(ferry, L, 0, (Color.YELLOW,) * 3))


def test_face_up_locomotive_counts_as_one_card(nordic: GameMap) -> None:
    row = [L, L, Color.RED, Color.RED, Color.RED]
    state = scenario(nordic, face_up=row, deck=[Color.BLUE] * 10)
    after = apply_action(state, DrawFaceUp(0))
    assert after.current == 0  # a second card follows
    assert DrawFaceUp(1) in legal_actions(after)  # a locomotive as the second card
    done = apply_action(after, DrawFaceUp(1))
    assert done.current == 1 and done.players[0].hand.counts[L.code] == 2


def test_no_face_up_reset(nordic: GameMap) -> None:
    row = [L, L, L, L, Color.RED]
    state = scenario(nordic, face_up=row, deck=[L] * 5)
    assert list(state.face_up) == row
    after = apply_action(state, DrawFaceUp(4))
    assert list(after.face_up) == [L] * 5  # five locomotives stay


def test_returned_tickets_leave_the_game(nordic: GameMap) -> None:
    state = new_game(nordic, 2, seed=3)
    offered = state.players[0].offered
    kept = KeepTickets(frozenset(sorted(offered)[:2]))
    after = apply_action(state, kept)
    assert set(offered) - set(kept.tickets) <= set(after.ticket_box)


def test_globetrotter_tie_scores_every_tied_player(nordic: GameMap) -> None:
    # Two players, each with one completed ticket (Tampere–Tallinn 3; Oslo–København 4).
    tampere_helsinki = route_between(nordic, "Helsinki", "Tampere")
    helsinki_tallinn = route_between(nordic, "Helsinki", "Tallinn")
    oslo_goteborg = route_between(nordic, "Göteborg", "Oslo")
    goteborg_kobenhavn = route_between(nordic, "Göteborg", "København")
    state = scenario(
        nordic,
        routes={
            tampere_helsinki: 0,
            helsinki_tallinn: 0,
            oslo_goteborg: 1,
            goteborg_kobenhavn: 1,
        },
        tickets=[[0], [1]],
    )
    assert globetrotter(state) == (10, 10)
    scores = final_scores(state)
    assert [dict(s.bonuses) for s in scores] == [{"globetrotter": 10}] * 2
    assert all(s.express_bonus == 0 for s in scores)


def test_globetrotter_needs_a_completed_ticket(nordic: GameMap) -> None:
    assert globetrotter(scenario(nordic, tickets=[[0], [1]])) == (0, 0)


def test_bonus_scorers_are_registered() -> None:
    assert bonus_scorer("globetrotter") is globetrotter


def test_unknown_bonus_refused_at_load(nordic: GameMap) -> None:
    data = map_to_dict(nordic)
    data["rules"]["bonuses"] = ["globetroter"]
    with pytest.raises(ValueError, match="no bonus scorer named 'globetroter'"):
        map_from_dict(data)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("wild_locomotives", ["plain", "boat"], "unknown route kind 'boat'"),
        ("locomotive_substitute", 1, "at least 2"),
        ("face_up_locomotive_ends_draw", 0, "true or false"),
    ],
)
def test_inconsistent_rule_data_refused(
    nordic: GameMap, field: str, value: object, message: str
) -> None:
    data = map_to_dict(nordic)
    data["rules"][field] = value
    with pytest.raises(ValueError, match=message):
        map_from_dict(data)


def test_card_substitute_on_a_ferry_refused(nordic: GameMap) -> None:
    data = map_to_dict(nordic)
    ferry = route_between(nordic, "Narvik", "Tromsø")
    data["routes"][ferry]["card_substitute"] = 4
    with pytest.raises(ValueError, match="neither a tunnel nor a ferry"):
        map_from_dict(data)


# ------------------------------------------------------------------ payments, exactly


def test_general_path_equals_the_tables_on_europe() -> None:
    """With nothing restricted the general payments are the engine's tables' exactly."""
    europe = load_map("europe")
    rng = random.Random(5)
    for _ in range(40):
        counts = tuple(rng.randint(0, 4) for _ in range(9))
        hand = {COLORS[k]: n for k, n in enumerate(counts)}
        state = scenario("europe", hands=[hand, {}])
        listed = {a for a in legal_actions(state) if isinstance(a, ClaimRoute)}
        general = {
            claim
            for route in europe.routes
            if route.length <= sum(counts)
            for claim in route_payments(route, europe.rules, counts)
        }
        assert listed == general


hands = st.fixed_dictionaries({color: st.integers(0, 3) for color in Color})


@settings(max_examples=30, deadline=None)
@given(hand=hands, seed=st.integers(0, 10_000))
def test_every_listed_payment_is_accepted_and_unlisted_refused(
    hand: dict[Color, int], seed: int
) -> None:
    nordic = load_map("nordic")
    state = scenario(nordic, hands=[hand, {}])
    listed = [a for a in legal_actions(state) if isinstance(a, ClaimRoute)]
    assert len(listed) == len(set(listed))
    for action in listed:
        apply_action(state, action)
        assert parse_action(format_action(action, nordic), state) == action
    rng = random.Random(seed)
    for _ in range(40):
        route = rng.choice(nordic.routes)
        color = rng.choice(list(Color))
        subs = tuple(rng.choice(list(Color)) for _ in range(rng.choice([0, 0, 2, 3, 4, 6, 8])))
        action = ClaimRoute(route.id, color, rng.randint(0, route.length), subs)
        if action in listed:
            continue
        with pytest.raises(IllegalActionError):
            apply_action(state, action)


def test_largest_payment_list_is_tractable(nordic: GameMap) -> None:
    """Lieksa–Murmansk's payments for even hands: none from 2 of each kind, one from 3 of
    each (every card: 3 of a colour and 6 sets of 4). The list grows fast beyond: 92,131
    payments from 4 of each kind (measured; docs/rules.md, "Payments")."""
    route = nordic.routes[route_between(nordic, "Lieksa", "Murmansk")]
    assert route_payments(route, nordic.rules, (2,) * 9) == []
    payments = route_payments(route, nordic.rules, (3,) * 9)
    assert len(payments) == len(set(payments)) == 1


def test_random_games_end_and_score(nordic: GameMap) -> None:
    for players, seed in ((2, 1), (3, 2)):
        steps = list(
            playout(new_game(nordic, players, seed=seed), random_chooser(random.Random(seed)))
        )
        result = outcome(steps[-1].after)
        assert result is not None
        assert all(s.express_bonus == 0 for s in result.scores)


def test_europe_rules_unchanged() -> None:
    assert not Rules().general_payments
    assert load_map("europe").rules == Rules()
