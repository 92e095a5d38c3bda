"""Engine-wide properties over random games (issue 3): every legal action applies, the legal
list equals a brute-force enumeration from the single-action checks, illegal actions are
rejected without touching the state, games are deterministic, cards and tickets are
conserved, and random games end for every player count."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

import attrs
import pytest
from helpers import FIXTURE_RULES

from ttr_rules import (
    BuildStation,
    ClaimRoute,
    Color,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameMap,
    GameState,
    IllegalActionError,
    KeepTickets,
    Pass,
    PayTunnel,
    Phase,
    Reason,
    Rules,
    apply_action,
    legal_actions,
    load_map,
    new_game,
    scenario,
)
from ttr_rules.actions import Action
from ttr_rules.game import full_deck
from ttr_rules.moves.claim import claim_problem
from ttr_rules.moves.stations import problem as station_problem
from ttr_rules.testing import card_census, playout, random_chooser, snapshot


@cache
def europe() -> GameMap:
    return load_map("europe")


def random_game(players: int, seed: int) -> Iterator[tuple[GameState, Action]]:
    """The (state, chosen action) pairs of a random game."""
    start = new_game(europe(), players, seed=seed)
    for step in playout(start, random_chooser(random.Random(seed))):
        yield step.state, step.action


def all_tickets(state: GameState) -> list[int]:
    held = [t for p in state.players for t in p.tickets + p.offered]
    return held + list(state.ticket_deck) + list(state.ticket_box)


def brute_force_start_actions(state: GameState) -> set[Action]:
    """Every action of the start phase found by trying all candidates one by one."""
    game_map = state.map
    found: set[Action] = set()
    for slot, card in enumerate(state.face_up):
        if card is not None:
            found.add(DrawFaceUp(slot))
    if state.deck or state.discard:
        found.add(DrawBlind())
    if state.ticket_deck:
        found.add(DrawTickets())
    longest = max(max(r.length for r in game_map.routes), state.rules.stations_per_player)
    payments = [(c, k) for c in Color for k in range(longest + 1)]
    for route in game_map.routes:
        for color, k in payments:
            claim = ClaimRoute(route.id, color, k)
            if claim_problem(state, claim) is None:
                found.add(claim)
    for city in game_map.cities:
        for color, k in payments:
            build = BuildStation(city, color, k)
            if station_problem(state, build) is None:
                found.add(build)
    return found or {Pass()}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_card_and_ticket(players: int) -> None:
    deck = Counter(full_deck(europe().rules))
    for seed in range(3):
        last = None
        for state, _ in random_game(players, seed):
            assert card_census(state) == deck
            tickets = all_tickets(state)
            assert sorted(tickets) == list(range(len(europe().tickets)))
            for p in state.players:
                claimed = sum(
                    r.length
                    for r in europe().routes
                    if state.route_owner[r.id] == state.players.index(p)
                )
                assert p.trains + claimed == state.rules.trains_per_player
                assert len(p.stations) <= state.rules.stations_per_player
            assert (state.phase is Phase.TUNNEL) == (state.tunnel is not None)
            last = state
        assert last is not None


def test_every_legal_action_applies_and_input_is_unchanged() -> None:
    for seed in range(4):
        for state, _ in random_game(4, seed):
            before = snapshot(state)
            for action in legal_actions(state):
                apply_action(state, action)
            assert state == before


def test_legal_actions_equal_brute_force_and_have_no_duplicates() -> None:
    checked = 0
    for seed in range(2):
        for index, (state, _) in enumerate(random_game(3 + seed, seed)):
            options = legal_actions(state)
            assert len(set(options)) == len(options)
            if state.phase is Phase.START and index % 3 == 0:
                assert set(options) == brute_force_start_actions(state)
                checked += 1
    assert checked > 50


def test_legal_actions_order_is_deterministic() -> None:
    for state, _ in random_game(4, 11):
        assert legal_actions(state) == legal_actions(copy.deepcopy(state))


def test_same_seed_and_choices_give_equal_states() -> None:
    first = [s for s, _ in random_game(4, 5)]
    second = [s for s, _ in random_game(4, 5)]
    assert first == second
    assert [hash(s) for s in first] == [hash(s) for s in second]


def test_different_seeds_deal_differently() -> None:
    assert new_game(europe(), 4, seed=1) != new_game(europe(), 4, seed=2)


class NotAnAction:
    route = 3


def illegal_candidates(state: GameState) -> list[object]:
    legal = set(legal_actions(state))
    candidates: list[object] = [
        NotAnAction(),
        "draw blind",
        None,
        DrawFaceUp(7),
        PayTunnel(1),
        DeclineTunnel(),
        KeepTickets(frozenset({999})),
        Pass(),
        DrawTickets(),
        ClaimRoute(500, Color.RED, 0),
        BuildStation("Atlantis", Color.RED, 0),
    ]
    for route, owner in enumerate(state.route_owner):
        if owner is not None:
            candidates.append(ClaimRoute(route, Color.LOCOMOTIVE, state.map.routes[route].length))
            break
    colored = next(r for r in state.map.routes if r.color is Color.RED)
    candidates.append(ClaimRoute(colored.id, Color.BLUE, 0))
    return [c for c in candidates if c not in legal]


def test_illegal_actions_are_rejected_with_a_reason_and_change_nothing() -> None:
    reasons: Counter[Reason] = Counter()
    for seed in range(2):
        for state, _ in random_game(2, seed):
            snapshot = copy.deepcopy(state)
            for candidate in illegal_candidates(state):
                with pytest.raises(IllegalActionError) as caught:
                    apply_action(state, candidate)  # type: ignore[arg-type]
                assert isinstance(caught.value, ValueError)
                assert caught.value.action is candidate
                reasons[caught.value.reason] += 1
            assert state == snapshot
    for expected in (
        Reason.NOT_AN_ACTION,
        Reason.WRONG_PHASE,
        Reason.NO_SUCH_SLOT,
        Reason.NO_SUCH_ROUTE,
        Reason.NO_SUCH_CITY,
        Reason.ROUTE_TAKEN,
        Reason.WRONG_COLOR,
        Reason.PASS_NOT_ALLOWED,
    ):
        assert reasons[expected] > 0, expected


def test_a_finished_game_rejects_everything() -> None:
    state, action = list(random_game(2, 3))[-1]
    end = apply_action(state, action)
    assert end.phase is Phase.GAME_OVER
    assert legal_actions(end) == ()
    for candidate in [DrawBlind(), Pass(), DrawTickets(), NotAnAction()]:
        with pytest.raises(IllegalActionError) as caught:
            apply_action(end, candidate)  # type: ignore[arg-type]
        expected = Reason.NOT_AN_ACTION if isinstance(candidate, NotAnAction) else Reason.GAME_OVER
        assert caught.value.reason is expected


def test_not_your_turn() -> None:
    state = new_game(europe(), 3, seed=0)
    action = legal_actions(state)[0]
    with pytest.raises(IllegalActionError) as caught:
        apply_action(state, action, player=(state.current + 1) % 3)
    assert caught.value.reason is Reason.NOT_YOUR_TURN


@pytest.mark.parametrize("players", [1, 6, 0])
def test_bad_player_counts_are_rejected(players: int) -> None:
    with pytest.raises(ValueError, match="players"):
        new_game(europe(), players)


def test_one_hundred_random_games_end() -> None:
    for seed in range(100):
        players = 2 + seed % 4
        turns = 0
        for state, _ in random_game(players, seed):
            turns = state.turn
        assert 0 < turns < 1000


def test_costly_stations_beyond_the_payment_tables() -> None:
    cities = europe().cities[:9]
    rules = Rules(stations_per_player=12)
    state = scenario(
        europe(),
        2,
        rules=rules,
        hands=[{Color.RED: 9, Color.LOCOMOTIVE: 1}, {}],
        stations=dict.fromkeys(cities, 0),
    )
    stations = {a for a in legal_actions(state) if isinstance(a, BuildStation)}
    assert stations == {a for a in brute_force_start_actions(state) if isinstance(a, BuildStation)}
    assert BuildStation("Wien", Color.RED, 1) in stations
    after = apply_action(state, BuildStation("Wien", Color.RED, 1))
    assert after.players[0].hand.total == 0


def test_routes_longer_than_eight() -> None:
    long_map = GameMap.create(
        "long",
        ["A", "B", "C"],
        [("A", "B", 10, None), ("B", "C", 9, Color.RED)],
        [("A", "C", 20)],
        rules=attrs.evolve(FIXTURE_RULES, route_scores=(0, 1, 2, 4, 7, 10, 15, 18, 21, 25, 30)),
    )
    state = scenario(long_map, 2, hands=[{Color.RED: 9, Color.LOCOMOTIVE: 10}, {}])
    claims = {a for a in legal_actions(state) if isinstance(a, ClaimRoute)}
    assert claims == {a for a in brute_force_start_actions(state) if isinstance(a, ClaimRoute)}
    assert ClaimRoute(0, Color.LOCOMOTIVE, 10) in claims and ClaimRoute(1, Color.RED, 0) in claims
    after = apply_action(state, ClaimRoute(0, Color.LOCOMOTIVE, 10))
    assert after.players[0].route_points == 30


def test_inconsistent_rules_are_rejected_by_new_game() -> None:
    with pytest.raises(ValueError, match="starting_hand"):
        new_game(europe(), 4, rules=Rules(starting_hand=30))
    with pytest.raises(ValueError, match="tie_breakers"):
        new_game(europe(), 4, rules=Rules(tie_breakers=("coin toss",)))


def test_hand_is_a_multiset_of_cards() -> None:
    from ttr_rules import Hand

    hand = Hand.of({Color.RED: 2, Color.LOCOMOTIVE: 1})
    assert list(hand) == [Color.RED, Color.RED, Color.LOCOMOTIVE]
    assert len(hand) == hand.total == 3
    assert hand[Color.RED] == 2 and hand[Color.BLUE] == 0
    assert Hand.of(list(hand)) == hand
    assert Hand.of({"pink": 1})[Color.PURPLE] == 1
    assert hand.as_dict() == {Color.RED: 2, Color.LOCOMOTIVE: 1}
