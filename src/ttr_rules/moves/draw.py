"""Drawing train cards (E6–E11, E17–E19, E21, U5, U6).

Two cards per turn, each from the face-up row or blind from the deck, in any mix. A face-up
locomotive may only be the first and only card; a blind locomotive counts as one card. The
family's actions are :class:`~ttr_rules.DrawFaceUp` and :class:`~ttr_rules.DrawBlind`.
"""

from __future__ import annotations

from ..actions import Action, DrawBlind, DrawFaceUp
from ..errors import Reason
from ..events import CardDrawn
from ..rules import Rules
from ..state import GameState, Phase, evolve
from .common import LOCOMOTIVE, SECOND_CARD, START, ActionRules, Problem, hand_add, wrong_phase
from .draft import Draft

__all__ = [
    "ACTIONS",
    "apply",
    "blind_problem",
    "draw_actions",
    "draw_choices",
    "face_up_problem",
    "problem",
    "take_blind",
    "take_face_up",
]

#: ``DrawFaceUp`` actions made once, one per slot; grown for rules with a longer row.
_FACE_UP: list[Action] = [DrawFaceUp(slot) for slot in range(Rules().face_up_size)]
_BLIND = DrawBlind()


def draw_actions(state: GameState) -> list[Action]:
    """The legal card draws (see :func:`draw_choices`), as a new list."""
    return list(draw_choices(state))


def draw_choices(state: GameState) -> tuple[Action, ...]:
    """The legal card draws: any face-up card as the first card, any but a locomotive as the
    second (E8, E9, E11; any card when ``Rules.face_up_locomotive_ends_draw`` is False);
    blind while the deck or the discard holds a card (E18, U6). A shared
    tuple: the same one for the same drawable slots."""
    blind = 1 if state.deck or state.discard else 0
    row = state.face_up
    if None not in row and (
        state.phase is START
        or LOCOMOTIVE not in row
        or not state.rules.face_up_locomotive_ends_draw
    ):
        key = ((1 << len(row)) - 1) << 1 | blind  # every slot (the common case: a full row)
    else:
        first = state.phase is START or not state.rules.face_up_locomotive_ends_draw
        key = blind
        bit = 2
        for card in row:
            if card is not None and (first or card is not LOCOMOTIVE):
                key |= bit
            bit <<= 1
    found = _DRAWS.get(key)
    if found is None:
        found = _DRAWS[key] = _draws(key)
    return found


#: The draws by drawable slots, as a bit mask (bit ``s + 1`` for slot ``s``, bit 0 for the
#: blind draw): at most ``2 ** (slots + 1)`` entries.
_DRAWS: dict[int, tuple[Action, ...]] = {}


def _draws(key: int) -> tuple[Action, ...]:
    slots = [s for s in range(key.bit_length() - 1) if key >> (s + 1) & 1]
    if slots and slots[-1] >= len(_FACE_UP):  # a row longer than any seen so far
        _FACE_UP.extend(DrawFaceUp(slot) for slot in range(len(_FACE_UP), slots[-1] + 1))
    found = [_FACE_UP[s] for s in slots]
    if key & 1:
        found.append(_BLIND)
    return tuple(found)


def face_up_problem(state: GameState, action: DrawFaceUp) -> Problem | None:
    """Why ``action`` is not a legal face-up draw now: the slot must hold a card, and a
    locomotive only as the first card (E8, E9)."""
    phase = state.phase
    if phase is not START and phase is not SECOND_CARD:
        return wrong_phase(phase)
    slot = action.slot
    if type(slot) is not int or not 0 <= slot < len(state.face_up):
        return Problem(Reason.NO_SUCH_SLOT)
    card = state.face_up[slot]
    if card is None:
        return Problem(Reason.EMPTY_SLOT)
    if card is LOCOMOTIVE and phase is not START and state.rules.face_up_locomotive_ends_draw:
        return Problem(Reason.LOCOMOTIVE_AS_SECOND_CARD)
    return None


def blind_problem(state: GameState, action: DrawBlind) -> Problem | None:
    """Why a blind draw is not legal now: it needs a card in the deck or the discard (E18)."""
    phase = state.phase
    if phase is not START and phase is not SECOND_CARD:
        return wrong_phase(phase)
    return None if state.deck or state.discard else Problem(Reason.DECK_EMPTY)


def take_face_up(draft: Draft, action: DrawFaceUp) -> Phase:
    """Take a face-up card; its slot is refilled before the second pick (E7, E12). A face-up
    locomotive ends the draw (E8) unless ``Rules.face_up_locomotive_ends_draw`` is False; any
    other first card calls for a second one (E6)."""
    state = draft.state
    slot = action.slot
    card = state.face_up[slot]
    assert card is not None  # checked by face_up_problem()
    if draft.log is not None:
        draft.log.append(CardDrawn(state.current, card, slot))
    draft.take_face_up(slot)
    draft.player = evolve(draft.player, hand=hand_add(draft.player.hand, card))
    if state.phase is not START:
        return START
    if card is LOCOMOTIVE and state.rules.face_up_locomotive_ends_draw:
        return START
    return SECOND_CARD


def take_blind(draft: Draft, action: DrawBlind) -> Phase:
    """Take the top card of the deck, reshuffling the discard when the deck is empty (E10,
    E17); a blind locomotive counts as one card (E10)."""
    card = draft.draw()
    assert card is not None  # checked by blind_problem()
    state = draft.state
    draft.player = evolve(draft.player, hand=hand_add(draft.player.hand, card))
    if draft.log is not None:
        draft.log.append(CardDrawn(state.current, card, None))
    return SECOND_CARD if state.phase is START else START


#: The draw family: each action class with its check and its transition.
ACTIONS: ActionRules = {
    DrawFaceUp: (face_up_problem, take_face_up),
    DrawBlind: (blind_problem, take_blind),
}


def problem(state: GameState, action: DrawFaceUp | DrawBlind) -> Problem | None:
    """Why ``action`` is not a legal card draw now, or None when it is."""
    return ACTIONS[type(action)][0](state, action)


def apply(draft: Draft, action: DrawFaceUp | DrawBlind) -> Phase:
    """Apply a legal card draw (see :func:`problem`)."""
    return ACTIONS[type(action)][1](draft, action)
