"""Acceptance tests for E1–E34: setup, drawing train cards, the face-up row and
claiming routes (with the variants that belong to these entries).

Conventions: The catalogue numbers face-up slots 1–5, ``DrawFaceUp`` numbers them 0–4. Seats 0, 1,
2, ... are the players A, B, C, ... of the catalogue. Decks are written top card first and discard
piles oldest card first, as in the catalogue. Every route fact is looked up from the map data.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TypeVar

import pytest
from helpers import (
    FIXTURE_RULES,
    B,
    G,
    K,
    L,
    O,
    P,
    R,
    W,
    Y,
    card_census,
    europe,
    find_route,
    route_id,
    routes_between,
)

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
    Event,
    FaceUpReset,
    FinalRoundStarted,
    GameMap,
    GameOver,
    GameState,
    Hand,
    IllegalActionError,
    KeepTickets,
    Pass,
    PayTunnel,
    Phase,
    Reason,
    ResetCapReached,
    Route,
    Rules,
    TunnelRevealed,
    apply_action,
    legal_actions,
    new_game,
    scenario,
    step,
)
from ttr_rules.game import full_deck
from ttr_rules.piles import fisher_yates
from ttr_rules.scoring import final_scores
from ttr_rules.testing import snapshot

E = TypeVar("E")

#: Route scoring table of the rules catalogue's conventions ([R]).
SCORE_TABLE = {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}


# --------------------------------------------------------------------------------------------
# Local helpers


def rid(a: str, b: str, color: Color | None = None) -> int:
    """The id of a Europe route (looked up in the map data)."""
    return route_id(europe(), a, b, color)


def assert_rejected(
    state: GameState, action: Action, reason: Reason, player: int | None = None
) -> None:
    """The catalogue's "rejected": IllegalActionError with ``reason``, the state unchanged, and
    (for the player to act) the action absent from ``legal_actions``."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action, player)
    assert info.value.reason is reason, info.value
    assert info.value.action == action
    assert state == before
    if player is None or player == state.current:
        assert action not in legal_actions(state)


def test_assert_rejected_notices_a_rejection_that_changed_the_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The helper itself: a rejection that has already changed a player's hand fails it."""
    genuine = apply_action

    def corrupting(state: GameState, action: Action, player: int | None = None) -> GameState:
        try:
            return genuine(state, action, player)
        except IllegalActionError:
            hand = state.players[0].hand
            object.__setattr__(
                state.players[0], "hand", type(hand)((hand.counts[0] + 1, *hand.counts[1:]))
            )
            raise

    monkeypatch.setattr(sys.modules[__name__], "apply_action", corrupting)
    state = new_game(europe(), 2, seed=1)
    with pytest.raises(AssertionError):
        assert_rejected(state, DrawBlind(), Reason.WRONG_PHASE)


