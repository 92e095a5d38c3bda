"""The verification kit (issue 6): every invariant of ``check_invariants`` fires on a state
corrupted on purpose and stays silent over random play; the strategies reach every phase and
shrink well; ``check_map`` passes on Europe and the example plugin and reports a broken map;
the state machine runs."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, event, find, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

import ttr_rules
from ttr_rules import (
    ClaimWithSets,
    Color,
    GameMap,
    GameState,
    IllegalActionError,
    Phase,
    Rules,
    apply_action,
    legal_actions,
    load_map,
    load_map_file,
    new_game,
    scenario,
)
from ttr_rules.state import PendingPayment, PendingTunnel, evolve
from ttr_rules.testing import (
    INVARIANTS,
    TARGETS,
    ConformanceError,
    GameMachine,
    InvariantError,
    actions,
    check_invariants,
    check_map,
    games,
    illegal_actions,
    invariant_problems,
    play,
    states,
)
from ttr_rules.testing.play import POLICIES, Target, chooser

LOCO = Color.LOCOMOTIVE
ALPINE_JSON = (
    Path(__file__).parents[1] / "examples/custom_map_plugin/src/ttr_rules_alpine/alpine.json"
)


@cache
def europe() -> GameMap:
    return load_map("europe")


@cache
def alpine() -> GameMap:
    """The example plugin's map: installed, or straight from its JSON file."""
    try:
        return load_map("alpine")
    except LookupError:
        return load_map_file(ALPINE_JSON)


def broken(state: GameState) -> frozenset[str]:
    """The names of the invariants ``state`` breaks (checked through the public function)."""
    with pytest.raises(InvariantError) as info:
        check_invariants(state)
    assert str(info.value).startswith(f"{len(info.value.problems)} broken invariant")
    return info.value.invariants


def midgame(players: int = 4, seed: int = 3, steps: int = 120) -> GameState:
    """A consistent position after some random play, with routes claimed."""
    return play(new_game(europe(), players, seed), chooser((), seed), max_steps=steps).final


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], **changes)
    return evolve(state, players=tuple(players))


def give_routes(state: GameState, owners: dict[int, int]) -> GameState:
    """``state`` with routes handed out, trains and route points kept consistent."""
    owner = list(state.route_owner)
    for route, seat in owners.items():
        owner[route] = seat
        length = state.map.routes[route].length
        player = state.players[seat]
        state = with_player(
            state,
            seat,
            trains=player.trains - length,
            route_points=player.route_points + state.rules.route_scores[length],
        )
    return evolve(state, route_owner=tuple(owner))


def double_pair(game_map: GameMap) -> tuple[int, int]:
    route = next(r for r in game_map.routes if r.double_of is not None)
    assert route.double_of is not None
    return route.id, route.double_of


def row_with_locomotives(state: GameState, discard_tail: int) -> GameState:
    """Three face-up locomotives, a feasible reset, and a discard ending with
    ``discard_tail`` locomotives among five cards."""
    cards = [c for c in state.face_up + state.deck + state.discard if c is not None]
    locos = [c for c in cards if c is LOCO]
    others = [c for c in cards if c is not LOCO]
    assert len(locos) >= 3 + discard_tail
    row = (LOCO, LOCO, LOCO, others[0], others[1])
    discard = tuple(others[2 : 7 - discard_tail]) + (LOCO,) * discard_tail
    deck = tuple(locos[3 + discard_tail :]) + tuple(others[7 - discard_tail :])
    return evolve(state, face_up=row, deck=deck, discard=discard)


# --------------------------------------------------------------------------- each invariant fires


def test_a_consistent_position_passes() -> None:
    state = midgame()
    assert any(owner is not None for owner in state.route_owner)
    check_invariants(state)
    assert invariant_problems(state) == []


def test_cards_fire_on_a_lost_card() -> None:
    state = midgame()
    assert broken(evolve(state, deck=state.deck[1:])) == {"cards"}


def test_cards_fire_on_a_duplicated_card_and_a_negative_hand() -> None:
    state = midgame()
    assert broken(evolve(state, discard=(*state.discard, Color.RED))) == {"cards"}
    counts = list(state.players[0].hand.counts)
    counts[0] -= counts[0] + 1
    hand = type(state.players[0].hand)(tuple(counts))
    assert "cards" in broken(with_player(state, 0, hand=hand))


