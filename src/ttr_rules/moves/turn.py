"""The end of an action and the end of a turn, in one place (E2, E4, E5, E12–E16, E19,
E20, E66–E69, U1–U3, U5, U19, U21).

After every action the face-up row is settled (:func:`settle_row`, U3); the acting player
continues when the family asked for it and it is possible (a second card, U5), otherwise the
turn ends (:func:`finish`): the turn passes on, the final round starts or counts down, the game
ends (:func:`termination`). The initial ticket choices pass from seat to seat without being
turns (U21). The forced pass is this module's own action family (:func:`problem`,
:func:`apply`, E20, U1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action, Pass
from ..cards import Color
from ..errors import Reason
from ..events import (
    Event,
    FaceUpReplaced,
    FaceUpReset,
    FinalRoundStarted,
    GameOver,
    Passed,
    ResetCapReached,
    Termination,
    TurnEnded,
)
from ..maps.index import map_index
from ..rules import Rules
from ..state import GameState, Phase
from .claim import claim_actions
from .common import (
    GAME_OVER,
    INITIAL_TICKETS,
    LOCOMOTIVE,
    SECOND_CARD,
    START,
    ActionRules,
    Problem,
    wrong_phase,
)
from .draft import Draft
from .draw import draw_choices
from .stations import station_actions
from .tickets import ticket_actions

__all__ = [
    "ACTIONS",
    "apply",
    "end_turn",
    "finish",
    "problem",
    "reset_feasible",
    "second_card_available",
    "settle_row",
    "start_actions",
    "start_pieces",
    "termination",
]


def finish(draft: Draft, phase: Phase) -> GameState:
    """The state after an action whose family returned ``phase``.

    :attr:`Phase.INITIAL_TICKETS`: an initial ticket choice was made; the next seat chooses,
    and after the last one the first player starts (U21). Otherwise the face-up row is settled
    first (U3); ``phase`` is where the same player continues — :attr:`Phase.SECOND_CARD` only if
    a second card can be drawn (U5) — or :attr:`Phase.START` to say that the turn is over, in
    which case the end-of-turn rules run.
    """
    if phase is INITIAL_TICKETS:
        return _next_chooser(draft)
    settle_row(draft, draft.state.rules)
    if phase is SECOND_CARD and not second_card_available(draft):
        phase = START
    if phase is START:
        _end_turn(draft)
    else:
        draft.changes["phase"] = phase
    return draft.build()


def _next_chooser(draft: Draft) -> GameState:
    """Players choose their initial tickets in seat order from the first player (U21); then the
    first player starts the game."""
    state = draft.state
    following = (state.current + 1) % len(state.players)
    changes = draft.changes
    changes["current"] = following
    changes["phase"] = START if following == state.first_player else INITIAL_TICKETS
    return draft.build()


def _end_turn(draft: Draft) -> None:
    """Pass the turn on at the end of a draft's action (see :func:`end_turn`)."""
    changes = draft.changes
    passed = changes["passes"] != draft.state.passes  # raised by a forced pass (see apply)
    end_turn(draft.state, draft.player.trains, changes, draft.log, passed)


def end_turn(
    state: GameState,
    trains: int,
    changes: dict[str, Any],
    log: list[Event] | None,
    passed: bool = False,
) -> None:
    """Pass the turn on to the next seat, one action per turn (E5); start or count down the
    final round; end the game (E20, E66). Writes the fields it changes into ``changes``;
    ``trains`` are the acting player's after the action, ``passed`` says that the action was a
    forced pass (``changes["passes"]`` then holds the new count).
    The trigger (``end_trigger_trains`` or fewer, 0 included: E67) is checked after every turn
    whatever its action (E69, U19); during the final round it starts nothing again (E68)."""
    seat = state.current
    count = len(state.players)
    passes = changes["passes"] if passed else 0
    final_turns = state.final_turns
    over: Termination | None = None
    if passed and log is not None:
        log.append(Passed(seat))
    if passes >= count:
        over = Termination.PASSES
    elif final_turns is not None:
        final_turns -= 1
        if final_turns == 0:
            over = Termination.TRAINS
    elif trains <= state.rules.end_trigger_trains:
        final_turns = count
        if log is not None:
            log.append(FinalRoundStarted(seat, trains))
    next_seat = (seat + 1) % count
    if log is not None:
        log.append(TurnEnded(seat, None if over else next_seat))
        if over:
            log.append(GameOver(over))
    changes["current"] = seat if over else next_seat
    changes["phase"] = GAME_OVER if over else START
    changes["passes"] = passes
    changes["final_turns"] = final_turns
    changes["turn"] = state.turn + 1


