"""A player's view as a flat float32 array of fixed shape (issue 13).

:func:`encode_observation` turns a :class:`~ttr_rules.PlayerView` into a vector whose length
depends only on the map, the player count and the rules. It reads nothing but the view, so it
never holds hidden information (rule E79). Seats are rotated so that the viewer comes
first: in every per-seat field, entry 0 is the viewer, entry 1 the next player in turn order,
and so on. :func:`observation_layout` names every slice (``layout["hand"]``,
``layout.unpack(vector)``); the docs page "Reinforcement learning" has the table of fields.
Counts are raw (not normalised); the one-hot fields are 0 or 1; the layout's ``low`` and
``high`` bound every entry.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from attrs import frozen

from ttr_rules import Color, GameMap, GameState, Phase, PlayerView, Rules

from .space import offer_positions

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "PILE_COLUMNS",
    "SEAT_COLUMNS",
    "ObservationField",
    "ObservationLayout",
    "encode_observation",
    "encode_state_observation",
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
        specs: list[tuple[str, tuple[int, ...], bool, str]] = [
            ("hand", (_KINDS,), False, "the viewer's cards by kind"),
            ("seats", (p, len(SEAT_COLUMNS)), False, "per seat: " + ", ".join(SEAT_COLUMNS)),
            ("piles", (len(PILE_COLUMNS),), False, ", ".join(PILE_COLUMNS)),
            ("final_round", (1,), True, "1 once the final round has started"),
            ("final_turns", (1,), False, "turns left in the final round"),
            ("passes", (1,), False, "consecutive forced passes"),
            ("turn", (1,), False, "completed turns"),
            ("current_seat", (p,), True, "one-hot seat to act"),
            ("phase", (len(_PHASES),), True, "one-hot phase"),
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
            high[self[name]] = bound
        self.low: Final = np.zeros(self.size, dtype=np.float32)
        self.high: Final = high
        self._encoder = _Encoder(self)

    def _bounds(self) -> dict[str, float | NDArray[np.float32]]:
        """The largest value of each counting field (``high`` of a Box space)."""
        rules, game_map, p = self.rules, self.map, self.players
        cards = 8 * rules.cards_per_color + rules.locomotive_cards
        tickets = len(game_map.tickets)
        scores = rules.route_scores
        route_points = sum(scores[r.length] for r in game_map.routes if r.length < len(scores))
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
        return (_layout, (self.map, self.players, self.rules))

    def __repr__(self) -> str:
        return f"ObservationLayout({self.map.name!r}, players={self.players}, size={self.size})"


@lru_cache(maxsize=64)
def _layout(game_map: GameMap, players: int, rules: Rules) -> ObservationLayout:
    return ObservationLayout(game_map, players, rules)


def observation_layout(
    game_map: GameMap, players: int, rules: Rules | None = None
) -> ObservationLayout:
    """The named slices of :func:`encode_observation`'s vector (``rules``: the map's by
    default).

    >>> from ttr_rules import load_map
    >>> layout = observation_layout(load_map("europe"), 2)
    >>> layout["hand"]
    slice(0, 9, None)
    >>> layout.field("route_owner").shape == (len(load_map("europe").routes), 2)
    True
    """
    return _layout(game_map, players, rules if rules is not None else game_map.rules)


class _Board:
    """One viewer's slowly changing fields and the values they were computed from."""

    __slots__ = (
        "array",
        "discard",
        "discard_counts",
        "kept",
        "offered",
        "owners",
        "parent",
        "stations",
    )

    def __init__(self, size: int) -> None:
        self.array = np.zeros(size, dtype=np.float32)
        self.owners: tuple[int | None, ...] | None = None
        self.discard: tuple[Color, ...] | None = None
        self.stations: tuple[tuple[str, ...], ...] | None = None
        self.kept: tuple[int, ...] | None = None
        self.offered: tuple[int, ...] | None = None
        self.discard_counts: list[int] = []
        #: Union-find parents of the cities over the viewer's routes (None: to rebuild).
        self.parent: list[int] | None = None


