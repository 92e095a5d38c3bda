"""Encoders of the observation vector (issue 13): :func:`encode_observation` writes a view's
vector from scratch; a :class:`_Board` keeps every viewer's vector of one state and brings it
up to date from the state before, for the environments that step through a game.

The vector's fields are those of :func:`~ttr_rules.rl.observation_layout`. The encoders read
nothing but what :func:`~ttr_rules.observe` shows the viewer, so they never hold hidden
information (rule E79); the tests check both encoders against each other on every map.
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

from ttr_rules import (
    Color,
    GameMap,
    GameState,
    PendingPayment,
    PendingTunnel,
    Phase,
    PlayerState,
    PlayerView,
    Rules,
)
from ttr_rules.cards import count_colors, pile_counts

from .layout import PILE_COLUMNS, SEAT_COLUMNS, ObservationLayout, layout_of

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["encode_observation", "encode_state_observation"]

_KINDS: Final = len(Color)
_PHASES: Final = tuple(Phase)


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


def _changes(old: tuple[object, ...], new: tuple[object, ...]) -> list[int]:
    """The positions where two equally long tuples differ (one C-level pass)."""
    return list(compress(range(len(new)), map(ne, old, new)))


def _floats(values: Sequence[float]) -> memoryview:
    """A float32 memoryview of ``values`` (a source for the vectors' slice assignments)."""
    return np.array(values, dtype=np.float32).data


class _Encoder:
    """Per-layout index tables: :meth:`encode_view` writes a vector from scratch; a
    :class:`_Board` keeps every viewer's vector of the last state it was given.

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
        self.stations = at["stations"]
        self.kept = at["tickets_kept"]
        self.tickets_slice = slice(at["tickets_kept"], layout.field("tickets_completed").stop)
        self.completed = at["tickets_completed"]
        self.offered = at["offered"]
        self.tunnel_route = at["tunnel_route"]
        #: A payment with sets being picked (boards with sets only; -1 elsewhere): the
        #: picked cards (the picker's own vector only) and the route.
        self.payment_cards = at.get("payment_cards", -1)
        self.payment_route = at.get("payment_route", -1)
        self.face_up = at["face_up"]
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
        #: A hand and the viewer's own seat row, adjacent in the layout: one write.
        assert self.seats == _KINDS
        self.pack_own = struct.Struct(f"{_KINDS + len(SEAT_COLUMNS)}f").pack_into
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
        self.no_cards = _floats([0] * _KINDS)
        self.no_routes = _floats([0] * len(game_map.routes))
        #: Per viewer, the seats in rotated order (the viewer first).
        self.rotation = [tuple((viewer + rel) % p for rel in range(p)) for viewer in range(p)]
        #: ``current_seat`` and ``phase`` together, by (seat to act relative to the viewer,
        #: phase); nobody acts once the game is over.
        phases = _PHASES[: layout.field("phase").stop - layout.field("phase").start]
        self.onehots = [
            [
                _floats(
                    [i == rel and phase is not _GAME_OVER for i in range(p)]
                    + [q is phase for q in phases]
                )
                for phase in _PHASES
            ]
            for rel in range(p)
        ]
        #: A face-up slot's entries by the card shown (None: an empty slot).
        self.card_onehot: dict[Color | None, memoryview] = {None: _floats([0] * _KINDS)}
        for c in _COLORS:
            self.card_onehot[c] = _floats([c is k for k in _COLORS])
        #: Each face-up slot's entries.
        self.face_up_slots = tuple(
            slice(self.face_up + slot * _KINDS, self.face_up + (slot + 1) * _KINDS)
            for slot in range(layout.rules.face_up_size)
        )
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
        # A board's buffer (see _Board): a slab of the layout's size per viewer, and one for
        # the fields every viewer shares.
        size = self.size
        self.board_size = (p + 1) * size
        self.seat_range = range(p)

        def cells(base: int, count: int) -> list[tuple[tuple[int, ...], ...]]:
            """Per owner seat and item, the entries of a one-hot-by-seat field in every slab."""
            return [
                tuple(
                    tuple(v * size + base + item * p + (owner - v) % p for v in range(p))
                    for item in range(count)
                )
                for owner in range(p)
            ]

        #: Per owner seat, per route (city), the buffer's entries that say it owns it.
        self.route_cells = cells(self.route_owner, len(game_map.routes))
        self.station_cells = cells(self.stations, self.cities)
        #: Per route, its ``tunnel_route`` entry in every slab.
        self.tunnel_cells = [
            tuple(v * size + self.tunnel_route + r for v in range(p))
            for r in range(len(game_map.routes))
        ]
        #: By (seat to act, phase), each viewer's ``current_seat`` and ``phase`` entries.
        self.current_onehots = [
            [
                tuple(self.onehots[(current - v) % p][i] for v in range(p))
                for i in range(len(_PHASES))
            ]
            for current in range(p)
        ]
        self._local = threading.local()
        #: Route-owner transitions: ``id(after) -> (after, before, routes changed)``.
        self._transitions: dict[
            int, tuple[tuple[int | None, ...], tuple[int | None, ...], list[int]]
        ] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Shared per layout: a copy is the encoder of the same layout.
        return (_encoder, self.layout_key)

    def board(self) -> _Board:
        """A :class:`_Board` of this layout, for a caller that keeps its own (an environment)."""
        return _Board(self)

    def thread_board(self) -> _Board:
        """This thread's :class:`_Board` (what :func:`encode_state_observation` updates)."""
        try:
            return self._local.board  # type: ignore[no-any-return]
        except AttributeError:
            self._local.board = board = _Board(self)
            return board

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

    def _write_payment(self, mv: memoryview, route: int, cards: tuple[Color, ...]) -> None:
        """``payment_route`` and ``payment_cards`` (the cards as the viewer sees them)."""
        mv[self.payment_route + route] = 1
        self.pack_kinds(mv, 4 * self.payment_cards, *count_colors(cards))

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
        self.pack_tunnel(
            mv, 4 * self.tunnel.start, *payment, *count_colors(tunnel.revealed), tunnel.owed
        )

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
        """The face-up slots whose card is not ``old``'s (all of them when ``old`` is None or
        of another length)."""
        slots, cards = self.face_up_slots, self.card_onehot
        if old is not None and len(old) == len(face_up) == 5:
            # The official row (E6), unrolled: a loop, or compress and map, over its slots costs
            # two to three times the one slot that a step usually changes.
            o0, o1, o2, o3, o4 = old
            c0, c1, c2, c3, c4 = face_up
            if c0 is not o0:
                mv[slots[0]] = cards[c0]
            if c1 is not o1:
                mv[slots[1]] = cards[c1]
            if c2 is not o2:
                mv[slots[2]] = cards[c2]
            if c3 is not o3:
                mv[slots[3]] = cards[c3]
            if c4 is not o4:
                mv[slots[4]] = cards[c4]
            return
        changed: Iterable[int] = range(len(face_up))
        if old is not None and len(old) == len(face_up):
            changed = compress(changed, map(is_not, old, face_up))
        for slot in changed:
            mv[slots[slot]] = cards[face_up[slot]]

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
        self.pack_kinds(mv, 4 * self.discard, *count_colors(view.discard))
        if view.tunnel is not None:
            self._write_tunnel(mv, view.tunnel)
        if view.payment is not None and self.payment_route >= 0:
            self._write_payment(mv, view.payment.route, view.payment.cards)
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

    def note_claim(
        self, before: tuple[int | None, ...], after: tuple[int | None, ...], route: int
    ) -> None:
        """Record that the route owners ``after`` are ``before`` with ``route`` claimed (what
        an environment knows from the action it applied), so that :meth:`_Board.update` finds
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


class _Board:
    """Every viewer's observation of one state, in one float32 buffer brought up to date
    once per state, whoever observes (what an environment keeps).

    The buffer holds one slab of the layout's size per seat and one for the fields that read
    the same for every viewer, each field at its layout offsets. A seat's slab holds what is
    written once per seat: its hand and its own seat row (the first row of the ``seats``
    field), its tickets and offer; and what differs between viewers: its rotation of
    ``route_owner`` and ``stations`` (a claimed route or a station is one entry in every
    slab), and ``tunnel_route`` (so that the slab's tail is one piece). Viewer ``v``'s vector
    is then ``players + 4`` pieces of the buffer joined by one ``bytearray.join``: ``v``'s
    hand and row, the next seats' rows in turn order, two pieces of the shared slab with the
    ``current_seat`` and ``phase`` entries between them, and ``v``'s slab's tail. (Gathering
    the whole vector by ``ndarray.take`` costs three times as much as the join.)

    Successive states share the values that did not change (the engine copies a state by
    replacing fields), so :meth:`update` compares each source with the one last written, by
    identity. The sources are kept alive here, so an identity match is never a reused id."""

    __slots__ = (
        "array",
        "common",
        "current",
        "discard",
        "discard_counts",
        "encoder",
        "face_up",
        "kept",
        "networks",
        "open",
        "owners",
        "parts",
        "payment",
        "players",
        "seats",
        "slabs",
        "state",
        "tunnel",
        "view",
    )

    def __init__(self, encoder: _Encoder) -> None:
        self.encoder = enc = encoder
        p, size = enc.players, enc.size
        self.array = np.zeros(enc.board_size, dtype=np.float32)
        #: Writes go through a memoryview: several times cheaper than numpy's item assignment.
        self.view = view = self.array.data
        self.slabs = slabs = [view[v * size : (v + 1) * size] for v in range(p)]
        self.common = common = view[p * size : (p + 1) * size]
        own, row = enc.seats + len(SEAT_COLUMNS), slice(enc.seats, enc.seats + len(SEAT_COLUMNS))
        current, tail = enc.onehot_slice, enc.route_owner
        #: Per viewer, the pieces of its vector; the third from the end (``current_seat``
        #: and ``phase``) is set per state from :attr:`current`.
        self.parts = [
            [
                slab[:own],
                *(slabs[(v + rel) % p][row] for rel in range(1, p)),
                common[enc.piles : current.start],
                enc.onehots[0][0],
                common[current.stop : tail],
                slab[tail:],
            ]
            for v, slab in enumerate(slabs)
        ]
        #: The state last written, its ``players`` tuple and each seat's player state.
        self.state: object = None
        self.players: object = None
        self.seats: list[PlayerState | None] = [None] * p
        self.owners: tuple[int | None, ...] | None = None
        #: Per seat, the cities its routes join (None: to rebuild), the kept tickets its ticket
        #: fields were written from, and those of them that its routes do not connect yet.
        self.networks: list[_Network | None] = [None] * p
        self.kept: list[tuple[int, ...] | None] = [None] * p
        self.open: list[list[int]] = [[] for _ in range(p)]
        self.discard: tuple[Color, ...] | None = None
        self.discard_counts: list[int] = []
        self.face_up: tuple[Color | None, ...] | None = None
        self.tunnel: PendingTunnel | None = None
        self.payment: PendingPayment | None = None
        #: Per viewer, its ``current_seat`` and ``phase`` entries in the state last written.
        self.current: tuple[memoryview, ...] = enc.current_onehots[0][0]

    def __reduce__(self) -> tuple[Any, ...]:
        # A cache: a copy starts afresh (memoryviews do not pickle).
        return (_Board, (self.encoder,))

    def encode(self, state: GameState, viewer: int) -> NDArray[np.float32]:
        """``viewer``'s vector of ``state``, a new array."""
        if state is not self.state:
            self.update(state)
        parts = self.parts[viewer]
        parts[-3] = self.current[viewer]
        return _frombuffer(_join(parts), _FLOAT32)

    def update(self, state: GameState) -> None:
        """Bring the buffer up to date with ``state``: the fields whose sources changed."""
        enc = self.encoder
        players = state.players
        # The seats whose ticket fields may have changed: their kept tickets did, or (added by
        # the route owners' write) their network. A seat whose player state changed otherwise
        # (a card drawn) is left out: its ticket fields stay as they are.
        check: list[int] = []
        if players is not self.players:
            seats, written = self.seats, self.kept
            for seat in enc.seat_range:
                ps = players[seat]
                if ps is not seats[seat]:
                    self._write_player(seat, ps, seats[seat])
                    seats[seat] = ps
                    if ps.tickets is not written[seat]:
                        check.append(seat)
            self.players = players
        owners = state.route_owner
        joined: list[int] = []
        if owners is not self.owners:
            joined = self._write_owners(owners, check)
        if check:
            networks, slabs = self.networks, self.slabs
            for seat in check:
                kept = players[seat].tickets
                network = networks[seat]
                if network is None:
                    network = networks[seat] = enc._network(owners, seat)
                elif kept is self.kept[seat]:
                    was_open = self.open[seat]
                    if seat in joined and was_open:
                        label, ta, tb = network.label, enc.ticket_a, enc.ticket_b
                        still = [t for t in was_open if label[ta[t]] != label[tb[t]]]
                        if len(still) < len(was_open):
                            mv, completed = slabs[seat], enc.completed
                            for t in set(was_open).difference(still):
                                mv[completed + t] = 1
                        self.open[seat] = still
                    continue
                self.open[seat] = enc._write_tickets(slabs[seat], kept, network)
                self.kept[seat] = kept
        self._write_common(state)
        # tuple.index compares by identity first: cheaper than hashing an enum member.
        self.current = enc.current_onehots[state.current][_PHASES.index(state.phase)]
        self.state = state

    def _write_player(self, seat: int, ps: PlayerState, old: PlayerState | None) -> None:
        """``seat``'s hand and row, and its stations and offer where they changed."""
        enc = self.encoder
        F, slab = enc.floats, self.slabs[seat]
        stations, offered = ps.stations, ps.offered
        h0, h1, h2, h3, h4, h5, h6, h7, h8 = ps.hand.counts
        try:
            enc.pack_own(
                slab,
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
                F[enc.stations_per_player - len(stations)],
                F[ps.route_points],
                F[len(ps.tickets)],
                F[len(offered)],
            )
        except IndexError:  # a count beyond the table
            enc.pack_own(slab, 0, *ps.hand.counts, *enc._seat_counts(ps))
        if old is None:
            enc._write_offer(slab, offered, 1)
            self._mark_stations(seat, stations, 1)
        else:
            if offered is not old.offered:
                enc._write_offer(slab, old.offered, 0)
                enc._write_offer(slab, offered, 1)
            if stations is not old.stations:
                self._mark_stations(seat, old.stations, 0)
                self._mark_stations(seat, stations, 1)

    def _mark_stations(self, seat: int, cities: tuple[str, ...], value: int) -> None:
        view, cells, index = self.view, self.encoder.station_cells[seat], self.encoder.city_index
        for city in cities:
            for i in cells[index[city]]:
                view[i] = value

    def _write_owners(self, owners: tuple[int | None, ...], check: list[int]) -> list[int]:
        """The routes whose owner changed, in every slab, and the owners' networks; the seats
        whose network joined two of its components (added to ``check`` with the seats whose
        network is to rebuild)."""
        enc, view, networks = self.encoder, self.view, self.networks
        cells, ends = enc.route_cells, enc.route_ends
        old = self.owners
        changed: Iterable[int]
        if old is None:  # the slabs' routes are all unowned
            changed = [r for r, o in enumerate(owners) if o is not None]
        else:
            changed = enc._changes(old, owners)
        joined = []
        for r in changed:
            if old is not None:
                was = old[r]
                if was is not None:  # not in a game: a route changes hands only when claimed
                    for i in cells[was][r]:
                        view[i] = 0
                    networks[was] = None
                    if was not in check:
                        check.append(was)
            o = owners[r]
            if o is not None:
                for i in cells[o][r]:
                    view[i] = 1
                network = networks[o]
                if network is not None and network.join(*ends[r]):
                    joined.append(o)
                    if o not in check:  # a claimer's player state changed too, in a game
                        check.append(o)
        self.owners = owners
        return joined

    def _write_common(self, state: GameState) -> None:
        """The fields that read the same for every viewer, where their sources changed."""
        enc, mv = self.encoder, self.common
        # The piles' sizes and the counters, adjacent in the layout: one write, unconditional
        # (the deck or the turn changes on most steps; comparing costs about what writing does).
        final, F = state.final_turns, enc.floats
        try:
            enc.pack_counts(
                mv,
                4 * enc.piles,
                F[len(state.deck)],
                F[len(state.ticket_deck)],
                F[len(state.ticket_box)],
                F[len(state.out_of_play)],
                F[final is not None],
                F[final or 0],
                F[state.passes],
                float(state.turn),
            )
        except IndexError:  # a count beyond the table
            enc.pack_counts(
                mv,
                4 * enc.piles,
                len(state.deck),
                len(state.ticket_deck),
                len(state.ticket_box),
                len(state.out_of_play),
                final is not None,
                final or 0,
                state.passes,
                state.turn,
            )
        discard = state.discard
        if discard is not self.discard:
            before = self.discard
            if before is None:
                counts = count_colors(discard)
            else:
                counts = pile_counts(discard, before, self.discard_counts)  # its own list
            c0, c1, c2, c3, c4, c5, c6, c7, c8 = counts
            try:
                enc.pack_kinds(
                    mv,
                    4 * enc.discard,
                    F[c0],
                    F[c1],
                    F[c2],
                    F[c3],
                    F[c4],
                    F[c5],
                    F[c6],
                    F[c7],
                    F[c8],
                )
            except IndexError:  # a count beyond the table
                enc.pack_kinds(mv, 4 * enc.discard, *counts)
            self.discard = discard
            self.discard_counts = counts
        face_up = state.face_up
        if face_up is not self.face_up:
            enc._write_face_up(mv, face_up, self.face_up)
            self.face_up = face_up
        tunnel = state.tunnel
        if tunnel is not self.tunnel:
            view, cells = self.view, enc.tunnel_cells
            if self.tunnel is not None:
                for i in cells[self.tunnel.route]:
                    view[i] = 0
            if tunnel is None:
                mv[enc.tunnel] = enc.no_tunnel
            else:
                enc._write_tunnel_cards(mv, tunnel)
                for i in cells[tunnel.route]:
                    view[i] = 1
            self.tunnel = tunnel
        payment = state.payment
        if payment is not self.payment:
            self._write_payments(payment, state.current)
            self.payment = payment

    def _write_payments(self, payment: PendingPayment | None, picker: int) -> None:
        """Every viewer's payment fields: the route for all, the picked cards for the picker
        (the others' views show none, as :func:`~ttr_rules.observe` hides them)."""
        enc = self.encoder
        cards, route = enc.payment_cards, enc.payment_route
        for seat, slab in enumerate(self.slabs):
            slab[cards : cards + _KINDS] = enc.no_cards
            slab[route : route + len(enc.route_length)] = enc.no_routes
            if payment is not None:
                enc._write_payment(slab, payment.route, payment.cards if seat == picker else ())


_LOCOMOTIVE: Final = Color.LOCOMOTIVE
_FLOAT32: Final = np.dtype(np.float32)
_frombuffer: Final = np.frombuffer
#: Joins a board's pieces into a new, writable buffer (the separator is never changed).
_join: Final = bytearray().join
_COLORS: Final = tuple(Color)
_GAME_OVER: Final = Phase.GAME_OVER


@lru_cache(maxsize=64)
def encoder_of(layout: ObservationLayout) -> _Encoder:
    """The layout's encoder (one per layout, shared)."""
    return _Encoder(layout)


_last_encoder: list[tuple[GameMap, int, Rules, _Encoder]] = []


def _encoder(game_map: GameMap, players: int, rules: Rules) -> _Encoder:
    """The layout's encoder; the last one used is checked by identity first."""
    if _last_encoder:
        last_map, last_players, last_rules, encoder = _last_encoder[0]
        if last_map is game_map and last_players == players and last_rules is rules:
            return encoder
    encoder = encoder_of(layout_of(game_map, players, rules))
    _last_encoder[:] = [(game_map, players, rules, encoder)]
    return encoder


def encode_observation(view: PlayerView) -> NDArray[np.float32]:
    """``view`` as a float32 vector of :func:`~ttr_rules.rl.observation_layout`'s shape,
    seats rotated so that the viewer comes first. Raises :class:`ValueError` for a spectator's view.

    >>> from ttr_rules import new_game, observe
    >>> from ttr_rules.rl import observation_layout
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
    return enc.thread_board().encode(state, player)
