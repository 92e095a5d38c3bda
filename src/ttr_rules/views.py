"""What one player may know: player views, spectator views and determinization (E79).

:func:`observe` keeps exactly the information a seat at the table has *now*: its own hand, kept
and offered tickets; for every player the hand size, ticket counts, trains, stations and route
points; the board, the face-up row, the discard pile (its contents are public), the sizes of the
deck and the ticket deck, the phase and a pending tunnel reveal. The deck order, the reshuffle
seed, the opponents' cards and tickets never enter a view. Once the game is over every player's
kept tickets are shown (they are revealed at scoring, E70).

A view is a snapshot, not a memory: tickets a player returned earlier are not part of it.

:func:`determinize` turns a view back into a full :class:`~ttr_rules.GameState` by dealing the
hidden cards and tickets at random from what remains, which is what information-set search
needs; :func:`view_legal_actions` lists the acting player's legal actions from their own view.
"""

from __future__ import annotations

import hashlib
import operator
import sys
import weakref
from array import array
from collections.abc import Iterable
from functools import partial
from itertools import filterfalse

import attrs
from attrs import field, frozen

from .actions import Action
from .cards import COLORS, LOCOMOTIVE_CODE, Color, Hand, count_colors, pile_counts
from .errors import MapError
from .events import CardDrawn, Event
from .game import legal_actions
from .maps import GameMap, Route, Ticket, load_map
from .maps.index import map_index
from .moves.common import payment_cards
from .moves.payments import can_pay_with_sets, set_payment_choices
from .rules import Rules
from .state import GameState, PendingPayment, PendingTunnel, Phase, PlayerState
from .words import seat_name

__all__ = [
    "PlayerView",
    "SeatView",
    "determinize",
    "events_for",
    "observe",
    "public_view",
    "view_legal_actions",
]


@frozen(slots=False)
class SeatView:
    """One player as seen by the viewer.

    The counts are public; ``hand`` and ``offered`` are set only for the viewer's own seat, and
    ``tickets`` for the viewer's own seat and, after the game, for everyone.
    """

    hand_size: int
    trains: int
    stations: tuple[str, ...]
    route_points: int
    #: Kept tickets.
    ticket_count: int
    #: Tickets drawn (or dealt) and not yet kept or returned.
    offered_count: int
    hand: Hand | None = None
    tickets: tuple[int, ...] | None = None
    offered: tuple[int, ...] | None = None
    #: A claim this player is paying with substitute sets: its route, and the cards picked so
    #: far for the viewer's own seat only (others see none until the claim, which shows them
    #: all). Out of the repr as in :class:`~ttr_rules.PlayerState`.
    payment: PendingPayment | None = field(default=None, repr=False)


@frozen(slots=False)
class PlayerView:
    """Everything ``player`` may know about a position (``player`` None: a spectator).

    Holds only tuples, ints, strings, enums and frozen values; compare views with ``==`` and
    send them with :func:`ttr_rules.to_json`.
    """

    #: The viewer's seat; None for :func:`public_view`.
    player: int | None
    map: GameMap = field(repr=False)
    rules: Rules = field(repr=False)
    seats: tuple[SeatView, ...]
    current: int
    phase: Phase
    face_up: tuple[Color | None, ...]
    deck_size: int
    #: The discard pile, oldest first: every card in it was shown when it was discarded.
    discard: tuple[Color, ...]
    ticket_deck_size: int
    #: Tickets out of the game (unkept initial tickets, undealt long tickets).
    ticket_box_size: int
    route_owner: tuple[int | None, ...]
    #: A tunnel attempt waiting for payment: route, base payment, revealed cards, cards owed.
    tunnel: PendingTunnel | None = None
    final_turns: int | None = None
    passes: int = 0
    turn: int = 0
    first_player: int = 0
    identity_shuffle: bool = False
    #: Cards set aside by ``scenario`` (their colours are hidden).
    out_of_play_size: int = 0

    @property
    def payment(self) -> PendingPayment | None:
        """The claim the player to act is paying with substitute sets, as this view shows it
        (:attr:`SeatView.payment`)."""
        return self.seats[self.current].payment

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def num_players(self) -> int:
        return len(self.seats)

    # Presentation lives in the render layer, above this one: imported when called.

    def __str__(self) -> str:
        """What the viewer knows, as text (:func:`ttr_rules.render.text`)."""
        from .render import text

        return text(self)

    def _repr_svg_(self) -> str:
        """The board as the viewer sees it, for Jupyter (:func:`ttr_rules.render.svg`); the
        viewer's ticket cities are marked."""
        from .render import svg

        return svg(self, tickets_of=self.player)


