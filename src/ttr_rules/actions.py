"""The actions a player can take. Each is a frozen, hashable value whose ``str()`` is its
canonical text notation (see :func:`ttr_rules.parse_action` for the grammar).

Actions carry fully resolved choices: which route, which colour, how many locomotives.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from attrs import field, frozen

from .cards import Color

__all__ = [
    "ACTION_TYPES",
    "Action",
    "BuildStation",
    "ClaimRoute",
    "ClaimWithSets",
    "DeclineTunnel",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "KeepTickets",
    "Pass",
    "PayCard",
    "PayTunnel",
    "payment_text",
    "substitutes_text",
]


def payment_text(color: Color, locomotives: int) -> str:
    """``black``, ``black+2L`` or ``3L`` (all locomotives).

    >>> [payment_text(Color.BLACK, 0), payment_text(Color.BLACK, 2)]
    ['black', 'black+2L']
    >>> payment_text(Color.LOCOMOTIVE, 3)
    '3L'
    """
    if color is Color.LOCOMOTIVE:
        return f"{locomotives}L"
    # An action built with a wrong colour type is still written (to say why it is illegal).
    name = color.value if isinstance(color, Color) else repr(color)
    return f"{name}+{locomotives}L" if locomotives else name


def substitutes_text(cards: Iterable[Color]) -> str:
    """The cards of substitute sets as one word: ``any:`` then ``<count><colour>`` by card
    order, ``L`` for locomotives; empty when there are none.

    >>> substitutes_text((Color.BLUE, Color.BLUE, Color.GREEN, Color.LOCOMOTIVE))
    'any:2blue,1green,1L'
    >>> substitutes_text(())
    ''
    """
    counts: dict[Color, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    if not counts:
        return ""
    words = [
        f"{n}{'L' if card is Color.LOCOMOTIVE else getattr(card, 'value', repr(card))}"
        for card, n in counts.items()
    ]
    return "any:" + ",".join(words)


def _card_order(cards: Iterable[Color]) -> tuple[Color, ...]:
    """Substitute cards in card order (one spelling for one multiset); left as given when they
    are not all cards (the rule check then says why)."""
    found = tuple(cards)
    if all(isinstance(card, Color) for card in found):
        return tuple(sorted(found, key=lambda card: card.code))
    return found


def _ticket_set(tickets: Iterable[int]) -> frozenset[int]:
    return frozenset(tickets)


@frozen
class DrawFaceUp:
    """Take the face-up card in ``slot`` (0–4) (E6–E9)."""

    slot: int

    def __str__(self) -> str:
        return f"draw faceup {self.slot}"


@frozen
class DrawBlind:
    """Take the top card of the deck (E6, E10)."""

    def __str__(self) -> str:
        return "draw blind"


@frozen
class ClaimRoute:
    """Claim ``route`` paying ``length − locomotives`` cards of ``color`` plus ``locomotives``
    locomotives; ``color`` is ``Color.LOCOMOTIVE`` when every card is a locomotive (E23–E38).
    For a tunnel this is the base payment (E39).

    On a map with substitute sets (docs/rules.md, "Payments"), ``substitutes`` holds the cards
    of the sets, any cards, in card order; each set of N stands in for one card of the route
    (a ferry's locomotive, or a card of the colour), so the base is ``length − sets`` cards.
    Each multiset of cards has one spelling. A claim with sets is the last step of a payment
    picked card by card (:class:`ClaimWithSets`, then :class:`PayCard`): it is legal only
    then, for exactly the picked cards.

    >>> str(ClaimRoute(69, Color.BLACK, 1)), str(ClaimRoute(3, Color.LOCOMOTIVE, 2))
    ('claim #69 black+1L', 'claim #3 2L')
    >>> str(ClaimRoute(5, Color.RED, 0, (Color.GREEN, Color.BLUE, Color.BLUE)))
    'claim #5 red any:2blue,1green'
    """

    route: int
    color: Color
    locomotives: int = 0
    substitutes: tuple[Color, ...] = field(default=(), converter=_card_order)

    def __str__(self) -> str:
        text = f"claim #{self.route} {payment_text(self.color, self.locomotives)}"
        return f"{text} {substitutes_text(self.substitutes)}" if self.substitutes else text


@frozen
class ClaimWithSets:
    """Start claiming ``route`` with substitute sets: the cards of the payment are then picked
    one at a time (:class:`PayCard`, in card order), and the claim of exactly those cards
    (a :class:`ClaimRoute` with ``substitutes``) completes it (docs/rules.md, "Payments").

    >>> str(ClaimWithSets(50))
    'claim #50 sets'
    """

    route: int

    def __str__(self) -> str:
        return f"claim #{self.route} sets"


@frozen
class PayCard:
    """Pick one more card of a payment with substitute sets (see :class:`ClaimWithSets`).

    >>> str(PayCard(Color.BLUE)), str(PayCard(Color.LOCOMOTIVE))
    ('pay blue', 'pay L')
    """

    card: Color

    def __str__(self) -> str:
        if self.card is Color.LOCOMOTIVE:
            return "pay L"
        return f"pay {getattr(self.card, 'value', repr(self.card))}"


@frozen
class PayTunnel:
    """Pay the extra cards owed after a tunnel reveal: ``locomotives`` locomotives and the rest
    in the base payment's colour (E39–E44, U13)."""

    locomotives: int = 0

    def __str__(self) -> str:
        return f"tunnel pay {self.locomotives}L"


@frozen
class DeclineTunnel:
    """Take the tunnel's base payment back; the turn ends (E45)."""

    def __str__(self) -> str:
        return "tunnel decline"


@frozen
class DrawTickets:
    """Draw destination tickets (E61–E63)."""

    def __str__(self) -> str:
        return "tickets draw"


@frozen
class KeepTickets:
    """Keep these of the offered tickets; the rest leave (E4, E61)."""

    tickets: frozenset[int] = field(converter=_ticket_set)

    def __str__(self) -> str:
        return "tickets keep " + ",".join(str(t) for t in sorted(self.tickets))


@frozen
class BuildStation:
    """Build a station in ``city``, paying as for a claim; the n-th station costs n cards
    (E51–E54)."""

    city: str
    color: Color
    locomotives: int = 0

    def __str__(self) -> str:
        return f"station {self.city} {payment_text(self.color, self.locomotives)}"


@frozen
class Pass:
    """Do nothing; offered only when no other action is legal (E20, U1)."""

    def __str__(self) -> str:
        return "pass"


Action: TypeAlias = (
    DrawFaceUp
    | DrawBlind
    | ClaimRoute
    | ClaimWithSets
    | PayCard
    | PayTunnel
    | DeclineTunnel
    | DrawTickets
    | KeepTickets
    | BuildStation
    | Pass
)

ACTION_TYPES: tuple[type, ...] = (
    DrawFaceUp,
    DrawBlind,
    ClaimRoute,
    PayTunnel,
    DeclineTunnel,
    DrawTickets,
    KeepTickets,
    BuildStation,
    Pass,
    ClaimWithSets,
    PayCard,
)
