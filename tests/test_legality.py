"""``is_legal`` / ``why_illegal`` and ``apply_action`` share one check (U22, DESIGN §7)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_rules import (
    DrawBlind,
    DrawFaceUp,
    GameState,
    IllegalActionError,
    KeepTickets,
    Pass,
    Reason,
    apply_action,
    is_legal,
    legal_actions,
    new_game,
    why_illegal,
)
from ttr_rules.moves import claim, draw, stations, tickets, turn
from ttr_rules.testing import illegal_actions, states

FAMILIES = (draw, claim, tickets, stations, turn)


def reason_raised(state: GameState, action: object) -> Reason:
    with pytest.raises(IllegalActionError) as caught:
        apply_action(state, action)  # type: ignore[arg-type]
    return caught.value.reason


@given(states(players=st.sampled_from([2, 3, 4, 5])))
def test_every_legal_action_is_legal(state: GameState) -> None:
    for action in legal_actions(state):
        assert is_legal(state, action), action
        assert why_illegal(state, action) is None, action


@given(st.data())
def test_why_illegal_is_the_reason_apply_action_raises(data: st.DataObject) -> None:
    state = data.draw(states(players=st.sampled_from([2, 3, 4, 5])))
    for _ in range(8):
        wrong = data.draw(illegal_actions(state))
        reason = why_illegal(state, wrong)
        assert reason is not None, wrong
        assert not is_legal(state, wrong)
        assert reason_raised(state, wrong) is reason


@given(states(players=st.sampled_from([2, 4])))
def test_the_player_argument_is_checked_like_apply_action(state: GameState) -> None:
    for action in legal_actions(state)[:3]:
        assert is_legal(state, action, player=state.current)
        other = (state.current + 1) % state.num_players
        assert why_illegal(state, action, player=other) is Reason.NOT_YOUR_TURN
        with pytest.raises(IllegalActionError) as caught:
            apply_action(state, action, player=other)
        assert caught.value.reason is Reason.NOT_YOUR_TURN


@given(st.data())
def test_each_family_answers_for_its_own_actions(data: st.DataObject) -> None:
    """A family's ``problem`` is the check the dispatcher asks (after the game-level checks)."""
    state = data.draw(states(players=st.sampled_from([2, 4])))
    if state.is_terminal:
        return
    candidates: list[object] = [*legal_actions(state)]
    candidates += [data.draw(illegal_actions(state)) for _ in range(5)]
    for action in candidates:
        owners = [f for f in FAMILIES if type(action) in f.ACTIONS]
        if not owners:
            assert why_illegal(state, action) is Reason.NOT_AN_ACTION
            continue
        (family,) = owners
        found = family.problem(state, action)
        assert (None if found is None else found.reason) is why_illegal(state, action)


def test_the_families_cover_every_action_class_once() -> None:
    from ttr_rules.actions import ACTION_TYPES

    covered = [cls for family in FAMILIES for cls in family.ACTIONS]
    assert sorted(covered, key=str) == sorted(ACTION_TYPES, key=str)


def test_examples() -> None:
    state = new_game(players=2, seed=3)
    assert why_illegal(state, DrawBlind()) is Reason.WRONG_PHASE
    assert why_illegal(state, "draw blind") is Reason.NOT_AN_ACTION
    assert why_illegal(state, KeepTickets(frozenset({999}))) is Reason.NOT_OFFERED
    offered = frozenset(state.players[0].offered)
    assert is_legal(state, KeepTickets(offered))
    assert why_illegal(state, Pass()) is Reason.WRONG_PHASE
    with pytest.raises(IllegalActionError, match="wrong phase"):
        apply_action(state, DrawFaceUp(0))
