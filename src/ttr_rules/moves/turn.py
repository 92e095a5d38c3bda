"""The end of an action and the end of a turn: the face-up row's upkeep, the final round and
the forced-pass rule (E5, E19, E20, E66–E70, U1, U3, U5, U19)."""

from __future__ import annotations

from typing import Any

from ..cards import Color
from ..events import Event, FinalRoundStarted, GameOver, Passed, TurnEnded
from ..piles import Piles
from ..state import GameState, Phase, PlayerState, evolve_with

__all__ = ["finish_action", "second_card_available"]

# Enum members are looked up once here: ``Phase.START`` in a function body costs an enum
# class-attribute look-up (about 0.2 µs on Python 3.11) every time it runs.
_GAME_OVER = Phase.GAME_OVER
_SECOND_CARD = Phase.SECOND_CARD
_START = Phase.START

_LOCO = Color.LOCOMOTIVE


def second_card_available(piles: Piles) -> bool:
    """U5: a second card must be taken when the deck, the discard or a face-up card other than
    a locomotive can provide one (E9, E19)."""
    if piles.deck or piles.discard:
        return True
    return any(c is not None and c is not _LOCO for c in piles.face_up)


def finish_action(
    state: GameState,
    piles: Piles,
    players: tuple[PlayerState, ...],
    log: list[Event] | None,
    phase: Phase,
    *,
    passed: bool = False,
    **changes: Any,
) -> GameState:
    """Build the state after an action.

    The face-up row is settled first (U3). ``phase`` is where the same player continues:
    :attr:`Phase.SECOND_CARD` only if a second card can be drawn (U5), or :attr:`Phase.START`
    to say that the turn is over, in which case the end-of-turn rules run.
    """
    piles.settle_row(state.rules)
    if phase is _SECOND_CARD and not second_card_available(piles):
        phase = _START
    changes["players"] = players
    changes["deck"] = piles.deck
    changes["discard"] = piles.discard
    changes["face_up"] = piles.face_up
    changes["rng"] = piles.rng
    if phase is _START:
        _end_turn(state, players, passed, log, changes)
    else:
        changes["phase"] = phase
    return evolve_with(state, changes)


def _end_turn(
    state: GameState,
    players: tuple[PlayerState, ...],
    passed: bool,
    log: list[Event] | None,
    changes: dict[str, Any],
) -> None:
    """Pass the turn on; start or count down the final round; end the game (E20, E66).
    The trigger (``end_trigger_trains`` or fewer, 0 included: E67) is checked after every turn
    whatever its action (E69, U19); during the final round it starts nothing again (E68).
    The new turn's fields are written into ``changes``."""
    seat = state.current
    count = len(players)
    passes = state.passes + 1 if passed else 0
    final_turns = state.final_turns
    over: str | None = None
    if passed and log is not None:
        log.append(Passed(seat))
    if passes >= count:
        over = "all passed"
    elif final_turns is not None:
        final_turns -= 1
        if final_turns == 0:
            over = "final round"
    elif players[seat].trains <= state.rules.end_trigger_trains:
        final_turns = count
        if log is not None:
            log.append(FinalRoundStarted(seat, players[seat].trains))
    next_seat = (seat + 1) % count
    if log is not None:
        log.append(TurnEnded(seat, None if over else next_seat))
        if over:
            log.append(GameOver(over))
    changes["current"] = seat if over else next_seat
    changes["phase"] = _GAME_OVER if over else _START
    changes["passes"] = passes
    changes["final_turns"] = final_turns
    changes["turn"] = state.turn + 1