def observe(state: GameState, player: int) -> PlayerView:
    """What ``player`` knows about ``state``: nothing hidden from them, nothing more (E79).

    >>> from ttr_rules import new_game
    >>> state = new_game(players=3, seed=1)
    >>> view = observe(state, 1)
    >>> view.seats[1].hand == state.players[1].hand, view.seats[0].hand  # others' hands hidden
    (True, None)
    >>> view.seats[0].hand_size, view.seats[0].offered_count, view.deck_size == len(state.deck)
    (4, 4, True)
    """
    if type(player) is not int or not 0 <= player < len(state.players):  # bools are not seats
        raise ValueError(f"player must be a seat from 0 to {state.num_players - 1}, got {player!r}")
    view = _view(state, player)
    if player == state.current and state.phase is not _GAME_OVER:  # the actor's view
        # Remembered while the view lives: the state it shows (for view_legal_actions) and the
        # player state of the viewer's seat view (determinize reuses it).
        source = _Source(view, _forget_source)
        source.key = key = id(view)
        source.state = state
        seat = view.seats[player]
        source.own = own = id(seat)
        _SOURCES[key] = source
        _PLAYERS[own] = (seat, state.players[player])
    return view


def public_view(state: GameState) -> PlayerView:
    """What a spectator knows: the public information only (``player`` is None).

    >>> from ttr_rules import new_game
    >>> view = public_view(new_game(players=3))
    >>> view.player, [seat.hand for seat in view.seats]
    (None, [None, None, None])
    """
    return _view(state, None)


def events_for(events: Iterable[Event], player: int | None) -> tuple[Event, ...]:
    """The ``events`` (of :func:`~ttr_rules.step`) as seat ``player`` sees them (None: a
    spectator), E79: the colour of a card drawn blind is known to its drawer only, so the others
    get the :class:`~ttr_rules.CardDrawn` with ``color`` None. Every other event is public
    (revealed tunnel cards, payments, face-up cards, ticket counts) and kept as is.

    >>> from ttr_rules import DrawBlind, scenario, step
    >>> result = step(scenario(players=2, current=0), DrawBlind())
    >>> events_for(result.events, 0)[0].color is not None
    True
    >>> events_for(result.events, 1)[0]
    CardDrawn(player=0, color=None, slot=None)
    """
    return tuple(
        attrs.evolve(e, color=None)
        if type(e) is CardDrawn and e.slot is None and e.player != player
        else e
        for e in events
    )


def _hidden_tickets(state: GameState, viewer: int | None) -> frozenset[int]:
    """Tickets injected into the map (``scenario``) that only opponents of ``viewer`` hold: a
    view's map shows them blank (see :func:`_without_tickets`). Injected tickets follow the
    installed map's own."""
    if state.phase is Phase.GAME_OVER:
        return frozenset()
    game_map = state.map
    index = map_index(game_map)
    if index.base_tickets is None:  # once per map: is it an installed map with tickets added?
        index.base_tickets = _base_tickets(game_map)
    if index.base_tickets < 0:
        return frozenset()
    injected = range(index.base_tickets, len(game_map.tickets))
    return frozenset(
        t
        for seat, p in enumerate(state.players)
        if seat != viewer
        for t in (*p.tickets, *p.offered)
        if t in injected
    )


def _base_tickets(game_map: GameMap) -> int:
    """The ticket count of the installed map that ``game_map`` extends with more tickets, or
    -1 when it extends none."""
    try:
        base = load_map(game_map.name)
    except MapError:
        return -1
    extends = len(base.tickets) < len(game_map.tickets) and (
        game_map.tickets[: len(base.tickets)] == base.tickets
    )
    return len(base.tickets) if extends else -1


def _without_tickets(state: GameState, hidden: frozenset[int]) -> GameState:
    """``state`` on a copy of its map where each ``hidden`` ticket is blank: 0 points between
    the map's first two cities (its id stays, so counts and determinization still agree)."""
    game_map = state.map
    first, second = game_map.cities[0], game_map.cities[1]
    tickets = [Ticket(t.id, first, second, 0) if t.id in hidden else t for t in game_map.tickets]
    return attrs.evolve(state, map=game_map.with_tickets(tickets))