def play(state: GameState, *actions: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``actions`` in order; each must be listed by ``legal_actions`` first."""
    events: list[Event] = []
    for action in actions:
        assert action in legal_actions(state), f"{action} not legal in phase {state.phase}"
        result = step(state, action)
        assert card_census(result.state) == card_census(state), "train cards were created or lost"
        state = result.state
        # U3 invariant: a slot is empty only while both the deck and the discard are empty.
        if None in state.face_up:
            assert not state.deck and not state.discard
        events.extend(result.events)
    return state, tuple(events)


def events_of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def gained(before: GameState, after: GameState, seat: int) -> dict[Color, int]:
    """The cards ``seat`` gained between two states (losses as negative counts)."""
    diff = {
        c: after.players[seat].hand[c] - before.players[seat].hand[c]
        for c in Color
        if after.players[seat].hand[c] != before.players[seat].hand[c]
    }
    return diff


def all_cards_except(*taken: Mapping[Color, int] | Sequence[Color | None]) -> dict[Color, int]:
    """The full Europe train deck minus the given hands / piles (for "B holds the rest")."""
    rest = Counter(full_deck(Rules()))
    for part in taken:
        if isinstance(part, Mapping):
            rest.subtract(part)
        else:
            rest.subtract(c for c in part if c is not None)
    assert all(n >= 0 for n in rest.values())
    return {c: n for c, n in rest.items() if n}


def reserve(state: GameState, seat: int) -> int:
    """Stations left in reserve (the catalogue's "stations in reserve")."""
    return state.rules.stations_per_player - len(state.players[seat].stations)


def seed_with_initial_reset(players: int, first_seed: int = 0) -> int:
    """The first seed whose initial row (after the round-robin deal) shows at least 3
    locomotives and whose next 5 cards show fewer than 3, so exactly one reset happens."""
    dealt = 4 * players
    for seed in range(first_seed, first_seed + 10_000):
        deck = fisher_yates(full_deck(Rules()), random.Random(seed))
        row, following = deck[dealt : dealt + 5], deck[dealt + 5 : dealt + 10]
        if row.count(L) >= 3 and following.count(L) < 3:
            return seed
    raise AssertionError("no seed found")


# --------------------------------------------------------------------------------------------
# Setup and components (E1–E5)


@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_e01_component_counts(seed: int) -> None:
    state = new_game(players=5, seed=seed)
    cards = card_census(state)
    assert sum(cards.values()) == 110
    assert cards[L] == 14
    for color in (P, B, O, W, G, Y, K, R):
        assert cards[color] == 12
    assert state.out_of_play == ()
    for seat, player in enumerate(state.players):
        assert player.trains == 45
        assert reserve(state, seat) == 3
        assert player.hand.total == 4
    tickets = [t for p in state.players for t in p.offered + p.tickets]
    tickets += [*state.ticket_deck, *state.ticket_box]
    assert len(tickets) == 46
    assert sorted(tickets) == list(range(46))


def test_e01_map_components() -> None:
    game_map = europe()
    assert len(game_map.tickets) == 46
    assert sum(t.long for t in game_map.tickets) == 6
    assert Counter(full_deck(game_map.rules)) == {**{c: 12 for c in Color if c is not L}, L: 14}
    rules = Rules()
    assert (rules.trains_per_player, rules.stations_per_player) == (45, 3)
    assert (rules.min_players, rules.max_players) == (2, 5)


@pytest.mark.parametrize("players", [1, 6, 0, -1])
def test_e01_player_count_rejected_at_setup(players: int) -> None:
    with pytest.raises(ValueError):
        new_game(players=players)
    with pytest.raises(ValueError):
        scenario(players=players)


@pytest.mark.parametrize(("players", "first_player"), [(2, 0), (2, 1), (5, 3)])
def test_e02_round_robin_deal_and_initial_reset(players: int, first_player: int) -> None:
    # The catalogue's E2 uses an unshuffled deck; new_game always shuffles by seed, so the same
    # situation is built by finding a seed whose shuffled deck puts >= 3 locomotives in the
    # initial row, and reproducing the shuffle (Fisher–Yates from random.Random(seed)).
    seed = seed_with_initial_reset(players)
    deck = fisher_yates(full_deck(Rules()), random.Random(seed))
    state = new_game(players=players, seed=seed, first_player=first_player)
    dealt = 4 * players
    # Round-robin, one card at a time, starting with the first player (U20).
    for i in range(players):
        seat = (first_player + i) % players
        assert state.players[seat].hand == Hand.of(deck[i:dealt:players])
    # The first row shows >= 3 locomotives: it is discarded at once, in slot order.
    row = deck[dealt : dealt + 5]
    assert row.count(L) >= 3
    assert state.discard == row
    assert state.face_up == deck[dealt + 5 : dealt + 10]
    assert state.face_up.count(L) < 3
    # The next deck card is the one after the new row.
    assert state.deck == deck[dealt + 10 :]
    assert state.phase is Phase.INITIAL_TICKETS
    assert state.current == first_player


def test_e02_no_reset_when_row_has_fewer_than_three_locomotives() -> None:
    for seed in range(40):
        deck = fisher_yates(full_deck(Rules()), random.Random(seed))
        if deck[12:17].count(L) < 3:
            state = new_game(players=3, seed=seed)
            for seat in range(3):
                assert state.players[seat].hand == Hand.of(deck[seat:12:3])
            assert state.face_up == deck[12:17]
            assert state.discard == ()
            assert state.deck == deck[17:]
            return
    raise AssertionError("no seed found")


def test_e02_variant_reset_disabled_at_setup() -> None:
    # §1 #7: face_up_locomotive_limit=None disables the reset, also for the initial row.
    seed = seed_with_initial_reset(2)
    deck = fisher_yates(full_deck(Rules()), random.Random(seed))
    state = new_game(players=2, seed=seed, rules=Rules(face_up_locomotive_limit=None))
    assert state.face_up == deck[8:13]
    assert state.face_up.count(L) >= 3
    assert state.discard == ()


def test_e02_variant_limit_five_at_setup() -> None:
    # §1 #7 (pt, cs): only 5 face-up locomotives force a reset; a 3-L initial row stands.
    seed = seed_with_initial_reset(2)
    deck = fisher_yates(full_deck(Rules()), random.Random(seed))
    assert 3 <= deck[8:13].count(L) < 5
    state = new_game(players=2, seed=seed, rules=Rules(face_up_locomotive_limit=5))
    assert state.face_up == deck[8:13]
    assert state.discard == ()
    assert state.deck == deck[13:]


@pytest.mark.parametrize(("players", "deck_size", "box_size"), [(2, 34, 4), (3, 31, 3), (5, 25, 1)])
def test_e03_initial_tickets_one_long_three_regular(
    players: int, deck_size: int, box_size: int
) -> None:
    game_map = europe()
    state = new_game(players=players, seed=3)
    assert state.phase is Phase.INITIAL_TICKETS
    for player in state.players:
        assert len(player.offered) == 4
        assert player.tickets == ()
        # Long tickets are dealt first, then the regular ones (U20).
        assert [game_map.tickets[t].long for t in player.offered] == [True, False, False, False]
    assert len(state.ticket_deck) == deck_size
    assert not any(game_map.tickets[t].long for t in state.ticket_deck)
    assert len(state.ticket_box) == box_size
    assert all(game_map.tickets[t].long for t in state.ticket_box)


def test_e03_ticket_deal_order() -> None:
    # U20: long tickets first, then regular ones, each in seat order from the first player;
    # both piles shuffled after the train deck from the same random.Random(seed).
    game_map = europe()
    seed, players, first_player = 9, 3, 2
    rnd = random.Random(seed)
    fisher_yates(full_deck(Rules()), rnd)
    long_pile = fisher_yates([t.id for t in game_map.tickets if t.long], rnd)
    regular_pile = fisher_yates([t.id for t in game_map.tickets if not t.long], rnd)
    state = new_game(players=players, seed=seed, first_player=first_player)
    for i in range(players):
        seat = (first_player + i) % players
        assert state.players[seat].offered == (long_pile[i], *regular_pile[3 * i : 3 * i + 3])
    assert state.ticket_deck == regular_pile[9:]
    assert state.ticket_box == long_pile[3:]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_e03_variant_regular3(players: int) -> None:
    # §1 #5 (pt, cs; USA): 3 regular tickets each and no long ticket.
    game_map = europe()
    state = new_game(players=players, seed=3, rules=Rules(initial_long_tickets=0))
    for player in state.players:
        assert len(player.offered) == 3
        assert not any(game_map.tickets[t].long for t in player.offered)
    assert len(state.ticket_deck) == 40 - 3 * players
    assert not any(game_map.tickets[t].long for t in state.ticket_deck)
    # The long tickets never enter the game.
    assert sorted(state.ticket_box) == sorted(t.id for t in game_map.tickets if t.long)


def test_e04_initial_keep_at_least_two_unkept_to_box() -> None:
    state = new_game(players=2, seed=11)
    offered = state.players[0].offered
    lg, r1, r2, r3 = offered
    assert europe().tickets[lg].long
    assert len(state.ticket_deck) == 34
    tb = state.ticket_deck[-1]

    assert_rejected(state, KeepTickets(frozenset({r1})), Reason.MUST_KEEP_MORE_TICKETS)
    assert KeepTickets(frozenset(offered)) in legal_actions(state)
    after_all = apply_action(state, KeepTickets(frozenset(offered)))
    assert sorted(after_all.players[0].tickets) == sorted(offered)
    # Every subset of at least 2 of the 4 tickets, and nothing else.
    assert len(legal_actions(state)) == 6 + 4 + 1

    after, _ = play(state, KeepTickets(frozenset({r1, r2})))
    assert set(after.players[0].tickets) == {r1, r2}
    assert after.players[0].offered == ()
    assert set(after.ticket_box) - set(state.ticket_box) == {lg, r3}
    assert len(after.ticket_box) == len(state.ticket_box) + 2
    assert after.ticket_deck == state.ticket_deck
    assert len(after.ticket_deck) == 34
    assert after.ticket_deck[-1] == tb
    # B chooses next; then A starts the game (U21).
    assert after.phase is Phase.INITIAL_TICKETS
    assert after.current == 1


def test_e04_variant_regular3_unkept_to_deck_bottom() -> None:
    # §1 #5, #6 (pt, cs): 3 regular tickets, keep 2 or 3, unkept to the bottom of the deck.
    rules = Rules(initial_long_tickets=0, initial_discard="bottom")
    state = new_game(players=2, seed=11, rules=rules)
    r1, r2, r3 = state.players[0].offered
    assert len(state.ticket_deck) == 34
    tb = state.ticket_deck[-1]
    assert_rejected(state, KeepTickets(frozenset({r1})), Reason.MUST_KEEP_MORE_TICKETS)
    assert KeepTickets(frozenset({r1, r2, r3})) in legal_actions(state)
    after, _ = play(state, KeepTickets(frozenset({r1, r2})))
    assert set(after.players[0].tickets) == {r1, r2}
    assert len(after.ticket_deck) == 35
    assert after.ticket_deck[-2:] == (tb, r3)
    assert after.ticket_deck[:34] == state.ticket_deck
    assert after.ticket_box == state.ticket_box


def test_e05_first_player_and_initial_choice_order() -> None:
    state = new_game(players=3, seed=5, first_player=1)
    order = []
    while state.phase is Phase.INITIAL_TICKETS:
        order.append(state.current)
        state = apply_action(state, KeepTickets(frozenset(state.players[state.current].offered)))
    assert order == [1, 2, 0]
    assert state.phase is Phase.START
    assert state.current == 1
    # Two-card draws: B, C, A, B, ...
    turns = []
    for _ in range(4):
        turns.append(state.current)
        state = apply_action(state, DrawBlind())
        assert state.phase is Phase.SECOND_CARD
        state = apply_action(state, DrawBlind())
    assert turns == [1, 2, 0, 1]


def test_e05_one_action_per_turn_then_next_player() -> None:
    # B (seat 1) starts; each complete action hands the turn on: B, C, A, B, C.
    state = scenario(
        players=3,
        current=1,
        hands=[{}, {R: 2}, {K: 3}],
        deck=[G, G, W, W, Y, Y],
        discard=[],
    )
    state, _ = play(state, DrawBlind(), DrawBlind())  # B: a 2-card draw
    assert state.current == 2
    state, _ = play(state, ClaimRoute(rid("Brest", "Paris"), K, 0))  # C: a claim
    assert state.current == 0
    state, _ = play(state, DrawTickets())  # A: a ticket draw ...
    assert state.current == 0 and state.phase is Phase.KEEP_TICKETS
    state, _ = play(state, KeepTickets(frozenset(state.players[0].offered[:1])))
    assert state.current == 1
    state, _ = play(state, BuildStation("Wien", R, 0))  # B: a station
    assert state.current == 2
    assert state.turn == 4


# --------------------------------------------------------------------------------------------
# Drawing train cards (E6–E22)


def test_e06_mix_face_up_and_blind() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[W, O, P, G, G], discard=[])
    mid, _ = play(state, DrawFaceUp(0))
    assert mid.phase is Phase.SECOND_CARD and mid.current == 0
    after, _ = play(mid, DrawBlind())
    assert gained(state, after, 0) == {R: 1, O: 1}
    assert after.face_up == (W, G, B, Y, K)
    assert after.deck[0] == P
    assert after.current == 1 and after.phase is Phase.START


def test_e06_blind_then_face_up_and_two_blind() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[W, O, P, G, G], discard=[])
    after, _ = play(state, DrawBlind(), DrawFaceUp(4))
    assert gained(state, after, 0) == {W: 1, K: 1}
    assert after.face_up == (R, G, B, Y, O)
    after, _ = play(state, DrawBlind(), DrawBlind())
    assert gained(state, after, 0) == {W: 1, O: 1}
    assert after.current == 1


