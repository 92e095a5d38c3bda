"""The cheap path of the commonest transitions: card draws in the ordinary case (E5–E12, E18,
U3, U5).

Card draws are about 60% of the decisions of a game. In the ordinary case — the deck holds at
least two cards and the row needs no upkeep after the draw — a draw changes only the acting
player's hand, the deck, the face-up row and the phase (or ends the turn), so the next state is
built here directly, with no :class:`~ttr_rules.moves.draft.Draft` and no face-up settling (U3
has nothing to do). Anything else — an illegal action, a short deck, a row with an empty slot
or too many locomotives, a caller who wants the events — returns None, and ``apply_action``
takes the general path, which alone decides legality and reasons. ``tests/test_quick_draw.py``
checks every draw, legal or not, of random games against :func:`~ttr_rules.step` (which always
takes the general path); ``tests/test_perft.py`` and the soak benchmark pin the games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..actions import DrawBlind, DrawFaceUp
from ..cards import Color
from ..state import GameState, evolve
from .common import LOCOMOTIVE, SECOND_CARD, START, hand_add
from .turn import end_turn

__all__ = ["QUICK", "Quick", "blind", "face_up"]

#: A cheap transition: ``quick(state, action, player)``, the next state, or None to say "take
#: the general path".
Quick = Callable[[GameState, Any, "int | None"], "GameState | None"]


def face_up(state: GameState, action: DrawFaceUp, player: int | None) -> GameState | None:
    """A face-up draw, its slot refilled from the deck (E7): a locomotive is the first and only
    card (E8, E9), any other first card calls for a second (E6). The new row's locomotives are
    counted by :func:`_settled` (E12)."""
    try:
        if player is not None and player != state.current:
            return None
        slot = action.slot
        row = state.face_up
        deck = state.deck
    except AttributeError:  # not a state: the general path says so
        return None
    if type(slot) is not int or not 0 <= slot < len(row) or len(deck) < 2:
        return None
    card = row[slot]
    if card is None or (card is LOCOMOTIVE and state.phase is not START):
        return None
    row = row[:slot] + (deck[0],) + row[slot + 1 :]
    if not _settled(state, row):
        return None
    return _after_draw(state, card, deck[1:], row, card is LOCOMOTIVE)


def blind(state: GameState, action: DrawBlind, player: int | None) -> GameState | None:
    """A blind draw from a deck of two cards or more (E10); the row is unchanged."""
    try:
        if player is not None and player != state.current:
            return None
        deck = state.deck
    except AttributeError:  # not a state: the general path says so
        return None
    if len(deck) < 2 or not _settled(state, state.face_up):
        return None
    return _after_draw(state, deck[0], deck[1:], state.face_up, False)


def _settled(state: GameState, row: tuple[Color | None, ...]) -> bool:
    """Whether the end-of-action upkeep leaves ``row`` as it is: no empty slot and fewer
    locomotives than the reset limit (E12, E13, U3)."""
    if None in row:
        return False
    limit = state.rules.face_up_locomotive_limit
    return limit is None or row.count(LOCOMOTIVE) < limit


def _after_draw(
    state: GameState,
    card: Color,
    deck: tuple[Color, ...],
    row: tuple[Color | None, ...],
    only_card: bool,
) -> GameState | None:
    """The state once the player to act holds ``card``: a first card calls for a second, which
    the remaining deck can always give (E6, U5), unless it is the ``only_card`` (a face-up
    locomotive, E8); a second card ends the turn (E5). None in any other phase (the general
    path gives the reason)."""
    phase = state.phase
    if phase is not START and phase is not SECOND_CARD:
        return None
    seat = state.current
    players = state.players
    acting = players[seat]
    acting = evolve(acting, {"hand": hand_add(acting.hand, card)})
    changes: dict[str, Any] = {
        "players": players[:seat] + (acting,) + players[seat + 1 :],
        "deck": deck,
        "face_up": row,
    }
    if phase is START and not only_card:
        changes["phase"] = SECOND_CARD
    else:
        end_turn(state, acting.trains, changes, None)
    return evolve(state, changes)


#: The action classes with a cheap path.
QUICK: dict[type, Quick] = {DrawFaceUp: face_up, DrawBlind: blind}
