"""Regression pins in the spirit of chess perft counts: for fixed seeds and fixed choices, the
number of decisions, the sum of the legal-action counts over the game and the final totals.

A change here means the rules engine now behaves differently; if that is intended (a rule
fix), update the numbers in the same commit and say why.
"""

from __future__ import annotations

import random

import pytest

from ttr_rules import final_scores, new_game
from ttr_rules.testing import playout, random_chooser


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
    steps = list(
        playout(new_game("europe", players, seed=seed), random_chooser(random.Random(seed)))
    )
    assert (len(steps), sum(len(s.legal) for s in steps)) == (decisions, legal_total)
    assert [s.total for s in final_scores(steps[-1].after)] == totals