def test_e07_face_up_replaced_before_second_pick() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[W, O, P, G], discard=[])
    mid, _ = play(state, DrawFaceUp(1))
    assert mid.face_up == (R, W, B, Y, K)
    after, _ = play(mid, DrawFaceUp(1))
    assert gained(state, after, 0) == {G: 1, W: 1}
    assert after.face_up == (R, O, B, Y, K)


def test_e08_face_up_locomotive_first_ends_draw() -> None:
    state = scenario(face_up=[L, G, B, Y, K], deck=[R, W, W], discard=[])
    after, _ = play(state, DrawFaceUp(0))
    assert gained(state, after, 0) == {L: 1}
    assert after.face_up == (R, G, B, Y, K)
    assert after.phase is Phase.START and after.current == 1
    for draw in (DrawBlind(), DrawFaceUp(1), DrawFaceUp(0)):
        assert_rejected(after, draw, Reason.NOT_YOUR_TURN, player=0)


def test_e09a_face_up_locomotive_never_second_card() -> None:
    state = scenario(face_up=[R, L, B, Y, K], deck=[W, O, O], discard=[])
    mid, _ = play(state, DrawFaceUp(0))
    assert mid.face_up == (W, L, B, Y, K)
    assert_rejected(mid, DrawFaceUp(1), Reason.LOCOMOTIVE_AS_SECOND_CARD)
    assert set(legal_actions(mid)) == {
        DrawFaceUp(0),
        DrawFaceUp(2),
        DrawFaceUp(3),
        DrawFaceUp(4),
        DrawBlind(),
    }


def test_e09b_replacement_locomotive_never_second_card() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[L, W, O], discard=[])
    mid, _ = play(state, DrawFaceUp(0))
    assert mid.face_up == (L, G, B, Y, K)
    assert_rejected(mid, DrawFaceUp(0), Reason.LOCOMOTIVE_AS_SECOND_CARD)
    after, _ = play(mid, DrawBlind())
    assert gained(state, after, 0) == {R: 1, W: 1}


def test_e10_blind_locomotive_counts_as_one_card() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[L, W, O], discard=[])
    mid, _ = play(state, DrawBlind())
    assert mid.phase is Phase.SECOND_CARD and mid.current == 0
    assert DrawFaceUp(1) in legal_actions(mid)  # face-up G as second card is also legal
    after, _ = play(mid, DrawBlind())
    assert gained(state, after, 0) == {L: 1, W: 1}
    alt, _ = play(mid, DrawFaceUp(1))
    assert gained(state, alt, 0) == {L: 1, G: 1}


def test_e11_blind_first_card_does_not_unlock_face_up_locomotive() -> None:
    state = scenario(face_up=[L, G, B, Y, K], deck=[R, W, O], discard=[])
    mid, _ = play(state, DrawBlind())
    assert gained(state, mid, 0) == {R: 1}
    assert_rejected(mid, DrawFaceUp(0), Reason.LOCOMOTIVE_AS_SECOND_CARD)


def test_e12_reset_after_replacement() -> None:
    state = scenario(
        face_up=[R, L, L, B, Y], deck=[L, G, W, O, P, K, R, W, W], discard=[], shuffle="identity"
    )
    mid, events = play(state, DrawFaceUp(0))
    resets = events_of(events, FaceUpReset)
    assert [e.discarded for e in resets] == [(L, L, L, B, Y)]
    assert mid.discard == (L, L, L, B, Y)
    assert mid.face_up == (G, W, O, P, K)
    assert mid.deck[0] == R
    assert mid.phase is Phase.SECOND_CARD and mid.current == 0
    after, _ = play(mid, DrawFaceUp(0))
    assert gained(state, after, 0) == {R: 1, G: 1}
    assert after.face_up == (R, W, O, P, K)
    assert after.current == 1


