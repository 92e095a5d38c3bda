"""Events: what happened during one action, for front ends to animate or log (``step``)."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeAlias

from attrs import field, frozen

from .cards import Color

__all__ = [
    "CardDrawn",
    "DeckReshuffled",
    "Event",
    "FaceUpReplaced",
    "FaceUpReset",
    "FinalRoundStarted",
    "GameOver",
    "Passed",
    "ResetCapReached",
    "RouteClaimed",
    "StationBuilt",
    "Termination",
    "TicketsDrawn",
    "TicketsKept",
    "TunnelDeclined",
    "TunnelRevealed",
    "TurnEnded",
]


class Termination(StrEnum):
    """How a game ended: the ``reason`` of :class:`GameOver` and of ``outcome(state)``.

    The values are the texts records and JSON carry (``"final round"``, ``"all passed"``).
    """

    #: A player ended a turn with at most ``end_trigger_trains`` trains and everyone then had
    #: one last turn (E66–E69).
    TRAINS = "final round"
    #: Every player passed in one full round: nobody could do anything else (E20, U1).
    PASSES = "all passed"


@frozen
class CardDrawn:
    """``player`` took ``color``, from face-up ``slot`` or blind from the deck (slot None).

    ``color`` is None only in the events another seat sees of a blind draw
    (:func:`~ttr_rules.events_for`)."""

    player: int
    color: Color | None
    slot: int | None = None


@frozen
class FaceUpReplaced:
    """An empty face-up ``slot`` was filled with ``color`` (E7, U3)."""

    slot: int
    color: Color


@frozen
class FaceUpReset:
    """The row showed too many locomotives and was discarded (E12–E15); ``discarded`` in slot
    order. The new cards are reported by the FaceUpReplaced events that follow."""

    discarded: tuple[Color, ...]


@frozen
class ResetCapReached:
    """``max_consecutive_resets`` resets happened in a row; the current row stands (E15, U2)."""

    resets: int


@frozen
class DeckReshuffled:
    """The discard pile (``cards`` cards) was shuffled into a new deck (E17, U4)."""

    cards: int


@frozen
class TunnelRevealed:
    """Cards turned over for a tunnel attempt on ``route``; ``owed`` extra cards (E39–E47)."""

    player: int
    route: int
    cards: tuple[Color, ...]
    owed: int


@frozen
class TunnelDeclined:
    """``player`` took the base payment back; ``route`` stays open (E45)."""

    player: int
    route: int


@frozen
class RouteClaimed:
    """``player`` claimed ``route`` paying ``cards`` (payment order), scoring ``points``."""

    player: int
    route: int
    cards: tuple[Color, ...]
    points: int


@frozen
class StationBuilt:
    """``player`` built a station in ``city`` paying ``cards`` (payment order) (E51–E54)."""

    player: int
    city: str
    cards: tuple[Color, ...]


@frozen
class TicketsDrawn:
    """``player`` drew ``count`` tickets (which ones is private)."""

    player: int
    count: int


@frozen
class TicketsKept:
    """``player`` kept ``kept`` tickets and returned ``returned`` of them (E4, E61)."""

    player: int
    kept: int
    returned: int


@frozen
class Passed:
    """``player`` had no other legal action and passed (U1)."""

    player: int


@frozen
class TurnEnded:
    """``player``'s turn is over; ``next_player`` acts (None when the game is over)."""

    player: int
    next_player: int | None


@frozen
class FinalRoundStarted:
    """``player`` ended a turn with ``trains`` trains: everyone gets one more turn (E66)."""

    player: int
    trains: int


@frozen
class GameOver:
    """The game ended, for ``reason`` (E66, E20); its text value is converted too."""

    reason: Termination = field(converter=Termination)


Event: TypeAlias = (
    CardDrawn
    | FaceUpReplaced
    | FaceUpReset
    | ResetCapReached
    | DeckReshuffled
    | TunnelRevealed
    | TunnelDeclined
    | RouteClaimed
    | StationBuilt
    | TicketsDrawn
    | TicketsKept
    | Passed
    | TurnEnded
    | FinalRoundStarted
    | GameOver
)