def _changes(old: tuple[object, ...], new: tuple[object, ...]) -> list[int]:
    """The positions where two equally long tuples differ (one C-level pass)."""
    return list(compress(range(len(new)), map(ne, old, new)))


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _union(parent: list[int], a: int, b: int) -> None:
    parent[_find(parent, a)] = _find(parent, b)


class _Encoder:
    """Per-layout index tables and, per thread and viewer, the last board encoded.

    Successive states share the values that did not change (the engine copies a state by
    replacing fields), so each viewer's slowly changing fields — route owners, discard,
    stations, own tickets and offer — are updated in place from the previous ones, compared by
    identity first; the board keeps the values it was computed from alive, so an identity
    match is never a stale id.
    """

    def __init__(self, layout: ObservationLayout) -> None:
        game_map = layout.map
        self.size = layout.size
        self.players = p = layout.players
        self.scalars = slice(0, layout.field("phase").stop)
        at = {f.name: f.start for f in layout.fields}
        self.discard = layout["discard"]
        self.tunnel = slice(at["tunnel_payment"], layout.field("tunnel_owed").stop)
        self.route_owner = at["route_owner"]
        self.route_owner_slice = layout["route_owner"]
        self.stations = at["stations"]
        self.stations_slice = layout["stations"]
        self.kept = at["tickets_kept"]
        self.tickets_slice = slice(at["tickets_kept"], layout.field("tickets_completed").stop)
        self.completed = at["tickets_completed"]
        self.offered = at["offered"]
        self.offered_slice = layout["offered"]
        self.tunnel_route = at["tunnel_route"]
        self.tickets = len(game_map.tickets)
        self.stations_per_player = layout.rules.stations_per_player
        self.city_index = {c: i for i, c in enumerate(game_map.cities)}
        self.route_length = tuple(r.length for r in game_map.routes)
        self.route_ends = tuple(
            (self.city_index[r.a], self.city_index[r.b]) for r in game_map.routes
        )
        self.ticket_ends = tuple(
            (self.city_index[t.a], self.city_index[t.b]) for t in game_map.tickets
        )
        self.cities = len(game_map.cities)
        self.face_up_slice = layout["face_up"]
        #: ``(one-hot seat to act, one-hot phase)`` by (seat to act relative to the viewer,
        #: phase); nobody acts once the game is over.
        self.turn_onehots = [
            [
                tuple(int(i == rel and phase is not _GAME_OVER) for i in range(p))
                + tuple(int(q is phase) for q in _PHASES)
                for phase in _PHASES
            ]
            for rel in range(p)
        ]
        self._local = threading.local()
        #: Per viewer, the ``route_owner`` row of each owner seat; row −1: unclaimed.
        self.owner_rows = []
        for viewer in range(p):
            rows = np.zeros((p + 1, p), dtype=np.float32)
            for owner in range(p):
                rows[owner, (owner - viewer) % p] = 1
            self.owner_rows.append(rows)
        self._last_change: tuple[object, object, list[int]] = ((), (), [])

    def _boards(self) -> list[_Board]:
        try:
            return self._local.boards  # type: ignore[no-any-return]
        except AttributeError:
            self._local.boards = boards = [_Board(self.size) for _ in range(self.players)]
            self._local.face_up = ((), np.zeros(0, np.float32))
            return boards

    def board(
        self,
        viewer: int,
        owners: tuple[int | None, ...],
        discard: tuple[Color, ...],
        stations: tuple[tuple[str, ...], ...],
        kept: tuple[int, ...],
        offered: tuple[int, ...],
    ) -> NDArray[np.float32]:
        """The viewer's vector holding only the slowly changing fields (route owners, the
        discard, stations — ``stations`` viewer first —, kept and completed tickets, the
        offer), brought up to date. Copy it before changing it."""
        b = self._boards()[viewer]
        array = b.array
        p = self.players
        old = b.owners
        own_changed = False
        if old is not owners:
            base = self.route_owner
            rows = self.owner_rows[viewer]
            if old is None or len(old) != len(owners):
                array[self.route_owner_slice] = 0
                changed = [r for r, o in enumerate(owners) if o is not None]
                b.parent = None
            else:
                changed = self._changes(old, owners)
            parent = b.parent
            for r in changed:
                o = owners[r]
                start = base + r * p
                array[start : start + p] = rows[-1 if o is None else o]
                if o == viewer:
                    own_changed = True
                    if parent is not None:
                        _union(parent, *self.route_ends[r])
                elif old is not None and old[r] == viewer:  # not in a game: rebuild
                    own_changed = True
                    b.parent = parent = None
            b.owners = owners
        if b.discard is not discard:
            before = b.discard
            if before is not None and discard[: len(before)] == before:
                counts = b.discard_counts.copy()
                for card in discard[len(before) :]:
                    counts[card.code] += 1
            else:
                counts = [discard.count(c) for c in _COLORS]
            array[self.discard] = counts
            b.discard = discard
            b.discard_counts = counts
        if b.stations != stations:
            array[self.stations_slice] = 0
            city_index, base = self.city_index, self.stations
            array.put(
                [base + city_index[c] * p + rel for rel, cs in enumerate(stations) for c in cs], 1
            )
            b.stations = stations
        if own_changed or b.kept is not kept:
            array[self.tickets_slice] = 0
            ones = [self.kept + t for t in kept]
            if kept:
                if b.parent is None:
                    b.parent = self._parent(owners, viewer)
                parent, ends = b.parent, self.ticket_ends
                ones += [
                    self.completed + t
                    for t in kept
                    if _find(parent, ends[t][0]) == _find(parent, ends[t][1])
                ]
            array.put(ones, 1)
            b.kept = kept
        if b.offered is not offered:
            array[self.offered_slice] = 0
            t_count, base = self.tickets, self.offered
            array.put([base + i * t_count + t for i, t in enumerate(offered)], 1)
            b.offered = offered
        return array

    def _changes(self, old: tuple[int | None, ...], new: tuple[int | None, ...]) -> list[int]:
        """:func:`_changes`, remembering the last pair: the other viewers see the same
        transition."""
        last = self._last_change
        if last[0] is old and last[1] is new:
            return last[2]
        found = _changes(old, new)
        self._last_change = (old, new, found)
        return found

    def _parent(self, owners: tuple[int | None, ...], viewer: int) -> list[int]:
        """Union-find parents of the cities joined by the viewer's routes."""
        parent = list(range(self.cities))
        ends = self.route_ends
        for r, o in enumerate(owners):
            if o == viewer:
                _union(parent, *ends[r])
        return parent

    def face_up_row(self, face_up: tuple[Color | None, ...]) -> NDArray[np.float32]:
        """The ``face_up`` field (cached for the last row seen)."""
        local = self._local
        last = local.face_up
        if last[0] is face_up:
            return last[1]  # type: ignore[no-any-return]
        row = np.zeros(len(face_up) * _KINDS, dtype=np.float32)
        row.put([slot * _KINDS + c.code for slot, c in enumerate(face_up) if c], 1)
        local.face_up = (face_up, row)
        return row

    def finish(
        self,
        game: GameState | PlayerView,
        viewer: int,
        values: list[int],
        board: NDArray[np.float32],
    ) -> NDArray[np.float32]:
        """Add the final-round scalars, the seat to act and the phase (``values`` holds the
        scalars before them), the face-up row and a pending tunnel to a copy of ``board``."""
        final = game.final_turns
        if final is None:
            values += (0, 0, game.passes, game.turn)
        else:
            values += (1, final, game.passes, game.turn)
        # tuple.index compares by identity first: cheaper than hashing an enum member.
        values += self.turn_onehots[(game.current - viewer) % self.players][
            _PHASES.index(game.phase)
        ]
        obs = board.copy()
        obs[self.scalars] = values
        obs[self.face_up_slice] = self.face_up_row(game.face_up)
        tunnel = game.tunnel
        if tunnel is not None:
            obs[self.tunnel_route + tunnel.route] = 1
            payment = [0] * _KINDS
            length = self.route_length[tunnel.route]
            if tunnel.color is _LOCOMOTIVE:
                payment[-1] = length
            else:
                payment[tunnel.color.code] = length - tunnel.locomotives
                payment[-1] = tunnel.locomotives
            obs[self.tunnel] = [*payment, *_kinds(tunnel.revealed), tunnel.owed]
        return obs