def test_e12_variant_limit_five() -> None:
    # §1 #7 (pt, cs): the row is reset only when all 5 cards are locomotives.
    rules = Rules(face_up_locomotive_limit=5)
    state = scenario(face_up=[R, L, L, B, Y], deck=[L, G, W, O, P, K], discard=[], rules=rules)
    after, events = play(state, DrawFaceUp(0))
    assert after.face_up == (L, L, L, B, Y)
    assert not events_of(events, FaceUpReset)
    assert after.discard == ()

    state = scenario(face_up=[R, L, L, L, L], deck=[L, G, W, O, P, K, B], discard=[], rules=rules)
    after, events = play(state, DrawFaceUp(0))
    assert [e.discarded for e in events_of(events, FaceUpReset)] == [(L, L, L, L, L)]
    assert after.face_up == (G, W, O, P, K)
    assert after.discard == (L, L, L, L, L)
    assert after.phase is Phase.SECOND_CARD


def test_e12_variant_reset_disabled() -> None:
    # face_up_locomotive_limit=None: no reset, whatever the row shows.
    rules = Rules(face_up_locomotive_limit=None)
    state = scenario(face_up=[R, L, L, L, L], deck=[L, G, W, O, P, K], discard=[], rules=rules)
    after, events = play(state, DrawFaceUp(0))
    assert after.face_up == (L, L, L, L, L)
    assert not events_of(events, FaceUpReset)
    # The normal draw rules still hold: no face-up locomotive as the second card.
    assert set(legal_actions(after)) == {DrawBlind()}


def test_e13_reset_after_refill_at_end_of_claim() -> None:
    # The library puts a payment into the discard coloured cards first, then locomotives
    # (U8), so the original example's payment "L,O,O,O" cannot land as [L,O,O,O]. With that
    # order, refilling empty slots from an empty deck and discard can only create a resettable
    # row when the row already stood with 3 locomotives (an infeasible reset, E15). Adapted
    # setup testing the same chain (refill at the end of a non-draw action, reshuffle, reset,
    # second reshuffle): display [L,L,L,G,_] (stood: 1 non-L in a pool of 4), deck and discard
    # empty, every other card in a hand. A claims Barcelona–Marseille (gray 4) with {O:4}.
    route = find_route(europe(), "Barcelona", "Marseille")
    assert (route.color, route.length, route.tunnel, route.is_ferry) == (None, 4, False, False)
    row: list[Color | None] = [L, L, L, G, None]
    a_hand = {O: 4}
    state = scenario(
        face_up=row,
        deck=[],
        discard=[],
        hands=[a_hand, all_cards_except(a_hand, row)],
        shuffle="identity",
    )
    after, events = play(state, ClaimRoute(route.id, O, 0))
    # Discard [O,O,O,O] is reshuffled into the deck; slot 5 gets O: [L,L,L,G,O] has 3 L, and
    # the pool holds 5 non-L cards, so the reset is feasible. The row goes to the discard,
    # the new row draws O,O,O, the deck is empty, the discard [L,L,L,G,O] is reshuffled and
    # L,L are drawn.
    assert [type(e) for e in events if isinstance(e, DeckReshuffled | FaceUpReset)] == [
        DeckReshuffled,
        FaceUpReset,
        DeckReshuffled,
    ]
    assert [e.discarded for e in events_of(events, FaceUpReset)] == [(L, L, L, G, O)]
    assert after.face_up == (O, O, O, L, L)
    assert after.deck == (L, G, O)
    assert after.discard == ()
    assert after.route_owner[route.id] == 0
    assert after.current == 1


def test_e13_payment_order_coloured_first_then_locomotives() -> None:
    # The same position paid with {O:3, L:1}: the payment lands as [O,O,O,L] (U8),
    # so slot 5 is refilled with O (not L, as it would be if the L had been discarded first).
    route = route_id(europe(), "Barcelona", "Marseille")
    row: list[Color | None] = [L, L, L, G, None]
    a_hand = {O: 3, L: 1}
    state = scenario(
        face_up=row,
        deck=[],
        discard=[],
        hands=[a_hand, all_cards_except(a_hand, row)],
        shuffle="identity",
    )
    after, events = play(state, ClaimRoute(route, O, 1))
    # [L,L,L,G,O] + deck [O,O,L]: 4 non-L, reset 1 -> discard [L,L,L,G,O]; new row O,O,L then
    # (reshuffle 2) L,L: [O,O,L,L,L] with deck [L,G,O]: 4 non-L, reset 2 -> discard
    # [O,O,L,L,L]; new row L,G,O then (reshuffle 3) O,O: [L,G,O,O,O] stands; deck [L,L,L].
    assert [e.discarded for e in events_of(events, FaceUpReset)] == [
        (L, L, L, G, O),
        (O, O, L, L, L),
    ]
    assert [e.cards for e in events_of(events, DeckReshuffled)] == [4, 5, 5]
    assert after.face_up == (L, G, O, O, O)
    assert after.deck == (L, L, L)
    assert after.discard == ()


def test_e14_repeated_resets() -> None:
    state = scenario(
        face_up=[R, L, L, B, Y],
        deck=[L, L, L, L, G, W, O, P, K, R, G, W, W, W],
        discard=[],
    )
    after, events = play(state, DrawFaceUp(0))
    resets = events_of(events, FaceUpReset)
    assert [e.discarded for e in resets] == [(L, L, L, B, Y), (L, L, L, G, W)]
    assert len(resets) == 2  # resets_this_refill == 2
    assert after.face_up == (O, P, K, R, G)
    assert len(after.discard) == 10
    assert after.discard.count(L) == 6
    assert after.discard == (L, L, L, B, Y, L, L, L, G, W)
    assert after.phase is Phase.SECOND_CARD


def test_e15a_infeasible_reset_row_stands() -> None:
    state = scenario(face_up=[R, L, L, G, Y], deck=[L], discard=[])
    mid, events = play(state, DrawFaceUp(0))
    assert mid.face_up == (L, L, L, G, Y)
    assert not events_of(events, FaceUpReset)
    assert not events_of(events, ResetCapReached)
    # Second pick: G or Y only (no blind draw possible, L banned as second card).
    assert mid.phase is Phase.SECOND_CARD
    assert set(legal_actions(mid)) == {DrawFaceUp(3), DrawFaceUp(4)}
    after, _ = play(mid, DrawFaceUp(3))
    assert gained(state, after, 0) == {R: 1, G: 1}
    assert after.face_up == (L, L, L, None, Y)
    assert after.current == 1
    # B may take a face-up locomotive as the first (and only) card.
    assert DrawFaceUp(0) in legal_actions(after)
    b_after, _ = play(after, DrawFaceUp(0))
    assert gained(after, b_after, 1) == {L: 1}
    assert b_after.current == 0 and b_after.phase is Phase.START


