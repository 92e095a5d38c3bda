"""The claim payments memo (issue 16): memoized and fresh payments agree, and callers may
change the lists they get without touching the memo."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import ClaimRoute, GameState, legal_actions
from ttr_rules.maps.index import map_index, payment_indices
from ttr_rules.moves import claim
from ttr_rules.testing import states


@given(
    counts=st.lists(st.integers(0, 14), min_size=9, max_size=9).map(tuple),
    code=st.integers(0, 7),
    length=st.integers(1, 8),
    ferry=st.integers(0, 3),
)
def test_memoized_coloured_payments_equal_fresh_ones(
    counts: tuple[int, ...], code: int, length: int, ferry: int
) -> None:
    key = (9, code, length, ferry, counts[code], counts[-1])
    fresh = tuple(payment_indices(counts, length, code, ferry, 9))
    assert claim._coloured_payments(key, counts) == fresh  # made and stored
    assert claim._COLOURED[key] == fresh  # the stored one, as a later call reads it


@settings(max_examples=40, deadline=None)
@given(state=states())
def test_claims_with_and_without_the_memo_agree(state: GameState) -> None:
    board = map_index(state.map)
    claim._COLOURED.clear()
    cold = claim.claim_actions(state, board)
    warm = claim.claim_actions(state, board)
    assert warm == cold
    assert [a for a in legal_actions(state) if isinstance(a, ClaimRoute)] == (
        cold if state.phase.value == "start" else []
    )


def test_changing_a_returned_list_leaves_the_memo_alone() -> None:
    from ttr_rules import Color, scenario

    state = scenario("europe", hands=[{Color.RED: 3, Color.LOCOMOTIVE: 1}, {}])
    board = map_index(state.map)
    first = claim.claim_actions(state, board)
    expected = list(first)
    first.clear()
    first.append("junk")  # type: ignore[arg-type]
    assert claim.claim_actions(state, board) == expected
    assert expected  # the hand can pay some routes
