"""Drawing train cards (RULES.md E6–E11, E17–E19, E21, U5, U6).

Two cards per turn, each from the face-up row or blind from the deck, in any mix. A face-up
locomotive may only be the first and only card; a blind locomotive counts as one card. The
family's actions are :class:`~ttr_rules.DrawFaceUp` and :class:`~ttr_rules.DrawBlind`.
"""

from __future__ import annotations

from ..actions import Action, DrawBlind, DrawFaceUp
from ..errors import Reason
from ..events import CardDrawn
from ..rules import Rules
from ..state import GameState, Phase
from .common import LOCOMOTIVE, SECOND_CARD, START, Problem, hand_add
from .draft import Draft

__all__ = ["apply", "draw_actions", "problem"]

#: ``DrawFaceUp`` actions made once, one per slot; grown for rules with a longer row.
_FACE_UP = [DrawFaceUp(slot) for slot in range(Rules().face_up_size)]
_BLIND = DrawBlind()


def draw_actions(state: GameState) -> list[Action]:
    """The legal card draws: any face-up card as the first card, any but a locomotive as the
    second (E8, E9, E11); blind while the deck or the discard holds a card (E18, U6)."""
    first = state.phase is START
    try:
        out: list[Action] = [
            _FACE_UP[slot]
            for slot, card in enumerate(state.face_up)
            if card is not None and (first or card is not LOCOMOTIVE)
        ]
    except IndexError:  # a row longer than any seen so far
        _FACE_UP.extend(DrawFaceUp(slot) for slot in range(len(_FACE_UP), len(state.face_up)))
        return draw_actions(state)
    if state.deck or state.discard:
        out.append(_BLIND)
    return out


def problem(state: GameState, action: DrawFaceUp | DrawBlind) -> Problem | None:
    """Why ``action`` is not a legal card draw now, or None when it is: a face-up slot that
    holds a card, not a locomotive as the second card (E8, E9); blind while the deck or the
    discard holds a card (E18)."""
    phase = state.phase
    if phase is not START and phase is not SECOND_CARD:
        return Problem(Reason.WRONG_PHASE, f"phase is {phase.value}")
    if isinstance(action, DrawBlind):
        return None if state.deck or state.discard else Problem(Reason.DECK_EMPTY)
    slot = action.slot
    if not isinstance(slot, int) or not 0 <= slot < len(state.face_up):
        return Problem(Reason.NO_SUCH_SLOT)
    card = state.face_up[slot]
    if card is None:
        return Problem(Reason.EMPTY_SLOT)
    if card is LOCOMOTIVE and phase is not START:
        return Problem(Reason.LOCOMOTIVE_AS_SECOND_CARD)
    return None


def apply(draft: Draft, action: DrawFaceUp | DrawBlind) -> Phase:
    """Take a legal card (see :func:`problem`). A face-up slot is refilled before the second
    pick (E7, E12); a blind draw reshuffles the discard when the deck is empty (E10, E17). A
    first card other than a face-up locomotive calls for a second one (E6, E8)."""
    state = draft.state
    seat = state.current
    first = state.phase is START
    if isinstance(action, DrawBlind):
        card = draft.draw()
        assert card is not None  # checked by problem()
        slot = None
        again = first
    else:
        slot = action.slot
        card = state.face_up[slot]
        assert card is not None  # checked by problem()
        again = first and card is not LOCOMOTIVE
    if draft.log is not None:
        draft.log.append(CardDrawn(seat, card, slot))
    if slot is not None:
        draft.take_face_up(slot)
    draft.update_player(hand=hand_add(draft.player.hand, card))
    return SECOND_CARD if again else START
