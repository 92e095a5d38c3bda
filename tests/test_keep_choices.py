"""The ticket choices listed by ``legal_actions`` (built without the attrs ``__init__``) are the
actions the public constructor makes: every subset of the offered tickets with at least the
tickets that must be kept, smallest first (E4, E61, E62)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from ttr_rules import KeepTickets
from ttr_rules.moves.tickets import _keep_choices


@given(
    offered=st.lists(st.integers(0, 60), min_size=1, max_size=5, unique=True).map(tuple),
    least=st.integers(1, 5),
)
def test_keep_choices_equal_the_public_constructor(offered: tuple[int, ...], least: int) -> None:
    plain = [
        KeepTickets(frozenset(kept))
        for size in range(least, len(offered) + 1)
        for kept in combinations(offered, size)
    ]
    for listed in (_keep_choices(offered, least), _keep_choices.__wrapped__(offered, least)):
        assert list(listed) == plain
        assert [str(a) for a in listed] == [str(a) for a in plain]
        assert [hash(a) for a in listed] == [hash(a) for a in plain]
        assert all(type(a) is KeepTickets and type(a.tickets) is frozenset for a in listed)
