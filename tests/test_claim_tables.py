"""The claim generation's per-map tables and per-route memo (issue 16): the claims listed from
the reach tables and the memo equal those found by asking the rule check of every payment of
every route, in the same order, with the memo cold and warm; the memo is bounded; the index
reads its tables without a class ``__getattr__`` once they are built."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import Color, GameState, load_map, scenario
from ttr_rules.actions import Action
from ttr_rules.cards import Hand
from ttr_rules.maps.index import MapIndex, map_index
from ttr_rules.moves import claim
from ttr_rules.moves.common import START
from ttr_rules.state import evolve
from ttr_rules.testing import states


def checked_claims(state: GameState) -> list[Action]:
    """Every claim action of the map's tables that the rule check accepts, by route and then
    by payment (the order ``legal_actions`` documents)."""
    start = evolve(state, {"phase": START, "tunnel": None})
    board = map_index(state.map)
    return [
        action
        for table in board.claim_tables
        for action in table
        if action is not None and claim.claim_problem(start, action) is None
    ]


def forget(board: MapIndex) -> None:
    for memo in board.claim_memo:
        if memo is not None:
            memo.clear()


@settings(max_examples=60, deadline=None)
@given(state=states(players=st.integers(2, 5)))
def test_claims_equal_the_rule_checked_payments_cold_and_warm(state: GameState) -> None:
    start = evolve(state, {"phase": START, "tunnel": None})
    board = map_index(state.map)
    expected = checked_claims(state)
    forget(board)
    assert claim.claim_actions(start, board) == expected  # the memo cold
    assert claim.claim_actions(start, board) == expected  # and warm


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(0, 12), min_size=8, max_size=8),
    locos=st.integers(0, 14),
    trains=st.integers(0, 45),
    owned=st.lists(st.integers(0, 100), max_size=40),
    players=st.integers(2, 5),
)
def test_claims_of_any_hand_trains_and_board(
    counts: list[int], locos: int, trains: int, owned: list[int], players: int
) -> None:
    hand = {color: n for color, n in zip(Color, [*counts, locos], strict=True) if n}
    hands = [hand] + [{}] * (players - 1)
    owners = {r: r % players for r in owned}
    state = scenario("europe", players=players, hands=hands, routes=owners)
    state = evolve(
        state, {"players": (evolve(state.players[0], trains=trains), *state.players[1:])}
    )
    assert claim.claim_actions(state, map_index(state.map)) == checked_claims(state)


def test_the_route_memo_is_bounded() -> None:
    board = map_index(load_map("europe"))
    route = next(r for r, memo in enumerate(board.claim_memo) if memo is not None)
    memo = board.claim_memo[route]
    assert memo is not None
    for held in range(claim._ROUTE_MEMO_SIZE + 10):
        counts = [0] * 9
        counts[board.color[route]] = held
        claim._route_claims(board, route, tuple(counts))
        assert len(memo) <= claim._ROUTE_MEMO_SIZE


def test_the_index_is_a_plain_map_index_once_its_engine_tables_are_read() -> None:
    game_map = scenario("europe", tickets=[[("Madrid", "Wien", 30)], []]).map
    index = map_index(game_map)
    assert index.route_ends and index.names  # cheap groups: built with the index
    assert type(index) is not MapIndex  # the engine's tables are not built yet
    assert index.claim_tables[0][0] is not None or index.claim_tables[0]
    assert type(index) is MapIndex
    assert not hasattr(MapIndex, "__getattr__")


@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.integers(0, 3), st.sampled_from([0, 1, 2, 62, 63, 64, 65, 66, 127, 128])),
        min_size=1,
        max_size=6,
    ),
)
def test_the_memo_keys_never_mix_hands_with_many_locomotives(pairs: list[tuple[int, int]]) -> None:
    """The route memo keys (cards held, locomotives) as one int for fewer locomotives than
    ``_LOCO_KEYS``; hands beyond it (rules with many locomotives) are never memoized, so no
    key of one hand answers for another: any sequence of hands, the memo warm from the
    previous ones, lists the rule-checked claims."""
    start = scenario("europe", players=4)
    board = map_index(start.map)
    forget(board)
    for held, locos in pairs:
        player = evolve(start.players[0], hand=Hand((held,) * 8 + (locos,)))
        state = evolve(start, {"players": (player, *start.players[1:])})
        assert claim.claim_actions(state, board) == checked_claims(state)


@settings(max_examples=150, deadline=None)
@given(
    counts=st.lists(st.integers(0, 20), min_size=8, max_size=8),
    locos=st.integers(0, 20),
    trains=st.integers(6, 10),
)
def test_claims_from_the_spans_equal_the_reach_loop(
    counts: list[int], locos: int, trains: int
) -> None:
    """``claim_spans`` (counts below ``CLAIM_SPAN``, ``max_length`` trains or more) against the
    rule check, and the plain loop over ``claim_reach`` that serves every other hand."""
    state = scenario("europe", players=4)
    player = evolve(state.players[0], hand=Hand((*counts, locos)), trains=trains)
    state = evolve(state, {"players": (player, *state.players[1:])})  # more cards than exist
    board = map_index(state.map)
    assert claim.claim_actions(state, board) == checked_claims(state)
    spans = board.claim_spans
    if locos < len(spans) and max(counts) < len(spans[0][1]) and trains >= board.max_length:
        by_colour, gray = spans[locos]
        found = [r for table, n in zip(by_colour, counts, strict=True) for r in table[n]]
        found += gray[max(counts)]
        hand_counts = state.players[0].hand.counts
        assert sorted(found) == sorted(claim._reached(board, hand_counts, trains))
