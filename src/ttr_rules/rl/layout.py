"""The observation vector's layout: every field's name, shape, slice and bounds (issue 13).

The vector of :func:`~ttr_rules.rl.encode_observation` has a length that depends only on the
map, the player count and the rules. Seats are rotated so that the viewer comes first: in
every per-seat field, entry 0 is the viewer, entry 1 the next player in turn order, and so
on. :func:`observation_layout` names every slice (``layout["hand"]``,
``layout.unpack(vector)``); the docs page "Reinforcement learning" has the table of fields.
Counts are raw; the one-hot fields are 0 or 1; the layout's ``low`` and ``high`` bound every
entry (:mod:`ttr_rules.rl.scaling` maps them into [0, 1]).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from attrs import frozen

from ttr_rules import Color, GameMap, Phase, Rules, load_map

from .space import offer_positions, set_routes

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "PILE_COLUMNS",
    "SEAT_COLUMNS",
    "ObservationField",
    "ObservationLayout",
    "observation_layout",
]

_KINDS: Final = len(Color)
_PHASES: Final = tuple(Phase)
#: The entries of the ``piles`` field.
PILE_COLUMNS: Final = ("deck", "ticket_deck", "ticket_box", "set_aside")
#: The columns of the ``seats`` field.
SEAT_COLUMNS: Final = (
    "hand_size",
    "trains",
    "stations_left",
    "route_points",
    "tickets",
    "offered",
)


@frozen
class ObservationField:
    """One named slice of the observation vector."""

    name: str
    #: The field's shape before flattening (``(R, P)`` for ``route_owner``...).
    shape: tuple[int, ...]
    start: int
    stop: int
    #: True when every entry is 0 or 1.
    binary: bool
    description: str

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


class ObservationLayout:
    """The fields of :func:`encode_observation` for one map, player count and rules."""

    def __init__(self, game_map: GameMap, players: int, rules: Rules) -> None:
        self.map: Final = game_map
        self.players: Final = players
        self.rules: Final = rules
        self.offer_positions: Final = offer_positions(rules)
        p, r = players, len(game_map.routes)
        c, t, n = len(game_map.cities), len(game_map.tickets), self.offer_positions
        # The last phase, PAYMENT, only on boards with substitute sets (docs/rl.md).
        phases = len(_PHASES) if set_routes(game_map, rules) else len(_PHASES) - 1
        specs: list[tuple[str, tuple[int, ...], bool, str]] = [
            ("hand", (_KINDS,), False, "the viewer's cards by kind"),
            ("seats", (p, len(SEAT_COLUMNS)), False, "per seat: " + ", ".join(SEAT_COLUMNS)),
            ("piles", (len(PILE_COLUMNS),), False, ", ".join(PILE_COLUMNS)),
            ("final_round", (1,), True, "1 once the final round has started"),
            ("final_turns", (1,), False, "turns left in the final round"),
            ("passes", (1,), False, "consecutive forced passes"),
            ("turn", (1,), False, "completed turns"),
            ("current_seat", (p,), True, "one-hot seat to act"),
            ("phase", (phases,), True, "one-hot phase"),
            ("discard", (_KINDS,), False, "the discard pile by kind"),
            ("tunnel_payment", (_KINDS,), False, "a pending tunnel's base payment by kind"),
            ("tunnel_revealed", (_KINDS,), False, "the tunnel's revealed cards by kind"),
            ("tunnel_owed", (1,), False, "extra cards owed for the tunnel"),
            ("face_up", (rules.face_up_size, _KINDS), True, "one-hot card kind per face-up slot"),
            ("route_owner", (r, p), True, "one-hot owner seat per route"),
            ("stations", (c, p), True, "one-hot station owner seat per city"),
            ("tickets_kept", (t,), True, "tickets the viewer kept"),
            ("tickets_completed", (t,), True, "kept tickets connected by own routes"),
            ("offered", (n, t), True, "one-hot ticket per offer position"),
            ("tunnel_route", (r,), True, "one-hot route of a pending tunnel"),
        ]
        if phases == len(_PHASES):
            specs += [
                ("payment_cards", (_KINDS,), False, "cards picked for a payment with sets"),
                ("payment_route", (r,), True, "one-hot route of a payment with sets"),
            ]
        fields: list[ObservationField] = []
        start = 0
        for name, shape, binary, text in specs:
            stop = start + int(np.prod(shape))
            fields.append(ObservationField(name, shape, start, stop, binary, text))
            start = stop
        self.fields: Final = tuple(fields)
        self.size: Final = start
        self.shape: Final = (start,)
        self._by_name = {f.name: f for f in fields}
        high = np.ones(self.size, dtype=np.float32)
        for name, bound in self._bounds().items():
            if name in self._by_name:  # (payment_cards: boards with sets only)
                high[self[name]] = bound
        self.low: Final = np.zeros(self.size, dtype=np.float32)
        self.high: Final = high

    def _bounds(self) -> dict[str, float | NDArray[np.float32]]:
        """The largest value of each counting field (``high`` of a Box space)."""
        rules, game_map, p = self.rules, self.map, self.players
        cards = 8 * rules.cards_per_color + rules.locomotive_cards
        tickets = len(game_map.tickets)
        scores = rules.route_scores
        route_points = sum(
            rules.claim_points(r.length, r.mountain)  # a mountain's X marks score too (U27)
            for r in game_map.routes
            if r.length < len(scores)
        )
        seat = [
            cards,
            rules.trains_per_player,
            rules.stations_per_player,
            route_points,
            tickets,
            self.offer_positions,
        ]
        longest = max((r.length for r in game_map.routes), default=0)
        return {
            "hand": cards,
            "seats": np.tile(np.array(seat, dtype=np.float32), p),
            "piles": np.array([cards, tickets, tickets, cards], dtype=np.float32),
            "final_turns": p,
            "passes": p,
            "turn": 2**24,  # not bounded by the rules; float32 counts exactly up to here
            "discard": cards,
            "tunnel_payment": longest,
            "tunnel_revealed": rules.tunnel_reveal_cards,
            "tunnel_owed": rules.tunnel_reveal_cards,
            "payment_cards": cards,
        }

    def __getitem__(self, name: str) -> slice:
        """The slice of field ``name``."""
        return self._by_name[name].slice

    def field(self, name: str) -> ObservationField:
        return self._by_name[name]

    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def unpack(self, observation: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """Every field of ``observation``, reshaped to its shape."""
        return {f.name: observation[f.start : f.stop].reshape(f.shape) for f in self.fields}

    def __reduce__(self) -> tuple[Any, ...]:
        # Per-thread caches do not travel: a copy is the layout of the same map and rules.
        return (layout_of, (self.map, self.players, self.rules))

    def __repr__(self) -> str:
        return f"ObservationLayout({self.map.name!r}, players={self.players}, size={self.size})"


@lru_cache(maxsize=64)
def layout_of(game_map: GameMap, players: int, rules: Rules) -> ObservationLayout:
    return ObservationLayout(game_map, players, rules)


def observation_layout(
    game_map: str | GameMap, players: int, rules: Rules | None = None
) -> ObservationLayout:
    """The named slices of :func:`~ttr_rules.rl.encode_observation`'s vector for a map (an
    installed map's name or a :class:`~ttr_rules.GameMap`) and player count (``rules``: the
    map's by default).

    >>> layout = observation_layout("europe", 2)
    >>> layout["hand"]
    slice(0, 9, None)
    >>> layout.field("route_owner").shape == (len(load_map("europe").routes), 2)
    True
    """
    chosen = load_map(game_map) if isinstance(game_map, str) else game_map
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ValueError("players must be a whole number of players")
    return layout_of(chosen, players, rules if rules is not None else chosen.rules)
