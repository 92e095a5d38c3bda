"""Regression pins in the spirit of chess perft counts: for fixed seeds and fixed choices, the
number of decisions, the sum of the legal-action counts over the game and the final totals.

A change here means the rules engine now behaves differently; if that is intended (a rule
fix), update the numbers in the same commit and say why.
"""

from __future__ import annotations

import random

import pytest

from ttr_rules import apply_action, final_scores, is_terminal, legal_actions, new_game


@pytest.mark.parametrize(
    ("players", "seed", "decisions", "legal_total", "totals"),
    [
        (2, 0, 179, 2596, [-76, 6]),
        (3, 1, 256, 4847, [-4, -31, -57]),
        (4, 2, 368, 5651, [-14, -27, -33, -50]),
        (5, 3, 437, 6338, [21, -34, -4, 0, -32]),
    ],
)
def test_random_game_counts(
    players: int, seed: int, decisions: int, legal_total: int, totals: list[int]
) -> None:
    rnd = random.Random(seed)
    state = new_game("europe", players, seed=seed)
    count = total = 0
    while not is_terminal(state):
        options = legal_actions(state)
        total += len(options)
        count += 1
        state = apply_action(state, options[int(rnd.random() * len(options))])
    assert (count, total) == (decisions, legal_total)
    assert [s.total for s in final_scores(state)] == totals