def termination(state: GameState) -> Termination | None:
    """How the game ended, or None while it goes on: :attr:`Termination.PASSES` when the last
    round was all passes (E20, U1), else :attr:`Termination.TRAINS` (the final round, E66)."""
    if state.phase is not GAME_OVER:
        return None
    return Termination.PASSES if state.passes >= len(state.players) else Termination.TRAINS


# --------------------------------------------------------------------------- the face-up row


def second_card_available(draft: Draft) -> bool:
    """U5: a second card must be taken when the deck, the discard or a face-up card other than
    a locomotive can provide one (E9, E19)."""
    if draft.deck or draft.discard:
        return True
    return any(c is not None and c is not LOCOMOTIVE for c in draft.face_up)


def reset_feasible(
    deck: tuple[Color, ...],
    discard: tuple[Color, ...],
    face_up: tuple[Color | None, ...],
    limit: int,
) -> bool:
    """U2: a new row of ``s`` cards can show fewer than ``limit`` locomotives only when the
    pool (deck + discard + row) holds at least ``s − (limit − 1)`` other cards."""
    row = [c for c in face_up if c is not None]
    pool = len(deck) + len(discard) + len(row)
    non_loco = pool - deck.count(LOCOMOTIVE) - discard.count(LOCOMOTIVE) - row.count(LOCOMOTIVE)
    size = min(len(face_up), pool)
    return non_loco >= size - (limit - 1)


def settle_row(draft: Draft, rules: Rules) -> None:
    """End-of-action upkeep of the face-up row, also run once at setup (E2, U3): fill empty
    slots in slot order (E13), then reset the row while it shows too many locomotives (E12),
    again when the new row shows them too (E14), unless the reset cannot succeed or the cap
    ``max_consecutive_resets`` is reached (E15, U2)."""
    if None in draft.face_up:
        _fill_empty_slots(draft)
    limit = rules.face_up_locomotive_limit
    if limit is None or draft.face_up.count(LOCOMOTIVE) < limit:
        return
    resets = 0
    while draft.face_up.count(LOCOMOTIVE) >= limit and reset_feasible(
        draft.deck, draft.discard, draft.face_up, limit
    ):
        if resets == rules.max_consecutive_resets:
            if draft.log is not None:
                draft.log.append(ResetCapReached(resets))
            return
        _reset(draft)
        resets += 1


def _fill_empty_slots(draft: Draft) -> None:
    """Fill the empty slots in slot order; a slot stays empty when no card is left (E16)."""
    row = list(draft.face_up)
    for slot, card in enumerate(row):
        if card is None:
            new = draft.draw()
            if new is None:
                break
            row[slot] = new
            if draft.log is not None:
                draft.log.append(FaceUpReplaced(slot, new))
    draft.face_up = tuple(row)


def _reset(draft: Draft) -> None:
    """Discard the row in slot order (U8) and deal a new one (E12)."""
    old = tuple(c for c in draft.face_up if c is not None)
    draft.discard = draft.discard + old
    draft.face_up = (None,) * len(draft.face_up)
    if draft.log is not None:
        draft.log.append(FaceUpReset(old))
    _fill_empty_slots(draft)


# --------------------------------------------------------------------------- the forced pass


def start_actions(state: GameState) -> list[Action]:
    """Every legal action at the start of a turn except the pass, in the order of
    ``legal_actions``: card draws, claims, the ticket draw, stations."""
    draws, others, stations = start_pieces(state)
    actions = list(draws)
    actions += others
    actions += stations
    return actions


def start_pieces(
    state: GameState,
) -> tuple[tuple[Action, ...], list[Action], Sequence[Action]]:
    """:func:`start_actions` in three pieces, which concatenated are its list: the card draws
    (a tuple the draw family hands out again for the same drawable slots), the claims and the
    ticket draw (a list made for this call), the stations (a tuple the station family hands
    out again for the same stations and payments, or a new list for costs beyond the map's
    tables)."""
    board = map_index(state.map)
    others = claim_actions(state, board)
    others += ticket_actions(state)
    return draw_choices(state), others, station_actions(state, board)


def problem(state: GameState, action: Pass) -> Problem | None:
    """A pass is legal only at the start of a turn in which nothing else is (E20, U1)."""
    if state.phase is not START:
        return wrong_phase(state.phase)
    if start_actions(state):
        return Problem(Reason.PASS_NOT_ALLOWED)
    return None


def apply(draft: Draft, action: Pass) -> Phase:
    """Pass: the turn ends; a full round of passes ends the game (E20, U1)."""
    draft.changes["passes"] = draft.state.passes + 1
    return START


#: The pass family: its action class with its check and its transition.
ACTIONS: ActionRules = {Pass: (problem, apply)}
