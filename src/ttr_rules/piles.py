"""The train-card piles during one transition: drawing with reshuffle on demand, the face-up
row's refill and its locomotive reset (E12–E18, U2–U4, U8)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from .cards import Color
from .events import DeckReshuffled, Event, FaceUpReplaced, FaceUpReset, ResetCapReached
from .rules import Rules
from .state import GameState

__all__ = ["Piles", "fisher_yates", "reset_feasible", "shuffled"]

T = TypeVar("T")
_LOCO = Color.LOCOMOTIVE


def fisher_yates(items: Sequence[T], rnd: random.Random) -> tuple[T, ...]:
    """Shuffle with Fisher–Yates driven by ``rnd.random()``, whose output for a given seed Python
    promises to keep stable across versions (unlike ``random.shuffle``'s use of randbelow)."""
    cards = list(items)
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def shuffled(items: Sequence[T], seed: int) -> tuple[tuple[T, ...], int]:
    """``items`` shuffled from ``seed``, and the seed of the next shuffle."""
    rnd = random.Random(seed)
    cards = fisher_yates(items, rnd)
    return cards, int(rnd.random() * 2**53)


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
    non_loco = pool - deck.count(_LOCO) - discard.count(_LOCO) - row.count(_LOCO)
    size = min(len(face_up), pool)
    return non_loco >= size - (limit - 1)


class Piles:
    """A scratch copy of deck, discard, face-up row and reshuffle seed, changed in place while
    one action is applied and then written into the new state."""

    __slots__ = ("deck", "discard", "face_up", "identity", "log", "rng")

    def __init__(self, state: GameState, log: list[Event] | None) -> None:
        self.deck = state.deck
        self.discard = state.discard
        self.face_up = state.face_up
        self.rng = state.rng
        self.identity = state.identity_shuffle
        self.log = log

    def can_draw(self) -> bool:
        return bool(self.deck or self.discard)

    def reshuffle(self) -> None:
        """Turn the discard into the deck (E17, U4); with the identity hook the oldest discarded
        card ends on top."""
        cards = self.discard
        if not self.identity:
            cards, self.rng = shuffled(cards, self.rng)
        self.deck = self.deck + cards
        self.discard = ()
        if self.log is not None:
            self.log.append(DeckReshuffled(len(cards)))

    def draw(self) -> Color | None:
        """The top card of the deck, reshuffling the discard when the deck is empty; None when
        both are empty (E17, E18)."""
        deck = self.deck
        if not deck:
            if not self.discard:
                return None
            self.reshuffle()
            deck = self.deck
        self.deck = deck[1:]
        return deck[0]

    def reveal(self, count: int, use_discard: bool) -> tuple[Color, ...]:
        """Up to ``count`` cards from the deck, then from the reshuffled discard when allowed
        (tunnels, E47, U14). Revealed cards are set aside, never placed in the face-up row, so
        they never count for the locomotive reset (E22)."""
        cards: list[Color] = []
        for _ in range(count):
            if not self.deck and not use_discard:
                break
            card = self.draw()
            if card is None:
                break
            cards.append(card)
        return tuple(cards)

    def take_face_up(self, slot: int) -> Color | None:
        """Take the card in ``slot`` and replace it at once from the deck (E7); the slot stays
        empty when no card can be drawn (U3)."""
        row = self.face_up
        card = row[slot]
        new = self.draw()
        self.face_up = row[:slot] + (new,) + row[slot + 1 :]
        if new is not None and self.log is not None:
            self.log.append(FaceUpReplaced(slot, new))
        return card

    def settle_row(self, rules: Rules) -> None:
        """End-of-action upkeep of the face-up row (U3): fill empty slots in slot order (E13),
        then reset the row while it shows too many locomotives (E12), again when the new row
        shows them too (E14), unless the reset cannot succeed or the cap is reached (E15, U2)."""
        if None in self.face_up:
            self._fill_empty_slots()
        limit = rules.face_up_locomotive_limit
        if limit is None or self.face_up.count(_LOCO) < limit:
            return
        resets = 0
        while self.face_up.count(_LOCO) >= limit and reset_feasible(
            self.deck, self.discard, self.face_up, limit
        ):
            if resets == rules.max_consecutive_resets:
                if self.log is not None:
                    self.log.append(ResetCapReached(resets))
                return
            self._reset()
            resets += 1

    def _fill_empty_slots(self) -> None:
        """Fill the empty slots in slot order; a slot stays empty when no card is left (E16)."""
        row = list(self.face_up)
        for slot, card in enumerate(row):
            if card is None:
                new = self.draw()
                if new is None:
                    break
                row[slot] = new
                if self.log is not None:
                    self.log.append(FaceUpReplaced(slot, new))
        self.face_up = tuple(row)

    def _reset(self) -> None:
        """Discard the row in slot order (U8) and deal a new one (E12)."""
        old = tuple(c for c in self.face_up if c is not None)
        self.discard = self.discard + old
        self.face_up = (None,) * len(self.face_up)
        if self.log is not None:
            self.log.append(FaceUpReset(old))
        self._fill_empty_slots()
