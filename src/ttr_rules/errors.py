"""The library's exception classes. Every rule violation and every bad input has its own class."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from .words import clipped

__all__ = [
    "AgentError",
    "AmbiguousActionError",
    "IllegalActionError",
    "InvalidActionError",
    "MapConflictError",
    "MapError",
    "MapLoadError",
    "MapNotFoundError",
    "Reason",
    "RecordError",
    "SerializationError",
]


class MapError(Exception):
    """Base class of every map problem: a map that is not installed, fails to load, or is invalid.

    Every door that takes a map (``new_game``, ``scenario``, ``play_game``, ``from_json``, the
    registry) raises it. ``problems`` lists every problem found, one line each, never empty: for
    an invalid map each is ``"<json path>: <message>"`` (a map file's lines start with the file
    name); otherwise the message itself.
    """

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems: tuple[str, ...] = tuple(problems) or (message,)


class MapNotFoundError(MapError, LookupError):
    """No installed map has the requested name; the message lists the available maps."""


class MapLoadError(MapError, ValueError):
    """A map that could not be loaded or is invalid: a map file, a map plugin, or a
    :class:`~ttr_rules.maps.GameMap` built in memory and passed to a game.

    ``problems`` lists every problem found (see :class:`MapError`).
    """


class MapConflictError(MapError):
    """Two installed distributions provide a map under the same name."""


class Reason(StrEnum):
    """Why an action was rejected (the ``reason`` of :class:`IllegalActionError`)."""

    NOT_AN_ACTION = "not an action"
    GAME_OVER = "game over"
    NOT_YOUR_TURN = "not your turn"
    WRONG_PHASE = "wrong phase"
    NO_SUCH_SLOT = "no such face-up slot"
    EMPTY_SLOT = "empty face-up slot"
    LOCOMOTIVE_AS_SECOND_CARD = "face-up locomotive as second card"
    DECK_EMPTY = "no card to draw"
    NO_SUCH_ROUTE = "no such route"
    ROUTE_TAKEN = "route taken"
    DOUBLE_ROUTE_OWNED = "other track of double route already yours"
    DOUBLE_ROUTE_CLOSED = "double route closed"
    WRONG_COLOR = "wrong colour"
    BAD_PAYMENT = "payment does not fit"
    NOT_ENOUGH_CARDS = "not enough cards"
    NOT_ENOUGH_TRAINS = "not enough trains"
    FERRY_NEEDS_LOCOMOTIVES = "ferry needs locomotives"
    LOCOMOTIVE_NOT_WILD = "locomotive not wild on this route"
    BAD_SUBSTITUTE_SET = "substitute set of the wrong size"
    NO_SUCH_CITY = "no such city"
    STATION_TAKEN = "station taken"
    NO_STATIONS_LEFT = "no stations left"
    NO_TICKETS_LEFT = "no tickets left"
    NOT_OFFERED = "ticket not offered"
    MUST_KEEP_MORE_TICKETS = "must keep more tickets"
    PASS_NOT_ALLOWED = "pass only when nothing else is legal"


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state (U22).

    The state it was applied to is unchanged. ``reason`` says why; ``action`` is the action;
    ``said`` the action as the message quotes it, when whoever refuses it knows the map (a
    route told by its cities: :func:`ttr_rules.words.action_text`), else its notation.

    >>> from ttr_rules import ClaimRoute, Color
    >>> str(IllegalActionError(Reason.ROUTE_TAKEN, ClaimRoute(0, Color.RED, 0)))
    'illegal action claim #0 red: route taken'
    >>> said = "claim Amsterdam – Bruxelles (route 0) red"
    >>> str(IllegalActionError(Reason.ROUTE_TAKEN, ClaimRoute(0, Color.RED, 0), said=said))
    'illegal action claim Amsterdam – Bruxelles (route 0) red: route taken'
    """

    def __init__(self, reason: Reason, action: Any, detail: str = "", said: str = "") -> None:
        self.reason = reason
        self.action = action
        self.detail = detail
        self.said = said
        # An action built in code or from JSON may be any size: its text is cut for the message.
        text = f"illegal action {said or clipped(str(action), 300)}: {reason.value}"
        super().__init__(f"{text} ({detail})" if detail else text)

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its fields (the default would call the class with the message
        # alone): an error raised in a worker process reaches its parent whole.
        return type(self), (self.reason, self.action, self.detail, self.said), self.__dict__


class InvalidActionError(ValueError):
    """Text that is not a well-formed action in this state (``parse_action``)."""


class AmbiguousActionError(InvalidActionError):
    """Text that could mean more than one action (``parse_action``)."""


class RecordError(ValueError):
    """A game record that does not replay; ``index`` is the first failing action (or None)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class SerializationError(ValueError):
    """JSON that does not decode to the requested type (``from_json``).

    ``problems`` lists every problem found, each as ``"<json path>: <message>"`` (for example
    ``"$.players[1].hand.red: expected int"``); the message joins them. No partial object is
    ever returned.
    """

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


class AgentError(RuntimeError):
    """An agent that failed in a game: it raised, returned an illegal action or could not be
    built. ``agent`` is the agent as named (``"mcts:iterations=50"``), ``seat`` its seat (None
    when it failed before a game had seats), ``seed`` the game's seed (or None) and ``detail``
    what went wrong, in words. It holds text and numbers only, so it crosses processes whole
    (``ttr simulate --workers``, ``ttr tournament --workers``).

    >>> str(AgentError("greedy", 1, "returned an illegal action", seed=7))
    "agent 'greedy' in seat 1 failed in the game seeded 7: returned an illegal action"
    """

    def __init__(self, agent: str, seat: int | None, detail: str, seed: int | None = None) -> None:
        self.agent = agent
        self.seat = seat
        self.detail = detail
        self.seed = seed
        where = "" if seat is None else f" in seat {seat}"
        game = "" if seed is None else f" in the game seeded {seed}"
        super().__init__(f"agent {agent!r}{where} failed{game}: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.agent, self.seat, self.detail, self.seed), self.__dict__
