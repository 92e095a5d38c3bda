"""The game state: an immutable value holding everything about a position.

:class:`GameState` and :class:`PlayerState` are frozen attrs classes holding only tuples, ints,
enums and frozensets (plus the map and rules they were created with), so states are hashable,
compare by value and can be shared freely between threads, search trees and caches.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypeVar

import attrs
from attrs import frozen

from .cards import Color, Hand
from .maps.model import GameMap
from .rules import Rules

__all__ = [
    "COPIED_CLASSES",
    "GameState",
    "PendingPayment",
    "PendingTunnel",
    "Phase",
    "PlayerState",
    "evolve",
]


_new = object.__new__
_set = object.__setattr__


class Phase(StrEnum):
    """Where the game is inside a turn: multi-step turns are phases."""

    #: Every player chooses from their initial tickets, in seat order from the first player (E4).
    INITIAL_TICKETS = "initial tickets"
    #: The start of a turn: draw cards, claim a route, draw tickets or build a station.
    START = "start"
    #: A first card was drawn; the same player draws the second one (E6–E11, U5).
    SECOND_CARD = "second card"
    #: Tickets were drawn; the same player keeps at least one (E61).
    KEEP_TICKETS = "keep tickets"
    #: Tunnel cards were revealed; the same player pays the extras or declines (E39–E45).
    TUNNEL = "tunnel"
    GAME_OVER = "game over"
    #: A claim paid with substitute sets: the same player picks its cards one at a time
    #: (docs/rules.md, "Payments"). Declared last: boards without sets
    #: never reach it, and the RL observation's phase one-hot leaves it out for them.
    PAYMENT = "payment"


#: The phases in which the game is over, read as a module global: ``Phase.GAME_OVER`` in a
#: function body is an attribute read on the enum class, which its metaclass's ``__getattr__``
#: sends down the slow generic path (about 900 instructions; a playout asks ``is_terminal``
#: once per decision). The engine's own modules hoist members in ``moves.common``, above
#: this module.
_OVER = frozenset({Phase.GAME_OVER})


@frozen(slots=False)
class PlayerState:
    """One player's holdings."""

    hand: Hand
    #: Plastic trains left in reserve.
    trains: int
    #: Cities where this player built a station, in building order.
    stations: tuple[str, ...] = ()
    #: Kept destination tickets (ticket ids), in the order they were kept.
    tickets: tuple[int, ...] = ()
    #: Tickets drawn and not yet kept or returned (initial deal or a ticket draw).
    offered: tuple[int, ...] = ()
    #: Points scored for claimed routes so far (E29).
    route_points: int = 0
    #: The claim this player is paying with substitute sets (phase ``PAYMENT``), else None.
    #: Out of the repr so that reprs of positions without one, the only kind on boards without
    #: sets, read as before; ``str(state)`` shows it. (A player's field, not the game's: a
    #: 21st field of :class:`GameState` would double the size of its ``__dict__``, which the
    #: engine copies on every action.)
    payment: PendingPayment | None = attrs.field(default=None, repr=False)


@frozen
class PendingTunnel:
    """A tunnel attempt waiting for the extra cards (E39–E45, U13)."""

    route: int
    #: The colour of the base payment; ``Color.LOCOMOTIVE`` when it was all locomotives (E41).
    color: Color
    #: Locomotives in the base payment.
    locomotives: int
    #: The cards turned over, in reveal order (E39, E47).
    revealed: tuple[Color, ...]
    #: Extra cards owed (E40–E44).
    owed: int


@frozen
class PendingPayment:
    """A claim being paid with substitute sets: the cards picked so far, still in the hand
    (docs/rules.md, "Payments")."""

    route: int
    #: The picked cards, in card order (each payment has one order of picking).
    cards: tuple[Color, ...] = ()


