"""The Nordic Countries board: the map against the reference data, each of its rules (as
general rule data) with its refusals, and payments listed exactly once (docs/maps.md,
docs/rules.md "Payments", policies U23–U26)."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from helpers import assert_routes_equal_reference, reference_data, route_id
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import (
    ClaimRoute,
    ClaimWithSets,
    Color,
    DrawFaceUp,
    GameState,
    IllegalActionError,
    KeepTickets,
    PayCard,
    Phase,
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
from ttr_rules.actions import Action as AnyAction
from ttr_rules.cards import COLORS
from ttr_rules.maps import GameMap, map_from_dict, map_to_dict
from ttr_rules.moves.payments import (
    canonical_claim,
    payment_cards_of,
    payment_counts,
    route_payments,
)
from ttr_rules.rl.space import ActionSpace
from ttr_rules.scoring.bonuses import bonus_scorer, globetrotter
from ttr_rules.testing import check_map, playout, random_chooser

L = Color.LOCOMOTIVE


@pytest.fixture(scope="module")
def nordic() -> GameMap:
    return load_map("nordic")


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return reference_data("nordic")


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
    assert len(nordic.routes) == 81
    assert_routes_equal_reference(nordic, reference["routes"])
    for route in nordic.routes:
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


def claims(state: GameState, route: int) -> list[ClaimRoute | ClaimWithSets]:
    """The claims of ``route`` listed at the start of the turn: its payments without sets,
    and the start of a payment with sets."""
    return [
        a
        for a in legal_actions(state)
        if isinstance(a, (ClaimRoute, ClaimWithSets)) and a.route == route
    ]


def pay_with_sets(state: GameState, claim: ClaimRoute) -> GameState:
    """``claim``, a payment with sets, made as the engine takes it: the start, each card in
    card order, then the claim of the picked cards."""
    route = state.map.routes[claim.route]
    cards = sorted(payment_cards_of(claim, route, state.rules), key=lambda card: card.code)
    state = apply_action(state, ClaimWithSets(claim.route))
    for card in cards:
        assert state.phase is Phase.PAYMENT
        state = apply_action(state, PayCard(card))
    return apply_action(state, claim)


def set_payments(state: GameState, route: int) -> list[ClaimRoute]:
    """Every payment with sets of ``route`` reachable by the listed steps, each applied (a
    depth-first walk of the picking from the start of the turn)."""
    if ClaimWithSets(route) not in legal_actions(state):
        return []
    found: list[ClaimRoute] = []
    stack = [apply_action(state, ClaimWithSets(route))]
    while stack:
        here = stack.pop()
        listed = legal_actions(here)
        assert listed, "a pick led nowhere"
        assert len(listed) <= len(Color) + 1
        for action in listed:
            after = apply_action(here, action)
            if isinstance(action, ClaimRoute):
                assert after.route_owner[route] == here.current
                found.append(action)
            else:
                assert isinstance(action, PayCard)
                stack.append(after)
    return found


def test_locomotive_refused_on_a_plain_route(nordic: GameMap) -> None:
    route = route_id(nordic, "Ålborg", "Århus")  # purple 1, plain
    state = scenario(nordic, hands=[{L: 3, Color.PURPLE: 1}, {}])
    assert claims(state, route) == [ClaimRoute(route, Color.PURPLE)]
    problem = why_illegal(state, ClaimRoute(route, L, 1))
    assert problem is Reason.LOCOMOTIVE_NOT_WILD


def test_locomotives_wild_on_tunnels_and_ferries(nordic: GameMap) -> None:
    tunnel = route_id(nordic, "Kiruna", "Narvik", Color.PURPLE)
    ferry = route_id(nordic, "Narvik", "Tromsø")  # yellow 3, one locomotive
    state = scenario(nordic, hands=[{L: 3}, {}])
    assert claims(state, tunnel) == [ClaimRoute(tunnel, L, 1)]
    assert claims(state, ferry) == [ClaimRoute(ferry, L, 3)]


def test_ferry_takes_any_three_cards_for_a_locomotive(nordic: GameMap) -> None:
    ferry = route_id(nordic, "Narvik", "Tromsø")  # yellow 3, one locomotive
    state = scenario(nordic, hands=[{Color.YELLOW: 2, Color.RED: 2, Color.BLUE: 1}, {}])
    paid = ClaimRoute(ferry, Color.YELLOW, 0, (Color.RED, Color.RED, Color.BLUE))
    assert claims(state, ferry) == [ClaimWithSets(ferry)]
    assert set_payments(state, ferry) == [paid]
    after = pay_with_sets(state, paid)
    assert after.route_owner[ferry] == 0 and sum(after.players[0].hand.counts) == 0
    assert after.players[0].route_points == 4 and after.current == 1


def test_short_substitute_set_refused(nordic: GameMap) -> None:
    ferry = route_id(nordic, "Narvik", "Tromsø")
    state = scenario(nordic, hands=[{Color.YELLOW: 2, Color.RED: 2}, {}])
    short = ClaimRoute(ferry, Color.YELLOW, 0, (Color.RED, Color.RED))
    assert why_illegal(state, short) is Reason.BAD_SUBSTITUTE_SET
    assert claims(state, ferry) == []
    assert why_illegal(state, ClaimWithSets(ferry)) is Reason.NOT_ENOUGH_CARDS
    # With a card more the set can be made; two cards picked are not a payment yet.
    state = scenario(nordic, hands=[{Color.YELLOW: 2, Color.RED: 3}, {}])
    picking = apply_action(state, ClaimWithSets(ferry))
    assert why_illegal(picking, PayCard(Color.RED)) is Reason.BAD_SUBSTITUTE_SET  # yellow first
    for card in (Color.YELLOW, Color.YELLOW, Color.RED, Color.RED):
        picking = apply_action(picking, PayCard(card))
    assert why_illegal(picking, short) is Reason.BAD_PAYMENT
    assert all(isinstance(a, PayCard) for a in legal_actions(picking))


def test_claim_with_sets_refused_where_no_route_takes_them(nordic: GameMap) -> None:
    plain = route_id(nordic, "Ålborg", "Århus")
    state = scenario(nordic, hands=[{Color.PURPLE: 9}, {}])
    assert why_illegal(state, ClaimWithSets(plain)) is Reason.BAD_SUBSTITUTE_SET
    europe = scenario("europe", hands=[{Color.RED: 9}, {}])
    assert why_illegal(europe, ClaimWithSets(0)) is Reason.BAD_SUBSTITUTE_SET
    assert why_illegal(europe, PayCard(Color.RED)) is Reason.WRONG_PHASE


def test_lieksa_murmansk_takes_sets_of_four(nordic: GameMap) -> None:
    route = route_id(nordic, "Lieksa", "Murmansk")
    hand = {Color.RED: 8, Color.BLUE: 2, Color.GREEN: 1, L: 1}
    state = scenario(nordic, hands=[hand, {}])
    paid = ClaimRoute(route, Color.RED, 0, (Color.BLUE, Color.BLUE, Color.GREEN, L))
    assert set_payments(state, route) == [paid]
    after = pay_with_sets(state, paid)
    assert after.players[0].route_points == 27 and sum(after.players[0].hand.counts) == 0


def test_lieksa_murmansk_refuses_a_locomotive_outside_a_set(nordic: GameMap) -> None:
    route = route_id(nordic, "Lieksa", "Murmansk")
    state = scenario(nordic, hands=[{Color.RED: 8, L: 1}, {}])
    assert claims(state, route) == []
    problem = why_illegal(state, ClaimRoute(route, Color.RED, 1))
    assert problem is Reason.LOCOMOTIVE_NOT_WILD
    assert why_illegal(state, ClaimWithSets(route)) is Reason.NOT_ENOUGH_CARDS


def test_one_spelling_per_multiset(nordic: GameMap) -> None:
    ferry = route_id(nordic, "Narvik", "Tromsø")
    state = scenario(nordic, hands=[{Color.YELLOW: 5, L: 1}, {}])
    listed = set_payments(state, ferry)
    other = ClaimRoute(ferry, Color.YELLOW, 0, (Color.YELLOW,) * 3)  # 5 yellow: 2 + a set
    assert other in listed
    route = nordic.routes[ferry]
    multisets = {tuple(payment_counts(payment_cards_of(c, route, nordic.rules))) for c in listed}
    assert len(listed) == len(multisets)
    picking = apply_action(state, ClaimWithSets(ferry))
    for _ in range(5):
        picking = apply_action(picking, PayCard(Color.YELLOW))
    with pytest.raises(IllegalActionError):
        apply_action(picking, ClaimRoute(ferry, L, 0, (Color.YELLOW,) * 3))
    assert why_illegal(state, other) is Reason.BAD_SUBSTITUTE_SET  # only picked card by card


def test_picking_in_card_order_only(nordic: GameMap) -> None:
    route = route_id(nordic, "Lieksa", "Murmansk")
    state = scenario(nordic, hands=[{Color.RED: 8, Color.BLUE: 4}, {}])
    picking = apply_action(state, ClaimWithSets(route))
    assert legal_actions(picking) == (PayCard(Color.BLUE),)  # red first would leave blue out
    assert why_illegal(picking, PayCard(Color.RED)) is Reason.BAD_SUBSTITUTE_SET
    picking = apply_action(picking, PayCard(Color.BLUE))
    assert why_illegal(picking, PayCard(Color.GREEN)) is Reason.NOT_ENOUGH_CARDS
    for _ in range(3):
        picking = apply_action(picking, PayCard(Color.BLUE))
    picking = apply_action(picking, PayCard(Color.RED))
    assert why_illegal(picking, PayCard(Color.BLUE)) is Reason.NOT_ENOUGH_CARDS
    wider = scenario(nordic, hands=[{Color.RED: 12, Color.BLUE: 1}, {}])
    picking = apply_action(apply_action(wider, ClaimWithSets(route)), PayCard(Color.RED))
    assert why_illegal(picking, PayCard(Color.BLUE)) is Reason.BAD_PAYMENT  # before red
    assert why_illegal(picking, DrawFaceUp(0)) is Reason.WRONG_PHASE
    assert picking.current == 0 and picking.players[0].hand == wider.players[0].hand


def test_picked_cards_are_private_until_the_claim(nordic: GameMap) -> None:
    from ttr_rules import determinize, observe, view_legal_actions

    route = route_id(nordic, "Lieksa", "Murmansk")
    state = scenario(nordic, hands=[{Color.RED: 8, Color.BLUE: 4}, {}])
    picking = apply_action(apply_action(state, ClaimWithSets(route)), PayCard(Color.BLUE))
    own, other = observe(picking, 0), observe(picking, 1)
    assert own.payment == picking.payment
    assert other.payment is not None and other.payment.cards == ()
    assert view_legal_actions(own) == legal_actions(picking)
    assert observe(determinize(other, 3), 1) == other


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
    tampere_helsinki = route_id(nordic, "Helsinki", "Tampere")
    helsinki_tallinn = route_id(nordic, "Helsinki", "Tallinn")
    oslo_goteborg = route_id(nordic, "Göteborg", "Oslo")
    goteborg_kobenhavn = route_id(nordic, "Göteborg", "København")
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
    ferry = route_id(nordic, "Narvik", "Tromsø")
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


hands = st.fixed_dictionaries({color: st.integers(0, 2) for color in Color})
SET_ROUTES = [r.id for r in load_map("nordic").routes if r.ferry_locomotives or r.card_substitute]


def submultisets(counts: tuple[int, ...]) -> Iterator[list[int]]:
    return (list(sub) for sub in itertools.product(*(range(n + 1) for n in counts)))


@settings(max_examples=25, deadline=None)
@given(hand=hands, route=st.sampled_from(SET_ROUTES), seed=st.integers(0, 10_000))
def test_every_listed_payment_is_accepted_and_unlisted_refused(
    hand: dict[Color, int], route: int, seed: int
) -> None:
    nordic = load_map("nordic")
    state = scenario(nordic, hands=[hand, {}])
    start = legal_actions(state)
    assert len(start) == len(set(start))
    for action in start:
        if isinstance(action, (ClaimRoute, ClaimWithSets)):
            apply_action(state, action)
            assert parse_action(format_action(action, nordic), state) == action
    # The payments with sets reached by the steps are exactly the hand's sub-multisets that
    # pay the route with sets, each once.
    listed = set_payments(state, route)
    assert len(listed) == len(set(listed))
    counts = state.players[0].hand.counts
    the_route = nordic.routes[route]
    expected = set()
    for sub in submultisets(counts):
        if sum(sub) > the_route.length:
            claim = canonical_claim(the_route, nordic.rules, sub)
            if claim is not None:
                expected.add(claim)
    assert set(listed) == expected
    # Unlisted steps are refused, on a random walk through the picking.
    rng = random.Random(seed)
    for _ in range(30):
        action = _random_claim(rng, nordic)
        if action.substitutes:
            with pytest.raises(IllegalActionError):
                apply_action(state, action)
    if not listed:
        assert why_illegal(state, ClaimWithSets(route)) is not None
        return
    here = apply_action(state, ClaimWithSets(route))
    while here.phase is Phase.PAYMENT:
        options = legal_actions(here)
        for action in options:
            assert parse_action(format_action(action, nordic), here) == action
        for _ in range(10):
            choices: list[AnyAction] = [
                PayCard(rng.choice(list(Color))),
                _random_claim(rng, nordic),
            ]
            other = rng.choice(choices)
            if other not in options:
                with pytest.raises(IllegalActionError):
                    apply_action(here, other)
        here = apply_action(here, rng.choice(options))
    assert here.route_owner[route] == 0


def _random_claim(rng: random.Random, nordic: GameMap) -> ClaimRoute:
    route = rng.choice(nordic.routes)
    color = rng.choice(list(Color))
    subs = tuple(rng.choice(list(Color)) for _ in range(rng.choice([0, 2, 3, 4, 6, 8])))
    return ClaimRoute(route.id, color, rng.randint(0, route.length), subs)


def test_largest_payment_lists_are_small(nordic: GameMap) -> None:
    """The largest hand a Nordic game can hold (all 110 cards: 12 of each colour and 14
    locomotives) lists a few hundred actions at the start of the turn, and every step of a
    payment with sets at most ten (nine cards and the claim), on every route; each random
    walk through the picking ends in a claim. Listed whole, Lieksa–Murmansk's payments
    alone number 92,131 for 4 cards of each kind (docs/rules.md, "Payments")."""
    hand = {color: nordic.rules.cards_per_color for color in Color}
    hand[L] = nordic.rules.locomotive_cards
    state = scenario(nordic, hands=[hand, {}], deck=[], discard=[], face_up=[None] * 5)
    start = legal_actions(state)
    assert len(start) < 400
    rng = random.Random(1)
    for action in start:
        if not isinstance(action, ClaimWithSets):
            continue
        for _ in range(3):
            here = apply_action(state, action)
            while here.phase is Phase.PAYMENT:
                options = legal_actions(here)
                assert 1 <= len(options) <= 10
                here = apply_action(here, rng.choice(options))
            assert here.route_owner[action.route] == 0


def test_payment_steps_in_the_action_space(nordic: GameMap) -> None:
    """The RL action space numbers the steps: a block of ClaimWithSets by route, nine PayCard
    indices and one for the claim of the picked cards (translated with the state)."""
    space = ActionSpace(nordic, 2)
    blocks = space.blocks()
    assert len(blocks["PayCard"]) == 9 and len(blocks["PickedClaim"]) == 1
    assert len(blocks["ClaimWithSets"]) == len(SET_ROUTES)
    assert "PayCard" not in ActionSpace("europe", 2).blocks()
    rng = random.Random(2)
    state = new_game(nordic, 2, seed=2)
    picked = 0
    while not state.is_terminal:
        options = legal_actions(state)
        mask = space.mask(state)
        assert int(mask.sum()) == len(options)
        for action in options:
            index = space.index(action, state)
            assert mask[index] and space.action(index, state) == action
        sets = [a for a in options if isinstance(a, (ClaimWithSets, PayCard))]
        picked += bool(sets)
        state = apply_action(state, rng.choice(sets or list(options)))
    assert picked


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


def test_greedy_pays_with_sets_and_beats_random(nordic: GameMap) -> None:
    """The greedy agent starts payments with sets, completes each with a claim, and outscores
    the random agent (three seeded games)."""
    from ttr_rules.agents import make_agent, play_game

    log: list[tuple[GameState, AnyAction]] = []
    margin = 0
    for seed in range(3):
        agents = [make_agent("greedy", seed=seed), make_agent("random", seed=seed)]
        end = play_game(agents, map=nordic, seed=seed, on_decision=lambda s, a: log.append((s, a)))
        scores = final_scores(end)
        margin += scores[0].total - scores[1].total
    greedy = [(s, a) for s, a in log if s.current == 0]
    started = [a for _, a in greedy if isinstance(a, ClaimWithSets)]
    claimed = [a for s, a in greedy if isinstance(a, ClaimRoute) and s.phase is Phase.PAYMENT]
    assert started and len(claimed) == len(started)
    assert margin > 0


# ---------------------------------------------------------- payments from JSON (issue 44 T7)


def _picking_json(nordic: GameMap) -> tuple[GameState, dict[str, Any], list[dict[str, Any]]]:
    """A payment with sets being picked on Lieksa–Murmansk (one blue picked), as the JSON of
    the state and of the payer's and the other seat's views."""
    from ttr_rules import observe, to_json

    route = route_id(nordic, "Lieksa", "Murmansk")
    state = scenario(nordic, hands=[{Color.RED: 8, Color.BLUE: 4}, {}])
    picking = apply_action(apply_action(state, ClaimWithSets(route)), PayCard(Color.BLUE))
    views = [json.loads(to_json(observe(picking, seat))) for seat in (0, 1)]
    return picking, json.loads(to_json(picking)), views


def _with_payment(data: dict[str, Any], seats: str, payment: dict[str, Any]) -> str:
    changed = json.loads(json.dumps(data))
    changed[seats][0]["payment"] = payment
    return json.dumps(changed)


@pytest.mark.parametrize(
    ("payment", "documented"),
    [
        ({"route": 9999, "cards": []}, "route 9999 is not a route of the map"),
        ({"route": -1, "cards": []}, "route -1 is not a route of the map"),
        ({"route": 50, "cards": ["blue"] * 9}, "its cards are not all in the hand"),
        ({"route": 50, "cards": ["red"] * 5}, "no payment with sets can follow its cards"),
        ({"route": 0, "cards": []}, "route 0 (Ålborg–Århus) takes no substitute sets"),
        ({"route": 50, "cards": ["red", "blue"]}, "its cards are not in card order"),
    ],
)
def test_from_json_refuses_a_payment_no_game_reaches(
    nordic: GameMap, payment: dict[str, Any], documented: str
) -> None:
    """A payment for a route that does not exist, picks beyond the hand or leading nowhere,
    sets on a route that takes none: refused by ``from_json`` of the state and of the payer's
    view with the documented error (it was an IndexError, or a game with no legal action)."""
    from ttr_rules import PlayerView, SerializationError, from_json

    assert nordic.routes[50].card_substitute  # Lieksa–Murmansk
    _, state, (own, other) = _picking_json(nordic)
    for data, seats, cls in ((state, "players", GameState), (own, "seats", PlayerView)):
        with pytest.raises(SerializationError) as refused:
            from_json(_with_payment(data, seats, payment), cls)
        assert any(documented in p for p in refused.value.problems), refused.value.problems
        assert all(p.startswith("$.") for p in refused.value.problems)
    if payment["cards"]:  # another seat's view never shows the picks
        with pytest.raises(SerializationError, match="shown to their player only"):
            from_json(_with_payment(other, "seats", payment), PlayerView)
    elif "takes no" in documented or "not a route" in documented:
        with pytest.raises(SerializationError, match=re.escape(documented)):
            from_json(_with_payment(other, "seats", payment), PlayerView)


def test_from_json_refuses_a_view_whose_payment_and_phase_disagree(nordic: GameMap) -> None:
    from ttr_rules import PlayerView, SerializationError, from_json

    _, _, (own, other) = _picking_json(nordic)
    for view in (own, other):
        with pytest.raises(
            SerializationError, match="phase is payment and no payment with sets is being picked"
        ):
            from_json(_with_payment(view, "seats", None), PlayerView)  # type: ignore[arg-type]
        moved = json.loads(json.dumps(view))
        moved["seats"][1]["payment"], moved["seats"][0]["payment"] = {"route": 50}, None
        with pytest.raises(SerializationError, match="player 1 pays with sets out of turn"):
            from_json(json.dumps(moved), PlayerView)


def test_every_payment_from_json_is_refused_or_has_a_legal_action(nordic: GameMap) -> None:
    """A sweep of routes and picks: whatever ``from_json`` accepts has a legal action (in the
    state, and in the payer's view), never an IndexError."""
    from ttr_rules import (
        PlayerView,
        SerializationError,
        determinize,
        from_json,
        observe,
        view_legal_actions,
    )
    from ttr_rules.invariants import check_invariants

    _, state, (own, other) = _picking_json(nordic)
    routes = [-1, len(nordic.routes), *range(len(nordic.routes))]
    picks: list[list[str]] = [[], ["blue"], ["blue"] * 4, ["red"] * 9, ["locomotive"]]
    accepted = 0
    for route in routes:
        for cards in picks:
            payment = {"route": route, "cards": cards}
            for data, seats, cls in (
                (state, "players", GameState),
                (own, "seats", PlayerView),
                (other, "seats", PlayerView),
            ):
                try:
                    loaded: Any = from_json(_with_payment(data, seats, payment), cls)
                except SerializationError:
                    continue
                accepted += 1
                if isinstance(loaded, GameState):
                    assert legal_actions(loaded), payment
                elif loaded.player == loaded.current:
                    assert view_legal_actions(loaded), payment
                else:  # the payer's hand is unseen: dealt anew, able to pay
                    for seed in range(3):
                        world = determinize(loaded, seed)
                        assert legal_actions(world), payment
                        check_invariants(world, check_trains=False)
                        assert observe(world, loaded.player) == loaded
    assert accepted > 10  # the real payments, on the ferries and on Lieksa–Murmansk