def _e15b_state(rules: Rules | None = None) -> GameState:
    return scenario(
        face_up=[L, L, L, G, W],
        deck=[],
        discard=[K],
        ticket_deck=[0, 1, 2],
        shuffle="identity",
        rules=rules,
    )


def test_e15b_feasible_repeated_resets() -> None:
    # The end-of-action check runs after any action; a ticket draw leaves the piles alone.
    after, events = play(_e15b_state(), DrawTickets())
    resets = events_of(events, FaceUpReset)
    assert [e.discarded for e in resets] == [
        (L, L, L, G, W),
        (K, L, L, L, G),
        (W, K, L, L, L),
    ]
    assert len(resets) == 3
    assert after.face_up == (G, W, K, L, L)
    assert after.deck == (L,)
    assert after.discard == ()
    assert not events_of(events, ResetCapReached)


def test_e15b_reset_cap() -> None:
    after, events = play(_e15b_state(Rules(max_consecutive_resets=2)), DrawTickets())
    assert len(events_of(events, FaceUpReset)) == 2
    assert events_of(events, ResetCapReached) == [ResetCapReached(2)]
    assert after.face_up == (W, K, L, L, L)
    assert after.deck == (G,)
    assert after.discard == ()


@pytest.mark.parametrize("seed", range(25))
def test_e15_reset_loop_always_terminates(seed: int) -> None:
    # A pool that is almost all locomotives, reshuffled at random: whatever happens, the
    # upkeep ends with a row that has < 3 L, or an infeasible reset, or the cap reached.
    state = scenario(
        face_up=[L, L, L, G, W],
        deck=[L, L, L, L, L, L, K],
        discard=[L, L, R],
        ticket_deck=[0, 1, 2],
        seed=seed,
    )
    after, events = play(state, DrawTickets())
    resets = events_of(events, FaceUpReset)
    capped = events_of(events, ResetCapReached)
    assert 1 <= len(resets) <= state.rules.max_consecutive_resets
    row = after.face_up
    assert None not in row
    non_loco = sum(c is not L for c in (*row, *after.deck, *after.discard))
    assert row.count(L) < 3 or non_loco < 3 or capped
    assert card_census(after) == card_census(state)


def test_e16_unfillable_slots_stay_empty_until_discard() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[], discard=[], hands=[{}, {P: 1}])
    after_a, _ = play(state, DrawFaceUp(0), DrawFaceUp(1))
    assert after_a.face_up == (None, None, B, Y, K)
    assert gained(state, after_a, 0) == {R: 1, G: 1}
    assert after_a.current == 1
    after_b, events = play(after_a, ClaimRoute(rid("Paris", "Dieppe"), P, 0))
    assert events_of(events, DeckReshuffled) == [DeckReshuffled(1)]
    assert after_b.face_up == (P, None, B, Y, K)
    assert after_b.deck == ()
    assert after_b.discard == ()


def test_e17_empty_deck_refilled_from_discard() -> None:
    state = scenario(face_up=[K, K, O, P, Y], deck=[W], discard=[R, R, G, B], shuffle="identity")
    after, events = play(state, DrawBlind(), DrawBlind())
    assert gained(state, after, 0) == {W: 1, R: 1}
    assert after.deck == (R, G, B)
    assert after.discard == ()
    assert events_of(events, DeckReshuffled) == [DeckReshuffled(4)]


def test_e17_reshuffle_on_demand_only() -> None:
    # U4: no reshuffle while the deck still has a card.
    state = scenario(face_up=[K, K, O, P, Y], deck=[W, G], discard=[R, R], shuffle="identity")
    after, events = play(state, DrawBlind())
    assert after.deck == (G,)
    assert after.discard == (R, R)
    assert not events_of(events, DeckReshuffled)


def test_e18a_face_up_draw_with_empty_deck_and_discard() -> None:
    state = scenario(face_up=[R, None, None, None, None], deck=[], discard=[])
    assert set(legal_actions(state)) & {DrawBlind(), *(DrawFaceUp(i) for i in range(5))} == {
        DrawFaceUp(0)
    }
    after, _ = play(state, DrawFaceUp(0))
    assert after.face_up == (None,) * 5
    assert gained(state, after, 0) == {R: 1}
    assert after.current == 1 and after.phase is Phase.START


def test_e18b_no_card_anywhere_draw_illegal() -> None:
    state = scenario(face_up=[None] * 5, deck=[], discard=[], hands=[{R: 1}, {}])
    actions = legal_actions(state)
    assert not any(isinstance(a, DrawBlind | DrawFaceUp) for a in actions)
    assert_rejected(state, DrawBlind(), Reason.DECK_EMPTY)
    assert_rejected(state, DrawFaceUp(0), Reason.EMPTY_SLOT)


def test_e19a_turn_ends_when_no_legal_second_card() -> None:
    state = scenario(face_up=[R, L, None, None, None], deck=[], discard=[])
    after, _ = play(state, DrawFaceUp(0))
    assert gained(state, after, 0) == {R: 1}
    assert after.face_up == (None, L, None, None, None)
    assert after.current == 1 and after.phase is Phase.START


def test_e19b_second_card_mandatory() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[W, O, P], discard=[], hands=[{K: 3}, {}])
    mid, _ = play(state, DrawFaceUp(0))
    # There is no "end turn" action: nothing but a card draw is accepted now.
    assert_rejected(mid, Pass(), Reason.WRONG_PHASE)
    assert_rejected(mid, DrawTickets(), Reason.WRONG_PHASE)
    assert_rejected(mid, ClaimRoute(rid("Brest", "Paris"), K, 0), Reason.WRONG_PHASE)
    assert all(isinstance(a, DrawBlind | DrawFaceUp) for a in legal_actions(mid))
    assert mid.current == 0


def test_e20a_forced_pass() -> None:
    state = scenario(
        face_up=[None] * 5,
        deck=[],
        discard=[],
        ticket_deck=[],
        hands=[{}, all_cards_except()],
    )
    assert reserve(state, 0) == 3
    assert legal_actions(state) == (Pass(),)
    after, events = play(state, Pass())
    assert after.current == 1 and after.phase is Phase.START
    assert not events_of(events, GameOver)
    options = legal_actions(after)
    assert Pass() not in options
    assert any(isinstance(a, ClaimRoute) for a in options)
    assert any(isinstance(a, BuildStation) for a in options)


