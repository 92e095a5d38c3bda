"""Train cards: the eight card colours, the locomotive, and hands of cards (E1).

Cards are :class:`Color` members everywhere in the public API. Each member also carries a small
integer ``code`` (its position in :data:`COLORS`) that the engine uses to index card-count tuples
without hashing enum members in the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import StrEnum

from attrs import frozen

from .words import counted

__all__ = [
    "CARD_COLORS",
    "COLORS",
    "LOCOMOTIVE_CODE",
    "Color",
    "Hand",
    "count_colors",
    "parse_color",
    "pile_counts",
]


class Color(StrEnum):
    """A train-card colour; values are the lowercase names. ``LOCOMOTIVE`` is the wild card."""

    code: int

    def __new__(cls, value: str, code: int) -> Color:
        member = str.__new__(cls, value)
        member._value_ = value
        member.code = code
        return member

    PURPLE = "purple", 0
    WHITE = "white", 1
    BLUE = "blue", 2
    YELLOW = "yellow", 3
    ORANGE = "orange", 4
    BLACK = "black", 5
    RED = "red", 6
    GREEN = "green", 7
    LOCOMOTIVE = "locomotive", 8


#: Every card kind, indexed by ``Color.code``.
COLORS: tuple[Color, ...] = tuple(Color)
#: The eight card colours (every kind except the locomotive).
CARD_COLORS: tuple[Color, ...] = tuple(c for c in COLORS if c is not Color.LOCOMOTIVE)
LOCOMOTIVE_CODE = Color.LOCOMOTIVE.code

_COLOR_ALIASES: dict[str, Color] = {
    **{c.value: c for c in COLORS},
    "pink": Color.PURPLE,
    "loco": Color.LOCOMOTIVE,
    "locomotives": Color.LOCOMOTIVE,
    "wild": Color.LOCOMOTIVE,
    "l": Color.LOCOMOTIVE,
}


def parse_color(text: str) -> Color:
    """Return the colour named by ``text`` (case-insensitive; ``pink`` means purple).

    Raises :class:`ValueError` for an unknown name.

    >>> parse_color(" Pink "), parse_color("LOCOMOTIVE")
    (<Color.PURPLE: 'purple'>, <Color.LOCOMOTIVE: 'locomotive'>)
    """
    try:
        return _COLOR_ALIASES[text.strip().lower()]
    except KeyError:
        names = ", ".join(c.value for c in COLORS)
        raise ValueError(f"unknown colour {text!r}; expected one of {names} (or pink)") from None


@frozen
class Hand:
    """A multiset of train cards: ``hand[Color.RED]`` is the number of red cards held.

    ``counts`` holds one count per :data:`COLORS` entry, locomotives last.

    >>> hand = Hand.of({Color.RED: 2, "locomotive": 1})
    >>> hand[Color.RED], hand[Color.BLUE], hand.total, str(hand)
    (2, 0, 3, '2 red, 1 locomotive')
    >>> Hand.of(["red", "pink", "red"]) == Hand.of({Color.RED: 2, Color.PURPLE: 1})
    True
    """

    counts: tuple[int, ...] = (0,) * len(COLORS)

    @classmethod
    def of(
        cls, cards: Mapping[Color, int] | Mapping[str, int] | Iterable[Color | str] = ()
    ) -> Hand:
        """Build a hand from ``{Color: count}`` or from an iterable of cards (colour names,
        ``pink`` included, are accepted too)."""
        counts = [0] * len(COLORS)
        if isinstance(cards, Mapping):
            for color, n in cards.items():
                counts[parse_color(color).code] += int(n)
        else:
            for color in cards:
                counts[parse_color(color).code] += 1
        return cls(tuple(counts))

    def __getitem__(self, color: Color) -> int:
        return self.counts[color.code]

    def __iter__(self) -> Iterator[Color]:
        """Every card of the hand (a multiset, so ``len(list(hand)) == len(hand)``), in
        :data:`COLORS` order."""
        return (COLORS[i] for i, n in enumerate(self.counts) for _ in range(n))

    def __len__(self) -> int:
        return sum(self.counts)

    @property
    def total(self) -> int:
        """The number of cards in the hand."""
        return sum(self.counts)

    def as_dict(self) -> dict[Color, int]:
        """The non-zero counts as a ``{Color: count}`` dict."""
        return {COLORS[i]: n for i, n in enumerate(self.counts) if n}

    def __str__(self) -> str:
        """``1 blue, 2 red, 3 locomotives`` (``no cards`` when empty).

        >>> str(Hand.of({"red": 2, "locomotive": 3, "blue": 1}))
        '1 blue, 2 red, 3 locomotives'
        """
        parts = [
            counted(n, "locomotive") if COLORS[i] is Color.LOCOMOTIVE else f"{n} {COLORS[i].value}"
            for i, n in enumerate(self.counts)
            if n
        ]
        return ", ".join(parts) or "no cards"


#: Each card kind's code: a dict look-up costs less than reading ``Color.code``.
_CODE: dict[Color, int] = {c: c.code for c in COLORS}


def count_colors(cards: Iterable[Color], counts: list[int] | None = None) -> list[int]:
    """Add one to ``counts`` (one count per :data:`COLORS` entry, by ``code``) for each of
    ``cards``, and return it; without ``counts``, a new list of zeros is counted into.

    >>> count_colors([Color.RED, Color.LOCOMOTIVE, Color.RED])
    [0, 0, 0, 0, 0, 0, 2, 0, 1]
    >>> count_colors([Color.BLUE], [1, 0, 0, 0, 0, 0, 0, 0, 0])
    [1, 0, 1, 0, 0, 0, 0, 0, 0]
    """
    if counts is None:
        counts = [0] * len(COLORS)
    for card in cards:
        counts[_CODE[card]] += 1
    return counts


def pile_counts(pile: Sequence[Color], before: Sequence[Color], counts: list[int]) -> list[int]:
    """The colour counts of ``pile``, given the ``counts`` of an earlier pile ``before``: a
    discard pile grows at its end, so when ``pile`` starts with ``before`` only the cards added
    since are counted, into ``counts`` itself (otherwise, after a reshuffle, all of them, into
    a new list). Cost: the added cards.

    >>> before = (Color.RED,)
    >>> pile_counts((Color.RED, Color.BLUE), before, count_colors(before))
    [0, 0, 1, 0, 0, 0, 1, 0, 0]
    >>> pile_counts((Color.GREEN,), before, count_colors(before))
    [0, 0, 0, 0, 0, 0, 0, 1, 0]
    """
    n = len(before)
    if len(pile) >= n and pile[:n] == before:
        return count_colors(pile[n:], counts)
    return count_colors(pile)
