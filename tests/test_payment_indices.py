"""``payment_indices`` for any one colour (gray routes, stations), the appending loop of
issue 16, against the payments written out from the rule: ``total`` cards of one colour,
locomotives wild, at least ``ferry`` locomotives, all locomotives last (E23–E26, E35, E52);
and the station actions against the rule check of every station payment of the map."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import BuildStation, GameState
from ttr_rules.cards import LOCOMOTIVE_CODE
from ttr_rules.maps.index import map_index, payment_index, payment_indices
from ttr_rules.moves import stations
from ttr_rules.moves.common import START
from ttr_rules.state import evolve
from ttr_rules.testing import states


def plain_payments(counts: tuple[int, ...], total: int, ferry: int, stride: int) -> list[int]:
    found = [
        payment_index(code, k, stride)
        for code in range(LOCOMOTIVE_CODE)
        for k in range(ferry, total)
        if counts[code] >= total - k and counts[LOCOMOTIVE_CODE] >= k
    ]
    if counts[LOCOMOTIVE_CODE] >= total:
        found.append(payment_index(LOCOMOTIVE_CODE, total, stride))
    return found


@settings(max_examples=300)
@given(
    counts=st.lists(st.integers(0, 14), min_size=9, max_size=9).map(tuple),
    total=st.integers(1, 8),
    ferry=st.integers(0, 3),
    stride=st.integers(9, 12),
)
def test_any_colour_payments_equal_the_rule(
    counts: tuple[int, ...], total: int, ferry: int, stride: int
) -> None:
    expected = plain_payments(counts, total, min(ferry, total), stride)
    assert payment_indices(counts, total, -1, min(ferry, total), stride) == expected


@settings(max_examples=60, deadline=None)
@given(state=states())
def test_station_actions_equal_the_rule_checked_payments(state: GameState) -> None:
    start = evolve(state, {"phase": START, "tunnel": None})
    board = map_index(state.map)
    expected = [
        action
        for table in board.station_tables
        for action in table
        if isinstance(action, BuildStation) and stations.build_problem(start, action) is None
    ]
    board.station_cache.clear()
    assert list(stations.station_actions(start, board)) == expected  # made
    assert list(stations.station_actions(start, board)) == expected  # remembered
