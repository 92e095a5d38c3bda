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
    "DeclineTunnel",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "KeepTickets",
    "Pass",
    "PayTunnel",
    "payment_text",
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

    >>> str(ClaimRoute(69, Color.BLACK, 1)), str(ClaimRoute(3, Color.LOCOMOTIVE, 2))
    ('claim #69 black+1L', 'claim #3 2L')
    """

    route: int
    color: Color
    locomotives: int = 0

    def __str__(self) -> str:
        return f"claim #{self.route} {payment_text(self.color, self.locomotives)}"


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
)
