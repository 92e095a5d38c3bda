"""``check_invariants``: the bookkeeping every reachable position keeps.

The boundaries use these checks: ``from_json`` of a :class:`~ttr_rules.GameState`,
:func:`~ttr_rules.scenario` and :func:`~ttr_rules.replay` refuse a state that breaks one
(:func:`state_problems` first checks the shape, so that a malformed state is reported, never
crashes a check). :mod:`ttr_rules.testing` re-exports :func:`check_invariants` for tests.

Each invariant is a small function returning the ways ``state`` breaks it; :func:`check_invariants`
runs them all and raises one :class:`InvariantError` listing every broken invariant. The checks
read flat tuples only, so they are cheap enough to run after every step of thousands of random
games (a few microseconds per call on Europe).

The invariants, by name (the ``invariant`` of each :class:`Violation`):

``cards``
    Every train card is in exactly one place — a hand, the face-up row, the deck, the discard,
    a pending tunnel (its base payment and the revealed cards) or out of play (``scenario``) —
    and together they are the full deck of the rules (``cards_per_color`` of each colour and
    ``locomotive_cards`` locomotives). No hand holds a negative count.
``tickets``
    Every ticket of the map is in exactly one place: a player's kept tickets, a player's
    offered tickets, the ticket deck or the box.
``trains``
    No player has negative trains, and (with ``check_trains=True``) each player's trains plus
    the lengths of their routes equal ``trains_per_player``. A ``scenario(trains=...)`` position
    sets trains freely: check those with ``check_trains=False``.
``stations``
    Stations built plus stations left equal ``stations_per_player`` (no player built more), and
    every station stands in a city of the map.
``station cities``
    No two stations share a city.
``routes``
    Route owners are seats; a pending tunnel's route is an unclaimed tunnel.
``payment``
    A payment with sets being picked is the current player's, for a route of the map that is
    open to them, within their trains and takes substitute sets; its cards are in card order,
    in the hand, and a payment can still follow them (else no action would be legal).
``double routes``
    No player owns both tracks of a double route; below ``double_route_min_players`` players at
    most one track of each double route is owned.
``route points``
    Each player's ``route_points`` equal the scoring table over the routes they own.
``face-up row``
    The row has ``face_up_size`` slots; a slot is empty only when the deck and the discard are
    empty.
``face-up locomotives``
    With a ``face_up_locomotive_limit``, the row shows fewer locomotives than the limit, unless
    (a) the reset was infeasible (U2: with ``pool`` = deck + discard + row and
    ``s = min(face_up_size, |pool|)``, a reset is feasible only when the pool holds at least
    ``s − (limit − 1)`` other cards), or (b) the reset cap was hit. A state does not record
    the cap being hit, so (b) is checked by its trace: the last reset discarded a row with at
    least ``limit`` locomotives, so either ``max_consecutive_resets`` is 0, the discard is empty
    (a reshuffle during the refill took it), or the discard's last ``face_up_size`` cards hold
    at least ``limit`` locomotives.
``phase``
    The phase agrees with the pending data: ``TUNNEL`` exactly when a tunnel is pending,
    ``PAYMENT`` exactly when a payment with sets is picked;
    ``KEEP_TICKETS`` and ``INITIAL_TICKETS`` exactly when the player to act has offered
    tickets; nobody else has offered tickets, except during ``INITIAL_TICKETS`` the players
    still to choose (seat order from the player to act up to the first player); the seat to
    act exists; the final-round countdown and the pass counter are in range.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from .cards import COLORS, Color
from .moves.common import payment_cards
from .moves.payments import pending_payment_problems
from .moves.turn import reset_feasible as _engine_reset_feasible
from .state import GameState, Phase
from .words import joined

__all__ = [
    "INVARIANTS",
    "InvariantError",
    "Violation",
    "check_invariants",
    "invariant_problems",
    "phase_problems",
    "reset_feasible",
    "state_problems",
]


class Violation(NamedTuple):
    """One broken invariant: its name (see the module docstring) and what is wrong."""

    invariant: str
    message: str

    def __str__(self) -> str:
        return f"{self.invariant}: {self.message}"


class InvariantError(AssertionError):
    """A state breaks invariants; ``problems`` lists every :class:`Violation` found."""

    def __init__(self, problems: tuple[Violation, ...], state: GameState | None = None) -> None:
        self.problems = problems
        self.state = state
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{len(problems)} broken invariant(s):\n{lines}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its fields, so that it crosses processes whole.
        return type(self), (self.problems, self.state), self.__dict__

    @property
    def invariants(self) -> frozenset[str]:
        """The names of the broken invariants."""
        return frozenset(p.invariant for p in self.problems)


def check_invariants(state: GameState, *, check_trains: bool = True) -> None:
    """Raise :class:`InvariantError` listing every invariant ``state`` breaks.

    ``check_trains=False`` skips "trains + claimed lengths = starting trains", which does not
    hold for ``scenario(..., trains=...)`` positions.

    >>> from ttr_rules import new_game
    >>> check_invariants(new_game(players=3, seed=1))  # a consistent state: nothing happens
    """
    problems = invariant_problems(state, check_trains=check_trains)
    if problems:
        raise InvariantError(tuple(problems), state)


def invariant_problems(state: GameState, *, check_trains: bool = True) -> list[Violation]:
    """Every broken invariant of ``state`` (empty when it is consistent)."""
    found: list[Violation] = []
    for name, check in INVARIANTS:
        if name == "trains" and not check_trains:
            found.extend(Violation(name, m) for m in _negative_trains(state))
            continue
        found.extend(Violation(name, m) for m in check(state))
    return found


def state_problems(state: GameState, *, check_trains: bool = True) -> list[Violation]:
    """Every broken invariant of a state from outside (a file, a network, a caller's
    arguments): first its shape (``shape``: seats, the player to act, route owners, ids and
    counts in range), then, when the shape holds, :func:`invariant_problems`. Never raises for
    a malformed state; ``check_trains=False`` still requires trains plus claimed lengths to be
    at most the starting trains."""
    shape = [Violation("shape", m) for m in _shape_problems(state)]
    shape.extend(Violation("rules", f"{name}: {m}") for name, m in state.rules.problems())
    if shape:
        return shape
    try:
        found = invariant_problems(state, check_trains=check_trains)
    except (IndexError, KeyError, TypeError, ValueError) as exc:  # a shape we did not foresee
        return [Violation("shape", f"cannot be checked ({type(exc).__name__}: {exc})")]
    if not check_trains:
        found.extend(Violation("trains", m) for m in _surplus_trains(state))
    return found


def _shape_problems(state: GameState) -> Iterator[str]:
    count = len(state.players)
    rules = state.rules
    if not rules.min_players <= count <= rules.max_players:
        yield f"{count} players; the rules allow {rules.min_players} to {rules.max_players}"
    for name in ("current", "first_player"):
        seat = getattr(state, name)
        if not 0 <= seat < max(count, 1):
            yield f"{name} is {seat}, not a seat of a {count}-player game"
    if len(state.route_owner) != len(state.map.routes):
        yield f"{len(state.route_owner)} route owners for {len(state.map.routes)} routes"
    longest = max((r.length for r in state.map.routes), default=0)
    if len(rules.route_scores) <= longest:
        yield f"route_scores has no score for the longest route ({longest})"
    if not isinstance(rules.face_up_size, int) or len(state.face_up) != rules.face_up_size:
        yield f"the row has {len(state.face_up)} slots, not face_up_size {rules.face_up_size}"
    tunnel = state.tunnel
    if tunnel is not None and not 0 <= tunnel.route < len(state.map.routes):
        yield f"the pending tunnel's route {tunnel.route} is not a route of the map"
    tickets = len(state.map.tickets)
    for seat, player in enumerate(state.players):
        for name in ("tickets", "offered"):
            for ticket in getattr(player, name):
                if not 0 <= ticket < tickets:
                    yield f"player {seat}'s {name} hold {ticket}, not a ticket of the map"
        if player.trains < 0 or player.route_points < 0:
            yield f"player {seat} has {player.trains} trains, {player.route_points} route points"
    for pile in ("ticket_deck", "ticket_box"):
        for ticket in getattr(state, pile):
            if not 0 <= ticket < tickets:
                yield f"{pile} holds {ticket}, not a ticket of the map"
    if state.final_turns is not None and not 0 <= state.final_turns <= count:
        yield f"final round with {state.final_turns} turns left"


def _surplus_trains(state: GameState) -> Iterator[str]:
    start = state.rules.trains_per_player
    for seat, (player, used) in enumerate(zip(state.players, _claimed_lengths(state), strict=True)):
        if player.trains + used > start:
            yield (
                f"player {seat} has {player.trains} trains and {used} on claimed routes; "
                f"they started with {start}"
            )


# --------------------------------------------------------------------------- cards and tickets


def card_census(state: GameState) -> Counter[Color]:
    """Every train card of ``state`` wherever it is: hands, the face-up row, deck, discard, a
    pending tunnel (base payment and revealed cards) and cards set aside by ``scenario``."""
    cards: Counter[Color] = Counter(c for c in state.face_up if c is not None)
    cards.update(state.deck + state.discard + state.out_of_play)
    tunnel = state.tunnel
    if tunnel is not None:
        routes = state.map.routes
        length = routes[tunnel.route].length if 0 <= tunnel.route < len(routes) else 0
        cards.update(payment_cards(tunnel.color, tunnel.locomotives, length) + tunnel.revealed)
    for player in state.players:
        for color, count in zip(COLORS, player.hand.counts, strict=True):
            cards[color] += count
    return cards


def _card_problems(state: GameState) -> Iterator[str]:
    rules = state.rules
    for seat, player in enumerate(state.players):
        if min(player.hand.counts) < 0:
            yield f"player {seat}'s hand has a negative count: {player.hand}"
    census = card_census(state)
    for color in COLORS:
        want = rules.locomotive_cards if color is Color.LOCOMOTIVE else rules.cards_per_color
        if census[color] != want:
            yield f"{census[color]} {color.value} cards in play, the deck has {want}"


def _ticket_problems(state: GameState) -> Iterator[str]:
    everywhere = list(state.ticket_deck + state.ticket_box)
    for player in state.players:
        everywhere += player.tickets
        everywhere += player.offered
    expected = range(len(state.map.tickets))
    if sorted(everywhere) == list(expected):  # the fast path
        return
    places = Counter(everywhere)
    for ticket, n in sorted(places.items(), key=lambda item: repr(item[0])):
        if ticket not in expected:
            yield f"ticket {ticket!r} is not a ticket of the map"
        elif n > 1:
            yield f"ticket {ticket} is in {n} places"
    missing = [t for t in expected if t not in places]
    if missing:
        are = "ticket {} is" if len(missing) == 1 else "tickets {} are"
        yield f"{are.format(joined(missing))} nowhere"


# --------------------------------------------------------------------------- trains, stations


def _negative_trains(state: GameState) -> Iterator[str]:
    for seat, player in enumerate(state.players):
        if player.trains < 0:
            yield f"player {seat} has {player.trains} trains"


def _claimed_lengths(state: GameState) -> list[int]:
    used = [0] * len(state.players)
    routes = state.map.routes
    for route, owner in enumerate(state.route_owner):
        if owner is not None and 0 <= owner < len(used):
            used[owner] += routes[route].trains
    return used


def _train_problems(state: GameState) -> Iterator[str]:
    yield from _negative_trains(state)
    start = state.rules.trains_per_player
    for seat, (player, used) in enumerate(zip(state.players, _claimed_lengths(state), strict=True)):
        if player.trains + used != start:
            yield (
                f"player {seat} has {player.trains} trains and {used} on claimed routes; "
                f"they started with {start}"
            )


def _station_problems(state: GameState) -> Iterator[str]:
    allowed = state.rules.stations_per_player
    cities = set(state.map.cities)
    for seat, player in enumerate(state.players):
        if len(player.stations) > allowed:
            yield f"player {seat} built {len(player.stations)} stations of {allowed}"
        for city in player.stations:
            if city not in cities:
                yield f"player {seat} has a station in {city!r}, not a city of the map"


def _station_city_problems(state: GameState) -> Iterator[str]:
    counts = Counter(city for p in state.players for city in p.stations)
    for city, n in counts.items():
        if n > 1:
            yield f"{n} stations in {city}"


# --------------------------------------------------------------------------- routes


def _route_problems(state: GameState) -> Iterator[str]:
    seats = range(len(state.players))
    if len(state.route_owner) != len(state.map.routes):
        yield f"{len(state.route_owner)} route owners for {len(state.map.routes)} routes"
    for route, owner in enumerate(state.route_owner):
        if owner is not None and owner not in seats:
            yield f"route {route} is owned by {owner!r}, not a seat"
    tunnel = state.tunnel
    if tunnel is not None:
        route = tunnel.route
        if not 0 <= route < len(state.map.routes) or not state.map.routes[route].tunnel:
            yield f"the pending tunnel's route {route} is not a tunnel"
        elif state.route_owner[route] is not None:
            yield f"the pending tunnel's route {route} is already claimed"


def _payment_problems(state: GameState) -> Iterator[str]:
    """A payment being picked is the current player's, for a route open to them that takes
    sets, its cards in card order, in the hand and leading to a payment."""
    for seat, player in enumerate(state.players):
        if player.payment is not None and seat != state.current:
            yield f"player {seat} pays with sets out of turn"
    if not 0 <= state.current < len(state.players) or len(state.route_owner) != len(
        state.map.routes
    ):
        return
    payer = state.players[state.current]
    if payer.payment is None:
        return
    yield from pending_payment_problems(
        payer.payment,
        state.map,
        state.rules,
        state.route_owner,
        seat=state.current,
        players=len(state.players),
        trains=payer.trains,
        hand=payer.hand.counts,
        hand_size=len(payer.hand),
    )


def _double_route_problems(state: GameState) -> Iterator[str]:
    owners = state.route_owner
    both_open = len(state.players) >= state.rules.double_route_min_players
    for route in state.map.routes:
        other = route.double_of
        if other is None or other < route.id or other >= len(owners):
            continue
        first, second = owners[route.id], owners[other]
        if first is None or second is None:
            continue
        if first == second:
            yield f"player {first} owns both tracks {route.id} and {other}"
        elif not both_open:
            yield (
                f"both tracks {route.id} and {other} are owned with {len(state.players)} players "
                f"(both open from {state.rules.double_route_min_players})"
            )


def _route_point_problems(state: GameState) -> Iterator[str]:
    rules = state.rules
    points = [0] * len(state.players)
    routes = state.map.routes
    for route, owner in enumerate(state.route_owner):
        if owner is not None and 0 <= owner < len(points):
            points[owner] += rules.claim_points(routes[route].length, routes[route].mountain)
    for seat, (player, want) in enumerate(zip(state.players, points, strict=True)):
        if player.route_points != want:
            yield f"player {seat} has {player.route_points} route points; their routes score {want}"


# --------------------------------------------------------------------------- face-up row


def _row_problems(state: GameState) -> Iterator[str]:
    row = state.face_up
    if len(row) != state.rules.face_up_size:
        yield f"the row has {len(row)} slots, not face_up_size {state.rules.face_up_size}"
    if None in row and (state.deck or state.discard):
        yield (
            f"slot {row.index(None)} is empty with {len(state.deck)} cards in the deck and "
            f"{len(state.discard)} in the discard"
        )


def reset_feasible(state: GameState, limit: int) -> bool:
    """U2: a new row can show fewer than ``limit`` locomotives (see the module doc);
    the engine's own test, :func:`ttr_rules.moves.turn.reset_feasible`, applied to ``state``."""
    return _engine_reset_feasible(state.deck, state.discard, state.face_up, limit)