def test_e20b_whole_table_stuck_ends_game() -> None:
    game_map = europe()
    owners: dict[int, int] = {}
    for route in game_map.routes:
        seat = route.id % 3
        if route.double_of is not None and owners.get(route.double_of) == seat:
            seat = (seat + 1) % 3
        owners[route.id] = seat
    state = scenario(
        players=3,
        face_up=[None] * 5,
        deck=[],
        discard=[],
        ticket_deck=[],
        routes=owners,
        trains=[10, 10, 10],
        stations={"Wien": 2, "Berlin": 2, "Roma": 2},
        hands=[{}, {}, all_cards_except()],
        # A whole board owned by three players: enough trains and both tracks open (a position
        # must be one that a game with these rules can reach).
        rules=Rules(trains_per_player=150, double_route_min_players=3),
    )
    assert reserve(state, 2) == 0
    all_events: list[Event] = []
    for seat in (0, 1, 2):
        assert state.current == seat
        assert legal_actions(state) == (Pass(),)
        state, events = play(state, Pass())
        all_events.extend(events)
    assert state.phase is Phase.GAME_OVER
    assert legal_actions(state) == ()
    assert events_of(all_events, GameOver) == [GameOver("all passed")]
    assert not events_of(all_events, FinalRoundStarted)
    assert state.final_turns is None
    assert_rejected(state, Pass(), Reason.GAME_OVER)
    # Scored normally: route points, +4 per station in reserve, the European Express.
    scores = final_scores(state)
    paths = [score.longest_path for score in scores]
    for seat, score in enumerate(scores):
        owned = [r for r in game_map.routes if owners[r.id] == seat]
        assert score.route_points == sum(SCORE_TABLE[r.length] for r in owned)
        assert score.ticket_points == 0
        assert score.station_bonus == 4 * reserve(state, seat)
        assert score.express_bonus == (10 if score.longest_path == max(paths) else 0)
        assert score.total == score.route_points + score.station_bonus + score.express_bonus
    assert [s.station_bonus for s in scores] == [12, 12, 0]


def test_e20_pass_rejected_when_something_is_legal() -> None:
    state = scenario(face_up=[R, G, B, Y, K], deck=[W], discard=[])
    assert_rejected(state, Pass(), Reason.PASS_NOT_ALLOWED)


def test_e21_hand_size_unlimited() -> None:
    big = {R: 12, G: 12, B: 12, Y: 12, W: 12}
    state = scenario(hands=[big, {}], seed=4)
    assert state.players[0].hand.total == 60
    assert DrawBlind() in legal_actions(state)
    after, _ = play(state, DrawBlind(), DrawBlind())
    assert after.players[0].hand.total == 62


def test_e22_tunnel_cards_never_count_for_reset() -> None:
    route = find_route(europe(), "Madrid", "Pamplona", K)
    assert (route.length, route.tunnel) == (3, True)
    state = scenario(
        face_up=[R, G, B, Y, K],
        deck=[L, L, L, W, W],
        discard=[],
        hands=[{K: 6, L: 1}, {}],
    )
    mid, events = play(state, ClaimRoute(route.id, K, 0))
    assert events_of(events, TunnelRevealed) == [TunnelRevealed(0, route.id, (L, L, L), 3)]
    assert not events_of(events, FaceUpReset)
    assert mid.face_up == (R, G, B, Y, K)
    assert mid.phase is Phase.TUNNEL
    assert mid.tunnel is not None and mid.tunnel.owed == 3
    # 3 extra K or L: 3 K, or 2 K + 1 L (A holds one L); or decline.
    assert legal_actions(mid) == (PayTunnel(0), PayTunnel(1), DeclineTunnel())
    after, events = play(mid, PayTunnel(1))
    assert not events_of(events, FaceUpReset)
    assert after.face_up == (R, G, B, Y, K)
    assert after.discard == (K, K, K, K, K, L, L, L, L)


# --------------------------------------------------------------------------------------------
# Claiming routes (E23–E34)


def test_e23_coloured_route_with_locomotive_wild() -> None:
    route = find_route(europe(), "Berlin", "Frankfurt", R)
    assert route.length == 3
    state = scenario(hands=[{R: 2, L: 1, G: 5}, {}], deck=[W, W], discard=[])
    after, _ = play(state, ClaimRoute(route.id, R, 1))
    assert after.players[0].trains == 42
    assert after.players[0].route_points == state.players[0].route_points + 4
    assert after.discard == (R, R, L)
    assert after.route_owner[route.id] == 0
    # {R:2, G:1} mixes colours: no action can express it; every green payment is refused.
    for locos in (0, 1):
        assert_rejected(state, ClaimRoute(route.id, G, locos), Reason.WRONG_COLOR)
    assert_rejected(state, ClaimRoute(route.id, R, 0), Reason.NOT_ENOUGH_CARDS)
    claims = {a for a in legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route.id}
    assert claims == {ClaimRoute(route.id, R, 1)}


def test_e24_gray_route_one_colour() -> None:
    route = find_route(europe(), "Barcelona", "Marseille")
    assert (route.color, route.length) == (None, 4)
    state = scenario(hands=[{O: 2, Y: 2, L: 2}, {}])
    claims = {a for a in legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route.id}
    assert claims == {ClaimRoute(route.id, O, 2), ClaimRoute(route.id, Y, 2)}
    for color in (O, Y):
        after, _ = play(state, ClaimRoute(route.id, color, 2))
        assert gained(state, after, 0) == {color: -2, L: -2}
        assert after.players[0].route_points == 7
    # {O:2, Y:2} is two colours: not expressible, and no one-colour payment without L fits.
    assert_rejected(state, ClaimRoute(route.id, O, 0), Reason.NOT_ENOUGH_CARDS)
    assert_rejected(state, ClaimRoute(route.id, Y, 0), Reason.NOT_ENOUGH_CARDS)
    assert_rejected(state, ClaimRoute(route.id, O, 1), Reason.NOT_ENOUGH_CARDS)


def test_e25_all_locomotive_payment() -> None:
    route = find_route(europe(), "Edinburgh", "London", K)
    assert route.length == 4
    state = scenario(hands=[{L: 4}, {}], deck=[W], discard=[])
    assert ClaimRoute(route.id, L, 4) in legal_actions(state)
    after, _ = play(state, ClaimRoute(route.id, L, 4))
    assert after.players[0].route_points == 7
    assert after.players[0].hand.total == 0
    assert after.discard == (L, L, L, L)
    assert_rejected(state, ClaimRoute(route.id, L, 3), Reason.BAD_PAYMENT)


def test_e26_card_count_equals_length() -> None:
    dieppe = find_route(europe(), "Paris", "Dieppe")
    assert (dieppe.color, dieppe.length) == (P, 1)
    state = scenario(hands=[{P: 2}, {}], deck=[W], discard=[])
    # A payment is always exactly `length` cards: {P:2} cannot be offered, only {P:1}.
    assert_rejected(state, ClaimRoute(dieppe.id, P, 1), Reason.BAD_PAYMENT)
    assert_rejected(state, ClaimRoute(dieppe.id, P, 2), Reason.BAD_PAYMENT)
    assert {
        a for a in legal_actions(state) if isinstance(a, ClaimRoute) and a.route == dieppe.id
    } == {ClaimRoute(dieppe.id, P, 0)}
    after, _ = play(state, ClaimRoute(dieppe.id, P, 0))
    assert after.players[0].route_points == 1
    assert after.players[0].hand == Hand.of({P: 1})
    assert after.discard == (P,)

    lisboa = find_route(europe(), "Lisboa", "Cadiz")
    assert (lisboa.color, lisboa.length) == (B, 2)
    state = scenario(hands=[{B: 1}, {}])
    assert_rejected(state, ClaimRoute(lisboa.id, B, 0), Reason.NOT_ENOUGH_CARDS)
    assert_rejected(state, ClaimRoute(lisboa.id, B, 1), Reason.NOT_ENOUGH_CARDS)


