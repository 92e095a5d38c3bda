"""Seeded random games for the view, serialization, notation and record tests."""

from __future__ import annotations

import random

from ttr_rules import Action, GameState, apply_action, legal_actions, new_game


def random_game(seed: int, steps: int | None = None) -> tuple[GameState, list[Action], GameState]:
    """``new_game`` with 2–5 players from ``seed``, then up to ``steps`` uniformly random legal
    actions (to the end when None): the start state, the actions and the state reached."""
    rnd = random.Random(seed)
    start = new_game(players=rnd.randint(2, 5), seed=seed)
    state = start
    actions: list[Action] = []
    while not state.is_terminal and (steps is None or len(actions) < steps):
        action = rnd.choice(legal_actions(state))
        state = apply_action(state, action)
        actions.append(action)
    return start, actions, state
