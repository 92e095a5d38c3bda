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

import struct
import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import compress
from operator import is_not, ne
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from attrs import frozen

from ttr_rules import (
    Color,
    GameMap,
    GameState,
    PendingTunnel,
    Phase,
    PlayerState,
    PlayerView,
    Rules,
)

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


class _Network:
    """The cities that one player's routes join: a component label per city. Joining two
    components relabels the smaller one, so that a connection test is two list reads."""

    __slots__ = ("label", "members")

    def __init__(self, cities: int) -> None:
        self.label = list(range(cities))
        self.members = [[c] for c in range(cities)]

    def join(self, a: int, b: int) -> bool:
        """Join the components of ``a`` and ``b``; False when they were one already."""
        label, members = self.label, self.members
        keep, gone = label[a], label[b]
        if keep == gone:
            return False
        if len(members[keep]) < len(members[gone]):
            keep, gone = gone, keep
        moved = members[gone]
        for city in moved:
            label[city] = keep
        members[keep] += moved
        members[gone] = []
        return True


class _Seen:
    """One viewer's last vector and the values it was computed from.

    Successive states share the values that did not change (the engine copies a state by
    replacing fields), so :meth:`_Encoder.encode_state` compares each source with the one the
    vector was computed from, by identity, and rewrites only the fields whose source changed.
    The sources are kept alive here, so an identity match is never a reused id."""

    __slots__ = (
        "array",
        "common",
        "kept",
        "network",
        "open",
        "owners",
        "players",
        "seats",
        "state",
        "tunnel",
        "view",
    )

    def __init__(self, size: int, players: int, common: _Common) -> None:
        #: The fields that are the same for every viewer, shared with the other viewers.
        self.common = common
        #: The state last encoded (whose shared fields the vector holds).
        self.state: object = None
        self.array = np.zeros(size, dtype=np.float32)
        #: Writes go through a memoryview: several times cheaper than numpy's item assignment.
        self.view = self.array.data
        #: The ``players`` tuple last seen, and each seat's player state (viewer first).
        self.players: object = None
        self.seats: list[PlayerState | None] = [None] * players
        self.owners: tuple[int | None, ...] | None = None
        #: The cities the viewer's routes join (None: to rebuild).
        self.network: _Network | None = None
        #: The viewer's kept tickets the ticket fields were written from, and those of them
        #: that the viewer's routes do not connect yet.
        self.kept: tuple[int, ...] | None = None
        self.open: list[int] = []
        #: The pending tunnel whose route ``tunnel_route`` shows.
        self.tunnel: PendingTunnel | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # A cache: a copy starts afresh (memoryviews do not pickle).
        return (_Seen, (len(self.array), len(self.seats), self.common))


class _Common:
    """The fields that read the same for every viewer (the piles and counters, the discard,
    a pending tunnel's cards, the face-up row), written once per state and shared by the
    viewers of one environment: each viewer copies them in one slice instead of bringing
    its own copy up to date (with 4 players, each change would be written four times).
    Like :class:`_Seen`, it rewrites only what changed since the state it last wrote."""

    __slots__ = (
        "array",
        "block",
        "discard",
        "discard_counts",
        "face_up",
        "fields",
        "state",
        "tunnel",
        "view",
    )

    def __init__(self, size: int, fields: slice) -> None:
        self.array = np.zeros(size, dtype=np.float32)
        self.view = self.array.data
        #: The shared fields' slice, and those entries (what a viewer copies).
        self.fields = fields
        self.block = self.view[fields]
        self.state: object = None
        self.discard: tuple[Color, ...] | None = None
        self.discard_counts: list[int] = []
        self.face_up: tuple[Color | None, ...] | None = None
        self.tunnel: PendingTunnel | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Common, (len(self.array), self.fields))


def _changes(old: tuple[object, ...], new: tuple[object, ...]) -> list[int]:
    """The positions where two equally long tuples differ (one C-level pass)."""
    return list(compress(range(len(new)), map(ne, old, new)))


def _floats(values: Sequence[float]) -> memoryview:
    """A float32 memoryview of ``values`` (a source for the vectors' slice assignments)."""
    return np.array(values, dtype=np.float32).data