def _view(state: GameState, viewer: int | None) -> PlayerView:
    over = state.phase is _GAME_OVER
    game_map = state.map
    if not over and game_map is not _PLAIN_MAP[0] and _injects_tickets(game_map):
        hidden = _hidden_tickets(state, viewer)
        if hidden:
            state = _without_tickets(state, hidden)
    # A player who did not act passes unchanged from state to state: the seat view made last
    # for the same seat shown the same way is the one (checked by identity), else a new one.
    players = state.players
    if len(players) > len(_LAST_OWN):
        _track_seats(len(players))
    seats = []
    others = _LAST_SHOWN if over else _LAST_OTHER
    for seat, p in enumerate(players):
        hit = (_LAST_OWN if seat == viewer else others)[seat]
        seats.append(hit[1] if hit[0] is p else _new_seat_view(p, seat, viewer, others))
    # Built like ``evolve`` builds states, from a copy of the state's dict (a C-level copy; a
    # dict display of every field costs twice as much) less what is hidden, plus the counts:
    # ``tests/test_views.py`` checks the fields and compares with views made by the constructor.
    values = dict(
        state.__dict__,
        player=viewer,
        seats=tuple(seats),
        deck_size=len(state.deck),
        ticket_deck_size=len(state.ticket_deck),
        ticket_box_size=len(state.ticket_box),
        out_of_play_size=len(state.out_of_play),
    )
    del (
        values["players"],
        values["deck"],
        values["ticket_deck"],
        values["ticket_box"],
        values["out_of_play"],
        values["seed"],
        values["rng"],
    )
    view = _new(PlayerView)
    _set(view, "__dict__", values)
    return view


def _injects_tickets(game_map: GameMap) -> bool:
    """Whether ``game_map`` may hold tickets injected by ``scenario`` (see
    :func:`_hidden_tickets`); remembers the last map that holds none."""
    if map_index(game_map).base_tickets == -1:  # None: not asked yet
        _PLAIN_MAP[0] = game_map
        return False
    return True


#: The last map seen with no injected tickets (most views are of one map).
_PLAIN_MAP: list[GameMap | None] = [None]


def _new_seat_view(
    p: PlayerState, seat: int, viewer: int | None, others: list[_LastSeen]
) -> SeatView:
    """The view of seat ``seat`` (player state ``p``) for ``viewer``, made afresh and
    remembered as the seat's last (``others``: the last views of other seats, of
    :data:`_LAST_OTHER` or :data:`_LAST_SHOWN`).

    Built from a copy of a dict: the player's (its fields are the seat view's less the counts)
    with the counts added and, for another seat, what it hides set to None; for the viewer's
    seat, when the last view of it as another seat shows ``p``, that one's with the holdings.
    """
    fields = p.__dict__
    shown = others[seat]
    if seat != viewer:
        tickets = fields["tickets"]
        values = dict(
            fields,
            hand_size=sum(fields["hand"].counts),
            ticket_count=len(tickets),
            offered_count=len(fields["offered"]),
            hand=None,
            tickets=tickets if others is _LAST_SHOWN else None,
            offered=None,
        )
        if fields["payment"] is not None:  # the picked cards stay private
            values["payment"] = PendingPayment(fields["payment"].route)
    elif shown[0] is p:
        values = dict(
            shown[1].__dict__,
            hand=fields["hand"],
            tickets=fields["tickets"],
            offered=fields["offered"],
            payment=fields["payment"],
        )
    else:
        values = dict(
            fields,
            hand_size=sum(fields["hand"].counts),
            ticket_count=len(fields["tickets"]),
            offered_count=len(fields["offered"]),
        )
    seat_view = _new(SeatView)
    _set(seat_view, "__dict__", values)
    (others if seat != viewer else _LAST_OWN)[seat] = (p, seat_view)
    return seat_view


def _track_seats(count: int) -> None:
    """Make room for ``count`` seats in the lists of the last seat views (they only grow).
    :data:`_LAST_OWN`, whose length :func:`_view` checks, grows last: another thread that
    finds it long enough finds the others so too."""
    for last in (_LAST_OTHER, _LAST_SHOWN, _LAST_OWN):
        last += [_NO_SEAT] * (count - len(last))


