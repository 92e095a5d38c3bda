"""The next state while one action is applied: the one carrier of a transition (U22).

An action family's ``apply(draft, action)`` changes a :class:`Draft` in place — draws cards
(reshuffling on demand), replaces the acting player (``draft.player = evolve(draft.player,
...)``), sets other fields in ``draft.changes`` — and returns the phase in
which the same player continues. The turn module (:mod:`ttr_rules.moves.turn`) then settles the
face-up row, ends the turn when it is over and calls :meth:`Draft.build`, which makes the new
state from ``draft.changes``, a copy of the given state's fields (made as
:func:`~ttr_rules.state.evolve` makes it) with the action's changes written over them. The given
state is never changed.

Card piles: drawing with reshuffle on demand (E17, E18, U4), tunnel reveals (E47, U14) and
taking a face-up card (E7, U3).
"""

from __future__ import annotations

from typing import Any

from ..cards import Color
from ..events import DeckReshuffled, Event, FaceUpReplaced
from ..piles import shuffled
from ..state import GameState, PlayerState

__all__ = ["Draft"]

_new = object.__new__
_set = object.__setattr__


class Draft:
    """Scratch copies of the fields one transition changes, written into the next state by
    :meth:`build`. ``log`` collects events when the caller wants them (``step``)."""

    __slots__ = ("changes", "deck", "discard", "face_up", "log", "player", "rng", "state")

    def __init__(self, state: GameState, log: list[Event] | None) -> None:
        self.state = state
        self.log = log
        #: The acting player (only the acting player changes during an action).
        self.player: PlayerState = state.players[state.current]
        self.deck = state.deck
        self.discard = state.discard
        self.face_up = state.face_up
        self.rng = state.rng
        #: Every other field of the next state: a copy of ``state``'s, changed in place.
        self.changes: dict[str, Any] = dict(state.__dict__)

    def build(self) -> GameState:
        """The next state: ``state`` with everything this draft changed."""
        state = self.state
        seat = state.current
        players = state.players
        changes = self.changes
        seats = list(players)  # a list and one tuple: cheaper than slices and concatenations
        seats[seat] = self.player
        changes["players"] = tuple(seats)
        changes["deck"] = self.deck
        changes["discard"] = self.discard
        changes["face_up"] = self.face_up
        changes["rng"] = self.rng
        new = _new(GameState)
        _set(new, "__dict__", changes)
        return new

    # ------------------------------------------------------------------ card piles

    def can_draw(self) -> bool:
        return bool(self.deck or self.discard)

    def reshuffle(self) -> None:
        """Turn the discard into the deck (E17, U4); with the identity hook the oldest discarded
        card ends on top."""
        cards = self.discard
        if not self.state.identity_shuffle:
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
