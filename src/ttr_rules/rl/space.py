"""A fixed integer action space for one map and player count (issue 13).

Reinforcement-learning tools want actions as integers ``0 .. size-1`` and a boolean mask of the
legal ones. :class:`ActionSpace` numbers every action that can ever be legal on a map, in
blocks that never move for a given map, player count and rules (the docs page "Reinforcement
learning" has the table), in this order:

* ``DrawFaceUp`` slots 0–4, then ``DrawBlind``;
* ``ClaimRoute``: by route id; per route each payment colour (the route's own, or the eight
  colours of a gray route) with locomotives from the ferry symbols to ``length − 1``, then the
  all-locomotive payment;
* ``PayTunnel`` with 0 .. ``Rules.tunnel_reveal_cards`` locomotives, ``DeclineTunnel``,
  ``DrawTickets``;
* ``KeepTickets``: a bit mask over the *positions* of the offered tickets (bit ``i`` keeps the
  ``i``-th offered ticket), ``2 ** n`` entries for the largest offer ``n``
  (:func:`offer_positions`);
* ``BuildStation``: by city in map order; per city each colour with 0 ..
  ``stations_per_player − 1`` locomotives, then all-locomotive payments of 1 ..
  ``stations_per_player`` cards;
* ``Pass``;
* on a map whose routes take substitute sets (docs/rules.md, "Payments"; empty blocks
  elsewhere, so other maps' indices do not move): ``ClaimWithSets`` by route id, for the
  routes that take sets; ``PayCard`` by card (the eight colours, then the locomotive); one
  index for the claim of the picked cards, whose cards the state says (the ``PickedClaim``
  block).

Only :class:`~ttr_rules.KeepTickets` and the claim of picked cards need the position to
translate: a keep names ticket ids, while its index names positions in the acting player's
offer (``PlayerState.offered``, or ``SeatView.offered`` in a view), and the picked claim's
cards are those of the pending payment, so :meth:`ActionSpace.action` takes the state or view
for them (and :meth:`ActionSpace.index` for a keep). A station's payment does not say its
cost (the cost is the station's ordinal, E53), so ``BuildStation(city, RED, 1)`` has one index
whatever it costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

import numpy as np

from ttr_rules import (
    Action,
    BuildStation,
    ClaimRoute,
    ClaimWithSets,
    Color,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameMap,
    GameState,
    KeepTickets,
    Pass,
    PayCard,
    PayTunnel,
    PlayerView,
    Rules,
    legal_actions,
    load_map,
    view_legal_actions,
)
from ttr_rules.game import _legal_pieces
from ttr_rules.moves.payments import set_size
from ttr_rules.moves.stations import built_cities

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["ActionSpace", "offer_positions", "set_routes"]

#: The masks' dtypes as instances: ``np.frombuffer`` converts a scalar type given as the
#: dtype, and reads a keyword argument, for about 2,000 instructions a call.
_BOOL: Final = np.dtype(np.bool_)
INT8: Final = np.dtype(np.int8)

#: Entries of an action space's memo of the engine's shared pieces (see
#: ``ActionSpace._state_bytes``), cleared when full: a station piece's bytes span the cities
#: from its first to its last, up to a kilobyte or two.
_PIECES: Final = 2048

_CARD_COLORS: Final = tuple(c for c in Color if c is not Color.LOCOMOTIVE)
_BLOCKS: Final = (
    "DrawFaceUp",
    "DrawBlind",
    "ClaimRoute",
    "PayTunnel",
    "DeclineTunnel",
    "DrawTickets",
    "KeepTickets",
    "BuildStation",
    "Pass",
    "ClaimWithSets",
    "PayCard",
    "PickedClaim",
)


def offer_positions(rules: Rules) -> int:
    """The most tickets ever offered at once: the initial deal (E3) or a ticket draw (E61)."""
    return max(rules.initial_long_tickets + rules.initial_regular_tickets, rules.tickets_drawn)


def set_routes(game_map: GameMap, rules: Rules) -> list[int]:
    """The ids of the routes that take substitute sets under ``rules`` (docs/rules.md,
    "Payments"): they have ``ClaimWithSets`` entries, and the board has the blocks and the
    observation fields of the payment's steps.

    >>> set_routes(load_map("europe"), load_map("europe").rules)
    []
    """
    return [r.id for r in game_map.routes if set_size(r, rules) >= 2]


def _resolve(game_map: GameMap | str) -> GameMap:
    return game_map if isinstance(game_map, GameMap) else load_map(game_map)


class ActionSpace:
    """Every action that can ever be legal on ``game_map`` with ``players`` players, numbered.

    ``rules`` defaults to the map's rules; a game under other rules needs a space built with
    them (the tunnel, ticket and station blocks are sized from the rules). The layout depends
    only on the map, the player count and the rules, so a policy trained on one space keeps its
    meaning for every game with the same three.

    >>> from ttr_rules import legal_actions, new_game
    >>> space = ActionSpace("europe", 2)
    >>> state = new_game("europe", players=2, seed=1)
    >>> mask = space.mask(state)
    >>> int(mask.sum()) == len(legal_actions(state))
    True
    >>> a = legal_actions(state)[0]
    >>> space.action(space.index(a, state), state) == a
    True
    >>> space.action(space.index(DrawBlind()))
    DrawBlind()
    """

    def __init__(
        self, game_map: GameMap | str, players: int, *, rules: Rules | None = None
    ) -> None:
        self.map: Final = _resolve(game_map)
        self.rules: Final = rules if rules is not None else self.map.rules
        if not isinstance(players, int) or not (
            self.rules.min_players <= players <= self.rules.max_players
        ):
            raise ValueError(
                f"players must be between {self.rules.min_players} and "
                f"{self.rules.max_players}, got {players!r}"
            )
        self.players: Final = players
        self.offer_positions: Final = offer_positions(self.rules)
        self._stations = self.rules.stations_per_player
        #: Slots of the face-up row (E6): ``Rules.face_up_size``, 5 in the official games.
        self._face_up = self.rules.face_up_size
        self._city_index = {c: i for i, c in enumerate(self.map.cities)}
        fixed: list[Action | None] = [DrawFaceUp(s) for s in range(self._face_up)]
        fixed.append(DrawBlind())
        self._claim_base: list[int] = []
        #: Per route, by payment colour, the index of its claim with ``k`` locomotives less
        #: ``k`` (see :meth:`_write_claims`).
        self._claim_at: tuple[dict[Color, int], ...] = ()
        claim_at = []
        for route in self.map.routes:
            self._claim_base.append(len(fixed))
            at = {}
            colors = _CARD_COLORS if route.color is None else (route.color,)
            for color in colors:
                at[color] = len(fixed) - route.ferry_locomotives
                fixed += (
                    ClaimRoute(route.id, color, k)
                    for k in range(route.ferry_locomotives, route.length)
                )
            at[Color.LOCOMOTIVE] = len(fixed) - route.length
            fixed.append(ClaimRoute(route.id, Color.LOCOMOTIVE, route.length))
            claim_at.append(at)
        self._claim_at = tuple(claim_at)
        self._pay_base = len(fixed)
        fixed += (PayTunnel(k) for k in range(self.rules.tunnel_reveal_cards + 1))
        self._decline = len(fixed)
        fixed.append(DeclineTunnel())
        self._draw_tickets = len(fixed)
        fixed.append(DrawTickets())
        self._keep_base = len(fixed)
        fixed += [None] * (1 << self.offer_positions)
        self._station_base = len(fixed)
        stations = self._stations
        #: A city's entries in the station block.
        self._station_block = len(Color) * stations
        for city in self.map.cities:
            fixed += (BuildStation(city, c, k) for c in _CARD_COLORS for k in range(stations))
            fixed += (BuildStation(city, Color.LOCOMOTIVE, k) for k in range(1, stations + 1))
        self._pass = len(fixed)
        fixed.append(Pass())
        taking = set_routes(self.map, self.rules)
        self._sets_base = len(fixed)
        #: The ``ClaimWithSets`` index of each route that takes sets.
        self._sets_at = {r: self._sets_base + k for k, r in enumerate(taking)}
        fixed += (ClaimWithSets(r) for r in taking)
        self._pay_card_base = len(fixed)
        #: The index of the claim of the picked cards (-1: no route takes sets).
        self._picked = -1
        if taking:
            fixed += (PayCard(c) for c in sorted(Color, key=lambda c: c.code))
            self._picked = len(fixed)
            fixed.append(None)  # its cards are the state's: see action()
        self._fixed: tuple[Action | None, ...] = tuple(fixed)
        self.size: Final = len(fixed)
        #: A zero byte per index: ``bytearray(zeros)`` copies it for half of what
        #: ``bytearray(size)`` costs to allocate and clear.
        self._zeros = bytes(self.size)
        # Fast path of index(): the engine hands out the same action objects again and again,
        # so look them up by identity. Each key's object is kept alive in ``_alive`` so its id
        # cannot be reused by another object while the entry exists.
        self._by_id: dict[int, int] = {}
        self._alive: list[Action] = []
        self._keeps: dict[tuple[int, tuple[int, ...]], tuple[KeepTickets, int]] = {}
        for i, a in enumerate(self._fixed):
            if a is not None:
                self._remember(a, i)
        #: Whether the engine's own action objects are in ``_by_id`` (done on first need).
        self._seeded = False
        #: The engine's shared pieces of legal-action lists by id (see :meth:`_state_bytes`).
        self._pieces: dict[int, tuple[slice, bytearray]] = {}
        self._pieces_alive: list[tuple[Action, ...]] = []

    # ------------------------------------------------------------------ layout

    def blocks(self) -> dict[str, range]:
        """The index range of each action type, in layout order (the blocks of payments with
        substitute sets only on a board that takes them).

        >>> ActionSpace("europe", 2).blocks()["DrawFaceUp"]
        range(0, 5)
        >>> ActionSpace("nordic", 2).blocks()["PayCard"]
        range(552, 561)
        """
        starts = (
            0,
            self._face_up,
            self._face_up + 1,
            self._pay_base,
            self._decline,
            self._draw_tickets,
            self._keep_base,
            self._station_base,
            self._pass,
            self._sets_base,
            self._pay_card_base,
            self._picked if self._picked >= 0 else self.size,
            self.size,
        )
        blocks = {name: range(starts[i], starts[i + 1]) for i, name in enumerate(_BLOCKS)}
        if self._picked < 0:  # no substitute sets: the last three blocks are not there
            for name in _BLOCKS[-3:]:
                del blocks[name]
        return blocks

    def __len__(self) -> int:
        return self.size

    def __reduce__(self) -> tuple[Any, ...]:
        # The identity memo holds ids of this process's objects: rebuild instead of copying.
        return (_rebuild, (self.map, self.players, self.rules))

    def __repr__(self) -> str:
        return f"ActionSpace({self.map.name!r}, players={self.players}, size={self.size})"

    # ------------------------------------------------------------------ action -> index

    def _remember(self, action: Action, index: int) -> None:
        self._by_id[id(action)] = index
        self._alive.append(action)

    def index(self, action: Action, state_or_view: GameState | PlayerView | None = None) -> int:
        """The index of ``action``. ``state_or_view`` is needed only for
        :class:`~ttr_rules.KeepTickets` (whose index names positions in the acting player's
        offer). Raises :class:`ValueError` for an action outside the space (a route, city or
        payment that does not exist on the map) or a keep without the position it needs.

        >>> space = ActionSpace("europe", 2)
        >>> space.index(DrawFaceUp(3)), space.index(DrawBlind())
        (3, 5)
        """
        found = self._by_id.get(id(action))
        if found is not None:
            return found
        if isinstance(action, KeepTickets):
            return self._keep_index(action, _offer(state_or_view))
        index = self._compute_index(action, state_or_view)
        if len(self._alive) < 4 * self.size:
            self._remember(action, index)
        return index

    def _compute_index(self, action: Action, state_or_view: GameState | PlayerView | None) -> int:
        if isinstance(action, ClaimRoute):
            return self._claim_index(action)
        if isinstance(action, BuildStation):
            return self._station_index(action)
        if isinstance(action, ClaimWithSets):
            found = self._sets_at.get(action.route) if type(action.route) is int else None
            if found is not None:
                return found
        elif isinstance(action, PayCard):
            if self._picked >= 0 and isinstance(action.card, Color):
                return self._pay_card_base + action.card.code
        elif isinstance(action, KeepTickets):
            return self._keep_index(action, _offer(state_or_view))
        if isinstance(action, PayTunnel):
            k = action.locomotives
            if isinstance(k, int) and 0 <= k <= self.rules.tunnel_reveal_cards:
                return self._pay_base + k
        elif isinstance(action, DrawFaceUp):
            if isinstance(action.slot, int) and 0 <= action.slot < self._face_up:
                return action.slot
        elif isinstance(action, DrawBlind):
            return self._face_up
        elif isinstance(action, DeclineTunnel):
            return self._decline
        elif isinstance(action, DrawTickets):
            return self._draw_tickets
        elif isinstance(action, Pass):
            return self._pass
        raise ValueError(f"{action!r} is not in {self!r}")

    def _claim_index(self, action: ClaimRoute) -> int:
        if action.substitutes:  # the claim of picked cards (legal only as such)
            if self._picked >= 0:
                return self._picked
            raise ValueError(f"{action!r} is not in {self!r}")
        r, color, k = action.route, action.color, action.locomotives
        if isinstance(r, int) and 0 <= r < len(self.map.routes) and isinstance(k, int):
            route = self.map.routes[r]
            per_color = route.length - route.ferry_locomotives
            base = self._claim_base[r]
            if color is Color.LOCOMOTIVE:
                if k == route.length:
                    colors = 8 if route.color is None else 1
                    return base + colors * per_color
            elif route.ferry_locomotives <= k < route.length and isinstance(color, Color):
                if route.color is None:
                    return base + color.code * per_color + k - route.ferry_locomotives
                if color is route.color:
                    return base + k - route.ferry_locomotives
        raise ValueError(f"{action!r} is not in {self!r}")

    def _station_index(self, action: BuildStation) -> int:
        city, color, k, stations = action.city, action.color, action.locomotives, self._stations
        c = self._city_index.get(city) if isinstance(city, str) else None
        if c is not None and isinstance(k, int) and isinstance(color, Color):
            base = self._station_base + c * 9 * stations
            if color is Color.LOCOMOTIVE:
                if 1 <= k <= stations:
                    return base + 8 * stations + k - 1
            elif 0 <= k < stations:
                return base + color.code * stations + k
        raise ValueError(f"{action!r} is not in {self!r}")

    def _keep_index(self, action: KeepTickets, offered: tuple[int, ...]) -> int:
        # The engine offers the same KeepTickets objects for the same offer: memoise by both.
        key = (id(action), offered)
        hit = self._keeps.get(key)
        if hit is not None and hit[0] is action:
            return hit[1]
        index = self._compute_keep_index(action, offered)
        if len(self._keeps) > 4096:
            self._keeps.clear()
        self._keeps[key] = (action, index)
        return index

    def _compute_keep_index(self, action: KeepTickets, offered: tuple[int, ...]) -> int:
        bits = 0
        for ticket in action.tickets:
            try:
                bits |= 1 << offered.index(ticket)
            except ValueError:
                raise ValueError(
                    f"{action!r}: ticket {ticket} is not offered (offer {tuple(offered)})"
                ) from None
        if bits >> self.offer_positions:
            raise ValueError(f"{action!r} is not in {self!r}")
        return self._keep_base + bits

    # ------------------------------------------------------------------ index -> action

    def action(self, index: int, state_or_view: GameState | PlayerView | None = None) -> Action:
        """The action numbered ``index``; the inverse of :meth:`index`. ``state_or_view`` is
        needed only for the :class:`~ttr_rules.KeepTickets` block. Raises :class:`ValueError`
        for an index outside ``0 .. size-1`` or a keep naming positions beyond the offer.

        >>> ActionSpace("europe", 3).action(0)
        DrawFaceUp(slot=0)
        """
        i = int(index)
        if not 0 <= i < self.size:
            raise ValueError(f"action index {index!r} outside 0..{self.size - 1}")
        fixed = self._fixed[i]
        if fixed is not None:
            return fixed
        if i == self._picked:
            return _picked_claim(state_or_view)
        bits = i - self._keep_base
        offered = _offer(state_or_view)
        if bits >> len(offered):
            raise ValueError(
                f"action {i} keeps offer positions {_positions(bits)}, but "
                f"{len(offered)} tickets are offered"
            )
        return KeepTickets(frozenset(offered[p] for p in _positions(bits)))

    def keep_index(self, positions: Iterable[int]) -> int:
        """The index that keeps the offered tickets at ``positions`` (0-based)."""
        bits = 0
        for p in positions:
            if not 0 <= p < self.offer_positions:
                raise ValueError(f"offer position {p} outside 0..{self.offer_positions - 1}")
            bits |= 1 << p
        return self._keep_base + bits

    # ------------------------------------------------------------------ legal actions

    def _indices(self, state_or_view: GameState | PlayerView) -> list[int]:
        if isinstance(state_or_view, GameState):
            actions = legal_actions(state_or_view)
        else:
            actions = view_legal_actions(state_or_view)
        return self._indices_of(actions, state_or_view)

    def _indices_of(
        self, actions: Iterable[Action], state_or_view: GameState | PlayerView
    ) -> list[int]:
        """The indices of ``actions``, legal in ``state_or_view``, in their order."""
        by_id = self._by_id
        try:  # the usual case: every action object is one seen before
            return list(map(by_id.__getitem__, map(id, actions)))
        except KeyError:
            pass
        if not self._seeded:
            self._seed()
            try:
                return list(map(by_id.__getitem__, map(id, actions)))
            except KeyError:
                pass
        return self._indices_one_by_one(actions, state_or_view)

    def _indices_one_by_one(
        self, actions: Iterable[Action], state_or_view: GameState | PlayerView
    ) -> list[int]:
        """The indices of ``actions``, each by identity when it is a known object, else
        computed (the ticket keeps: the engine makes new ones for every offer, so they are
        neither remembered nor looked up)."""
        if not self._seeded:
            self._seed()
        by_id = self._by_id
        offered: tuple[int, ...] | None = None
        indices = []
        for a in actions:
            index = by_id.get(id(a))
            if index is None:
                if type(a) is KeepTickets:  # all keeps of one offer: read it once
                    if offered is None:
                        offered = _offer(state_or_view)
                    index = self._compute_keep_index(a, offered)
                else:
                    index = self.index(a, state_or_view)
            indices.append(index)
        return indices

    def _seed(self) -> None:
        """Remember the claim and station actions that the engine makes once per map and hands
        out again and again (its per-map tables), so that the first games find them by
        identity too instead of computing each index on first sight. The few other actions
        the engine shares (draws, passes) are remembered on first sight, like any action.
        Best effort: those tables are engine internals, read only here; an object found there
        that this space does not hold, or a table that is not there, is skipped."""
        self._seeded = True
        found: list[object] = []
        try:
            from ttr_rules.maps.index import map_index

            board = map_index(self.map)
            for name in ("claim_tables", "station_tables"):
                for table in getattr(board, name, ()):
                    found += table
        except (ImportError, AttributeError, TypeError):  # pragma: no cover - internals moved
            pass
        # Keyed by plain values (a colour by its code): cheaper to hash than the actions.
        claims: dict[tuple[int, int, int], int] = {}
        stations: dict[tuple[str, int, int], int] = {}
        for i, fixed in enumerate(self._fixed):
            if isinstance(fixed, ClaimRoute):
                claims[fixed.route, fixed.color.code, fixed.locomotives] = i
            elif isinstance(fixed, BuildStation):
                stations[fixed.city, fixed.color.code, fixed.locomotives] = i
        by_id = self._by_id
        for a in found:
            if isinstance(a, ClaimRoute):
                index = claims.get((a.route, a.color.code, a.locomotives))
            elif isinstance(a, BuildStation):
                index = stations.get((a.city, a.color.code, a.locomotives))
            else:
                continue
            if index is not None and id(a) not in by_id:
                self._remember(a, index)

    def legal_indices(self, state_or_view: GameState | PlayerView) -> list[int]:
        """The indices of the legal actions, ascending (OpenSpiel's order).

        >>> from ttr_rules import new_game
        >>> space = ActionSpace("europe", 2)
        >>> legal = space.legal_indices(new_game("europe", players=2))
        >>> len(legal), all(i in space.blocks()["KeepTickets"] for i in legal)  # keep 2 of 4
        (11, True)
        """
        indices = self._indices(state_or_view)
        indices.sort()
        return indices

    def mask(self, state_or_view: GameState | PlayerView) -> NDArray[np.bool_]:
        """A boolean array of length :attr:`size`, true exactly at the indices of
        ``legal_actions(state)`` (``view_legal_actions(view)`` for the actor's view, which
        determinizes the view and so costs more than a state's); all false once the game is
        over."""
        if state_or_view.is_terminal:
            return np.zeros(self.size, dtype=np.bool_)
        if isinstance(state_or_view, GameState):
            legal = self._state_bytes(state_or_view)
        else:
            legal = self._legal_bytes(view_legal_actions(state_or_view), state_or_view)
        return np.frombuffer(legal, _BOOL)

    def _legal_bytes(
        self, actions: tuple[Action, ...], state_or_view: GameState | PlayerView
    ) -> bytearray:
        """One byte per index, 1 at the indices of ``actions`` (legal in ``state_or_view``).

        Written in one pass over the actions, each found by identity, into a bytearray that
        ``np.frombuffer`` then wraps without a copy: cheaper than listing the indices first
        and scattering them into an array with numpy (whose conversion of the index list
        costs more than the loop), and cheaper than keeping known masks to copy."""
        legal = bytearray(self._zeros)
        self._write(actions, legal, state_or_view)
        return legal

    def _write(
        self,
        actions: Sequence[Action],
        legal: bytearray,
        state_or_view: GameState | PlayerView,
    ) -> None:
        """Set ``legal``'s byte to 1 at the index of each of ``actions``."""
        if actions and type(actions[0]) is not KeepTickets:
            by_id = self._by_id
            try:  # the usual case: every action object is one seen before
                for action in actions:
                    legal[by_id[id(action)]] = 1
                return
            except KeyError:
                pass
        for index in self._indices_one_by_one(actions, state_or_view):
            legal[index] = 1

    def _state_bytes(self, state: GameState) -> bytearray:
        """:meth:`_legal_bytes` of ``legal_actions(state)``, written piece by piece from the
        engine's pieces of that tuple (``ttr_rules.game._legal_pieces``): a shared piece (a
        tuple: the card draws, the stations) by one slice assignment of the bytes remembered
        for it, the others action by action.

        The indices of ``legal_actions(state)`` ascend (the layout follows the engine's
        order), so each piece's indices lie between its first and its last action's, and no
        other piece's do: a piece's slice holds its ones and zeros only, and assigning it
        leaves the other pieces' ones alone."""
        legal = bytearray(self._zeros)
        known = self._pieces
        for piece in _legal_pieces(state):
            if not piece:  # no ticket draw, no station: nothing to look up
                continue
            if type(piece) is tuple:
                try:
                    span, ones = known[id(piece)]
                except KeyError:
                    self._learn(piece, legal, state)
                    continue
                legal[span] = ones
            elif type(piece[0]) is ClaimRoute and not piece[0].substitutes:
                # (the claim of picked cards, alone in its piece, has one index of its own)
                self._write_claims(piece, legal, state)
            else:
                self._write(piece, legal, state)
        return legal

    def _write_claims(self, piece: Sequence[Action], legal: bytearray, state: GameState) -> None:
        """Write a piece of claims, perhaps followed by the ticket draw (the start of a
        turn's middle piece, ``moves.turn.start_pieces``), into ``legal``: each claim's index
        from its route, colour and locomotives through :attr:`_claim_at`, about a sixth
        cheaper than by identity (``id()`` raises an audit event, and the identity dict holds
        every action of the space). The engine's claims are in the space (its legal actions
        are); anything else in the piece before the last action sends the whole piece the
        identity way (``test_claim_pieces_written_from_their_fields``)."""
        claims: Sequence[ClaimRoute] = piece  # type: ignore[assignment]
        if type(piece[-1]) is DrawTickets:
            legal[self._draw_tickets] = 1
            claims = claims[:-1]
        at = self._claim_at
        try:
            for a in claims:
                legal[at[a.route][a.color] + a.locomotives] = 1
        except (AttributeError, KeyError, IndexError, TypeError):
            self._write(piece, legal, state)

    def _learn(self, piece: tuple[Action, ...], legal: bytearray, state: GameState) -> None:
        """Write a shared piece's ones into ``legal`` and remember its slice and bytes (see
        :meth:`_state_bytes`), kept as a ``bytearray`` (assigning ``bytes`` to a slice
        copies them into a new bytearray first). The piece is kept alive beside its entry,
        so that its id is not reused while the entry lives."""
        if (
            not piece
            or type(piece[0]) is not BuildStation
            or not self._write_stations(cast("tuple[BuildStation, ...]", piece), legal, state)
        ):
            self._write(piece, legal, state)
        low = self.index(piece[0], state) if piece else 0
        high = self.index(piece[-1], state) + 1 if piece else 0
        pieces = self._pieces
        if len(pieces) >= _PIECES:
            pieces.clear()
            self._pieces_alive.clear()
        pieces[id(piece)] = (slice(low, high), legal[low:high])
        self._pieces_alive.append(piece)

    def _write_stations(
        self, piece: tuple[BuildStation, ...], legal: bytearray, state: GameState
    ) -> bool:
        """Write a station piece's ones into ``legal`` from its shape, as the station family
        makes it (``moves.stations``): every city without a station in ``state`` (E51), in
        map order, each with the same payments in the same order. The first city's payments
        are found by identity and their bytes, one city's block of the layout, are copied to
        every city of the map, then the blocks of the cities with a station are cleared: a
        few slice assignments instead of a look-up per action (a piece has about 90 actions,
        and most station pieces are new), or of a pass over the piece's cities (reading
        their names cost about 20,000 instructions a piece). False, with nothing written,
        when the piece is not as long as its first city's payments times the cities without
        a station, or its first or last city is not the first or last of those.

        That the cities between are those without a station, each with the same payments, is
        not checked here: it is how the station family builds its pieces
        (``test_station_pieces_written_from_their_shape`` compares this with the piece
        written action by action on random states)."""
        first, last = piece[0].city, piece[-1].city
        count = len(piece)
        n = 1
        while n < count and piece[n].city == first:
            n += 1
        index = self._city_index
        taken = built_cities(state)
        top = len(index) - 1
        f, t = index.get(first, -1), index.get(last, top + 1)
        if count != n * (top + 1 - len(taken)) or first in taken or last in taken:
            return False
        clear = []
        before = after = 0
        for city in taken:
            i = index.get(city)
            if i is None:
                return False
            before += i < f
            after += i > t
            clear.append(i)
        if before != f or after != top - t:
            return False
        block, base = self._station_block, self._station_base
        at = base + f * block
        self._write(piece[:n], legal, state)
        region = legal[at : at + block] * (top + 1)
        nothing = bytearray(block)  # a bytes source would be copied into a new bytearray first
        for i in clear:
            region[i * block : i * block + block] = nothing
        legal[base : base + len(region)] = region
        return True


def _rebuild(game_map: GameMap, players: int, rules: Rules) -> ActionSpace:
    return ActionSpace(game_map, players, rules=rules)


def _positions(bits: int) -> tuple[int, ...]:
    return tuple(p for p in range(bits.bit_length()) if bits >> p & 1)


def _offer(state_or_view: GameState | PlayerView | None) -> tuple[int, ...]:
    """The acting player's offered tickets (a view must be the actor's own)."""
    if isinstance(state_or_view, GameState):
        return state_or_view.players[state_or_view.current].offered
    if isinstance(state_or_view, PlayerView):
        if state_or_view.player is None:
            raise ValueError("a spectator's view shows no offered tickets")
        offered = state_or_view.seats[state_or_view.player].offered
        return offered or ()
    raise ValueError("KeepTickets indices name offer positions: pass the state or the view")


def _picked_claim(state_or_view: GameState | PlayerView | None) -> ClaimRoute:
    """The claim of the picked cards of the pending payment with sets (the actor's view)."""
    if isinstance(state_or_view, GameState):
        legal = legal_actions(state_or_view)
    elif isinstance(state_or_view, PlayerView):
        legal = view_legal_actions(state_or_view)
    else:
        raise ValueError("the picked claim's cards are the state's: pass the state or the view")
    for action in legal:
        if isinstance(action, ClaimRoute) and action.substitutes:
            return action
    raise ValueError("no picked cards make a payment now")