_new = object.__new__
_set = object.__setattr__
_GAME_OVER = Phase.GAME_OVER
#: The player state of the viewer's own seat view in each actor's view made by
#: :func:`observe` and still alive, by the id of the seat view (kept in the entry, so ids are
#: not reused): that seat view shows every field of it, determinize and the skeleton reuse it.
#: The entry goes with the view (see :func:`_forget_source`): entries for every seat view
#: ever made kept them all alive for the garbage collector to traverse again and again.
_PLAYERS: dict[int, tuple[SeatView, PlayerState]] = {}
_SEAT_VIEWS_SIZE = 4096
#: A player state and the view made of its seat.
_LastSeen = tuple[PlayerState | None, SeatView]
#: The last seat view made of each seat (by seat number, for as many seats as seen) with its
#: player state: for the viewer's own seat, for another seat during the game and once it is
#: over. A player who did not act passes unchanged from state to state, so this finds the
#: seats that did not change by identity alone, in a sequence of views of one game (an id
#: memo of every player state seen cost more than it saved: in a game each new view holds
#: new player states, as the one who acted and as the viewer's own seat).
_NO_SEAT: _LastSeen = (None, _new(SeatView))
_LAST_OWN: list[_LastSeen] = []
_LAST_OTHER: list[_LastSeen] = []
_LAST_SHOWN: list[_LastSeen] = []


def view_legal_actions(view: PlayerView) -> tuple[Action, ...]:
    """The legal actions of the viewer, who must be the player to act: equal to
    ``legal_actions(state)`` for every state the view was observed from.

    Legality depends only on what the actor knows, so any determinization of the view gives the
    same list. Raises :class:`ValueError` for a spectator's view or when another player acts.

    >>> from ttr_rules import legal_actions, new_game
    >>> state = new_game(players=2, seed=4)
    >>> view_legal_actions(observe(state, 0)) == legal_actions(state)
    True
    """
    source = _SOURCES.get(id(view))
    if source is not None and source() is view:  # made by observe for the actor, as it is now
        return legal_actions(source.state)
    if view.player is None:
        raise ValueError("a spectator's view has no legal actions")
    if view.phase is not _GAME_OVER and view.player != view.current:
        raise ValueError(f"{seat_name(view.current)} acts, not {seat_name(view.player)}")
    return legal_actions(_skeleton(view))


class _Source(weakref.ref[PlayerView]):
    """A weak reference to an actor's view made by :func:`observe`, holding the view's id
    (its :data:`_SOURCES` key), the state it was observed from and the id of the viewer's
    seat view (its :data:`_PLAYERS` key)."""

    __slots__ = ("key", "own", "state")
    key: int
    state: GameState
    own: int


#: The actor's views made by :func:`observe` and still alive, by their id, as a weak
#: reference to the view (its callback drops the entry when the view goes, so ids are never
#: confused and nothing outlives its view) carrying the state it was observed from: the legal
#: actions of that state are the view's (the docstring's contract), found without building a
#: :func:`_skeleton`. A weak reference, not the view: holding views would keep them for the
#: garbage collector to traverse again and again. (One object per view: a plain reference
#: with a ``partial`` callback, and a tuple for the entry, cost 1,300 instructions more.)
_SOURCES: dict[int, _Source] = {}


def _forget_source(source: _Source) -> None:
    """Drop the entries of a view that is gone (its weak reference's callback). Another live
    view sharing the seat view loses the :data:`_PLAYERS` entry too: determinize then builds
    the player state, an equal one."""
    _SOURCES.pop(source.key, None)
    _PLAYERS.pop(source.own, None)


def _skeleton(view: PlayerView) -> GameState:
    """A state with the view's public information and the viewer's own holdings, and
    placeholders for everything hidden: the other hands empty, the piles of the right sizes.
    Enough for :func:`legal_actions`, which reads only what the actor knows (the sizes of the
    piles, not their contents), and much cheaper than :func:`determinize` (no dealing)."""
    players = []
    for s in view.seats:
        known = _PLAYERS.get(id(s))  # the viewer's own seat, from observe: its player state
        if known is None or known[0] is not s:
            known = _SKELETONS.get(id(s))  # another seat seen before
            if known is None or known[0] is not s:
                if len(_SKELETONS) >= _SEAT_VIEWS_SIZE:
                    _SKELETONS.clear()
                known = _SKELETONS[id(s)] = (
                    s,
                    _player(
                        _EMPTY_HAND if s.hand is None else s.hand,
                        s.trains,
                        s.stations,
                        s.tickets or (),
                        s.offered or (),
                        s.route_points,
                        s.payment,
                    ),
                )
        players.append(known[1])
    deck = _PLACEHOLDERS.get(view.deck_size)
    if deck is None:
        deck = _PLACEHOLDERS[view.deck_size] = _PLACEHOLDER_CARD * view.deck_size
    tickets = _PLACEHOLDERS.get(-1 - view.ticket_deck_size)
    if tickets is None:
        tickets = _PLACEHOLDERS[-1 - view.ticket_deck_size] = (0,) * view.ticket_deck_size
    return _state(view, tuple(players), deck, tickets)  # type: ignore[arg-type]