def _cap_trace(state: GameState, limit: int) -> bool:
    """Whether the discard is consistent with the reset cap having been hit."""
    if state.rules.max_consecutive_resets == 0 or not state.discard:
        return True
    return state.discard[-state.rules.face_up_size :].count(Color.LOCOMOTIVE) >= limit


def _row_locomotive_problems(state: GameState) -> Iterator[str]:
    limit = state.rules.face_up_locomotive_limit
    if limit is None:
        return
    shown = state.face_up.count(Color.LOCOMOTIVE)
    if shown < limit or not reset_feasible(state, limit) or _cap_trace(state, limit):
        return
    yield (
        f"the row shows {shown} locomotives (limit {limit}), a reset was feasible and the "
        "discard shows no trace of the reset cap"
    )


# --------------------------------------------------------------------------- phase


def _still_to_choose(phase: Phase, count: int, current: int, first_player: int) -> set[int]:
    """Seats that still choose their initial tickets: from the player to act up to the first
    player, in seat order."""
    if phase is not Phase.INITIAL_TICKETS or not 0 <= first_player < count:
        return set()
    seats = set()
    seat = current
    while True:
        seats.add(seat)
        seat = (seat + 1) % count
        if seat == first_player:
            return seats


def _phase_problems(state: GameState) -> Iterator[str]:
    yield from phase_problems(
        state, [joined(p.offered) if p.offered else "" for p in state.players]
    )