_LOCOMOTIVE: Final = Color.LOCOMOTIVE
_COLORS: Final = tuple(Color)
_GAME_OVER: Final = Phase.GAME_OVER


def _kinds(cards: Sequence[Color]) -> list[int]:
    counts = [0] * _KINDS
    for card in cards:
        counts[card.code] += 1
    return counts


_last_encoder: list[tuple[GameMap, int, Rules, _Encoder]] = []


def _encoder(game_map: GameMap, players: int, rules: Rules) -> _Encoder:
    """The layout's encoder; the last one used is checked by identity first."""
    if _last_encoder:
        last_map, last_players, last_rules, encoder = _last_encoder[0]
        if last_map is game_map and last_players == players and last_rules is rules:
            return encoder
    encoder = _layout(game_map, players, rules)._encoder
    _last_encoder[:] = [(game_map, players, rules, encoder)]
    return encoder


def encode_observation(view: PlayerView) -> NDArray[np.float32]:
    """``view`` as a float32 vector of :func:`observation_layout`'s shape, seats rotated so
    that the viewer comes first. Raises :class:`ValueError` for a spectator's view.

    >>> from ttr_rules import new_game, observe
    >>> state = new_game("europe", players=3, seed=2)
    >>> obs = encode_observation(observe(state, 1))
    >>> obs.dtype, obs.shape == observation_layout(state.map, 3).shape
    (dtype('float32'), True)
    >>> layout = observation_layout(state.map, 3)
    >>> bool((obs[layout["hand"]] == state.players[1].hand.counts).all())
    True
    """
    viewer = view.player
    if viewer is None:
        raise ValueError("encode_observation needs a player's view, not a spectator's")
    seats = view.seats
    enc = _encoder(view.map, len(seats), view.rules)
    own = seats[viewer]
    values: list[int] = list(own.hand.counts) if own.hand is not None else [0] * _KINDS
    left = enc.stations_per_player
    order = seats[viewer:] + seats[:viewer]
    for s in order:
        values += (
            s.hand_size,
            s.trains,
            left - len(s.stations),
            s.route_points,
            s.ticket_count,
            s.offered_count,
        )
    values += (view.deck_size, view.ticket_deck_size, view.ticket_box_size, view.out_of_play_size)
    board = enc.board(
        viewer,
        view.route_owner,
        view.discard,
        tuple(s.stations for s in order),
        own.tickets or (),
        own.offered or (),
    )
    return enc.finish(view, viewer, values, board)