#: The skeleton player of each seat view (by its id, kept in the entry): the seat's public
#: counts and whatever it shows, empty hand and tickets for what it hides.
_SKELETONS: dict[int, tuple[SeatView, PlayerState]] = {}
#: Placeholder piles by size (the deck by its size, the ticket deck by -1 - its size).
_PLACEHOLDERS: dict[int, tuple[object, ...]] = {}


#: The card standing for every hidden deck card in :func:`_skeleton` (its colour is never read).
_PLACEHOLDER_CARD: tuple[Color, ...] = (COLORS[0],)


# --------------------------------------------------------------------------- determinization


def determinize(view: PlayerView, seed: int) -> GameState:
    """A full state consistent with ``view``: ``observe(determinize(v, s), v.player) == v``
    (``public_view(...) == v`` for a spectator's view).

    The hidden information is dealt at random out of what the viewer cannot see, uniformly
    over the consistent deals: the unseen train cards go to the other players' hands, the
    cards set aside, and the deck in a random order; the unseen tickets to the other players'
    kept and offered tickets, the ticket deck and the box (under the official
    ``initial_discard="box"`` rule the ticket deck holds regular tickets only, as in a real
    game); the reshuffle seed is drawn afresh. A seat picking a payment with sets unseen is
    dealt a hand that can pay it. The deal is a function of the view and the
    integer ``seed`` only (the same on every platform): different seeds give different deals.
    Raises :class:`ValueError` when the view is inconsistent (more hidden cards or tickets
    than remain).

    >>> from ttr_rules import new_game
    >>> state = new_game(players=3, seed=1)
    >>> view = observe(state, 1)
    >>> world = determinize(view, seed=5)
    >>> observe(world, 1) == view, world.players[1] == state.players[1]
    (True, True)
    >>> world.players[0].hand == state.players[0].hand  # another deal of the unseen cards
    False
    >>> determinize(view, seed=5) == world
    True
    """
    plan = _LAST_PLAN[0]
    if plan[0] is not view:  # a search deals many worlds of one view: prepare it once
        plan = _LAST_PLAN[0] = _plan(view)
    _, unseen_cards, unseen_tickets, extra, size, keys = plan
    # One key per card and ticket, one per extra ticket and one for the reshuffle seed, in
    # this order.
    key = partial(next, iter(_random_keys(seed, keys)))
    cards = sorted(unseen_cards, key=key)
    tickets = sorted(unseen_tickets, key=key)
    rest = tickets[size:]
    # What follows the ticket deck is in a uniformly random order; inserting each extra
    # ticket at a uniformly random place keeps it so (a random permutation built by
    # insertion), with one key per extra ticket instead of a second shuffle of the rest.
    for ticket in extra:
        rest.insert(int((key(ticket) - 1.0) * (len(rest) + 1)), ticket)
    rng = int((key(None) - 1.0) * _KEY_SCALE)
    _hidden_payer_can_pay(view, cards)

    players = []
    at = taken = 0
    for s in view.seats:
        hand = s.hand
        if hand is None:
            hand = _hand(tuple(count_colors(cards[at : at + s.hand_size])))
            at += s.hand_size
        else:
            known = _PLAYERS.get(id(s))
            if known is not None and known[0] is s:  # the viewer's own seat, from observe
                players.append(known[1])
                continue
        kept = s.tickets
        if kept is None:
            kept = tuple(rest[taken : taken + s.ticket_count])
            taken += s.ticket_count
        offered = s.offered
        if offered is None:
            offered = tuple(rest[taken : taken + s.offered_count])
            taken += s.offered_count
        players.append(
            _player(hand, s.trains, s.stations, kept, offered, s.route_points, s.payment)
        )
    end = at + view.out_of_play_size
    return _state(
        view,
        tuple(players),
        tuple(cards[end:]),
        tuple(tickets[:size]),
        tuple(rest[taken:]),
        tuple(cards[at:end]),
        rng,
    )