def phase_problems(position: Any, offered: Sequence[str]) -> Iterator[str]:
    """Why a position's phase does not fit what it holds (the invariant ``phase``), for a
    :class:`GameState` and for a ``PlayerView`` alike: a pending tunnel exactly in ``TUNNEL``,
    a payment with sets exactly in ``PAYMENT``, offered tickets (``offered``: each seat's, in
    words, empty for none) exactly for the seats choosing."""
    phase, current, first_player = position.phase, position.current, position.first_player
    seats = position.players if isinstance(position, GameState) else position.seats
    paying = [seat.payment is not None for seat in seats]
    tunnel, final_turns, passes = position.tunnel is not None, position.final_turns, position.passes
    count = len(offered)
    if not 0 <= current < count:
        yield f"seat {current} is to act in a {count}-player game"
        return
    if (phase is Phase.TUNNEL) != tunnel:
        pending = "a tunnel is pending" if tunnel else "no tunnel is pending"
        yield f"phase is {phase.value} and {pending}"
    if (phase is Phase.PAYMENT) != paying[current]:
        picking = "a" if paying[current] else "no"
        yield f"phase is {phase.value} and {picking} payment with sets is being picked"
    choosing = phase is Phase.KEEP_TICKETS or phase is Phase.INITIAL_TICKETS
    if choosing != bool(offered[current]):
        yield (
            f"phase is {phase.value} and player {current} is offered "
            f"{offered[current] or 'no ticket'}"
        )
    allowed = _still_to_choose(phase, count, current, first_player) | {current}
    for seat, held in enumerate(offered):
        if held and seat not in allowed:
            yield f"player {seat} holds offered tickets in phase {phase.value}"
        elif not held and seat in allowed and phase is Phase.INITIAL_TICKETS:
            yield f"player {seat} still chooses initial tickets and is offered none"
    if final_turns is not None and not 0 <= final_turns <= count:
        yield f"final round with {final_turns} turns left"
    if phase is not Phase.GAME_OVER and not 0 <= passes < count:
        yield f"{passes} consecutive passes and the game goes on"


#: Every invariant, by name, with the function listing its violations.
INVARIANTS: tuple[tuple[str, Callable[[GameState], Iterator[str]]], ...] = (
    ("cards", _card_problems),
    ("tickets", _ticket_problems),
    ("trains", _train_problems),
    ("stations", _station_problems),
    ("station cities", _station_city_problems),
    ("routes", _route_problems),
    ("payment", _payment_problems),
    ("double routes", _double_route_problems),
    ("route points", _route_point_problems),
    ("face-up row", _row_problems),
    ("face-up locomotives", _row_locomotive_problems),
    ("phase", _phase_problems),
)
