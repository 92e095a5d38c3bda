"""The front-end kit: what every front end shows a seat, computed from that seat's view.

One home for the words and structures a terminal game, a web page or a remote client needs:

- :func:`action_label` and :func:`payment_label`: an action in words, consistent with the
  notation (face-up slots numbered as ``draw faceup SLOT`` numbers them, the two tracks of a
  double route told apart as ``#1`` and ``#2`` are);
- :func:`route_name`, :func:`tunnel_words` and :func:`payment_words`: a route as people tell
  it apart, and the tunnel or the payment with substitute sets under way, in sentences;
- :func:`group_actions`: the legal actions grouped by kind, then by route or city, then by
  payment, with the cost and whether the seat can pay;
- :func:`ticket_status`: each ticket of a seat, done or how far it is connected, and the routes
  still missing;
- :func:`planning_graph`: the board as still open to a seat (double-route rule included), as a
  :mod:`networkx` multigraph;
- :func:`cards_needed`: the cards the missing routes of a seat's open tickets still ask for;
- :func:`choose_tickets`: the ticket ids a person picked, as the action that keeps them;
- :func:`find_place`: the place a person typed (any case, accents or not, an alias);
- :func:`cheapest_path`: the cheapest way left for a seat between two places;
- :class:`EventBuffer`: for each seat, what happened since its last move (hot-seat play).

Everything takes a :class:`~ttr_rules.PlayerView`, so a client holding only its view (for
instance from ``ttr serve``) computes the same as the host.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import pairwise

import networkx as nx
from attrs import frozen

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    ClaimWithSets,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayCard,
    PayTunnel,
)
from .cards import Color, Hand
from .errors import IllegalActionError, InvalidActionError, Reason
from .events import Event
from .maps.index import resolve_place
from .maps.model import GameMap, Route, Ticket
from .moves.payments import payment_cards_of, set_size
from .moves.tickets import keep_at_least
from .notation import format_action
from .state import Phase
from .views import PlayerView, events_for, view_legal_actions
from .words import (
    agrees,
    counted,
    joined,
    minus,
    route_name,
    seat_name,
    sentence,
    with_article,
)

__all__ = [
    "ActionGroup",
    "Choice",
    "EventBuffer",
    "PathPlan",
    "Target",
    "TicketStatus",
    "action_label",
    "cards_needed",
    "cheapest_path",
    "choose_tickets",
    "find_place",
    "group_actions",
    "keep_prompt",
    "payment_label",
    "payment_words",
    "phase_prompt",
    "planning_graph",
    "route_label",
    "route_name",
    "ticket_status",
    "ticket_worth",
    "tunnel_words",
    "turn_words",
    "verdict",
]


def _card_words(count: int, color: Color) -> str:
    name = "locomotive" if color is Color.LOCOMOTIVE else color.value
    return counted(count, name) if color is Color.LOCOMOTIVE else f"{count} {name}"


def payment_label(color: Color, locomotives: int, total: int) -> str:
    """``3 black + 1 locomotive``, ``2 locomotives``, ``4 red``: the cards of a payment.

    >>> from ttr_rules import Color
    >>> payment_label(Color.BLACK, 1, 4)
    '3 black + 1 locomotive'
    >>> payment_label(Color.LOCOMOTIVE, 2, 2), payment_label(Color.RED, 0, 4)
    ('2 locomotives', '4 red')
    """
    if color is Color.LOCOMOTIVE or locomotives >= total:
        return _card_words(total, Color.LOCOMOTIVE)
    words = _card_words(total - locomotives, color)
    return f"{words} + {_card_words(locomotives, Color.LOCOMOTIVE)}" if locomotives else words


def route_label(game_map: GameMap, route: int) -> str:
    """A route in words: its cities, its track of a double route as the notation numbers it
    (``#1``, ``#2``), colour, length and kind.

    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> [route_label(europe, r.id) for r in europe.route_between("Berlin", "Frankfurt")]
    ['Berlin – Frankfurt #1, black, 3', 'Berlin – Frankfurt #2, red, 3']
    >>> [route_label(europe, r.id) for r in europe.route_between("London", "Amsterdam")]
    ['Amsterdam – London, gray, 2, ferry (2 locomotives)']
    >>> asia = load_map("legendary-asia")
    >>> [route_label(asia, r.id) for r in asia.route_between("Lhasa", "Mandalay")]
    ['Lhasa – Mandalay, black, 2, mountain (2 X: 2 more trains, +4)']
    """
    r = game_map.routes[route]
    track = ""
    if r.double_of is not None:
        tracks = sorted(t.id for t in game_map.route_between(r.a, r.b))
        track = f" #{tracks.index(r.id) + 1}"
    colour = "gray" if r.color is None else r.color.value
    kind = ", tunnel" if r.tunnel else ""
    if r.is_ferry:
        kind += f", ferry ({counted(r.ferry_locomotives, 'locomotive')})"
    if r.mountain:
        points = r.mountain * game_map.rules.mountain_points
        kind += f", mountain ({r.mountain} X: {counted(r.mountain, 'more train')}, +{points})"
    return f"{r.a} – {r.b}{track}, {colour}, {r.length}{kind}"


def tunnel_words(view: PlayerView, names: Callable[[int], str] | None = None) -> str | None:
    """The tunnel waiting for its extra cards, in words, as ``view``'s seat reads it (None
    when no tunnel waits): the route, what the revealed cards ask for and, for the seat paying,
    whether its hand can pay. ``names`` names a seat (by default
    :func:`~ttr_rules.words.seat_name`: ``Player N``, counted from 1, ``you`` for the reader).

    >>> from ttr_rules import ClaimRoute, Color, load_map, observe, scenario, step
    >>> europe = load_map("europe")
    >>> tunnel = europe.route_between("Madrid", "Pamplona")[0].id
    >>> black, red = Color.BLACK, Color.RED
    >>> state = scenario(europe, hands=[{black: 4}, {}], deck=[black, red, red, red, red])
    >>> state = step(state, ClaimRoute(tunnel, black, 0)).state
    >>> said = tunnel_words(observe(state, 0))
    >>> said.startswith("Tunnel Madrid – Pamplona (black): the revealed cards ask for ")
    True
    >>> said.removeprefix("Tunnel Madrid – Pamplona (black): the revealed cards ask for ")
    '1 more black card (or locomotives). Your hand can pay.'
    >>> tunnel_words(observe(state, 1), names=lambda seat: f"Player {seat + 1}")[-35:]
    'Player 1 chooses to pay or give up.'
    """
    t = view.tunnel
    if t is None:
        return None
    if t.owed == 0:
        owed = "nothing more"
    elif t.color is Color.LOCOMOTIVE:
        owed = counted(t.owed, "more locomotive")
    else:
        owed = counted(t.owed, f"more {t.color.value} card") + " (or locomotives)"
    said = f"Tunnel {route_name(view.map, t.route)}: the revealed cards ask for {owed}."
    if view.player != view.current:
        name = (names or _reader_names(view))(view.current)
        return (
            f"{said} {agrees(name, 'choose')} to {'confirm' if t.owed == 0 else 'pay or give up'}."
        )
    if t.owed == 0:
        return f"{said} Confirm to claim it."
    if any(isinstance(a, PayTunnel) for a in view_legal_actions(view)):
        return f"{said} Your hand can pay."
    return f"{said} Your hand cannot pay: you can only give up."


def payment_words(view: PlayerView, names: Callable[[int], str] | None = None) -> str | None:
    """The claim being paid card by card with substitute sets, in words, as ``view``'s seat
    reads it (None when none is under way). ``names`` names a seat (by default
    :func:`~ttr_rules.words.seat_name`: ``Player N``, counted from 1, ``you`` for the reader).

    >>> from ttr_rules import ClaimWithSets, Color, PayCard, load_map, observe, scenario, step
    >>> nordic = load_map("nordic")
    >>> ferry = nordic.route_between("Lieksa", "Murmansk")[0].id
    >>> state = scenario(nordic, hands=[{Color.RED: 8, Color.BLUE: 4}, {}])
    >>> state = step(state, ClaimWithSets(ferry)).state
    >>> payment_words(observe(state, 0))
    'Paying for Lieksa – Murmansk with substitute sets: pick the first card.'
    >>> state = step(state, PayCard(Color.BLUE)).state
    >>> payment_words(observe(state, 0))
    'Paying for Lieksa – Murmansk with substitute sets: 1 card picked so far.'
    >>> payment_words(observe(state, 1), names=lambda seat: f"Player {seat + 1}")
    'Player 1 is paying for Lieksa – Murmansk with substitute sets.'
    """
    paying = view.seats[view.current].payment
    if paying is None:
        return None
    route = route_name(view.map, paying.route)
    if view.player != view.current:
        name = (names or _reader_names(view))(view.current)
        return sentence(f"{agrees(name, 'be')} paying for {route} with substitute sets.")
    picked = (
        f"{counted(len(paying.cards), 'card')} picked so far"
        if paying.cards
        else "pick the first card"
    )
    return f"Paying for {route} with substitute sets: {picked}."


#: What the seat to act is asked, by phase (the start of a turn depends on stations).
_PROMPTS = {
    Phase.INITIAL_TICKETS: "choose your destination tickets",
    Phase.SECOND_CARD: "draw your second card",
    Phase.KEEP_TICKETS: "choose the tickets to keep",
    Phase.TUNNEL: "pay for the tunnel or give up",
    Phase.PAYMENT: "pick the cards of your payment one at a time",
}

#: What another seat is doing, by phase, after "Player 2 is".
_DOING = {
    Phase.INITIAL_TICKETS: "choosing destination tickets",
    Phase.START: "taking a turn",
    Phase.SECOND_CARD: "drawing a second card",
    Phase.KEEP_TICKETS: "choosing the tickets to keep",
    Phase.TUNNEL: "deciding on a tunnel",
    Phase.PAYMENT: "picking the cards of a payment",
}


def phase_prompt(view: PlayerView) -> str:
    """What the seat to act is asked now, as a clause (``""`` once the game is over).

    >>> from ttr_rules import new_game, observe
    >>> phase_prompt(observe(new_game("europe", 2, seed=1), 0))
    'choose your destination tickets'
    >>> from ttr_rules import scenario
    >>> phase_prompt(observe(scenario("usa"), 0))
    'draw cards, claim a route or draw tickets'
    >>> phase_prompt(observe(scenario("europe"), 0))
    'draw cards, claim a route, build a station or draw tickets'
    """
    if view.phase is Phase.START:
        station = ", build a station" if view.rules.stations_per_player else ""
        return f"draw cards, claim a route{station} or draw tickets"
    return _PROMPTS.get(view.phase, "")


def turn_words(view: PlayerView, names: Callable[[int], str] | None = None) -> str:
    """Whose turn it is and what is asked, as ``view``'s seat reads it (a spectator is told
    that it watches); the final round is said. ``names`` names a seat (by default
    :func:`~ttr_rules.words.seat_name`: ``Player N``, counted from 1, ``you`` for the reader).

    >>> from ttr_rules import new_game, observe, public_view
    >>> state = new_game("europe", 2, seed=1)
    >>> turn_words(observe(state, 0))
    'Your turn: choose your destination tickets.'
    >>> turn_words(observe(state, 1))
    'Player 1 is choosing destination tickets.'
    >>> turn_words(public_view(state))
    'Player 1 is choosing destination tickets; you are watching.'
    """
    if view.phase is Phase.GAME_OVER:
        return "The game is over."
    final = " (final round)" if view.final_turns is not None else ""
    if view.player == view.current:
        return f"Your turn{final}: {phase_prompt(view)}."
    name = (names or _reader_names(view))(view.current)
    doing = sentence(f"{agrees(name, 'be')} {_DOING.get(view.phase, 'playing')}{final}")
    return f"{doing}; you are watching." if view.player is None else f"{doing}."


def keep_prompt(view: PlayerView) -> str | None:
    """How many of the tickets offered to ``view``'s seat it must keep, as a lead-in to the
    list (None when nothing is offered to it now).

    >>> from ttr_rules import new_game, observe
    >>> keep_prompt(observe(new_game("europe", 2, seed=1), 0))
    'Keep at least 2 of these 4 tickets:'
    """
    seat = view.player
    if seat is None or seat != view.current:
        return None
    offered = view.seats[seat].offered
    if not offered:
        return None
    least = keep_at_least(view.rules, view.phase, len(offered))
    return f"Keep at least {least} of these {counted(len(offered), 'ticket')}:"


def verdict(winners: Sequence[int], names: Callable[[int], str] | None = None) -> str:
    """Who won, as a headline: ``You win!``, ``Player 2 wins!``, or the tie (``names`` names a
    seat, ``you`` for the reader's own; by default ``Player N``, counted from 1).

    >>> name = lambda seat: "you" if seat == 0 else f"Player {seat + 1}"
    >>> verdict([0], name), verdict([1], name), verdict([0, 2], name)
    ('You win!', 'Player 2 wins!', 'Tie: you and Player 3 share the win.')
    """
    said = [(names or seat_name)(seat) for seat in winners]
    if len(said) == 1:
        return sentence(agrees(said[0], "win")) + "!"
    return f"Tie: {joined(said)} share the win."


def ticket_worth(ticket: Ticket, value: int | None = None) -> str:
    """What a ticket is worth, in numbers: its points; for a ticket to several destinations
    ``value`` once one is reached, else the range of its values and the points it loses
    (written with a true minus, :func:`ttr_rules.words.minus`).

    >>> from ttr_rules import Ticket
    >>> ticket_worth(Ticket(0, "Paris", "Wien", 8))
    '8'
    >>> bern = Ticket(1, "Bern", "", 11, destinations=(("France", 5), ("Italia", 11)), penalty=5)
    >>> ticket_worth(bern), ticket_worth(bern, 11)
    ('5–11 (−5)', '11')
    """
    if not ticket.destinations:
        return str(ticket.points)
    if value is not None:
        return str(value)
    values = [points for _, points in ticket.destinations]
    return f"{min(values)}–{max(values)} ({minus(ticket.penalty)})"


def _reader_names(view: PlayerView) -> Callable[[int], str]:
    """The seats named for ``view``'s reader: ``you`` for its own, ``Player N`` for others."""
    return partial(seat_name, reader=view.player)


def _ticket_words(ticket: Ticket) -> str:
    return ticket.words


def action_label(action: Action, view: PlayerView) -> str:
    """A legal ``action`` of the seat to act in ``view``, in words, for buttons and menus.

    >>> from ttr_rules import DrawBlind, DrawFaceUp, KeepTickets, new_game, observe
    >>> view = observe(new_game("europe", 2, seed=1), 0)
    >>> action_label(DrawBlind(), view), action_label(DrawFaceUp(0), view)
    ('Draw a card from the deck', 'Take the face-up purple card (slot 0)')
    >>> action_label(KeepTickets(view.seats[0].offered[:2]), view)
    'Keep Cadiz – Stockholm (21 points), Smolensk – Rostov (8 points)'
    """
    game_map = view.map
    if isinstance(action, DrawFaceUp):
        card = view.face_up[action.slot]
        name = card.value if card is not None else "empty"
        return f"Take the face-up {name} card (slot {action.slot})"
    if isinstance(action, DrawBlind):
        return "Draw a card from the deck"
    if isinstance(action, ClaimRoute | ClaimWithSets):
        pay = claim_payment_label(action, view)
        return f"Claim {route_label(game_map, action.route)} with {pay}"
    if isinstance(action, PayCard):
        return f"Pick {with_article(action.card.value)} card for the payment"
    if isinstance(action, PayTunnel):
        tunnel = view.tunnel
        owed = tunnel.owed if tunnel is not None else action.locomotives
        colour = tunnel.color if tunnel is not None else Color.LOCOMOTIVE
        return f"Pay the tunnel's extra {payment_label(colour, action.locomotives, owed)}"
    if isinstance(action, DeclineTunnel):
        return "Give up the tunnel (take the cards back)"
    if isinstance(action, DrawTickets):
        return f"Draw {counted(view.rules.tickets_drawn, 'destination ticket')}"
    if isinstance(action, KeepTickets):
        offered = view.seats[view.current].offered or ()
        order = sorted(action.tickets, key=lambda t: offered.index(t) if t in offered else t)
        kept = (_ticket_words(game_map.tickets[t]) for t in order)
        return "Keep " + ", ".join(kept)
    if isinstance(action, BuildStation):
        pay = payment_label(action.color, action.locomotives, _station_cost(view))
        return f"Build a station in {action.city} with {pay}"
    if isinstance(action, Pass):
        return "Pass (nothing else is possible)"
    return format_action(action, game_map)


def claim_payment_label(action: ClaimRoute | ClaimWithSets, view: PlayerView) -> str:
    """The cards of a claim's payment in words; for a payment with substitute sets, all its
    cards and the number of sets, or, to start one, how it is made.

    >>> from ttr_rules import Color, load_map, scenario, observe
    >>> nordic = load_map("nordic")
    >>> view = observe(scenario(nordic, hands=[{Color.RED: 8, Color.BLUE: 4}, {}]), 0)
    >>> claim_payment_label(ClaimRoute(50, Color.RED, 0, (Color.BLUE,) * 4), view)
    '4 blue, 8 red (1 substitute set)'
    >>> claim_payment_label(ClaimWithSets(50), view)
    'substitute sets (pick the cards one by one)'
    """
    if isinstance(action, ClaimWithSets):
        return "substitute sets (pick the cards one by one)"
    route = view.map.routes[action.route]
    if not action.substitutes:
        return payment_label(action.color, action.locomotives, route.length)
    cards = Hand.of(payment_cards_of(action, route, view.rules))
    sets = len(action.substitutes) // set_size(route, view.rules)
    return f"{cards} ({counted(sets, 'substitute set')})"


def _station_cost(view: PlayerView) -> int:
    return len(view.seats[view.current].stations) + 1


# --------------------------------------------------------------------------- grouping


@frozen
class Choice:
    """One legal action: its notation and its label (the payment's words for claims and
    stations)."""

    action: Action
    notation: str
    label: str


@frozen
class Target:
    """What an action is aimed at: a route (``route`` set), a city (``city`` set), or the action
    itself for kinds without one. ``choices`` are the legal payments, the suggested one first;
    empty when the seat cannot pay (``payable`` False)."""

    label: str
    cost: str
    payable: bool
    choices: tuple[Choice, ...]
    route: int | None = None
    city: str | None = None


@frozen
class ActionGroup:
    """The targets of one kind of action: ``draw``, ``claim``, ``tickets``, ``station``,
    ``keep``, ``tunnel``, ``payment`` (the cards of a payment with substitute sets) or
    ``pass``."""

    kind: str
    heading: str
    targets: tuple[Target, ...]

    @property
    def actions(self) -> tuple[Action, ...]:
        """The legal actions of the group, in display order."""
        return tuple(c.action for t in self.targets for c in t.choices)


#: The kinds, in display order: (kind, heading, action classes).
KINDS: tuple[tuple[str, str, tuple[type, ...]], ...] = (
    ("keep", "keep tickets", (KeepTickets,)),
    ("tunnel", "finish the tunnel", (PayTunnel, DeclineTunnel)),
    ("payment", "pick the cards of the payment", (PayCard,)),
    ("draw", "draw a card", (DrawFaceUp, DrawBlind)),
    ("claim", "claim a route", (ClaimRoute, ClaimWithSets)),
    ("tickets", "draw tickets", (DrawTickets,)),
    ("station", "build a station", (BuildStation,)),
    ("pass", "pass", (Pass,)),
)


def group_actions(
    view: PlayerView, actions: Sequence[Action] | None = None, *, unpayable: bool = False
) -> tuple[ActionGroup, ...]:
    """The legal actions of the seat to act (``actions``, by default
    :func:`~ttr_rules.view_legal_actions`) grouped by kind, then route or city, then payment.

    Payments come with the fewest locomotives first, then the colour the seat holds most of.
    With ``unpayable``, the claim group also lists the routes still open to the seat that it
    cannot pay for now (``payable`` False, no choices), after the payable ones.

    >>> from ttr_rules import legal_actions, new_game, observe
    >>> view = observe(new_game("europe", 2, seed=1), 0)
    >>> [g.kind for g in group_actions(view)]
    ['keep']
    >>> from ttr_rules import KeepTickets, apply_action
    >>> state = new_game("europe", 2, seed=1)
    >>> for _ in range(2):
    ...     state = apply_action(state, legal_actions(state)[0])
    >>> groups = group_actions(observe(state, 0))
    >>> [(g.kind, len(g.targets)) for g in groups]
    [('draw', 6), ('claim', 51), ('tickets', 1), ('station', 47)]
    >>> claim = groups[1].targets[0]
    >>> claim.label, claim.cost, [c.label for c in claim.choices]
    ('Amsterdam – Bruxelles, black, 1', '1 locomotive', ['1 locomotive'])
    """
    legal = view_legal_actions(view) if actions is None else tuple(actions)
    groups = []
    for kind, heading, classes in KINDS:
        of_kind = [a for a in legal if isinstance(a, classes)]
        if kind == "claim" and (of_kind or unpayable):
            claims = [a for a in of_kind if isinstance(a, ClaimRoute | ClaimWithSets)]
            targets = _claim_targets(view, claims, unpayable)
        elif kind == "station":
            targets = _station_targets(view, [a for a in of_kind if isinstance(a, BuildStation)])
        else:
            targets = tuple(_single(view, a) for a in of_kind)
        if targets:
            groups.append(ActionGroup(kind, heading, targets))
    return tuple(groups)


def _single(view: PlayerView, action: Action) -> Target:
    label = action_label(action, view)
    return Target(label, "", True, (Choice(action, format_action(action, view.map), label),))


def _preference(view: PlayerView) -> dict[Color, int]:
    hand = view.seats[view.current].hand
    return {} if hand is None else {c: hand[c] for c in Color}


def _payments(
    view: PlayerView, actions: Sequence[ClaimRoute | ClaimWithSets | BuildStation], total: int
) -> tuple[Choice, ...]:
    """The payments, fewest locomotives first (one with sets after every other)."""
    held = _preference(view)

    def order(a: ClaimRoute | ClaimWithSets | BuildStation) -> tuple[int, int]:
        if isinstance(a, ClaimWithSets):
            return (total + 1, 0)
        return (a.locomotives, -held.get(a.color, 0))

    return tuple(
        Choice(a, format_action(a, view.map), _words(a, view, total))
        for a in sorted(actions, key=order)
    )


def _words(a: ClaimRoute | ClaimWithSets | BuildStation, view: PlayerView, total: int) -> str:
    if isinstance(a, BuildStation):
        return payment_label(a.color, a.locomotives, total)
    return claim_payment_label(a, view)


def _claim_targets(
    view: PlayerView, claims: Sequence[ClaimRoute | ClaimWithSets], unpayable: bool
) -> tuple[Target, ...]:
    by_route: dict[int, list[ClaimRoute | ClaimWithSets]] = {}
    for action in claims:
        by_route.setdefault(action.route, []).append(action)
    game_map = view.map
    targets = []
    for route_id in sorted(by_route, key=lambda r: (game_map.routes[r].a, game_map.routes[r].b, r)):
        route = game_map.routes[route_id]
        choices = _payments(view, by_route[route_id], route.length)
        targets.append(
            Target(
                route_label(game_map, route_id),
                choices[0].label,
                True,
                choices,
                route=route_id,
            )
        )
    if unpayable and view.player is not None:
        open_routes = {
            key
            for _, _, key, d in planning_graph(view).edges(keys=True, data=True)
            if not d["owned"]
        }
        for route_id in sorted(open_routes - set(by_route)):
            route = game_map.routes[route_id]
            targets.append(
                Target(route_label(game_map, route_id), _route_cost(route), False, (), route_id)
            )
    return tuple(targets)


def _route_cost(route: Route) -> str:
    colour = "cards of one colour" if route.color is None else f"{route.color.value}"
    cost = f"{route.length} {colour}"
    if route.ferry_locomotives:
        cost += f" (with {counted(route.ferry_locomotives, 'locomotive')})"
    if route.mountain:
        cost += f", and {counted(route.mountain, 'more train')} for its X marks"
    return cost


def _station_targets(view: PlayerView, stations: Sequence[BuildStation]) -> tuple[Target, ...]:
    by_city: dict[str, list[BuildStation]] = {}
    for action in stations:
        by_city.setdefault(action.city, []).append(action)
    cost = _station_cost(view)
    targets = []
    for city in sorted(by_city):
        choices = _payments(view, by_city[city], cost)
        targets.append(Target(city, choices[0].label, True, choices, city=city))
    return tuple(targets)


# --------------------------------------------------------------------------- planning


def planning_graph(view: PlayerView, seat: int | None = None) -> nx.MultiGraph:
    """The board as still open to ``seat`` (default: the viewer): a multigraph of the cities
    whose edges, keyed by route id, are the seat's own routes (``owned`` True) and the routes
    it may still claim (``owned`` False). Routes of other players are left out, and so is the
    second track of a double route whose first the seat owns (E31) or, with fewer players
    than ``double_route_min_players``, that anyone owns (E32). Edge data: ``length``,
    ``color`` (None: gray), ``tunnel``, ``ferry`` (locomotives needed), ``mountain`` (X marks:
    trains beyond the length) and ``owned``.

    >>> from ttr_rules import new_game, observe
    >>> graph = planning_graph(observe(new_game("europe", 2, seed=1), 0))
    >>> graph.number_of_nodes(), graph.number_of_edges()
    (47, 101)
    """
    seat = _seat(view, seat)
    game_map = view.map
    owners = view.route_owner
    shared = view.num_players >= view.rules.double_route_min_players
    graph = nx.MultiGraph()
    graph.add_nodes_from(game_map.cities)
    for route in game_map.routes:
        owner = owners[route.id]
        if owner is not None and owner != seat:
            continue
        if owner is None and route.double_of is not None:
            other = owners[route.double_of]
            if other == seat or (other is not None and not shared):
                continue
        graph.add_edge(
            route.a,
            route.b,
            key=route.id,
            length=route.length,
            color=route.color,
            tunnel=route.tunnel,
            ferry=route.ferry_locomotives,
            mountain=route.mountain,
            owned=owner == seat,
        )
    return graph


def _seat(view: PlayerView, seat: int | None) -> int:
    chosen = view.player if seat is None else seat
    if chosen is None:
        raise ValueError("a spectator's view has no seat of its own: name the seat")
    if not 0 <= chosen < view.num_players:
        raise ValueError(f"no seat {chosen} in a game of {view.num_players} players")
    return chosen


@frozen
class TicketStatus:
    """A kept ticket of a seat: ``done`` when the seat's own routes join its cities (stations
    count only at the end); otherwise ``missing``, the open routes of the cheapest way to finish
    it (empty with ``reachable`` False when none is left), ``missing_trains`` their total
    length, and ``connected``, the trains of the seat's own routes that way already uses.

    ``destination`` is the place or country the status is about: ``ticket.b``, or for a ticket
    to several destinations the best one reached when done, else the nearest (U31); ``points``
    what the ticket scores there; ``line`` the two places a picture joins for it (the ends
    of that way; a country by the end-point the way reaches).
    """

    ticket: Ticket
    done: bool
    reachable: bool
    connected: int
    missing_trains: int
    missing: tuple[int, ...]
    destination: str = ""
    points: int = 0
    line: tuple[str, str] = ("", "")

    @property
    def progress(self) -> str:
        """In words: ``done``, ``5 of 9 trains laid``, ``cannot be finished``.

        >>> from ttr_rules import new_game, observe
        >>> view = observe(new_game("europe", 2, seed=1), 0)
        >>> [s.progress for s in ticket_status(view, offered=True)][:2]
        ['0 of 21 trains laid', '0 of 8 trains laid']
        """
        if self.done:
            return "done"
        if not self.reachable:
            return "cannot be finished"
        return f"{self.connected} of {counted(self.connected + self.missing_trains, 'train')} laid"


def ticket_status(
    view: PlayerView, seat: int | None = None, *, offered: bool = False
) -> tuple[TicketStatus, ...]:
    """The kept tickets of ``seat`` (default: the viewer; ``offered``: the tickets offered to it
    instead), each done, connected so far and missing, on :func:`planning_graph`.

    Raises ``ValueError`` when the view does not show the seat's tickets.

    >>> from ttr_rules import new_game, observe
    >>> view = observe(new_game("europe", 2, seed=1), 0)
    >>> status = ticket_status(view, offered=True)[0]
    >>> status.ticket.a, status.ticket.b, status.done, status.missing_trains
    ('Cadiz', 'Stockholm', False, 21)
    """
    seat = _seat(view, seat)
    seen = view.seats[seat]
    ids = seen.offered if offered else seen.tickets
    if ids is None:
        raise ValueError(f"the view does not show the tickets of seat {seat}")
    graph = planning_graph(view, seat)
    return tuple(_status(graph, view.map, view.map.tickets[t]) for t in ids)


def _trains(data: dict[str, object]) -> int:
    """The trains a route takes: its length and its X marks (U27)."""
    return int(str(data["length"])) + int(str(data["mountain"]))


def _weight(u: str, v: str, edges: dict[int, dict[str, object]]) -> int:
    return min(0 if d["owned"] else _trains(d) for d in edges.values())


def _status(graph: nx.MultiGraph, game_map: GameMap, ticket: Ticket) -> TicketStatus:
    """A ticket's status: toward its best destination reached, else the nearest (fewest trains
    still to lay; a tie goes to the higher value), a country by any of its end-points (U31)."""
    places = game_map.countries
    sources = places.get(ticket.a, (ticket.a,))
    best: tuple[tuple[bool, int, int], str, int, PathPlan] | None = None
    for destination, value in ticket.targets:
        plan = _cheapest(graph, sources, places.get(destination, (destination,)))
        if plan is not None:
            key = (plan.done, -plan.missing_trains, value)
            if best is None or key > best[0]:
                best = (key, destination, value, plan)
    if best is None:
        first, value = ticket.targets[0]
        line = (sources[0], places.get(first, (first,))[0])
        return TicketStatus(ticket, False, False, 0, 0, (), first, value, line)
    _, destination, value, plan = best
    return TicketStatus(
        ticket,
        plan.done,
        True,
        plan.connected,
        plan.missing_trains,
        plan.missing,
        destination,
        value,
        (plan.cities[0], plan.cities[-1]),
    )


@frozen
class PathPlan:
    """The cheapest way for a seat to join two places (:func:`cheapest_path`): the ``cities``
    along it in order, its ``routes`` (one track between each two cities), the ``missing``
    ones still to claim and their ``missing_trains``, and ``connected``, the trains of the
    seat's own routes it uses."""

    cities: tuple[str, ...]
    routes: tuple[int, ...]
    missing: tuple[int, ...]
    connected: int
    missing_trains: int

    @property
    def done(self) -> bool:
        """Whether the seat's own routes already join the two places."""
        return not self.missing


def cheapest_path(view: PlayerView, a: str, b: str, seat: int | None = None) -> PathPlan | None:
    """The cheapest way for ``seat`` (default: the viewer) to join places ``a`` and ``b``, in
    trains still to lay: its own routes are free, the routes of other seats closed, the
    double-route rule applied (:func:`planning_graph`). None when no way is left.

    ``a`` and ``b`` are read by :func:`find_place` (any case, aliases); a country stands for
    any of its border end-points, as on a ticket to a country.

    >>> from ttr_rules import observe, scenario
    >>> state = scenario("europe", 2, routes={59: 0})  # seat 0 owns Paris - Frankfurt
    >>> plan = cheapest_path(observe(state, 0), "paris", "Berlin")
    >>> plan.cities, plan.connected, plan.missing_trains, plan.done
    (('Paris', 'Frankfurt', 'Berlin'), 3, 3, False)
    >>> cheapest_path(observe(state, 1), "Paris", "Frankfurt").cities  # seat 1 goes round
    ('Paris', 'Bruxelles', 'Frankfurt')
    """
    seat = _seat(view, seat)
    game_map = view.map
    ends = [
        game_map.countries.get(p, (p,)) for p in (find_place(game_map, a), find_place(game_map, b))
    ]
    return _cheapest(planning_graph(view, seat), *ends)


def _cheapest(
    graph: nx.MultiGraph, sources: Sequence[str], targets: Sequence[str]
) -> PathPlan | None:
    """The cheapest path from any of ``sources`` to any of ``targets`` on a planning graph
    (the first target of the least cost when several tie); between two cities the seat's own
    track, else the shortest, else the lowest id."""
    costs, paths = nx.multi_source_dijkstra(graph, set(sources), weight=_weight)
    reached = [t for t in targets if t in costs]
    if not reached:
        return None
    cities = paths[min(reached, key=lambda t: costs[t])]
    routes: list[int] = []
    missing: list[int] = []
    connected = missing_trains = 0
    for u, v in pairwise(cities):
        key, data = min(
            graph[u][v].items(), key=lambda kv: (not kv[1]["owned"], _trains(kv[1]), kv[0])
        )
        routes.append(key)
        if data["owned"]:
            connected += _trains(data)
        else:
            missing_trains += _trains(data)
            missing.append(key)
    return PathPlan(tuple(cities), tuple(routes), tuple(missing), connected, missing_trains)


def cards_needed(view: PlayerView, seat: int | None = None) -> Counter[Color | None]:
    """The cards the missing routes of ``seat``'s open tickets ask for, by colour (None: a
    gray route's cards of any one colour), less what its hand already holds of each colour.
    Routes shared by several tickets count once.

    >>> from ttr_rules import observe, scenario
    >>> state = scenario("europe", 2, tickets=[[("Paris", "Wien", 8)], []])
    >>> cards_needed(observe(state, 0))
    Counter({<Color.ORANGE: 'orange'>: 6, <Color.PURPLE: 'purple'>: 2})
    """
    seat = _seat(view, seat)
    routes = {r for s in ticket_status(view, seat) for r in s.missing}
    needed: Counter[Color | None] = Counter()
    for route_id in routes:
        route = view.map.routes[route_id]
        needed[route.color] += route.length
    hand = view.seats[seat].hand
    if hand is not None:
        for colour in list(needed):
            if colour is not None:
                needed[colour] = max(0, needed[colour] - hand[colour])
    return +needed


# --------------------------------------------------------------------------- choices


def choose_tickets(view: PlayerView, ids: Iterable[int]) -> KeepTickets:
    """The action that keeps the tickets ``ids`` (ticket ids, any order) of those offered to
    the seat of ``view``: what a front end sends once a person has ticked the tickets to keep,
    instead of finding the subset among the legal actions.

    Raises :class:`~ttr_rules.InvalidActionError` when ``ids`` are not ticket ids (or name one
    twice), and :class:`~ttr_rules.IllegalActionError` (both ``ValueError``) when the seat is
    not choosing tickets, a ticket was not offered, or too few are kept (E4, E61, E62).

    >>> from ttr_rules import new_game, observe
    >>> view = observe(new_game("europe", 2, seed=1), 0)
    >>> view.seats[0].offered
    (4, 32, 16, 26)
    >>> choose_tickets(view, [16, 4])
    KeepTickets(tickets=frozenset({16, 4}))
    >>> choose_tickets(view, [16])
    Traceback (most recent call last):
    ...
    ttr_rules.errors.IllegalActionError: illegal action tickets keep 16: must keep more tickets \
(keep at least 2 tickets of the 4 offered)
    >>> choose_tickets(view, [16, 7])
    Traceback (most recent call last):
    ...
    ttr_rules.errors.IllegalActionError: illegal action tickets keep 7,16: ticket not offered \
(ticket 7 was not offered; the offered tickets are 4, 32, 16 and 26)
    """
    seat = view.player
    offered = view.seats[seat].offered if seat is not None else None
    chosen = _ticket_ids(ids, offered or (), view.map)
    action = KeepTickets(frozenset(chosen))
    if seat is None or offered is None:
        raise IllegalActionError(Reason.NOT_YOUR_TURN, action, "a spectator keeps no tickets")
    if view.current != seat:
        raise IllegalActionError(Reason.NOT_YOUR_TURN, action, f"{seat_name(view.current)} acts")
    if view.phase not in (Phase.INITIAL_TICKETS, Phase.KEEP_TICKETS):
        raise IllegalActionError(
            Reason.WRONG_PHASE, action, f"no tickets to choose in the {view.phase.value} phase"
        )
    stray = [t for t in chosen if t not in offered]
    if stray:
        raise IllegalActionError(
            Reason.NOT_OFFERED,
            action,
            f"{_ticket_list(stray)} not offered; the offered tickets are {joined(offered)}",
        )
    least = keep_at_least(view.rules, view.phase, len(offered))
    if len(chosen) < least:
        detail = f"keep at least {counted(least, 'ticket')} of the {len(offered)} offered"
        raise IllegalActionError(Reason.MUST_KEEP_MORE_TICKETS, action, detail)
    return action


def _ticket_ids(ids: Iterable[int], offered: Sequence[int], game_map: GameMap) -> list[int]:
    """``ids`` as a list of distinct ticket ids, read no further than a legal choice can go (one
    more than the offered tickets), so that a huge input costs no more than a short one."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise InvalidActionError(f"expected a list of ticket ids, got {type(ids).__name__}")
    chosen: list[int] = []
    for ticket in ids:
        if type(ticket) is not int:  # True == 1, but is not ticket 1
            raise InvalidActionError(f"a ticket id is a whole number, got {type(ticket).__name__}")
        if ticket in chosen:
            named = game_map.tickets[ticket] if ticket in offered else None
            words = f" ({named.a} – {named.b})" if named is not None else ""
            raise InvalidActionError(f"ticket {ticket}{words} is named twice")
        chosen.append(ticket)
        if len(chosen) > len(offered):
            break
    return chosen


def _ticket_list(ids: Sequence[int]) -> str:
    tickets = "ticket" if len(ids) == 1 else "tickets"
    verb = "was" if len(ids) == 1 else "were"
    return f"{tickets} {joined(ids)} {verb}"


def find_place(game_map: GameMap, text: str) -> str:
    """The place of ``game_map`` that a person typed as ``text``: a city or a country (on a
    map with :attr:`~ttr_rules.GameMap.countries`, for tickets to a country) by its name or
    one of its aliases, in any case and spacing, with or without accents, read as the notation
    reads city names.

    Raises :class:`~ttr_rules.InvalidActionError` (a ``ValueError``) for an unknown name, with
    the closest places as suggestions.

    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> find_place(europe, "  MUNICH "), find_place(europe, "zurich"), find_place(europe, "Kiev")
    ('München', 'Zürich', 'Kyiv')
    >>> find_place(europe, "Londn")
    Traceback (most recent call last):
    ...
    ttr_rules.errors.InvalidActionError: unknown city 'Londn'; did you mean London?
    """
    return resolve_place(text, game_map)


# --------------------------------------------------------------------------- hot seat


@frozen
class EventBuffer:
    """For each seat, the events since its last move, as that seat may see them: what a
    hot-seat front end shows the person who takes the seat. A value: :meth:`record` returns
    a new buffer.

    >>> from ttr_rules import DrawBlind, new_game, step
    >>> state = new_game("europe", 2, seed=1)
    >>> buffer = EventBuffer.for_players(2)
    >>> moves = [KeepTickets((4, 32)), KeepTickets((2, 19)), DrawBlind(), DrawBlind()]
    >>> for move in moves:  # both keep tickets, then seat 0 draws two cards
    ...     seat = state.current
    ...     result = step(state, move)
    ...     buffer, state = buffer.record(seat, result.events), result.state
    >>> [type(e).__name__ for e in buffer.since_last_move(1)]
    ['CardDrawn', 'CardDrawn', 'TurnEnded']
    >>> buffer.since_last_move(1)[0].color is None  # a blind draw's colour is seat 0's secret
    True
    >>> buffer.since_last_move(0)
    ()
    """

    #: By seat: the events since that seat's last move, oldest first.
    pending: tuple[tuple[Event, ...], ...]

    @classmethod
    def for_players(cls, players: int) -> EventBuffer:
        """An empty buffer for a game of ``players`` seats."""
        return cls(((),) * players)

    def record(self, seat: int, events: Iterable[Event]) -> EventBuffer:
        """The buffer after ``seat`` moved and caused ``events`` (of :func:`~ttr_rules.step`):
        every other seat gets them as it may see them (:func:`~ttr_rules.events_for`), and
        ``seat`` has seen everything up to its move."""
        happened = tuple(events)
        return EventBuffer(
            tuple(
                () if other == seat else pending + events_for(happened, other)
                for other, pending in enumerate(self.pending)
            )
        )

    def since_last_move(self, seat: int) -> tuple[Event, ...]:
        """What happened since ``seat`` last moved (since the start before its first move)."""
        return self.pending[seat]