def encode_state_observation(state: GameState, player: int) -> NDArray[np.float32]:
    """``encode_observation(observe(state, player))`` without building the view (what the
    environments call on every step). Reads only what :func:`~ttr_rules.observe` shows
    ``player``; the tests check the two agree on every position.

    >>> from ttr_rules import new_game, observe
    >>> state = new_game("europe", players=2, seed=5)
    >>> bool((encode_state_observation(state, 1) == encode_observation(observe(state, 1))).all())
    True
    """
    players = state.players
    if not isinstance(player, int) or not 0 <= player < len(players):
        raise ValueError(f"player must be a seat from 0 to {len(players) - 1}, got {player!r}")
    enc = _encoder(state.map, len(players), state.rules)
    own = players[player]
    values: list[int] = list(own.hand.counts)
    left = enc.stations_per_player
    order = players[player:] + players[:player]
    stations = []
    for p in order:
        values += (
            sum(p.hand.counts),
            p.trains,
            left - len(p.stations),
            p.route_points,
            len(p.tickets),
            len(p.offered),
        )
        stations.append(p.stations)
    values += (
        len(state.deck),
        len(state.ticket_deck),
        len(state.ticket_box),
        len(state.out_of_play),
    )
    board = enc.board(
        player,
        state.route_owner,
        state.discard,
        tuple(stations),
        own.tickets,
        own.offered,
    )
    return enc.finish(state, player, values, board)