class _Encoder:
    """Per-layout index tables: :meth:`encode_view` writes a vector from scratch,
    :meth:`encode_state` brings a viewer's last vector up to date (see :class:`_Seen`).

    Vectors are written through memoryviews and ``struct`` packers, which cost a fraction of
    numpy's item and slice assignment from Python values."""

    def __init__(self, layout: ObservationLayout) -> None:
        game_map = layout.map
        self.layout_key = (game_map, layout.players, layout.rules)
        self.size = layout.size
        self.players = p = layout.players
        at = {f.name: f.start for f in layout.fields}
        self.seats = at["seats"]
        self.piles = at["piles"]
        self.scalars = at["final_round"]
        self.onehot_slice = slice(at["current_seat"], layout.field("phase").stop)
        self.discard = at["discard"]
        self.tunnel = slice(at["tunnel_payment"], layout.field("tunnel_owed").stop)
        self.route_owner = at["route_owner"]
        self.route_owner_slice = layout["route_owner"]
        self.stations = at["stations"]
        self.kept = at["tickets_kept"]
        self.tickets_slice = slice(at["tickets_kept"], layout.field("tickets_completed").stop)
        self.completed = at["tickets_completed"]
        self.offered = at["offered"]
        self.tunnel_route = at["tunnel_route"]
        self.face_up = at["face_up"]
        #: The fields from ``piles`` to ``face_up``, adjacent: :class:`_Common`'s (the
        #: ``current_seat`` and ``phase`` among them are rewritten per viewer).
        self.common_slice = slice(self.piles, layout.field("face_up").stop)
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
        #: Each ticket's two cities' indices, one tuple per end.
        self.ticket_a = tuple(a for a, _ in self.ticket_ends)
        self.ticket_b = tuple(b for _, b in self.ticket_ends)
        self.pack_seat = struct.Struct(f"{len(SEAT_COLUMNS)}f").pack_into
        #: The hand and the viewer's own seat row, adjacent in the layout: one write.
        assert self.seats == _KINDS
        self.pack_own = struct.Struct(f"{_KINDS + len(SEAT_COLUMNS)}f").pack_into
        #: Byte offset of each seat row (viewer first).
        self.seat_offsets = [4 * (self.seats + rel * len(SEAT_COLUMNS)) for rel in range(p)]
        self.pack_kinds = struct.Struct(f"{_KINDS}f").pack_into
        #: ``floats[n] == float(n)`` up to every count's bound but the turn's: a packer
        #: converts a float for a fraction of what an int costs it. A count beyond the
        #: table (none under the layout's bounds) raises IndexError, and is packed as an int.
        self.floats = tuple(map(float, range(int(layout.high[: layout["turn"].start].max()) + 1)))
        assert _KINDS == 9  # the hands' counts are unpacked into nine names
        self.pack_scalars = struct.Struct("4f").pack_into
        #: ``piles`` and the four counters after it, adjacent in the layout.
        assert self.scalars == self.piles + len(PILE_COLUMNS)
        self.pack_counts = struct.Struct(f"{len(PILE_COLUMNS) + 4}f").pack_into
        self.pack_tunnel = struct.Struct(f"{self.tunnel.stop - self.tunnel.start}f").pack_into
        self.no_tickets = _floats([0] * (self.tickets_slice.stop - self.tickets_slice.start))
        self.no_tunnel = _floats([0] * (self.tunnel.stop - self.tunnel.start))
        #: Per viewer, the seats in rotated order (the viewer first).
        self.rotation = [tuple((viewer + rel) % p for rel in range(p)) for viewer in range(p)]
        #: Per viewer, ``(rel, seat)`` of every other seat.
        self.others = [tuple(enumerate(seats))[1:] for seats in self.rotation]
        #: ``current_seat`` and ``phase`` together, by (seat to act relative to the viewer,
        #: phase); nobody acts once the game is over.
        self.onehots = [
            [
                _floats(
                    [i == rel and phase is not _GAME_OVER for i in range(p)]
                    + [q is phase for q in _PHASES]
                )
                for phase in _PHASES
            ]
            for rel in range(p)
        ]
        #: A face-up slot's entries by the card shown (None: an empty slot).
        self.card_onehot: dict[Color | None, memoryview] = {None: _floats([0] * _KINDS)}
        for c in _COLORS:
            self.card_onehot[c] = _floats([c is k for k in _COLORS])
        #: Per viewer, the ``route_owner`` row by owner seat (None: unclaimed).
        self.owner_rows: list[dict[int | None, memoryview]] = [
            {
                None: _floats([0] * p),
                **{
                    owner: _floats([(owner - viewer) % p == i for i in range(p)])
                    for owner in range(p)
                },
            }
            for viewer in range(p)
        ]
        self._local = threading.local()
        #: Route-owner transitions: ``id(after) -> (after, before, routes changed)``.
        self._transitions: dict[
            int, tuple[tuple[int | None, ...], tuple[int | None, ...], list[int]]
        ] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Shared per layout: a copy is the encoder of the same layout.
        return (_encoder, self.layout_key)

    def seen(self) -> list[_Seen]:
        """One :class:`_Seen` per viewer, for a caller that keeps its own (an environment)."""
        common = _Common(self.size, self.common_slice)
        return [_Seen(self.size, self.players, common) for _ in range(self.players)]

    def thread_seen(self) -> list[_Seen]:
        """This thread's :class:`_Seen` per viewer (what :func:`encode_state_observation`
        updates)."""
        try:
            return self._local.seen  # type: ignore[no-any-return]
        except AttributeError:
            self._local.seen = seen = self.seen()
            return seen

    # ------------------------------------------------------------------ pieces

    def _network(self, owners: tuple[int | None, ...], viewer: int) -> _Network:
        """The cities joined by the viewer's routes."""
        network = _Network(self.cities)
        ends = self.route_ends
        for r, o in enumerate(owners):
            if o == viewer:
                network.join(*ends[r])
        return network

    def _write_tickets(self, mv: memoryview, kept: tuple[int, ...], network: _Network) -> list[int]:
        """``tickets_kept`` and ``tickets_completed``; the kept tickets not completed."""
        mv[self.tickets_slice] = self.no_tickets
        ends, base, completed, label = self.ticket_ends, self.kept, self.completed, network.label
        open_tickets = []
        for t in kept:
            mv[base + t] = 1
            a, b = ends[t]
            if label[a] == label[b]:
                mv[completed + t] = 1
            else:
                open_tickets.append(t)
        return open_tickets

    def _write_stations(
        self, mv: memoryview, rel: int, cities: tuple[str, ...], value: int
    ) -> None:
        base, p, index = self.stations + rel, self.players, self.city_index
        for city in cities:
            mv[base + index[city] * p] = value

    def _write_offer(self, mv: memoryview, offered: tuple[int, ...], value: int) -> None:
        base, t_count = self.offered, self.tickets
        for i, t in enumerate(offered):
            mv[base + i * t_count + t] = value

    def _write_tunnel(self, mv: memoryview, tunnel: PendingTunnel) -> None:
        mv[self.tunnel_route + tunnel.route] = 1
        self._write_tunnel_cards(mv, tunnel)

    def _write_tunnel_cards(self, mv: memoryview, tunnel: PendingTunnel) -> None:
        """``tunnel_payment``, ``tunnel_revealed`` and ``tunnel_owed``."""
        payment = [0] * _KINDS
        length = self.route_length[tunnel.route]
        if tunnel.color is _LOCOMOTIVE:
            payment[-1] = length
        else:
            payment[tunnel.color.code] = length - tunnel.locomotives
            payment[-1] = tunnel.locomotives
        self.pack_tunnel(mv, 4 * self.tunnel.start, *payment, *_kinds(tunnel.revealed), tunnel.owed)

    def _write_scalars(self, mv: memoryview, final: int | None, passes: int, turn: int) -> None:
        if final is None:
            self.pack_scalars(mv, 4 * self.scalars, 0, 0, passes, turn)
        else:
            self.pack_scalars(mv, 4 * self.scalars, 1, final, passes, turn)

    def _write_face_up(
        self,
        mv: memoryview,
        face_up: tuple[Color | None, ...],
        old: tuple[Color | None, ...] | None,
    ) -> None:
        """The face-up slots that differ from ``old`` (all of them when None)."""
        start, onehot = self.face_up, self.card_onehot
        before_row: tuple[object, ...] = old or ()
        if len(before_row) != len(face_up):
            before_row = (_UNSEEN,) * len(face_up)
        for card, before in zip(face_up, before_row, strict=True):
            if card is not before:
                mv[start : start + _KINDS] = onehot[card]
            start += _KINDS

    # ------------------------------------------------------------------ a view

    def encode_view(self, view: PlayerView, viewer: int) -> NDArray[np.float32]:
        """The vector of ``viewer``'s view, written from scratch."""
        a = np.zeros(self.size, dtype=np.float32)
        mv = a.data
        seats = view.seats
        own = seats[viewer]
        if own.hand is not None:
            self.pack_kinds(mv, 0, *own.hand.counts)
        left = self.stations_per_player
        for rel, seat in enumerate(self.rotation[viewer]):
            s = seats[seat]
            self.pack_seat(
                mv,
                4 * (self.seats + rel * len(SEAT_COLUMNS)),
                s.hand_size,
                s.trains,
                left - len(s.stations),
                s.route_points,
                s.ticket_count,
                s.offered_count,
            )
            self._write_stations(mv, rel, s.stations, 1)
        mv[self.piles : self.piles + len(PILE_COLUMNS)] = _floats(
            [view.deck_size, view.ticket_deck_size, view.ticket_box_size, view.out_of_play_size]
        )
        self._write_scalars(mv, view.final_turns, view.passes, view.turn)
        rel = (view.current - viewer) % self.players
        mv[self.onehot_slice] = self.onehots[rel][_PHASES.index(view.phase)]
        self.pack_kinds(mv, 4 * self.discard, *_kinds(view.discard))
        if view.tunnel is not None:
            self._write_tunnel(mv, view.tunnel)
        self._write_face_up(mv, view.face_up, None)
        owners, rows, base, p = (
            view.route_owner,
            self.owner_rows[viewer],
            self.route_owner,
            self.players,
        )
        for r, o in enumerate(owners):
            if o is not None:
                mv[base + r * p : base + r * p + p] = rows[o]
        if own.tickets:
            self._write_tickets(mv, own.tickets, self._network(owners, viewer))
        self._write_offer(mv, own.offered or (), 1)
        return a

    # ------------------------------------------------------------------ a state

    def encode_state(self, seen: _Seen, state: GameState, viewer: int) -> NDArray[np.float32]:
        """``viewer``'s vector of ``state``: ``seen``'s last one with the fields whose sources
        changed rewritten, copied."""
        mv = seen.view
        joined = False
        players = state.players
        if players is not seen.players:
            seats, left, F = seen.seats, self.stations_per_player, self.floats
            # The viewer's own row and hand (one write), then the others' rows.
            ps = players[viewer]
            old = seats[0]
            if ps is not old:
                seats[0] = ps
                stations, offered = ps.stations, ps.offered
                h0, h1, h2, h3, h4, h5, h6, h7, h8 = ps.hand.counts
                try:
                    self.pack_own(
                        mv,
                        0,
                        F[h0],
                        F[h1],
                        F[h2],
                        F[h3],
                        F[h4],
                        F[h5],
                        F[h6],
                        F[h7],
                        F[h8],
                        F[h0 + h1 + h2 + h3 + h4 + h5 + h6 + h7 + h8],
                        F[ps.trains],
                        F[left - len(stations)],
                        F[ps.route_points],
                        F[len(ps.tickets)],
                        F[len(offered)],
                    )
                except IndexError:  # a count beyond the table
                    self.pack_own(mv, 0, *ps.hand.counts, *self._seat_counts(ps))
                if old is None:
                    self._write_offer(mv, offered, 1)
                    self._write_stations(mv, 0, stations, 1)
                else:
                    if offered is not old.offered:
                        self._write_offer(mv, old.offered, 0)
                        self._write_offer(mv, offered, 1)
                    if stations is not old.stations:
                        self._write_stations(mv, 0, old.stations, 0)
                        self._write_stations(mv, 0, stations, 1)
            offsets = self.seat_offsets
            for rel, seat in self.others[viewer]:
                ps = players[seat]
                old = seats[rel]
                if ps is old:
                    continue
                seats[rel] = ps
                stations = ps.stations
                h0, h1, h2, h3, h4, h5, h6, h7, h8 = ps.hand.counts
                try:
                    self.pack_seat(
                        mv,
                        offsets[rel],
                        F[h0 + h1 + h2 + h3 + h4 + h5 + h6 + h7 + h8],
                        F[ps.trains],
                        F[left - len(stations)],
                        F[ps.route_points],
                        F[len(ps.tickets)],
                        F[len(ps.offered)],
                    )
                except IndexError:  # a count beyond the table
                    self.pack_seat(mv, offsets[rel], *self._seat_counts(ps))
                if old is None:
                    self._write_stations(mv, rel, stations, 1)
                elif stations is not old.stations:
                    self._write_stations(mv, rel, old.stations, 0)
                    self._write_stations(mv, rel, stations, 1)
            seen.players = players
        owners = state.route_owner
        old_owners = seen.owners
        if owners is not old_owners:
            base, p, rows = self.route_owner, self.players, self.owner_rows[viewer]
            if old_owners is None or len(old_owners) != len(owners):
                changed: Iterable[int] = range(len(owners))
                old_owners = None
                seen.network = None
            else:
                changed = self._changes(old_owners, owners)
            network = seen.network
            for r in changed:
                o = owners[r]
                mv[base + r * p : base + r * p + p] = rows[o]
                if o == viewer:
                    if network is not None and network.join(*self.route_ends[r]):
                        joined = True
                elif old_owners is not None and old_owners[r] == viewer:  # not in a game
                    seen.network = network = None
            seen.owners = owners
        kept = players[viewer].tickets
        if kept is not seen.kept or seen.network is None:
            if seen.network is None:
                seen.network = self._network(owners, viewer)
            seen.open = self._write_tickets(mv, kept, seen.network)
            seen.kept = kept
        elif joined and seen.open:
            label, ta, tb, was_open = seen.network.label, self.ticket_a, self.ticket_b, seen.open
            still = [t for t in was_open if label[ta[t]] != label[tb[t]]]
            if len(still) < len(was_open):
                completed = self.completed
                for t in set(was_open).difference(still):
                    mv[completed + t] = 1
            seen.open = still
        if state is not seen.state:
            common = seen.common
            if state is not common.state:
                self._write_common(common, state)
            mv[self.common_slice] = common.block
            # tuple.index compares by identity first: cheaper than hashing an enum member.
            rel = (state.current - viewer) % self.players
            mv[self.onehot_slice] = self.onehots[rel][_PHASES.index(state.phase)]
            seen.state = state
            tunnel = state.tunnel
            if tunnel is not seen.tunnel:
                if seen.tunnel is not None:
                    mv[self.tunnel_route + seen.tunnel.route] = 0
                if tunnel is not None:
                    mv[self.tunnel_route + tunnel.route] = 1
                seen.tunnel = tunnel
        return seen.array.copy()

    def _seat_counts(self, ps: PlayerState) -> tuple[int, ...]:
        """``ps``'s seat row (``SEAT_COLUMNS``)."""
        return (
            sum(ps.hand.counts),
            ps.trains,
            self.stations_per_player - len(ps.stations),
            ps.route_points,
            len(ps.tickets),
            len(ps.offered),
        )

    def _write_common(self, common: _Common, state: GameState) -> None:
        """Bring ``common`` up to date with ``state``: the fields whose sources changed."""
        mv = common.view
        # The piles' sizes and the counters, adjacent in the layout: one write, unconditional
        # (the deck or the turn changes on most steps; comparing costs about what writing does).
        final, F = state.final_turns, self.floats
        piles = (len(state.deck), len(state.ticket_deck), len(state.ticket_box))
        try:
            self.pack_counts(
                mv,
                4 * self.piles,
                F[piles[0]],
                F[piles[1]],
                F[piles[2]],
                F[len(state.out_of_play)],
                F[final is not None],
                F[final or 0],
                F[state.passes],
                float(state.turn),
            )
        except IndexError:  # a count beyond the table
            self.pack_counts(
                mv,
                4 * self.piles,
                *piles,
                len(state.out_of_play),
                final is not None,
                final or 0,
                state.passes,
                state.turn,
            )
        discard = state.discard
        if discard is not common.discard:
            before = common.discard
            if before is not None and discard[: len(before)] == before:
                counts = common.discard_counts  # its own list: updated in place
                for card in discard[len(before) :]:
                    counts[card.code] += 1
            else:
                counts = _kinds(discard)
            self.pack_kinds(mv, 4 * self.discard, *counts)
            common.discard = discard
            common.discard_counts = counts
        face_up = state.face_up
        before_row = common.face_up
        if face_up is not before_row:
            slots: Iterable[int] = range(len(face_up))
            if before_row is not None and len(before_row) == len(face_up):
                slots = compress(slots, map(is_not, before_row, face_up))
            start, cards = self.face_up, self.card_onehot
            for slot in slots:
                at = start + slot * _KINDS
                mv[at : at + _KINDS] = cards[face_up[slot]]
            common.face_up = face_up
        tunnel = state.tunnel
        if tunnel is not common.tunnel:
            if tunnel is None:
                mv[self.tunnel] = self.no_tunnel
            else:
                self._write_tunnel_cards(mv, tunnel)
            common.tunnel = tunnel
        common.state = state

    def note_claim(
        self, before: tuple[int | None, ...], after: tuple[int | None, ...], route: int
    ) -> None:
        """Record that the route owners ``after`` are ``before`` with ``route`` claimed (what
        an environment knows from the action it applied), so that :meth:`encode_state` finds
        the changed routes without comparing the two tuples entry by entry.

        Only the claimed route is checked (unowned before, owned after): a route changes hands
        only by being claimed, one per turn (E27), so the others are equal. Comparing them
        too cost more than the rest of a step's observation update (about 22,000
        instructions per claim on Europe)."""
        if (
            len(before) == len(after)
            and 0 <= route < len(after)
            and before[route] is None
            and after[route] is not None
        ):
            self._remember(before, after, [route])

    def _remember(
        self, before: tuple[int | None, ...], after: tuple[int | None, ...], changed: list[int]
    ) -> None:
        transitions = self._transitions
        if len(transitions) >= 64:
            transitions.clear()
        transitions[id(after)] = (after, before, changed)

    def _changes(self, old: tuple[int | None, ...], new: tuple[int | None, ...]) -> list[int]:
        """The routes whose owner differs between ``old`` and ``new``: through the recorded
        transitions that lead from ``old`` to ``new`` when there are any (each entry keeps its
        tuples alive, so an id found is the tuple recorded), else compared entry by entry."""
        transitions, found, at = self._transitions, [], new
        for _ in range(2 * self.players + 2):
            step = transitions.get(id(at))
            if step is None or step[0] is not at:
                break
            found += step[2]
            at = step[1]
            if at is old:
                return found
        found = _changes(old, new)
        self._remember(old, new, found)
        return found


_LOCOMOTIVE: Final = Color.LOCOMOTIVE
_COLORS: Final = tuple(Color)
_GAME_OVER: Final = Phase.GAME_OVER
#: Stands for a face-up slot not written yet (no card is this object).
_UNSEEN: Final = object()


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
    return _encoder(view.map, len(view.seats), view.rules).encode_view(view, viewer)


def encode_state_observation(state: GameState, player: int) -> NDArray[np.float32]:
    """``encode_observation(observe(state, player))`` without building the view (what the
    environments call on every step). Reads only what :func:`~ttr_rules.observe` shows
    ``player``; the tests check the two agree on every position.

    >>> from ttr_rules import new_game, observe
    >>> state = new_game("europe", players=2, seed=5)
    >>> bool((encode_state_observation(state, 1) == encode_observation(observe(state, 1))).all())
    True
    """
    players = len(state.players)
    if not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"player must be a seat from 0 to {players - 1}, got {player!r}")
    enc = _encoder(state.map, players, state.rules)
    return enc.encode_state(enc.thread_seen()[player], state, player)