@frozen(slots=False)
class GameState:
    """A complete game position. Build one with ``new_game`` or ``scenario``.

    Card piles hold :class:`~ttr_rules.Color` members: ``deck`` top card first, ``discard``
    oldest card first, ``face_up`` five slots (None for a slot that could not be filled, U3).
    """

    # Not slotted: the engine copies states with one dict copy and update (see evolve).
    map: GameMap = attrs.field(repr=False)
    rules: Rules = attrs.field(repr=False)
    players: tuple[PlayerState, ...]
    #: The seat of the player to act.
    current: int
    phase: Phase
    face_up: tuple[Color | None, ...]
    deck: tuple[Color, ...]
    discard: tuple[Color, ...]
    #: Ticket ids, top first.
    ticket_deck: tuple[int, ...]
    #: Tickets out of the game: unkept initial tickets and undealt long tickets (E3, E4).
    ticket_box: tuple[int, ...]
    #: The owner of each route, by route id (None when unclaimed).
    route_owner: tuple[int | None, ...]
    tunnel: PendingTunnel | None = None
    #: Turns left in the final round; None until the end is triggered (E66–E68).
    final_turns: int | None = None
    #: Consecutive forced passes (U1): a full round of them ends the game.
    passes: int = 0
    #: Completed turns (initial ticket choices are not turns).
    turn: int = 0
    first_player: int = 0
    #: The seed the game was dealt from (``new_game``/``scenario``); records replay from it.
    seed: int = 0
    #: The seed of the next reshuffle (randomness lives in the state, E79).
    rng: int = 0
    #: True when reshuffles keep the discard's order, oldest card on top (the identity shuffle
    #: of the rules catalogue's conventions).
    identity_shuffle: bool = False
    #: Cards set aside by ``scenario`` (neither in play nor in a pile).
    out_of_play: tuple[Color, ...] = ()

    @property
    def payment(self) -> PendingPayment | None:
        """The claim the player to act is paying with substitute sets (phase ``PAYMENT``)."""
        return self.players[self.current].payment

    @property
    def current_player(self) -> int | None:
        return None if self.phase in _OVER else self.current

    @property
    def is_terminal(self) -> bool:
        return self.phase in _OVER

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def in_final_round(self) -> bool:
        return self.final_turns is not None

    def routes_of(self, player: int) -> tuple[int, ...]:
        """The ids of the routes ``player`` has claimed."""
        return tuple(i for i, owner in enumerate(self.route_owner) if owner == player)

    def stations_left(self, player: int) -> int:
        """Stations ``player`` still has in reserve (E1, E53, E59)."""
        return self.rules.stations_per_player - len(self.players[player].stations)

    def station_owner(self, city: str) -> int | None:
        """The player with a station in ``city``, or None."""
        for seat, p in enumerate(self.players):
            if city in p.stations:
                return seat
        return None

    # Presentation lives in the render layer, above this one: it is imported when called
    # (as python-chess does for ``chess.svg``), so the core never depends on it.

    def __str__(self) -> str:
        """The position as text (:func:`ttr_rules.render.text`): ``print(state)``."""
        from .render import text

        return text(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter and IPython (:func:`ttr_rules.render.svg`)."""
        from .render import svg

        return svg(self)


#: The classes :func:`evolve` copies. Each is a frozen attrs class with an instance ``__dict__``
#: (``slots=False``) and no validator, converter or ``__attrs_post_init__`` that the copy would
#: skip (``tests/test_state.py`` checks this).
COPIED_CLASSES = (GameState, PlayerState)

_Copied = TypeVar("_Copied", GameState, PlayerState)


def evolve(obj: _Copied, changes: Mapping[str, Any] | None = None, /, **more: Any) -> _Copied:
    """A copy of a :class:`GameState` or :class:`PlayerState` with the given fields replaced.

    This is the engine's one way to build a next state (U22: the given state is never
    changed). The changes come as a dict, as keywords, or both (keywords win)::

        evolve(state, {"turn": 5})  # the engine's hot path: no keyword packing
        evolve(state, turn=5)

    :func:`attrs.evolve` would run ``__init__`` for every field; this copies the instance
    ``__dict__`` and updates it, one C-level copy and update. That is only right for the
    :data:`COPIED_CLASSES`, which have no validators or converters to skip. The field names are
    not checked: a misspelt one would add an attribute, so callers name real fields.

    The copy is ``dict(obj.__dict__)``, not ``obj.__dict__.copy()``: an instance built by
    ``__init__`` has a *split* dict (its keys shared with the class), which ``.copy()`` keeps
    split, and CPython 3.11 cannot specialize attribute reads on an instance with a split
    ``__dict__`` (every ``state.phase`` then takes the generic look-up). ``dict()`` makes a
    combined dict once, and copies of a combined dict are a plain memory copy, so every later
    state reads its fields through the specialized path (about 8% of ``apply_action``).

    >>> from ttr_rules import new_game
    >>> state = new_game(players=2, seed=1)
    >>> later = evolve(state, turn=5)
    >>> (later.turn, state.turn, later.players is state.players)
    (5, 0, True)
    """
    fields = dict(obj.__dict__)
    if changes:
        fields.update(changes)
    if more:
        fields.update(more)
    new = _new(type(obj))
    _set(new, "__dict__", fields)
    return new
