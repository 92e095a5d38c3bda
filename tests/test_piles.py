"""``fisher_yates`` (issue 16: ``floor`` and a bound ``random``) against the plain shuffle it
replaced, which fixes every deal: the same permutation for any seed and length."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from ttr_rules.piles import fisher_yates, shuffled


def plain_shuffle(items: list[int], rnd: random.Random) -> tuple[int, ...]:
    cards = list(items)
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


@given(seed=st.integers(0, 2**64), size=st.integers(0, 150))
def test_fisher_yates_is_the_plain_shuffle(seed: int, size: int) -> None:
    items = list(range(size))
    assert fisher_yates(items, random.Random(seed)) == plain_shuffle(items, random.Random(seed))
    rnd = random.Random(seed)
    expected = (plain_shuffle(items, rnd), int(rnd.random() * 2**53))
    assert shuffled(items, seed) == expected