def test_tickets_fire_on_a_duplicate_and_a_missing_ticket() -> None:
    state = midgame()
    deck = state.ticket_deck
    assert broken(evolve(state, ticket_deck=(*deck, deck[0]))) == {"tickets"}
    assert broken(evolve(state, ticket_deck=deck[1:])) == {"tickets"}
    assert broken(evolve(state, ticket_box=(*state.ticket_box, 999))) == {"tickets"}


def test_trains_fire_unless_told_that_trains_were_set_freely() -> None:
    state = midgame()
    bad = with_player(state, 1, trains=state.players[1].trains - 1)
    assert broken(bad) == {"trains"}
    check_invariants(bad, check_trains=False)
    negative = with_player(state, 1, trains=-1)
    with pytest.raises(InvariantError):
        check_invariants(negative, check_trains=False)


def test_a_scenario_with_given_trains_needs_check_trains_false() -> None:
    state = scenario("europe", 2, trains=[10, 3])
    assert broken(state) == {"trains"}
    check_invariants(state, check_trains=False)
    check_invariants(scenario("europe", 2, routes={0: 1}))


def test_stations_fire_on_too_many_stations_and_unknown_cities() -> None:
    state = midgame()
    cities = state.map.cities
    taken = {c for p in state.players for c in p.stations}
    free = tuple(c for c in cities if c not in taken)[:4]
    assert broken(with_player(state, 0, stations=free)) == {"stations"}
    assert broken(with_player(state, 0, stations=("Atlantis",))) == {"stations"}


def test_station_cities_fire_on_two_stations_in_one_city() -> None:
    state = midgame()
    city = state.map.cities[0]
    state = with_player(state, 0, stations=(city,))
    assert broken(with_player(state, 1, stations=(city,))) == {"station cities"}


def test_routes_fire_on_an_unknown_owner() -> None:
    state = midgame()
    owners = list(state.route_owner)
    owners[owners.index(None)] = 7
    assert broken(evolve(state, route_owner=tuple(owners))) == {"routes"}


def test_double_routes_fire_when_one_player_owns_both_tracks() -> None:
    state = new_game(europe(), 4, 0)
    first, second = double_pair(europe())
    check_invariants(give_routes(state, {first: 0, second: 1}))
    assert broken(give_routes(state, {first: 0, second: 0})) == {"double routes"}


def test_double_routes_fire_when_both_tracks_are_owned_below_the_player_minimum() -> None:
    state = new_game(europe(), 3, 0)
    first, second = double_pair(europe())
    assert broken(give_routes(state, {first: 0, second: 1})) == {"double routes"}


def test_route_points_fire_on_points_without_routes() -> None:
    state = midgame()
    assert broken(with_player(state, 2, route_points=state.players[2].route_points + 1)) == {
        "route points"
    }


def test_face_up_row_fires_on_an_empty_slot_with_cards_to_draw() -> None:
    state = midgame()
    card = state.face_up[2]
    assert card is not None
    row = state.face_up[:2] + (None,) + state.face_up[3:]
    bad = evolve(state, face_up=row, out_of_play=(*state.out_of_play, card))
    assert broken(bad) == {"face-up row"}


def test_face_up_locomotives_fire_when_a_reset_was_due() -> None:
    state = new_game(europe(), 2, 0)
    assert broken(row_with_locomotives(state, discard_tail=0)) == {"face-up locomotives"}


def test_face_up_locomotives_are_allowed_after_the_reset_cap_or_without_a_limit() -> None:
    state = new_game(europe(), 2, 0)
    check_invariants(row_with_locomotives(state, discard_tail=3))  # the cap's trace
    no_limit = attrs.evolve(state.rules, face_up_locomotive_limit=None)
    check_invariants(evolve(row_with_locomotives(state, discard_tail=0), rules=no_limit))


def test_face_up_locomotives_are_allowed_when_the_reset_is_infeasible() -> None:
    row = [LOCO, LOCO, LOCO, Color.RED, None]
    state = scenario("europe", 2, face_up=row, deck=[], discard=[], shuffle="identity")
    assert state.deck == state.discard == ()
    check_invariants(state)