def _hidden_payer_can_pay(view: PlayerView, cards: list[Color]) -> None:
    """When another seat picks a payment with sets (its hand and picks unseen), give it, out
    of ``cards`` (the unseen cards as dealt: the hidden hands in seat order, then the cards set
    aside and the deck), a hand that can pay: the first payment the picking finds among the
    unseen cards, in place of cards it does not need. A world where the payer cannot pay
    would have no legal action. Raises :class:`ValueError` when no such hand exists."""
    payment, seat = view.payment, view.current
    if payment is None or view.seats[seat].hand is not None:
        return
    start = sum(s.hand_size for s in view.seats[:seat] if s.hand is None)
    size = view.seats[seat].hand_size
    route = view.map.routes[payment.route]
    hand = tuple(count_colors(cards[start : start + size]))
    if can_pay_with_sets(route, view.rules, hand):
        return
    wanted = _a_set_payment(route, view.rules, tuple(count_colors(cards)))
    if wanted is None or sum(wanted) > size:
        raise ValueError(f"no deal of the unseen cards lets player {seat} pay with sets")
    spare = [have - want for have, want in zip(hand, wanted, strict=True)]
    # Each missing card comes from outside the hand, for a card of the hand it does not need.
    outside = [i for i in range(len(cards)) if not start <= i < start + size]
    for i in outside:
        code = cards[i].code
        if spare[code] >= 0:
            continue
        j = next(k for k in range(start, start + size) if spare[cards[k].code] > 0)
        spare[cards[j].code] -= 1
        spare[code] += 1
        cards[i], cards[j] = cards[j], cards[i]


def _a_set_payment(route: Route, rules: Rules, pool: tuple[int, ...]) -> list[int] | None:
    """The counts (by card code) of a payment with sets for ``route`` out of ``pool``: the
    picking's first choice at every step, up to the claim; None when there is none."""
    if not can_pay_with_sets(route, rules, pool):
        return None
    picked: tuple[Color, ...] = ()
    while True:
        choices, claim = set_payment_choices(route, rules, pool, picked)
        if claim is not None or not choices:
            return list(count_colors(picked)) if claim is not None else None
        picked = (*picked, choices[0])


#: What :func:`determinize` needs of a view besides the seed, checked and prepared once per
#: view (:func:`_plan`): the view; the unseen cards and the tickets the ticket deck is drawn
#: from, in canonical order (by colour, by id: the deal must not depend on anything but the
#: view and the seed); the unseen tickets that never enter the ticket deck (the long ones,
#: under the box rule); the size of the ticket deck; how many random keys a deal takes.
_Plan = tuple[PlayerView | None, list[Color], list[int], list[int], int, int]


def _plan(view: PlayerView) -> _Plan:
    """The deal of ``view`` up to the seed (see :data:`_Plan`). Raises :class:`ValueError`
    when the view is inconsistent (more hidden cards or tickets than remain)."""
    hidden_cards = hidden_tickets = 0
    shown: list[tuple[int, ...]] = []  # the kept and offered tickets the view shows
    for s in view.seats:
        if s.hand is None:
            hidden_cards += s.hand_size
        if s.tickets is None:
            hidden_tickets += s.ticket_count
        else:
            shown.append(s.tickets)
        if s.offered is None:
            hidden_tickets += s.offered_count
        else:
            shown.append(s.offered)
    unseen = _unseen_counts(view)
    if min(unseen) < 0:
        raise ValueError("inconsistent view: more cards of a colour are visible than exist")
    if sum(unseen) != hidden_cards + view.out_of_play_size + view.deck_size:
        raise ValueError(
            f"inconsistent view: {sum(unseen)} unseen cards for {hidden_cards} in hands, "
            f"{view.out_of_play_size} set aside and {view.deck_size} in the deck"
        )
    # One run of each colour, in COLORS order (unpacking the nine runs into a list display
    # costs less than a loop extending the list).
    p, w, b, y, o, k, r, g, loco = map(operator.mul, _SINGLE_CARDS, unseen)
    cards = [*p, *w, *b, *y, *o, *k, *r, *g, *loco]
    # The tickets, in id order. The ticket deck is drawn first; the hidden kept and offered
    # tickets come next in what is left, and the box, whose order nobody ever sees, takes the
    # rest.
    tickets, extra = _unseen_tickets(view, shown)
    size = view.ticket_deck_size
    if len(tickets) < size:
        raise ValueError("inconsistent view: too few unseen tickets for the ticket deck")
    left = len(tickets) - size + len(extra)
    if left != hidden_tickets + view.ticket_box_size:
        raise ValueError(
            f"inconsistent view: {left} unseen tickets left for {hidden_tickets} hidden and a "
            f"box of {view.ticket_box_size}"
        )
    return view, cards, tickets, extra, size, len(cards) + len(tickets) + len(extra) + 1