def test_e27_one_route_per_turn_and_only_open_routes() -> None:
    dieppe = rid("Paris", "Dieppe")
    state = scenario(hands=[{P: 2, K: 3}, {P: 1}], deck=[W, W], discard=[])
    after, _ = play(state, ClaimRoute(dieppe, P, 0))
    assert after.current == 1
    assert_rejected(after, ClaimRoute(rid("Brest", "Paris"), K, 0), Reason.NOT_YOUR_TURN, 0)
    assert_rejected(after, ClaimRoute(dieppe, P, 0), Reason.ROUTE_TAKEN)
    # 2 cards on a 3-space route: the whole route must be paid in one turn.
    short = scenario(hands=[{K: 2}, {}])
    assert_rejected(short, ClaimRoute(rid("Brest", "Paris"), K, 0), Reason.NOT_ENOUGH_CARDS)


def test_e28_not_enough_trains() -> None:
    state = scenario(trains=[2, 45], hands=[{K: 3, B: 2, L: 2}, {}], deck=[W, W, W], discard=[])
    assert_rejected(state, ClaimRoute(rid("Brest", "Paris"), K, 0), Reason.NOT_ENOUGH_TRAINS)
    # The same limit for a tunnel (nothing revealed) and for a ferry.
    tunnel = rid("Madrid", "Pamplona", K)
    assert_rejected(state, ClaimRoute(tunnel, K, 0), Reason.NOT_ENOUGH_TRAINS)
    ferry = find_route(europe(), "Brindisi", "Palermo")
    assert ferry.is_ferry and ferry.length == 3
    assert_rejected(state, ClaimRoute(ferry.id, K, 1), Reason.NOT_ENOUGH_TRAINS)
    assert all(
        europe().routes[a.route].length <= 2
        for a in legal_actions(state)
        if isinstance(a, ClaimRoute)
    )
    after, events = play(state, ClaimRoute(rid("Lisboa", "Cadiz"), B, 0))
    assert after.players[0].trains == 0
    assert events_of(events, FinalRoundStarted) == [FinalRoundStarted(0, 0)]
    assert after.final_turns is not None


def _route_of_length(length: int) -> Route:
    """A Europe route of ``length``: a plain one if any, else a tunnel (never a ferry)."""
    candidates = [r for r in europe().routes if r.length == length and not r.is_ferry]
    candidates.sort(key=lambda r: (r.tunnel, r.id))
    return candidates[0]


@pytest.mark.parametrize("length", sorted(SCORE_TABLE))
def test_e29_scored_at_once_and_payment_discarded(length: int) -> None:
    route = _route_of_length(length)
    color = route.color or R
    other = G if color is not G else W
    state = scenario(
        hands=[{color: length}, {}],
        deck=[other] * 6,
        discard=[W, W] if other is not W else [Y, Y],
        face_up=[B, B, B, B, B] if color is not B else [P, P, P, P, P],
    )
    after, events = play(state, ClaimRoute(route.id, color, 0))
    assert after.route_owner[route.id] == 0
    assert after.players[0].route_points == SCORE_TABLE[length]
    assert after.players[0].trains == 45 - length
    before = state.discard
    assert after.discard[: len(before)] == before
    assert after.discard[len(before) : len(before) + length] == (color,) * length
    revealed = events_of(events, TunnelRevealed)
    assert bool(revealed) == route.tunnel
    assert len(after.discard) == len(before) + length + sum(len(e.cards) for e in revealed)


def test_e29_scores_accumulate_over_claims() -> None:
    # A claims lengths 1, 2, 3 and 4 on successive turns (B draws in between).
    routes = [_route_of_length(n) for n in (1, 2, 3, 4)]
    a_hand: dict[Color, int] = {}
    for r in routes:
        a_hand[r.color or R] = a_hand.get(r.color or R, 0) + r.length
    filler = next(c for c in (W, G, Y, O, P, B, K, R) if c not in a_hand)
    state = scenario(hands=[a_hand, {}], deck=[filler] * 8, discard=[])
    total = 0
    for r in routes:
        discard_before = len(state.discard)
        state, _ = play(state, ClaimRoute(r.id, r.color or R, 0))
        total += SCORE_TABLE[r.length]
        assert state.players[0].route_points == total
        assert len(state.discard) == discard_before + r.length
        state, _ = play(state, DrawBlind(), DrawBlind())
    assert total == 1 + 2 + 4 + 7


def test_e30_no_connection_required() -> None:
    lisboa = rid("Lisboa", "Cadiz")
    far = find_route(europe(), "Stockholm", "Petrograd")
    assert (far.color, far.length, far.tunnel) == (None, 8, True)
    state = scenario(routes={lisboa: 0}, hands=[{B: 8}, {}], deck=[R, R, R, G], discard=[])
    assert state.routes_of(0) == (lisboa,)
    assert ClaimRoute(far.id, B, 0) in legal_actions(state)
    after, _ = play(state, ClaimRoute(far.id, B, 0))
    assert set(after.routes_of(0)) == {lisboa, far.id}
    assert after.players[0].route_points == 2 + 21


def test_e31_one_player_never_owns_both_tracks() -> None:
    orange = find_route(europe(), "Paris", "Frankfurt", O)
    white = find_route(europe(), "Paris", "Frankfurt", W)
    assert orange.double_of == white.id and orange.length == white.length == 3
    state = scenario(players=4, routes={orange.id: 0}, hands=[{W: 3}, {W: 3}, {}, {}])
    assert_rejected(state, ClaimRoute(white.id, W, 0), Reason.DOUBLE_ROUTE_OWNED)
    b_turn = scenario(players=4, current=1, routes={orange.id: 0}, hands=[{W: 3}, {W: 3}, {}, {}])
    after, _ = play(b_turn, ClaimRoute(white.id, W, 0))
    assert after.route_owner[white.id] == 1
    assert after.route_owner[orange.id] == 0


def test_e31_applies_even_when_double_routes_open_for_all() -> None:
    # Variant double_route_min_players=0 (zh) opens both tracks, but never to one player.
    orange = rid("Paris", "Frankfurt", O)
    white = rid("Paris", "Frankfurt", W)
    state = scenario(
        routes={orange: 0}, hands=[{W: 3}, {}], rules=Rules(double_route_min_players=0)
    )
    assert_rejected(state, ClaimRoute(white, W, 0), Reason.DOUBLE_ROUTE_OWNED)


