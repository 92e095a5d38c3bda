"""Seeded random games for the view, serialization, notation and record tests."""

from __future__ import annotations

import random

from ttr_rules import Action, GameState, new_game
from ttr_rules.testing import playout


def random_game(seed: int, steps: int | None = None) -> tuple[GameState, list[Action], GameState]:
    """``new_game`` with 2–5 players from ``seed``, then up to ``steps`` uniformly random legal
    actions (to the end when None): the start state, the actions and the state reached."""
    rnd = random.Random(seed)
    start = new_game(players=rnd.randint(2, 5), seed=seed)
    taken = list(playout(start, rnd.randrange, max_steps=steps))
    return start, [s.action for s in taken], taken[-1].after if taken else start
