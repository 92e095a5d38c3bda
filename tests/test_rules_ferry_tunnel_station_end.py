"""Catalogue tests for ferries, tunnels, stations, tickets and the end of the game.

E35–E54 and E61–E70 (E20 is with the card draws, E55–E60 with scoring), with the
variants that belong to them as ``Rules`` fields. Every test is built with ``scenario()`` and
named after its catalogue id; route facts are read from the map data (``tests/helpers.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from helpers import FIXTURE_RULES, B, G, K, L, O, P, R, W, Y, europe, route_id

from ttr_rules import (
    Action,
    BuildStation,
    ClaimRoute,
    Color,
    DeckReshuffled,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    FinalRoundStarted,
    GameMap,
    GameOver,
    GameState,
    IllegalActionError,
    KeepTickets,
    Pass,
    PayTunnel,
    PendingTunnel,
    Phase,
    Reason,
    RouteClaimed,
    Rules,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelDeclined,
    TunnelRevealed,
    TurnEnded,
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    scenario,
    step,
)
from ttr_rules.actions import ACTION_TYPES
from ttr_rules.scoring import final_scores

ORG = O

#: A full face-up row without locomotives (and without black), so that no reset or refill
#: interferes with the cards under test.
ROW: tuple[Color | None, ...] = (R, G, B, Y, W)
EMPTY_ROW: tuple[Color | None, ...] = (None, None, None, None, None)


# --------------------------------------------------------------------------- helpers


def rid(a: str, b: str, color: Color | None = None) -> int:
    """A Europe route id, looked up from the map data."""
    return route_id(europe(), a, b, color)


def hand_of(state: GameState, seat: int) -> dict[Color, int]:
    return state.players[seat].hand.as_dict()


def game(
    *,
    players: int = 2,
    current: int = 0,
    hands: Sequence[Mapping[Color, int]] | None = None,
    face_up: Sequence[Color | None] | None = ROW,
    deck: Sequence[Color] | None = None,
    discard: Sequence[Color] | None = (),
    routes: Mapping[int, int] | None = None,
    stations: Mapping[str, int] | None = None,
    tickets: Sequence[Sequence[int | tuple[str, str, int]]] | None = None,
    ticket_deck: Sequence[int] | None = None,
    trains: Sequence[int] | None = None,
    rules: Rules | None = None,
    game_map: GameMap | None = None,
) -> GameState:
    """``scenario()`` on Europe with the identity shuffle, a locomotive-free face-up row and
    an empty discard pile unless told otherwise (with ``deck`` given, the unplaced cards are
    then set aside out of play)."""
    return scenario(
        game_map if game_map is not None else europe(),
        players,
        current=current,
        hands=hands,
        face_up=face_up,
        deck=deck,
        discard=discard,
        routes=routes,
        stations=stations,
        tickets=tickets,
        ticket_deck=ticket_deck,
        trains=trains,
        rules=rules,
        shuffle="identity",
    )


def rejected(state: GameState, action: Action, reason: Reason) -> None:
    """The catalogue's "rejected": not offered, and applying it raises with ``reason``, leaving the
    state as it was (U22)."""
    snapshot = hash(state)
    assert action not in legal_actions(state)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action)
    assert info.value.reason is reason
    assert info.value.action == action
    assert hash(state) == snapshot


def legal(state: GameState, action: Action) -> GameState:
    """Offered, and applies without error."""
    assert action in legal_actions(state)
    return apply_action(state, action)


def claims_of(state: GameState, route: int) -> set[ClaimRoute]:
    return {a for a in legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route}


def stations_in(state: GameState, city: str) -> set[BuildStation]:
    return {a for a in legal_actions(state) if isinstance(a, BuildStation) and a.city == city}


def regular_tickets() -> list[int]:
    return [t.id for t in europe().tickets if not t.long]


def full_hand() -> dict[Color, int]:
    """All 110 train cards."""
    cards = {c: 12 for c in (P, W, B, Y, ORG, K, R, G)}
    cards[L] = 14
    return cards


def draw_two(state: GameState) -> GameState:
    """A complete card-drawing turn (two blind cards)."""
    state = apply_action(state, DrawBlind())
    assert state.phase is Phase.SECOND_CARD
    return apply_action(state, DrawBlind())


# --------------------------------------------------------------------------- ferries


def test_e35_ferry_needs_one_locomotive_per_symbol() -> None:
    route = europe().routes[rid("Smyrna", "Palermo")]
    assert (route.length, route.color, route.ferry_locomotives) == (6, None, 2)
    assert not route.tunnel
    state = game(hands=[{R: 6, L: 2}, {}])
    assert ClaimRoute(route.id, R, 2) in claims_of(state, route.id)
    assert {a.locomotives for a in claims_of(state, route.id)} == {2}
    after = legal(state, ClaimRoute(route.id, R, 2))
    assert after.route_owner[route.id] == 0
    assert after.players[0].trains == 45 - 6
    assert after.players[0].route_points == 15
    assert hand_of(after, 0) == {R: 2}
    assert after.discard == (R, R, R, R, L, L)
    rejected(state, ClaimRoute(route.id, R, 1), Reason.FERRY_NEEDS_LOCOMOTIVES)
    rejected(state, ClaimRoute(route.id, R, 0), Reason.FERRY_NEEDS_LOCOMOTIVES)


def test_e36_locomotives_may_pay_the_plain_ferry_spaces() -> None:
    route = rid("Smyrna", "Palermo")
    state = game(hands=[{R: 3, L: 6}, {}])
    offered = claims_of(state, route)
    assert ClaimRoute(route, R, 3) in offered
    assert ClaimRoute(route, L, 6) in offered
    mixed = legal(state, ClaimRoute(route, R, 3))
    assert hand_of(mixed, 0) == {L: 3}
    assert mixed.players[0].route_points == 15
    all_locos = legal(state, ClaimRoute(route, L, 6))
    assert hand_of(all_locos, 0) == {R: 3}
    assert all_locos.route_owner[route] == 0
    assert all_locos.discard == (L,) * 6


def test_e37_no_three_for_one_locomotive_substitute() -> None:
    route = europe().routes[rid("Roma", "Palermo")]
    assert (route.length, route.color, route.ferry_locomotives) == (4, None, 1)
    # {R:6}: six red cards do not replace the locomotive.
    six_red = game(hands=[{R: 6}, {}])
    assert claims_of(six_red, route.id) == set()
    rejected(six_red, ClaimRoute(route.id, R, 0), Reason.FERRY_NEEDS_LOCOMOTIVES)
    # {R:3, G:3}: neither does a second colour.
    two_colours = game(hands=[{R: 3, G: 3}, {}])
    assert claims_of(two_colours, route.id) == set()
    rejected(two_colours, ClaimRoute(route.id, R, 0), Reason.FERRY_NEEDS_LOCOMOTIVES)
    # {R:3, L:1} is the legal payment.
    state = game(hands=[{R: 3, L: 1}, {}])
    assert claims_of(state, route.id) == {ClaimRoute(route.id, R, 1)}
    after = legal(state, ClaimRoute(route.id, R, 1))
    assert after.route_owner[route.id] == 0
    assert after.players[0].route_points == 7


def test_e38_ferry_plain_spaces_take_one_colour() -> None:
    route = rid("Roma", "Palermo")
    mixed = game(hands=[{R: 2, B: 1, L: 1}, {}])
    assert claims_of(mixed, route) == set()
    rejected(mixed, ClaimRoute(route, R, 1), Reason.NOT_ENOUGH_CARDS)
    rejected(mixed, ClaimRoute(route, B, 1), Reason.NOT_ENOUGH_CARDS)
    state = game(hands=[{B: 3, L: 1}, {}])
    after = legal(state, ClaimRoute(route, B, 1))
    assert after.players[0].route_points == 7
    assert after.players[0].trains == 41
    assert after.discard == (B, B, B, L)


def test_e38_no_europe_route_is_a_ferry_tunnel() -> None:
    assert not [r for r in europe().routes if r.tunnel and r.ferry_locomotives]


def test_e38_custom_ferry_tunnel_ferry_minimum_on_base_tunnel_rule_on_extras() -> None:
    # Policy (E38 note): the ferry minimum applies to the base payment, the tunnel rule to
    # the extras. Synthetic map: X-Y is a gray ferry tunnel of length 3 with 1 symbol.
    game_map = GameMap.create(
        "ferry-tunnel",
        ["X", "Y"],
        [{"a": "X", "b": "Y", "length": 3, "tunnel": True, "ferry_locomotives": 1}],
        [("X", "Y", 4)],
        rules=FIXTURE_RULES,
    )
    state = game(game_map=game_map, hands=[{R: 3, L: 2}, {}], deck=[R, L, G, B])
    rejected(state, ClaimRoute(0, R, 0), Reason.FERRY_NEEDS_LOCOMOTIVES)
    tunnel = legal(state, ClaimRoute(0, R, 1))
    assert tunnel.tunnel == PendingTunnel(0, R, 1, (R, L, G), 2)
    # Hand left {R:1, L:1}: the extras need no locomotive of their own, so 1 red + 1 L.
    assert legal_actions(tunnel) == (PayTunnel(1), DeclineTunnel())
    done = legal(tunnel, PayTunnel(1))
    assert done.route_owner[0] == 0
    assert hand_of(done, 0) == {}


# --------------------------------------------------------------------------- tunnels


def madrid_pamplona_black() -> int:
    route = europe().routes[rid("Madrid", "Pamplona", K)]
    assert (route.length, route.color, route.tunnel) == (3, K, True)
    assert route.double_of is not None  # a double tunnel (black/white)
    return route.id


def test_e39_basic_tunnel() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 5}, {}], deck=[K, R, G, ORG, ORG])
    result = step(state, ClaimRoute(route, K, 0))
    pending = result.state
    assert result.events == (TunnelRevealed(0, route, (K, R, G), 1),)
    assert pending.phase is Phase.TUNNEL
    assert current_player(pending) == 0
    assert pending.tunnel == PendingTunnel(route, K, 0, (K, R, G), 1)
    assert legal_actions(pending) == (PayTunnel(0), DeclineTunnel())
    result = step(pending, PayTunnel(0))
    done = result.state
    assert RouteClaimed(0, route, (K, K, K, K), 4) in result.events
    assert done.route_owner[route] == 0
    assert done.players[0].trains == 42
    assert done.players[0].route_points == 4
    assert hand_of(done, 0) == {K: 1}
    assert sorted(done.discard) == sorted((K, K, K, K, K, R, G))
    assert done.tunnel is None
    assert done.phase is Phase.START and current_player(done) == 1


def test_e40_revealed_locomotive_always_matches() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 5, L: 2}, {}], deck=[L, R, L, ORG])
    pending = legal(state, ClaimRoute(route, K, 0))
    assert pending.tunnel is not None
    assert pending.tunnel.revealed == (L, R, L)
    assert pending.tunnel.owed == 2
    # Each extra card is K or L: hand left {K:2, L:2}.
    assert legal_actions(pending) == (PayTunnel(0), PayTunnel(1), PayTunnel(2), DeclineTunnel())
    assert hand_of(legal(pending, PayTunnel(0)), 0) == {L: 2}
    assert hand_of(legal(pending, PayTunnel(1)), 0) == {K: 1, L: 1}
    assert hand_of(legal(pending, PayTunnel(2)), 0) == {K: 2}


def test_e41_all_locomotive_tunnel_only_locomotives_count() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{L: 4}, {}], deck=[K, K, L, ORG])
    pending = legal(state, ClaimRoute(route, L, 3))
    assert pending.tunnel == PendingTunnel(route, L, 3, (K, K, L), 1)
    assert legal_actions(pending) == (PayTunnel(1), DeclineTunnel())
    done = legal(pending, PayTunnel(1))
    assert done.route_owner[route] == 0
    assert hand_of(done, 0) == {}
    assert done.discard == (L, L, L, L, K, K, L)

    # With {L:3, K:2} the one extra must be a locomotive: K cannot pay it, the attempt fails.
    state = game(hands=[{L: 3, K: 2}, {}], deck=[K, K, L, ORG])
    pending = legal(state, ClaimRoute(route, L, 3))
    assert pending.tunnel is not None and pending.tunnel.owed == 1
    assert legal_actions(pending) == (DeclineTunnel(),)
    rejected(pending, PayTunnel(0), Reason.BAD_PAYMENT)
    rejected(pending, PayTunnel(1), Reason.NOT_ENOUGH_CARDS)
    failed = legal(pending, DeclineTunnel())
    assert hand_of(failed, 0) == {L: 3, K: 2}
    assert failed.route_owner[route] is None


def test_e42_mixed_payment_colour_and_locomotive_both_match() -> None:
    route = europe().routes[rid("Paris", "Zürich")]
    assert (route.length, route.color, route.tunnel) == (3, None, True)
    state = game(hands=[{G: 4, L: 3, B: 2}, {}], deck=[G, L, B, ORG])
    pending = legal(state, ClaimRoute(route.id, G, 1))
    assert pending.tunnel == PendingTunnel(route.id, G, 1, (G, L, B), 2)
    # Hand left {G:2, L:2, B:2}: {G,G}, {G,L} and {L,L} are the offered extras.
    assert legal_actions(pending) == (PayTunnel(0), PayTunnel(1), PayTunnel(2), DeclineTunnel())
    for k, left in ((0, {L: 2, B: 2}), (1, {G: 1, L: 1, B: 2}), (2, {G: 2, B: 2})):
        done = legal(pending, PayTunnel(k))
        assert done.route_owner[route.id] == 0
        assert hand_of(done, 0) == left
    # {B,B} is not an accepted extra: with only blue left, A can just decline.
    state = game(hands=[{G: 2, L: 1, B: 2}, {}], deck=[G, L, B, ORG])
    pending = legal(state, ClaimRoute(route.id, G, 1))
    assert legal_actions(pending) == (DeclineTunnel(),)
    rejected(pending, PayTunnel(0), Reason.NOT_ENOUGH_CARDS)


def test_e43_cards_played_fix_the_colour_of_a_gray_tunnel() -> None:
    route = europe().routes[rid("Pamplona", "Barcelona")]
    assert (route.length, route.color, route.tunnel) == (2, None, True)
    hands: list[Mapping[Color, int]] = [{Y: 2, R: 4, L: 1}, {}]
    # {Y:2} with reveal [Y,R,R]: 1 extra, yellow or locomotive.
    pending = legal(game(hands=hands, deck=[Y, R, R, ORG]), ClaimRoute(route.id, Y, 0))
    assert pending.tunnel == PendingTunnel(route.id, Y, 0, (Y, R, R), 1)
    assert legal_actions(pending) == (PayTunnel(1), DeclineTunnel())
    # {Y:2} with reveal [R,R,R]: nothing owed, claimed at once.
    done = legal(game(hands=hands, deck=[R, R, R, ORG]), ClaimRoute(route.id, Y, 0))
    assert done.route_owner[route.id] == 0
    assert done.phase is Phase.START and current_player(done) == 1
    # {R:2} with reveal [Y,R,R]: 2 extra, red or locomotive (the yellow cards do not help).
    pending = legal(game(hands=hands, deck=[Y, R, R, ORG]), ClaimRoute(route.id, R, 0))
    assert pending.tunnel == PendingTunnel(route.id, R, 0, (Y, R, R), 2)
    assert legal_actions(pending) == (PayTunnel(0), PayTunnel(1), DeclineTunnel())
    # U13: the colour is locked; the extras are paid in the base colour only.
    assert hand_of(legal(pending, PayTunnel(0)), 0) == {Y: 2, L: 1}


def test_e44_coloured_tunnel_paid_with_locomotives_ignores_its_colour() -> None:
    route = europe().routes[rid("München", "Zürich")]
    assert (route.length, route.color, route.tunnel) == (2, Y, True)
    state = game(hands=[{L: 2}, {}], deck=[Y, Y, R, ORG])
    result = step(state, ClaimRoute(route.id, L, 2))
    done = result.state
    assert TunnelRevealed(0, route.id, (Y, Y, R), 0) in result.events
    assert done.route_owner[route.id] == 0
    assert done.phase is Phase.START and current_player(done) == 1
    assert done.players[0].route_points == 2


def test_e45_decline_or_unable_to_pay() -> None:
    route = madrid_pamplona_black()
    # Unable to pay: hand {K:3}, 2 extras owed.
    state = game(hands=[{K: 3}, {}], deck=[K, K, R, ORG])
    pending = legal(state, ClaimRoute(route, K, 0))
    assert pending.tunnel is not None and pending.tunnel.owed == 2
    assert legal_actions(pending) == (DeclineTunnel(),)
    result = step(pending, DeclineTunnel())
    failed = result.state
    assert TunnelDeclined(0, route) in result.events
    assert hand_of(failed, 0) == {K: 3}
    assert failed.route_owner[route] is None
    assert failed.players[0].trains == 45
    assert failed.players[0].route_points == 0
    assert failed.discard == (K, K, R)
    assert failed.phase is Phase.START and current_player(failed) == 1
    assert failed.tunnel is None

    # Able to pay, but declining by choice: the same result.
    state = game(hands=[{K: 5}, {}], deck=[K, K, R, ORG])
    pending = legal(state, ClaimRoute(route, K, 0))
    assert set(legal_actions(pending)) == {PayTunnel(0), DeclineTunnel()}
    failed = legal(pending, DeclineTunnel())
    assert hand_of(failed, 0) == {K: 5}
    assert failed.route_owner[route] is None
    assert failed.discard == (K, K, R)
    assert current_player(failed) == 1

    # Once the cards are revealed, A cannot switch to another route or action.
    rejected(pending, ClaimRoute(rid("Madrid", "Pamplona", W), W, 0), Reason.WRONG_PHASE)
    rejected(pending, ClaimRoute(rid("Paris", "Dieppe"), P, 0), Reason.WRONG_PHASE)
    rejected(pending, ClaimRoute(route, K, 0), Reason.WRONG_PHASE)
    rejected(pending, DrawBlind(), Reason.WRONG_PHASE)
    rejected(pending, DrawFaceUp(0), Reason.WRONG_PHASE)
    rejected(pending, DrawTickets(), Reason.WRONG_PHASE)
    rejected(pending, BuildStation("Wien", K, 0), Reason.WRONG_PHASE)
    rejected(pending, Pass(), Reason.WRONG_PHASE)
    with pytest.raises(IllegalActionError) as info:
        apply_action(pending, DeclineTunnel(), player=1)
    assert info.value.reason is Reason.NOT_YOUR_TURN


def test_e46_no_matching_card_claims_for_the_base_cost() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 3}, {}], deck=[R, G, B, ORG])
    result = step(state, ClaimRoute(route, K, 0))
    done = result.state
    assert TunnelRevealed(0, route, (R, G, B), 0) in result.events
    assert RouteClaimed(0, route, (K, K, K), 4) in result.events
    assert done.route_owner[route] == 0
    assert done.players[0].trains == 42
    assert hand_of(done, 0) == {}
    assert done.discard == (K, K, K, R, G, B)
    assert done.deck == (ORG,)


def test_e47a_short_deck_reshuffles_the_discard_for_the_reveal() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 3}, {}], deck=[K], discard=[R, L, G])
    result = step(state, ClaimRoute(route, K, 0))
    pending = result.state
    assert DeckReshuffled(3) in result.events
    assert pending.tunnel == PendingTunnel(route, K, 0, (K, R, L), 2)
    assert pending.deck == (G,)
    assert pending.discard == ()


def test_e47b_reveal_only_what_exists() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 3}, {}], deck=[], discard=[L])
    pending = legal(state, ClaimRoute(route, K, 0))
    assert pending.tunnel == PendingTunnel(route, K, 0, (L,), 1)
    assert pending.deck == () and pending.discard == ()


def test_e47c_nothing_to_reveal_claims_for_free() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 3}, {}], deck=[], discard=[])
    result = step(state, ClaimRoute(route, K, 0))
    done = result.state
    assert TunnelRevealed(0, route, (), 0) in result.events
    assert done.route_owner[route] == 0
    assert done.players[0].route_points == 4
    assert done.discard == (K, K, K)
    assert current_player(done) == 1


def test_e47_variant_reveal_without_the_discard() -> None:
    # zh variant (U14): the reveal uses the deck only.
    rules = Rules(tunnel_reveal_uses_discard=False)
    route = madrid_pamplona_black()
    state = game(hands=[{K: 3}, {}], deck=[K], discard=[R, L, G], rules=rules)
    result = step(state, ClaimRoute(route, K, 0))
    pending = result.state
    assert not any(isinstance(e, DeckReshuffled) for e in result.events)
    assert pending.tunnel == PendingTunnel(route, K, 0, (K,), 1)
    assert pending.deck == ()
    assert pending.discard == (R, L, G)
    # With an empty deck nothing is revealed even though the discard holds a locomotive.
    state = game(hands=[{K: 3}, {}], deck=[], discard=[L], rules=rules)
    done = legal(state, ClaimRoute(route, K, 0))
    assert done.route_owner[route] == 0
    assert done.discard == (L, K, K, K)


def test_e48_discard_order_payment_then_revealed_cards() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 5}, {}], deck=[K, R, G, ORG, ORG])
    pending = legal(state, ClaimRoute(route, K, 0))
    assert pending.discard == ()  # laid and revealed cards are not in the discard yet (U4)
    assert pending.face_up == ROW
    done = legal(pending, PayTunnel(0))
    assert done.discard == (K, K, K, K, K, R, G)
    assert done.face_up == ROW  # never to the row
    assert hand_of(done, 0) == {K: 1}  # nor to a hand
    assert hand_of(done, 1) == {}

    # Base colour then locomotives, extras colour then locomotives, then the reveal.
    state = game(hands=[{K: 4, L: 3}, {}], deck=[L, K, R, ORG])
    pending = legal(state, ClaimRoute(route, K, 1))
    assert pending.tunnel is not None and pending.tunnel.owed == 2
    done = legal(pending, PayTunnel(1))
    assert done.discard == (K, K, L, K, L, L, K, R)

    # On failure, only the revealed cards.
    state = game(hands=[{K: 3}, {}], deck=[L, K, R, ORG])
    failed = legal(legal(state, ClaimRoute(route, K, 0)), DeclineTunnel())
    assert failed.discard == (L, K, R)


def test_e48_empty_row_slots_refilled_after_the_tunnel() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 3}, {}], face_up=[R, G, B, Y, None], deck=[], discard=[])
    done = legal(state, ClaimRoute(route, K, 0))
    assert done.route_owner[route] == 0
    # The payment reached the discard, then refilled slot 5 (identity reshuffle).
    assert done.face_up == (R, G, B, Y, K)
    assert done.deck == (K, K)
    assert done.discard == ()


def test_e49_tunnel_uses_trains_equal_to_its_length() -> None:
    route = europe().routes[rid("Stockholm", "Petrograd")]
    assert (route.length, route.color, route.tunnel) == (8, None, True)
    state = game(
        hands=[{B: 10, L: 1}, {}], face_up=[R, G, Y, W, P], deck=[B, L, B, ORG], trains=[10, 45]
    )
    pending = legal(state, ClaimRoute(route.id, B, 0))
    assert pending.tunnel == PendingTunnel(route.id, B, 0, (B, L, B), 3)
    result = step(pending, PayTunnel(1))
    done = result.state
    assert done.route_owner[route.id] == 0
    assert done.players[0].trains == 2
    assert done.players[0].route_points == 21
    assert hand_of(done, 0) == {}
    assert FinalRoundStarted(0, 2) in result.events
    assert done.final_turns == 2


def test_e50_attempt_needs_base_payment_and_trains() -> None:
    route = madrid_pamplona_black()
    few_trains = game(hands=[{K: 5}, {}], deck=[K, K, K, ORG], trains=[2, 45])
    rejected(few_trains, ClaimRoute(route, K, 0), Reason.NOT_ENOUGH_TRAINS)
    assert few_trains.deck == (K, K, K, ORG)
    few_cards = game(hands=[{K: 2}, {}], deck=[K, K, K, ORG])
    rejected(few_cards, ClaimRoute(route, K, 0), Reason.NOT_ENOUGH_CARDS)
    # A legal gamble even though no extra card could be paid; it also cycles the deck.
    gamble = game(hands=[{K: 3}, {}], deck=[K, K, K, ORG])
    pending = legal(gamble, ClaimRoute(route, K, 0))
    assert pending.tunnel is not None and pending.tunnel.owed == 3
    assert legal_actions(pending) == (DeclineTunnel(),)
    failed = legal(pending, DeclineTunnel())
    assert failed.deck == (ORG,)
    assert failed.discard == (K, K, K)
    assert hand_of(failed, 0) == {K: 3}


# --------------------------------------------------------------------------- stations


def test_e51_station_in_any_free_city_one_per_city() -> None:
    state = game(hands=[{R: 1}, {R: 1}])
    assert all(owner is None for owner in state.route_owner)
    result = step(state, BuildStation("Wien", R, 0))
    after = result.state
    assert StationBuilt(0, "Wien", (R,)) in result.events
    assert after.players[0].stations == ("Wien",)
    assert after.rules.stations_per_player - len(after.players[0].stations) == 2
    assert after.station_owner("Wien") == 0
    assert after.discard == (R,)
    assert current_player(after) == 1
    # B may not build in Wien.
    assert stations_in(after, "Wien") == set()
    rejected(after, BuildStation("Wien", R, 0), Reason.STATION_TAKEN)
    assert BuildStation("Berlin", R, 0) in legal_actions(after)
    # Nor may A build a second station there.
    again = game(hands=[{R: 2}, {}], stations={"Wien": 0})
    assert stations_in(again, "Wien") == set()
    rejected(again, BuildStation("Wien", R, 1), Reason.STATION_TAKEN)
    rejected(game(hands=[{R: 1}, {}]), BuildStation("Atlantis", R, 0), Reason.NO_SUCH_CITY)


def test_e52_station_cost_by_ordinal() -> None:
    # 1st station: one card; a locomotive alone is fine.
    first = game(hands=[{L: 1}, {}])
    assert stations_in(first, "Wien") == {BuildStation("Wien", L, 1)}
    assert legal(first, BuildStation("Wien", L, 1)).players[0].stations == ("Wien",)
    # 2nd station: two of one colour, locomotives wild.
    second = game(hands=[{R: 1, B: 1, L: 2}, {}], stations={"Berlin": 0})
    assert stations_in(second, "Wien") == {
        BuildStation("Wien", B, 1),
        BuildStation("Wien", R, 1),
        BuildStation("Wien", L, 2),
    }
    rejected(second, BuildStation("Wien", R, 0), Reason.NOT_ENOUGH_CARDS)  # {R, B}
    assert hand_of(legal(second, BuildStation("Wien", R, 1)), 0) == {B: 1, L: 1}
    assert hand_of(legal(second, BuildStation("Wien", L, 2)), 0) == {R: 1, B: 1}
    # 3rd station: three of one colour.
    third = game(hands=[{G: 3, L: 1}, {}], stations={"Berlin": 0, "Roma": 0})
    assert stations_in(third, "Wien") == {
        BuildStation("Wien", G, 0),
        BuildStation("Wien", G, 1),
    }
    assert hand_of(legal(third, BuildStation("Wien", G, 0)), 0) == {L: 1}
    assert hand_of(legal(third, BuildStation("Wien", G, 1)), 0) == {G: 1}
    short = game(hands=[{G: 2}, {}], stations={"Berlin": 0, "Roma": 0})
    assert stations_in(short, "Wien") == set()
    rejected(short, BuildStation("Wien", G, 0), Reason.NOT_ENOUGH_CARDS)
    mixed = game(hands=[{G: 2, Y: 1}, {}], stations={"Berlin": 0, "Roma": 0})
    assert stations_in(mixed, "Wien") == set()
    rejected(mixed, BuildStation("Wien", G, 0), Reason.NOT_ENOUGH_CARDS)
    rejected(mixed, BuildStation("Wien", G, 1), Reason.NOT_ENOUGH_CARDS)


def test_e53_at_most_three_stations_one_per_turn() -> None:
    none_left = game(hands=[{R: 5}, {}], stations={"Berlin": 0, "Roma": 0, "Paris": 0})
    assert not any(isinstance(a, BuildStation) for a in legal_actions(none_left))
    rejected(none_left, BuildStation("Wien", R, 0), Reason.NO_STATIONS_LEFT)
    rejected(none_left, BuildStation("Wien", R, 2), Reason.NO_STATIONS_LEFT)
    # Building one is the whole turn.
    state = game(hands=[{R: 5}, {R: 1}])
    after = legal(state, BuildStation("Wien", R, 0))
    assert after.phase is Phase.START
    assert current_player(after) == 1
    with pytest.raises(IllegalActionError) as info:
        apply_action(after, BuildStation("Berlin", R, 1), player=0)
    assert info.value.reason is Reason.NOT_YOUR_TURN


@pytest.mark.parametrize("allowed", [1, 4])
def test_e53_variant_stations_per_player(allowed: int) -> None:
    rules = Rules(stations_per_player=allowed)
    built = {city: 0 for city in ("Berlin", "Roma", "Paris")[: allowed - 1]}
    state = game(hands=[{R: 1, L: allowed}, {}], stations=built, rules=rules)
    # The last allowed station costs `allowed` cards.
    options = stations_in(state, "Wien")
    assert BuildStation("Wien", L, allowed) in options
    assert BuildStation("Wien", R, allowed - 1) in options
    assert all(isinstance(a, ACTION_TYPES) for a in legal_actions(state))
    after = legal(state, BuildStation("Wien", L, allowed))
    assert len(after.players[0].stations) == allowed
    back = draw_two(after)
    assert current_player(back) == 0
    assert not any(isinstance(a, BuildStation) for a in legal_actions(back))
    rejected(back, BuildStation("Zagrab", R, 0), Reason.NO_STATIONS_LEFT)


def test_e54_station_with_zero_trains_and_no_end_trigger() -> None:
    route = europe().routes[rid("Madrid", "Cadiz")]
    assert (route.length, route.color, route.tunnel, route.ferry_locomotives) == (3, ORG, False, 0)
    state = game(hands=[{ORG: 3, R: 1}, {G: 1}], trains=[3, 45])
    result = step(state, ClaimRoute(route.id, ORG, 0))
    state = result.state
    assert state.players[0].trains == 0
    assert FinalRoundStarted(0, 0) in result.events
    assert state.final_turns == 2
    # B's final turn: a station.
    state = legal(state, BuildStation("Wien", G, 0))
    assert state.final_turns == 1
    assert current_player(state) == 0
    # A's final turn, with 0 trains: a station paid {R:1}.
    result = step(state, BuildStation("Berlin", R, 0))
    state = result.state
    assert state.players[0].stations == ("Berlin",)
    assert state.players[0].trains == 0
    assert GameOver("final round") in result.events
    assert is_terminal(state)
    assert legal_actions(state) == ()


def test_e54_building_a_station_uses_no_trains_and_does_not_trigger() -> None:
    state = game(hands=[{R: 1}, {}], trains=[3, 45])
    result = step(state, BuildStation("Wien", R, 0))
    after = result.state
    assert after.players[0].trains == 3
    assert after.final_turns is None
    assert not any(isinstance(e, FinalRoundStarted) for e in result.events)


def test_e54_corner_small_train_supply_triggers_on_a_station_turn() -> None:
    # With a starting supply of <= 2 trains, the first turn triggers the end whatever it did.
    state = game(hands=[{R: 1}, {}], rules=Rules(trains_per_player=2))
    assert state.players[0].trains == 2
    result = step(state, BuildStation("Wien", R, 0))
    assert FinalRoundStarted(0, 2) in result.events
    assert result.state.final_turns == 2


# --------------------------------------------------------------------------- tickets


def test_e61_draw_three_keep_at_least_one_rest_to_bottom() -> None:
    t = regular_tickets()[:7]
    state = game(hands=[{}, {}], ticket_deck=t)
    result = step(state, DrawTickets())
    drawn = result.state
    assert TicketsDrawn(0, 3) in result.events
    assert drawn.phase is Phase.KEEP_TICKETS and current_player(drawn) == 0
    assert drawn.players[0].offered == (t[0], t[1], t[2])
    assert drawn.ticket_deck == tuple(t[3:])
    keeps = legal_actions(drawn)
    assert len(keeps) == 7  # every non-empty subset of the three
    assert all(isinstance(a, KeepTickets) and a.tickets for a in keeps)
    # Keeping none is rejected; the keep choice is still pending.
    rejected(drawn, KeepTickets(frozenset()), Reason.MUST_KEEP_MORE_TICKETS)
    assert drawn.phase is Phase.KEEP_TICKETS
    assert drawn.players[0].offered == (t[0], t[1], t[2])
    rejected(drawn, KeepTickets(frozenset({t[3]})), Reason.NOT_OFFERED)
    # Other actions wait for the choice.
    rejected(drawn, DrawBlind(), Reason.WRONG_PHASE)
    rejected(drawn, DrawTickets(), Reason.WRONG_PHASE)
    result = step(drawn, KeepTickets(frozenset({t[1]})))
    kept = result.state
    assert TicketsKept(0, 1, 2) in result.events
    assert kept.players[0].tickets == (t[1],)
    assert kept.players[0].offered == ()
    assert kept.ticket_deck == (*t[3:], t[0], t[2])
    assert current_player(kept) == 1


def test_e61_returned_tickets_keep_drawn_order() -> None:
    t = regular_tickets()[:5]
    drawn = legal(game(hands=[{}, {}], ticket_deck=t), DrawTickets())
    kept = legal(drawn, KeepTickets(frozenset({t[0]})))
    assert kept.ticket_deck == (t[3], t[4], t[1], t[2])
    all_kept = legal(drawn, KeepTickets(frozenset(t[:3])))
    assert all_kept.players[0].tickets == tuple(t[:3])
    assert all_kept.ticket_deck == (t[3], t[4])


def test_e61_variant_tickets_drawn_and_kept() -> None:
    t = regular_tickets()[:6]
    rules = Rules(tickets_drawn=4, tickets_keep_at_least=2)
    drawn = legal(game(hands=[{}, {}], ticket_deck=t, rules=rules), DrawTickets())
    assert drawn.players[0].offered == tuple(t[:4])
    assert all(isinstance(a, KeepTickets) and len(a.tickets) >= 2 for a in legal_actions(drawn))
    assert len(legal_actions(drawn)) == 11  # 6 pairs + 4 triples + 1 quadruple
    rejected(drawn, KeepTickets(frozenset({t[2]})), Reason.MUST_KEEP_MORE_TICKETS)
    kept = legal(drawn, KeepTickets(frozenset({t[3], t[1]})))
    assert kept.players[0].tickets == (t[1], t[3])
    assert kept.ticket_deck == (t[4], t[5], t[0], t[2])


def test_e62_fewer_than_three_tickets_left() -> None:
    t1, t2 = regular_tickets()[:2]
    drawn = legal(game(hands=[{}, {}], ticket_deck=[t1, t2]), DrawTickets())
    assert drawn.players[0].offered == (t1, t2)
    assert drawn.ticket_deck == ()
    rejected(drawn, KeepTickets(frozenset()), Reason.MUST_KEEP_MORE_TICKETS)
    kept = legal(drawn, KeepTickets(frozenset({t1})))
    assert kept.ticket_deck == (t2,)
    assert kept.players[0].tickets == (t1,)
    # A single ticket left must be kept.
    drawn = legal(game(hands=[{}, {}], ticket_deck=[t1]), DrawTickets())
    assert legal_actions(drawn) == (KeepTickets(frozenset({t1})),)
    rejected(drawn, KeepTickets(frozenset()), Reason.MUST_KEEP_MORE_TICKETS)
    assert legal(drawn, KeepTickets(frozenset({t1}))).players[0].tickets == (t1,)


def test_e62_variant_keep_minimum_capped_by_tickets_offered() -> None:
    t1, t2 = regular_tickets()[:2]
    rules = Rules(tickets_drawn=4, tickets_keep_at_least=3)
    drawn = legal(game(hands=[{}, {}], ticket_deck=[t1, t2], rules=rules), DrawTickets())
    assert legal_actions(drawn) == (KeepTickets(frozenset({t1, t2})),)


def test_e63_empty_ticket_deck() -> None:
    state = game(hands=[{R: 1}, {}], ticket_deck=[])
    assert DrawTickets() not in legal_actions(state)
    rejected(state, DrawTickets(), Reason.NO_TICKETS_LEFT)


def test_e64_kept_tickets_are_permanent() -> None:
    t0, t1, t2, t3 = regular_tickets()[:4]
    state = game(hands=[{}, {}], tickets=[[t0], []], ticket_deck=[t1, t2, t3])
    drawn = legal(state, DrawTickets())
    assert drawn.players[0].tickets == (t0,)
    assert all(isinstance(a, KeepTickets) and t0 not in a.tickets for a in legal_actions(drawn))
    # Returning t0 (keeping only new ones leaves it kept; naming it is not a choice).
    rejected(drawn, KeepTickets(frozenset({t0, t1})), Reason.NOT_OFFERED)
    rejected(drawn, KeepTickets(frozenset({t0})), Reason.NOT_OFFERED)
    kept = legal(drawn, KeepTickets(frozenset({t2})))
    assert kept.players[0].tickets == (t0, t2)
    assert t0 not in kept.ticket_deck


def test_e65_ticket_completion_on_the_final_network() -> None:
    lisboa_cadiz = rid("Lisboa", "Cadiz")
    madrid_cadiz = rid("Madrid", "Cadiz")
    # Tickets held before the claims; Madrid–Cadiz is claimed during play afterwards.
    state = game(
        hands=[{ORG: 3}, {}],
        routes={lisboa_cadiz: 0},
        tickets=[[("Lisboa", "Madrid", 5), ("Paris", "Wien", 8)], []],
    )
    assert final_scores(state)[0].ticket_points == -13
    state = legal(state, ClaimRoute(madrid_cadiz, ORG, 0))
    score = final_scores(state)[0]
    assert score.ticket_points == 5 - 8
    assert score.tickets_completed == 1
    assert score.tickets_failed == 1


# --------------------------------------------------------------------------- end of game


def brest_paris() -> int:
    route = europe().routes[rid("Brest", "Paris")]
    assert (route.length, route.color, route.tunnel, route.ferry_locomotives) == (3, K, False, 0)
    return route.id


def berlin_frankfurt_red() -> int:
    route = europe().routes[rid("Berlin", "Frankfurt", R)]
    assert (route.length, route.tunnel, route.ferry_locomotives) == (3, False, 0)
    return route.id


def test_e66_trigger_and_one_final_turn_each() -> None:
    state = game(players=3, hands=[{K: 3}, {}, {}], trains=[5, 45, 45], deck=None, discard=None)
    result = step(state, ClaimRoute(brest_paris(), K, 0))
    state = result.state
    assert state.players[0].trains == 2
    assert FinalRoundStarted(0, 2) in result.events
    assert state.final_turns == 3
    assert state.in_final_round
    for seat, left in ((1, 2), (2, 1)):
        assert current_player(state) == seat
        state = draw_two(state)
        assert state.final_turns == left
    assert current_player(state) == 0
    result = step(state, DrawBlind())
    assert result.state.phase is Phase.SECOND_CARD  # mid-turn: not over yet
    result = step(result.state, DrawBlind())
    state = result.state
    assert GameOver("final round") in result.events
    assert TurnEnded(0, None) in result.events
    assert is_terminal(state) and current_player(state) is None
    assert legal_actions(state) == ()
    rejected(state, DrawBlind(), Reason.GAME_OVER)
    rejected(state, Pass(), Reason.GAME_OVER)


def test_e66_variant_end_trigger_trains() -> None:
    rules = Rules(end_trigger_trains=0)
    state = game(hands=[{K: 3}, {}], trains=[5, 45], rules=rules, deck=None, discard=None)
    after = legal(state, ClaimRoute(brest_paris(), K, 0))
    assert after.players[0].trains == 2
    assert after.final_turns is None
    state = game(hands=[{K: 3}, {}], trains=[3, 45], rules=rules, deck=None, discard=None)
    after = legal(state, ClaimRoute(brest_paris(), K, 0))
    assert after.players[0].trains == 0
    assert after.final_turns == 2


def test_e67_reaching_zero_trains_triggers() -> None:
    state = game(hands=[{K: 3}, {}], trains=[3, 45], deck=None, discard=None)
    result = step(state, ClaimRoute(brest_paris(), K, 0))
    state = result.state
    assert state.players[0].trains == 0
    assert FinalRoundStarted(0, 0) in result.events
    assert state.final_turns == 2
    state = draw_two(state)
    assert state.final_turns == 1 and current_player(state) == 0
    state = draw_two(state)
    assert is_terminal(state)


def test_e68_second_drop_does_not_extend_the_game() -> None:
    state = game(
        players=3,
        hands=[{K: 3}, {R: 3}, {}],
        trains=[5, 4, 45],
        deck=None,
        discard=None,
    )
    state = legal(state, ClaimRoute(brest_paris(), K, 0))
    assert state.final_turns == 3
    result = step(state, ClaimRoute(berlin_frankfurt_red(), R, 0))
    state = result.state
    assert state.players[1].trains == 1
    assert not any(isinstance(e, FinalRoundStarted) for e in result.events)
    assert state.final_turns == 2
    state = draw_two(state)  # C
    assert state.final_turns == 1 and current_player(state) == 0
    state = draw_two(state)  # A's final turn
    assert is_terminal(state)


def test_e69_failed_tunnel_changes_nothing() -> None:
    route = madrid_pamplona_black()
    state = game(hands=[{K: 3}, {}], trains=[3, 45], deck=[K, K, R, *[ORG] * 8])
    pending = legal(state, ClaimRoute(route, K, 0))
    assert pending.final_turns is None
    failed = legal(pending, DeclineTunnel())
    assert failed.players[0].trains == 3
    assert failed.final_turns is None
    state = draw_two(draw_two(failed))  # B draws, then A draws on a later turn
    assert state.players[0].trains == 3
    assert state.final_turns is None


@pytest.mark.parametrize("turn", ["cards", "tickets", "station", "failed tunnel"])
def test_e69_trigger_checked_after_every_kind_of_turn(turn: str) -> None:
    # A already has only 2 trains: whatever A's turn is, its end triggers the final round.
    state = game(hands=[{K: 3}, {}], trains=[2, 45], deck=[K, K, R, *[ORG] * 8])
    if turn == "cards":
        state = apply_action(state, DrawBlind())
        assert state.final_turns is None  # mid-turn: not yet
        result = step(state, DrawBlind())
    elif turn == "tickets":
        state = apply_action(state, DrawTickets())
        assert state.final_turns is None
        result = step(state, legal_actions(state)[0])
    elif turn == "station":
        result = step(state, BuildStation("Wien", K, 0))
    else:
        # Trains 2 cannot attempt a 3-space tunnel; use the 2-space Pamplona–Barcelona.
        tunnel = rid("Pamplona", "Barcelona")
        state = apply_action(state, ClaimRoute(tunnel, K, 0))
        assert state.phase is Phase.TUNNEL and state.final_turns is None
        result = step(state, DeclineTunnel())
    assert FinalRoundStarted(0, 2) in result.events
    assert result.state.final_turns == 2
    assert current_player(result.state) == 1


def test_e70_zero_trains_final_turn_draws_tickets_station_no_claim() -> None:
    madrid_cadiz = rid("Madrid", "Cadiz")
    state = game(hands=[{ORG: 3, L: 4, R: 2}, {}], trains=[3, 45], deck=None, discard=None)
    state = legal(state, ClaimRoute(madrid_cadiz, ORG, 0))
    assert state.players[0].trains == 0
    state = draw_two(state)  # B's final turn
    assert current_player(state) == 0 and state.final_turns == 1
    options = legal_actions(state)
    assert DrawBlind() in options
    assert all(DrawFaceUp(slot) in options for slot in range(5))
    assert DrawTickets() in options
    assert BuildStation("Wien", R, 0) in options
    assert BuildStation("Wien", L, 1) in options
    assert not any(isinstance(a, ClaimRoute) for a in options)
    dieppe_paris = rid("Dieppe", "Paris")
    rejected(state, ClaimRoute(dieppe_paris, L, 1), Reason.NOT_ENOUGH_TRAINS)
    # Each of those is a complete final turn.
    assert is_terminal(draw_two(state))
    assert is_terminal(legal(state, BuildStation("Wien", R, 0)))
    drawn = legal(state, DrawTickets())
    assert not is_terminal(drawn)
    assert is_terminal(legal(drawn, legal_actions(drawn)[0]))