def _unseen_tickets(view: PlayerView, shown: list[tuple[int, ...]]) -> tuple[list[int], list[int]]:
    """The unseen tickets the ticket deck is drawn from and those that never enter it (the
    long ones, under the box rule), in id order, given the ticket tuples ``shown`` in
    ``view``. A view of one seat during the game shows that seat's kept and offered tickets,
    which stay the same objects from state to state until they change: the lists are
    remembered by the identity of the two tuples (held in the entry, so ids are not reused)
    and shared: callers only read them."""
    ids = map_index(view.map).ticket_ids
    box = view.rules.initial_discard == "box"  # only regular tickets enter the ticket deck
    key = None
    if len(shown) == 2:
        key = (id(shown[0]), id(shown[1]))
        hit = _UNSEEN_TICKETS.get(key)
        if (
            hit is not None
            and hit[0] is shown[0]
            and hit[1] is shown[1]
            and hit[2] is ids
            and hit[3] is box
        ):
            return hit[4], hit[5]
    seen = set().union(*shown)
    regular, long, every = ids
    if box:
        tickets = list(filterfalse(seen.__contains__, regular))
        extra = list(filterfalse(seen.__contains__, long))
    else:
        tickets = list(filterfalse(seen.__contains__, every))
        extra = []
    if key is not None:
        if len(_UNSEEN_TICKETS) >= _UNSEEN_TICKETS_SIZE:
            _UNSEEN_TICKETS.clear()
        _UNSEEN_TICKETS[key] = (shown[0], shown[1], ids, box, tickets, extra)
    return tickets, extra


#: The unseen ticket lists of :func:`_unseen_tickets` by the ids of the two shown tuples.
_UNSEEN_TICKETS: dict[
    tuple[int, int],
    tuple[
        tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], bool, list[int], list[int]
    ],
] = {}
_UNSEEN_TICKETS_SIZE = 256


#: Each card kind alone in a tuple, in COLORS order.
_SINGLE_CARDS = tuple((color,) for color in COLORS)
#: The plan of no view, and the plan of the last view dealt (the plan holds its view, which
#: :func:`determinize` recognises by identity).
_NO_PLAN: _Plan = (None, [], [], [], 0, 0)
_LAST_PLAN: list[_Plan] = [_NO_PLAN]