def test_e32_three_players_one_track_only() -> None:
    yellow = find_route(europe(), "Paris", "Bruxelles", Y)
    red = find_route(europe(), "Paris", "Bruxelles", R)
    assert yellow.double_of == red.id and yellow.length == 2
    state = scenario(players=3, hands=[{Y: 2}, {R: 2}, {}], deck=[W, W], discard=[])
    after, _ = play(state, ClaimRoute(yellow.id, Y, 0))
    assert after.current == 1
    assert_rejected(after, ClaimRoute(red.id, R, 0), Reason.DOUBLE_ROUTE_CLOSED)
    # The closed track is closed to the third player too.
    c_turn = scenario(players=3, current=2, routes={yellow.id: 0}, hands=[{}, {}, {R: 2}])
    assert_rejected(c_turn, ClaimRoute(red.id, R, 0), Reason.DOUBLE_ROUTE_CLOSED)


def test_e32_two_players_double_ferry() -> None:
    first, second = routes_between(europe(), "Dieppe", "London")
    assert first.double_of == second.id
    assert (first.length, first.ferry_locomotives, first.color) == (2, 1, None)
    assert (second.length, second.ferry_locomotives, second.color) == (2, 1, None)
    state = scenario(players=2, hands=[{R: 1, L: 1}, {G: 1, L: 1}], deck=[W, W], discard=[])
    after, _ = play(state, ClaimRoute(first.id, R, 1))
    assert after.route_owner[first.id] == 0
    assert_rejected(after, ClaimRoute(second.id, G, 1), Reason.DOUBLE_ROUTE_CLOSED)
    assert_rejected(after, ClaimRoute(second.id, L, 2), Reason.DOUBLE_ROUTE_CLOSED)


def test_e32_failed_tunnel_does_not_close_other_track() -> None:
    black = find_route(europe(), "Madrid", "Pamplona", K)
    white = find_route(europe(), "Madrid", "Pamplona", W)
    assert black.double_of == white.id and black.tunnel and white.tunnel
    state = scenario(
        players=3,
        hands=[{K: 3}, {W: 3}, {}],
        deck=[K, K, R, G, G, G, G],
        discard=[],
    )
    mid, _ = play(state, ClaimRoute(black.id, K, 0))
    assert mid.phase is Phase.TUNNEL
    assert legal_actions(mid) == (DeclineTunnel(),)
    after, _ = play(mid, DeclineTunnel())
    assert after.route_owner[black.id] is None
    assert after.current == 1
    assert ClaimRoute(white.id, W, 0) in legal_actions(after)
    done, _ = play(after, ClaimRoute(white.id, W, 0))  # reveals G, G, G: nothing owed
    assert done.route_owner[white.id] == 1


def test_e32_variant_double_routes_always_open() -> None:
    # §1 #12 (zh): double_route_min_players=0 opens both tracks whatever the player count.
    yellow = rid("Paris", "Bruxelles", Y)
    red = rid("Paris", "Bruxelles", R)
    rules = Rules(double_route_min_players=0)
    state = scenario(players=2, current=1, routes={yellow: 0}, hands=[{}, {R: 2}], rules=rules)
    after, _ = play(state, ClaimRoute(red, R, 0))
    assert after.route_owner[red] == 1 and after.route_owner[yellow] == 0


def test_e32_variant_min_players_threshold() -> None:
    # With double_route_min_players=3, a 3-player game opens both tracks and 2 players do not.
    yellow = rid("Paris", "Bruxelles", Y)
    red = rid("Paris", "Bruxelles", R)
    rules = Rules(double_route_min_players=3)
    three = scenario(players=3, current=1, routes={yellow: 0}, hands=[{}, {R: 2}, {}], rules=rules)
    assert ClaimRoute(red, R, 0) in legal_actions(three)
    two = scenario(players=2, current=1, routes={yellow: 0}, hands=[{}, {R: 2}], rules=rules)
    assert_rejected(two, ClaimRoute(red, R, 0), Reason.DOUBLE_ROUTE_CLOSED)


@pytest.mark.parametrize("players", [4, 5])
def test_e33_four_or_five_players_both_tracks(players: int) -> None:
    black = rid("Madrid", "Pamplona", K)
    white = rid("Madrid", "Pamplona", W)
    hands: list[dict[Color, int]] = [{K: 3}, {W: 3}] + [{} for _ in range(players - 2)]
    state = scenario(players=players, hands=hands, deck=[R, R, R, G, G, G, Y, Y], discard=[])
    state, _ = play(state, ClaimRoute(black, K, 0))  # reveals R, R, R: nothing owed
    assert state.route_owner[black] == 0
    assert state.current == 1
    state, _ = play(state, ClaimRoute(white, W, 0))  # reveals G, G, G: nothing owed
    assert state.route_owner[white] == 1


def test_e34_parallel_routes_to_different_cities_are_not_double() -> None:
    # Synthetic fixture: X–Y and X–Z drawn side by side are two unrelated routes.
    side_by_side = GameMap.create(
        "side-by-side",
        ["X", "Y", "Z"],
        [("X", "Y", 2, R), ("X", "Z", 2, R)],
        [],
        rules=FIXTURE_RULES,
    )
    assert all(r.double_of is None for r in side_by_side.routes)
    xy = route_id(side_by_side, "X", "Y")
    xz = route_id(side_by_side, "X", "Z")
    state = scenario(side_by_side, players=2, routes={xy: 0}, hands=[{R: 2}, {}])
    after, _ = play(state, ClaimRoute(xz, R, 0))
    assert after.routes_of(0) == (xy, xz)
    # Control: a real double route on the same fixture style is restricted.
    double = GameMap.create(
        "double", ["X", "Y"], [("X", "Y", 2, R), ("X", "Y", 2, G)], [], rules=FIXTURE_RULES
    )
    red, green = route_id(double, "X", "Y", R), route_id(double, "X", "Y", G)
    assert double.routes[red].double_of == green
    state = scenario(double, players=2, routes={red: 0}, hands=[{G: 2}, {}])
    assert_rejected(state, ClaimRoute(green, G, 0), Reason.DOUBLE_ROUTE_OWNED)


def test_e34_europe_double_routes_join_the_same_cities() -> None:
    game_map = europe()
    by_pair: dict[frozenset[str], list[Route]] = {}
    for route in game_map.routes:
        by_pair.setdefault(frozenset(route.cities), []).append(route)
        if route.double_of is not None:
            partner = game_map.routes[route.double_of]
            assert partner.double_of == route.id
            assert {partner.a, partner.b} == {route.a, route.b}
            assert partner.length == route.length
    for tracks in by_pair.values():
        assert len(tracks) <= 2
        if len(tracks) == 2:
            assert tracks[0].double_of == tracks[1].id
        else:
            assert tracks[0].double_of is None