def test_phase_fires_on_a_tunnel_phase_without_a_tunnel_and_vice_versa() -> None:
    state = midgame()
    assert state.phase is not Phase.TUNNEL
    assert broken(evolve(state, phase=Phase.TUNNEL)) == {"phase"}
    route = next(r for r in state.map.routes if r.tunnel and state.route_owner[r.id] is None)
    pending = PendingTunnel(route.id, LOCO, route.length, (), 1)
    assert "phase" in broken(evolve(state, tunnel=pending))


def test_phase_fires_on_offered_tickets_out_of_turn() -> None:
    state = midgame()
    other = (state.current + 1) % state.num_players
    ticket = state.ticket_deck[0]
    bad = with_player(state, other, offered=(ticket,))
    bad = evolve(bad, ticket_deck=state.ticket_deck[1:])
    assert broken(bad) == {"phase"}
    assert broken(evolve(state, phase=Phase.KEEP_TICKETS)) == {"phase"}


def test_phase_allows_offered_tickets_of_players_still_to_choose() -> None:
    state = new_game(europe(), 4, 0, first_player=2)
    assert state.phase is Phase.INITIAL_TICKETS
    check_invariants(state)
    for _ in range(3):  # the first three players choose; the fourth still holds its offer
        state = apply_action(state, legal_actions(state)[0])
        check_invariants(state)
    assert state.phase is Phase.INITIAL_TICKETS and state.current == 1


def test_payment_fires_on_picks_no_payment_follows_or_a_route_without_sets() -> None:
    nordic = load_map("nordic")
    murmansk = next(r for r in nordic.routes if r.card_substitute)
    state = scenario(nordic, players=2, hands=[{Color.RED: 8, Color.BLUE: 4}, {}])
    picking = apply_action(state, ClaimWithSets(murmansk.id))
    check_invariants(picking)
    stuck = PendingPayment(murmansk.id, (Color.RED,) * 5)  # the blues can no longer pay
    assert broken(with_player(picking, 0, payment=stuck)) == {"payment"}
    plain = next(r for r in nordic.routes if not r.card_substitute and not r.ferry_locomotives)
    assert broken(with_player(picking, 0, payment=PendingPayment(plain.id))) == {"payment"}


def test_every_invariant_has_a_test() -> None:
    names = {name for name, _ in INVARIANTS}
    tested = {
        "cards", "tickets", "trains", "stations", "station cities", "routes", "payment",
        "double routes", "route points", "face-up row", "face-up locomotives", "phase",
    }  # fmt: skip
    assert names == tested


# --------------------------------------------------------------------------- silent on random play


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_hold_after_every_step_of_random_games(players: int) -> None:
    checked = 0
    for seed, policy in enumerate(POLICIES * 2):
        game = play(new_game(europe(), players, seed), chooser((), seed), policy=policy)
        assert game.final.is_terminal
        for state in game.positions():
            check_invariants(state)
            checked += 1
    assert checked > 1_000


@given(states())
def test_invariants_hold_on_generated_states(state: GameState) -> None:
    event(f"phase: {state.phase.value}")
    event(f"final round: {state.final_turns is not None}")
    check_invariants(state)


# --------------------------------------------------------------------------- strategies


