"""What the action families share: the hot path's constants, the shape of a rule check, and
paying with cards (E23, E25, E26, E52, U8).

Enum members as module constants
--------------------------------
The engine's hot path (``legal_actions``, ``apply_action``) reads the enum members it compares
against from the module constants below, never as ``Phase.START`` or ``Color.LOCOMOTIVE``: in a
function body those cost an attribute look-up on the enum class (about 0.2 µs each on Python
3.11), a module global only a dict look-up. Members are compared with ``is``. Every engine
module imports these names from here; this is the only place that explains it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..cards import COLORS, LOCOMOTIVE_CODE, Color, Hand
from ..errors import Reason
from ..state import GameState, Phase
from ..words import counted

if TYPE_CHECKING:
    from .draft import Draft

__all__ = [
    "GAME_OVER",
    "INITIAL_TICKETS",
    "KEEP_TICKETS",
    "LOCOMOTIVE",
    "PAYMENT",
    "SECOND_CARD",
    "START",
    "TUNNEL",
    "ActionRules",
    "Check",
    "Problem",
    "Transition",
    "can_pay",
    "hand_add",
    "pay",
    "payment_cards",
    "payment_problem",
    "refund",
    "wrong_phase",
]

GAME_OVER = Phase.GAME_OVER
INITIAL_TICKETS = Phase.INITIAL_TICKETS
KEEP_TICKETS = Phase.KEEP_TICKETS
SECOND_CARD = Phase.SECOND_CARD
START = Phase.START
TUNNEL = Phase.TUNNEL
PAYMENT = Phase.PAYMENT
#: The wild card as a :class:`~ttr_rules.Color`; its index in card-count tuples is
#: :data:`~ttr_rules.cards.LOCOMOTIVE_CODE`.
LOCOMOTIVE = Color.LOCOMOTIVE

#: What the game is waiting for in each phase: the detail of a "wrong phase" refusal.
_WAITING_FOR: dict[Phase, str] = {
    Phase.INITIAL_TICKETS: "the players are choosing their first tickets",
    Phase.START: "a turn is starting",
    Phase.SECOND_CARD: "the player is drawing a second card",
    Phase.KEEP_TICKETS: "the player is choosing which drawn tickets to keep",
    Phase.TUNNEL: "the player is paying for a tunnel or declining it",
    Phase.PAYMENT: "the player is picking the cards of a payment with substitute sets",
    Phase.GAME_OVER: "the game is over",
}


def wrong_phase(phase: Phase) -> Problem:
    """The refusal of an action that does not fit the phase, saying what the game waits for.

    >>> wrong_phase(Phase.SECOND_CARD).detail
    'now the player is drawing a second card'
    """
    return Problem(Reason.WRONG_PHASE, f"now {_WAITING_FOR[phase]}")


_new = object.__new__
_set = object.__setattr__


class Problem(NamedTuple):
    """Why an action is illegal: the :class:`~ttr_rules.Reason` and a detail for the message.

    Each action family's ``problem(state, action)`` returns one, or None when the action is
    legal; ``why_illegal``, ``is_legal`` and ``apply_action`` all ask that one check (U22).
    """

    reason: Reason
    detail: str = ""


#: An action class's rule check: ``problem(state, action)``, None when the action is legal.
Check = Callable[[GameState, Any], "Problem | None"]
#: An action class's transition: ``apply(draft, action)`` changes the draft and returns the phase
#: in which the same player continues (:attr:`Phase.START`: the turn is over).
Transition = Callable[["Draft", Any], Phase]
#: A family's actions: each action class with its check and its transition. Each family exposes
#: this table as ``ACTIONS`` and, as its face, ``problem(state, action)`` and
#: ``apply(draft, action)`` that dispatch through it; ``game`` merges the tables.
ActionRules = dict[type, tuple[Check, Transition]]


def _with_a_colour(total: int) -> str:
    if total == 1:
        return "one card is paid with a colour and no locomotive, or with 1 locomotive"
    return f"with a colour, at most {counted(total - 1, 'locomotive')} of the {total} cards"


def payment_problem(
    color: object, locomotives: object, total: int, route_color: int
) -> Problem | None:
    """Why ``(color, locomotives)`` is not a way to pay ``total`` cards for a route of colour
    code ``route_color`` (−1: gray, or a station): a payment is ``total`` cards of one colour,
    locomotives wild; all-locomotive payments are written with ``Color.LOCOMOTIVE`` (E23–E26,
    E52)."""
    if not isinstance(color, Color) or type(locomotives) is not int:
        return Problem(
            Reason.BAD_PAYMENT, "a payment is a card colour and a whole number of locomotives"
        )
    if color is LOCOMOTIVE:
        if locomotives != total:
            return Problem(
                Reason.BAD_PAYMENT,
                f"paying with locomotives only takes {counted(total, 'locomotive')}",
            )
        return None
    if not 0 <= locomotives < total:
        return Problem(Reason.BAD_PAYMENT, _with_a_colour(total))
    if route_color >= 0 and color.code != route_color:
        return Problem(Reason.WRONG_COLOR, f"the route is {COLORS[route_color].value}")
    return None


def can_pay(hand: Hand, color: Color, locomotives: int, total: int) -> bool:
    """Whether ``hand`` holds ``total − locomotives`` cards of ``color`` and ``locomotives``
    locomotives (for an all-locomotive payment ``color`` is ``Color.LOCOMOTIVE``)."""
    counts = hand.counts
    if color is LOCOMOTIVE:
        return counts[LOCOMOTIVE_CODE] >= total
    return counts[color.code] >= total - locomotives and counts[LOCOMOTIVE_CODE] >= locomotives


def pay(hand: Hand, color: Color, locomotives: int, total: int) -> Hand:
    """``hand`` without the payment (which the caller has checked with :func:`can_pay`)."""
    counts = list(hand.counts)
    if color is not LOCOMOTIVE:
        counts[color.code] -= total - locomotives
    counts[LOCOMOTIVE_CODE] -= locomotives
    return Hand(tuple(counts))


def refund(hand: Hand, color: Color, locomotives: int, total: int) -> Hand:
    """``hand`` with a payment given back (a declined tunnel, E45): the cards of
    :func:`payment_cards`, counted without listing them, built without the attrs ``__init__``."""
    counts = list(hand.counts)
    if color is LOCOMOTIVE:
        counts[LOCOMOTIVE_CODE] += total
    else:
        counts[color.code] += total - locomotives
        counts[LOCOMOTIVE_CODE] += locomotives
    new = _new(Hand)
    _set(new, "counts", tuple(counts))
    return new


def payment_cards(color: Color, locomotives: int, total: int) -> tuple[Color, ...]:
    """The cards of a payment in discard order: coloured cards first, then locomotives (U8)."""
    if color is LOCOMOTIVE:
        return (LOCOMOTIVE,) * total
    return (color,) * (total - locomotives) + (LOCOMOTIVE,) * locomotives


def hand_add(hand: Hand, color: Color) -> Hand:
    """``hand`` with one more card of ``color``, built without the attrs ``__init__`` (a card
    draw's hot path; ``Hand`` has no validator or converter to skip)."""
    counts = list(hand.counts)
    counts[color.code] += 1
    new = _new(Hand)
    _set(new, "counts", tuple(counts))
    return new