def _random_keys(seed: int, count: int) -> array[float]:
    """``count`` independent uniform floats in [1, 2) (52 random bits each) drawn from
    ``seed``: SHAKE-128 of the seed's bytes, 8 bytes per float with its exponent set.

    Sorting items by such keys gives every order the same chance (two keys tie with a
    probability below ``count**2 / 2**53``; the sort is stable, so nothing else can happen),
    in a few passes of C instead of a Python loop per item, and without seeding a Mersenne
    Twister (``random.Random(seed)`` costs as much as shuffling 20 cards)."""
    if type(seed) is not int:
        seed = operator.index(seed)  # bools and integer types other than int; nothing else
    data = bytearray(
        hashlib.shake_128(seed.to_bytes(seed.bit_length() // 8 + 1, "little", signed=True)).digest(
            8 * count
        )
    )
    data[6::8] = data[6::8].translate(_HIGH_MANTISSA)  # exponent 0x3ff: [1, 2)
    data[7::8] = _EXPONENT * count
    keys = array("d", data)
    if _BIG_ENDIAN:
        keys.byteswap()
    return keys


#: Byte 6 of a little-endian double keeps its 4 mantissa bits and gets the exponent's low ones.
_HIGH_MANTISSA = bytes(0xF0 | (b & 0x0F) for b in range(256))
#: Byte 7: sign 0 and the exponent's high bits.
_EXPONENT = b"\x3f"
_BIG_ENDIAN = sys.byteorder == "big"
#: ``(key - 1.0) * _KEY_SCALE`` is a key's 52 random bits as an integer.
_KEY_SCALE = 2**52


def _player(
    hand: Hand,
    trains: int,
    stations: tuple[str, ...],
    tickets: tuple[int, ...],
    offered: tuple[int, ...],
    route_points: int,
    payment: PendingPayment | None = None,
) -> PlayerState:
    """A :class:`PlayerState` built as :func:`~ttr_rules.state.evolve` builds one (one dict,
    every field given; much cheaper than the attrs ``__init__``)."""
    player = _new(PlayerState)
    _set(
        player,
        "__dict__",
        {
            "hand": hand,
            "trains": trains,
            "stations": stations,
            "tickets": tickets,
            "offered": offered,
            "route_points": route_points,
            "payment": payment,
        },
    )
    return player


def _state(
    view: PlayerView,
    players: tuple[PlayerState, ...],
    deck: tuple[Color, ...],
    ticket_deck: tuple[int, ...],
    ticket_box: tuple[int, ...] = (),
    out_of_play: tuple[Color, ...] = (),
    rng: int = 0,
) -> GameState:
    """The state with the view's public fields and the given hidden ones, every field of
    :class:`GameState` given (built like :func:`_player`)."""
    state = _new(GameState)
    _set(
        state,
        "__dict__",
        {
            "map": view.map,
            "rules": view.rules,
            "players": players,
            "current": view.current,
            "phase": view.phase,
            "face_up": view.face_up,
            "deck": deck,
            "discard": view.discard,
            "ticket_deck": ticket_deck,
            "ticket_box": ticket_box,
            "route_owner": view.route_owner,
            "tunnel": view.tunnel,
            "final_turns": view.final_turns,
            "passes": view.passes,
            "turn": view.turn,
            "first_player": view.first_player,
            "seed": 0,
            "rng": rng,
            "identity_shuffle": view.identity_shuffle,
            "out_of_play": out_of_play,
        },
    )
    return state


def _hand(counts: tuple[int, ...]) -> Hand:
    """The :class:`Hand` of ``counts``, shared (hands are immutable; a memo of bounded size)."""
    hand = _HANDS.get(counts)
    if hand is None:
        if len(_HANDS) >= _HANDS_SIZE:
            _HANDS.clear()
        hand = _new(Hand)
        _set(hand, "counts", counts)  # as moves.common.hand_add builds hands
        _HANDS[counts] = hand
    return hand


_EMPTY_HAND = Hand()
_HANDS: dict[tuple[int, ...], Hand] = {}
_HANDS_SIZE = 4096


def _unseen_counts(view: PlayerView) -> list[int]:
    """How many train cards of each colour (by code) the viewer cannot see: the full deck
    minus the face-up row, the discard, a pending tunnel's base payment and revealed cards, and
    the hands shown in the view."""
    rules = view.rules
    discard = view.discard
    face_up = view.face_up
    last = _LAST_TABLE[0]
    if last[0] is rules and last[1] is discard and last[2] is face_up:
        unseen = list(last[3])
    else:  # the cards on the table changed since the last call: count them again
        unseen = [rules.cards_per_color] * len(COLORS)
        unseen[LOCOMOTIVE_CODE] = rules.locomotive_cards
        unseen = list(map(operator.sub, unseen, _discard_counts(discard)))
        for card in face_up:
            if card is not None:
                unseen[card.code] -= 1
        _LAST_TABLE[0] = (rules, discard, face_up, tuple(unseen))
    tunnel = view.tunnel
    if tunnel is not None:
        length = view.map.routes[tunnel.route].length
        for card in (*payment_cards(tunnel.color, tunnel.locomotives, length), *tunnel.revealed):
            unseen[card.code] -= 1
    for s in view.seats:
        if s.hand is not None:
            unseen = list(map(operator.sub, unseen, s.hand.counts))
    return unseen


#: The rules, discard pile and face-up row of the last :func:`_unseen_counts` call and the
#: counts of the cards they leave unseen (one tuple: read and replaced at once).
_LAST_TABLE: list[
    tuple[Rules | None, tuple[Color, ...], tuple[Color | None, ...], tuple[int, ...]]
] = [(None, (), (), ())]


def _discard_counts(discard: tuple[Color, ...]) -> tuple[int, ...]:
    """The colour counts of ``discard``. The last pile counted is remembered: successive
    states share their discard pile, or add cards at its end."""
    last, counts = _LAST_DISCARD[0]
    if discard is last:
        return counts
    counts = tuple(pile_counts(discard, last, list(counts)))
    _LAST_DISCARD[0] = (discard, counts)
    return counts


#: The last discard pile counted and its colour counts (one tuple: read and replaced at once).
_LAST_DISCARD: list[tuple[tuple[Color, ...], tuple[int, ...]]] = [((), (0,) * len(COLORS))]