@pytest.mark.parametrize("target", TARGETS[1:], ids=lambda t: t.name)
def test_states_reach_every_target(target: Target) -> None:
    quick = settings(
        database=None, max_examples=300, phases=[HypothesisPhase.generate], derandomize=True,
        suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    state = find(states(targets=[target]), target.reached, settings=quick)
    check_invariants(state)


@pytest.mark.parametrize(
    "phase", [p for p in Phase if p is not Phase.INITIAL_TICKETS], ids=lambda p: p.value
)
def test_states_produce_every_phase(phase: Phase) -> None:
    quick = settings(
        database=None, max_examples=300, phases=[HypothesisPhase.generate], derandomize=True,
        suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    # Only a board with substitute sets (Nordic) reaches the payment phase.
    board = "nordic" if phase is Phase.PAYMENT else "europe"
    find(states(board), lambda s: s.phase is phase, settings=quick)


def test_a_game_with_a_pending_tunnel_shrinks_to_a_few_actions() -> None:
    shrink = settings(database=None, max_examples=50, derandomize=True)
    game = find(
        games(players=2, max_steps=30, policies=["uniform"], explicit=30),
        lambda g: any(s.phase is Phase.TUNNEL for s in g.states),
        settings=shrink,
    )
    assert game.final.phase is Phase.TUNNEL
    assert len(game.actions) <= 6, str(game)


@given(st.data())
def test_drawn_actions_apply_and_illegal_ones_are_refused(data: st.DataObject) -> None:
    state = data.draw(states(players=st.sampled_from([2, 4]), max_steps=300))
    if not state.is_terminal:
        check_invariants(apply_action(state, data.draw(actions(state))))
    wrong = data.draw(illegal_actions(state))
    with pytest.raises(IllegalActionError):
        apply_action(state, wrong)  # type: ignore[arg-type]


@given(games(map=alpine()))
def test_whole_games_on_the_example_map_keep_the_invariants(game: object) -> None:
    for state in game.positions():  # type: ignore[attr-defined]
        check_invariants(state)


# --------------------------------------------------------------------------- check_map


def test_check_map_passes_on_europe() -> None:
    report = check_map(europe(), games=1)
    assert report.ok, str(report)
    assert report.games == 4 and report.steps > 500
    assert "all checks passed" in str(report)


def test_check_map_passes_on_the_example_plugin_map() -> None:
    report = check_map(alpine(), games=3, raise_on_failure=True)
    assert report.games == 6


def test_check_map_reports_a_broken_rule_override() -> None:
    # A deal of 30 cards each cannot be dealt to 4 or 5 players: the map's validation says so
    # before any game is played.
    bad = attrs.evolve(europe(), rules=Rules(starting_hand=30))
    bad = attrs.evolve(bad, digest=GameMap.create(
        bad.name, bad.cities, bad.routes, bad.tickets, version=bad.version, rules=bad.rules
    ).digest)  # fmt: skip
    report = check_map(bad, games=1)
    assert not report.ok and report.games == 0
    assert {f.check for f in report.failures} == {"validate"}
    assert any("starting_hand" in f.message for f in report.failures)
    assert "starting_hand" in str(report)
    with pytest.raises(ConformanceError) as info:
        check_map(bad, games=1, raise_on_failure=True)
    assert info.value.report == report


def test_check_map_reports_an_invalid_map() -> None:
    too_short: Any = (0, 1, 2)  # lengths 3 and more are not scored
    bad = attrs.evolve(europe(), rules=Rules(route_scores=too_short))
    report = check_map(bad)
    assert not report.ok and report.games == 0
    assert {f.check for f in report.failures} == {"validate"}
    assert any("route_scores" in f.message or "length" in f.message for f in report.failures)


# --------------------------------------------------------------------------- the state machine


class EuropeMachine(GameMachine):
    pass


class AlpineMachine(GameMachine):
    map_name = alpine()


TestEuropeMachine = EuropeMachine.TestCase
TestEuropeMachine.settings = settings(TestEuropeMachine.settings, stateful_step_count=15)
TestAlpineMachine = AlpineMachine.TestCase
TestAlpineMachine.settings = settings(TestAlpineMachine.settings, stateful_step_count=15)


def test_the_machine_notices_a_rejected_action_that_changes_the_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine that raises IllegalActionError but has already changed the position (here the
    order of the deck, which keeps every invariant) fails the machine's ``illegal`` rule."""
    genuine = ttr_rules.apply_action

    def corrupting(state: GameState, action: Any, player: int | None = None) -> GameState:
        try:
            return genuine(state, action, player)
        except IllegalActionError:
            object.__setattr__(state, "deck", state.deck[::-1])
            raise

    monkeypatch.setattr(ttr_rules, "apply_action", corrupting)
    quick = settings(
        max_examples=20,
        stateful_step_count=5,
        database=None,
        phases=[HypothesisPhase.generate],  # no shrinking: the failure is all we need
        suppress_health_check=list(HealthCheck),
    )
    with pytest.raises(AssertionError):
        # (typed through a variable: some hypothesis releases leave this function untyped)
        run: Callable[..., None] = run_state_machine_as_test
        run(EuropeMachine, settings=quick)


def test_the_kit_imports_hypothesis_only_where_needed() -> None:
    code = (
        "import sys, ttr_rules, ttr_rules.testing as t\n"
        "assert 'hypothesis' not in sys.modules\n"
        "t.check_invariants(ttr_rules.new_game())\n"
        "assert 'hypothesis' not in sys.modules\n"
        "t.games\n"
        "assert 'hypothesis' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
