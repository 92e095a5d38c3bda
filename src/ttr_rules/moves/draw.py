"""Drawing train cards (E6–E11, E17–E19, E21, U5, U6).

Two cards per turn, each from the face-up row or blind from the deck, in any mix. A face-up
locomotive may only be the first and only card; a blind locomotive counts as one card.
"""

from __future__ import annotations

from ..actions import Action, DrawBlind, DrawFaceUp
from ..cards import Color
from ..errors import IllegalActionError, Reason
from ..events import CardDrawn, Event
from ..piles import Piles
from ..state import GameState, Phase
from .common import hand_add, with_player
from .turn import finish_action

__all__ = ["apply_draw_blind", "apply_draw_face_up", "draw_actions"]

# Enum members are looked up once here: ``Phase.START`` in a function body costs an enum
# class-attribute look-up (about 0.2 µs on Python 3.11) every time it runs.
_SECOND_CARD = Phase.SECOND_CARD
_START = Phase.START

_LOCO = Color.LOCOMOTIVE
_FACE_UP = tuple(DrawFaceUp(slot) for slot in range(5))
_BLIND = DrawBlind()


def draw_actions(state: GameState) -> list[Action]:
    """The legal card draws: any face-up card as the first card, any but a locomotive as the
    second (E8, E9, E11); blind while the deck or the discard holds a card (E18, U6)."""
    first = state.phase is _START
    out: list[Action] = [
        _FACE_UP[slot]
        for slot, card in enumerate(state.face_up)
        if card is not None and (first or card is not _LOCO)
    ]
    if state.deck or state.discard:
        out.append(_BLIND)
    return out


def _check_phase(state: GameState, action: Action) -> None:
    if state.phase is not _START and state.phase is not _SECOND_CARD:
        raise IllegalActionError(Reason.WRONG_PHASE, action, f"phase is {state.phase.value}")


def apply_draw_face_up(state: GameState, action: DrawFaceUp, log: list[Event] | None) -> GameState:
    """Take a face-up card; its slot is refilled before the second pick (E7, E12). A face-up
    locomotive ends the draw (E8) and is refused as the second card (E9)."""
    _check_phase(state, action)
    slot = action.slot
    if not isinstance(slot, int) or not 0 <= slot < len(state.face_up):
        raise IllegalActionError(Reason.NO_SUCH_SLOT, action)
    card = state.face_up[slot]
    if card is None:
        raise IllegalActionError(Reason.EMPTY_SLOT, action)
    first = state.phase is _START
    if card is _LOCO and not first:
        raise IllegalActionError(Reason.LOCOMOTIVE_AS_SECOND_CARD, action)
    seat = state.current
    if log is not None:
        log.append(CardDrawn(seat, card, slot))
    piles = Piles(state, log)
    piles.take_face_up(slot)
    player = state.players[seat]
    players = with_player(state.players, seat, player.replace(hand=hand_add(player.hand, card)))
    next_phase = _SECOND_CARD if first and card is not _LOCO else _START
    return finish_action(state, piles, players, log, next_phase)


def apply_draw_blind(state: GameState, action: DrawBlind, log: list[Event] | None) -> GameState:
    """Take the top card of the deck, reshuffling the discard when the deck is empty (E10,
    E17); refused when both are empty (E18)."""
    _check_phase(state, action)
    piles = Piles(state, log)
    card = piles.draw()
    if card is None:
        raise IllegalActionError(Reason.DECK_EMPTY, action)
    seat = state.current
    player = state.players[seat]
    players = with_player(state.players, seat, player.replace(hand=hand_add(player.hand, card)))
    if log is not None:
        log.append(CardDrawn(seat, card, None))
    next_phase = _SECOND_CARD if state.phase is _START else _START
    return finish_action(state, piles, players, log, next_phase)
