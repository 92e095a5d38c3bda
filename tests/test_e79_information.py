"""E79: information and determinism."""

from __future__ import annotations

import random

from helpers import K, L, R, europe, route_id

from ttr_rules import (
    ClaimRoute,
    GameState,
    Phase,
    apply_action,
    new_game,
    observe,
    scenario,
    to_json,
)
from ttr_rules.testing import playout, random_chooser


def scripted_game(seed: int, decisions: int) -> list[GameState]:
    """A game from ``seed`` in which the choices are scripted by a second fixed seed."""
    start = new_game("europe", 3, seed=seed)
    steps = list(playout(start, random_chooser(random.Random(1234)), max_steps=decisions))
    assert len(steps) == decisions
    return [start, *(s.after for s in steps)]


def test_e79_same_seed_and_actions_give_identical_serialized_states() -> None:
    first = [to_json(s) for s in scripted_game(77, 120)]
    second = [to_json(s) for s in scripted_game(77, 120)]
    assert first == second
    assert first != [to_json(s) for s in scripted_game(78, 120)]


def test_e79_an_observation_hides_hands_and_tickets_and_shows_the_public_facts() -> None:
    state = scripted_game(5, 60)[-1]
    viewer, other = 0, 1
    view = observe(state, viewer)
    mine, theirs = view.seats[viewer], view.seats[other]
    assert mine.hand == state.players[viewer].hand
    assert mine.tickets == state.players[viewer].tickets
    assert theirs.hand is None and theirs.tickets is None and theirs.offered is None
    assert theirs.hand_size == state.players[other].hand.total
    assert theirs.ticket_count == len(state.players[other].tickets)
    assert view.face_up == state.face_up
    assert view.deck_size == len(state.deck)
    assert view.discard == state.discard
    text = to_json(view)
    assert '"deck"' not in text and '"rng"' not in text and '"seed"' not in text


def test_e79_tunnel_reveals_are_public() -> None:
    tunnel = route_id(europe(), "Madrid", "Pamplona", K)
    state = scenario(hands=[{K: 3}, {}], deck=[K, R, L], discard=[], shuffle="identity")
    state = apply_action(state, ClaimRoute(tunnel, K, 0))
    assert state.phase is Phase.TUNNEL
    view = observe(state, 1)
    assert view.tunnel is not None
    assert view.tunnel.revealed == (K, R, L) and view.tunnel.owed == 2
