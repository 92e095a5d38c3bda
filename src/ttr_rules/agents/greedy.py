"""The ``greedy`` agent: a planning heuristic that connects its tickets along shortest paths.

At every decision it (re)plans on the current board (:mod:`~ttr_rules.agents.planning`):

* **Tickets** (E4, E61): it keeps the subset of the offered tickets whose points best repay the
  extra connection cost on top of the tickets it already holds, dropping tickets that would
  need more trains than it has.
* **Claims** (E23–E38): it claims the routes of its plan, longest first, paying with the
  fewest locomotives and, on gray routes, with the colour its other planned routes need least.
* **Draws** (E6–E11): otherwise it draws the colours its planned routes lack, a face-up card
  of a needed colour first, a face-up locomotive only when a ferry needs it or one card is
  missing, else blind.
* **Re-planning**: a route taken by another player makes the plan go around it; a ticket
  that can no longer be connected is dropped, or kept through a **station** (E51–E58) when
  the station links it and its points exceed the station's value.
* **More tickets** (E61): when its tickets are done and enough trains remain, it draws new ones.
* **Last trains** (E66): with no plan left it claims the longest (highest-scoring) route it
  can pay for, and draws toward one otherwise.
* **Tunnels** (E39–E45): it pays the extra cards when the route is on its plan or the extra
  is paid in colour cards only, and declines otherwise.

The same policy drives the rollouts of the ``mcts`` agent through :func:`greedy_action`;
this module is also the one home of what the search shares with it (:data:`RESERVE`,
:func:`keep_values`, :func:`rank_claims`, :func:`best_scoring_claim`,
:func:`station_choice`). Both read a :class:`~ttr_rules.agents.planning.Situation` built
from a view (or, inside a search, from a determinized state).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from operator import attrgetter, sub

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    ClaimWithSets,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayCard,
    PayTunnel,
)
from ..cards import COLORS, LOCOMOTIVE_CODE, Color
from ..game import is_legal
from ..maps.index import map_index
from ..moves.payments import general_payments
from ..scoring.tickets import ticket_connected
from ..scoring.unionfind import two_edge_labels
from ..state import GameState, Phase
from ..views import PlayerView, view_legal_actions
from .options import check_number, check_whole
from .planning import GREEDY_STYLE, Plan, Situation, Style, make_plan, make_plans
from .protocol import check_view

__all__ = [
    "RESERVE",
    "GreedyAgent",
    "best_keep",
    "best_scoring_claim",
    "draw_choice",
    "grand_tour_claim",
    "greedy_action",
    "greedy_ordered",
    "keep_value",
    "keep_values",
    "rank_claims",
    "start_action_fast",
    "station_choice",
]

#: Trains kept in reserve when judging whether tickets can still be completed.
RESERVE = 1


class GreedyAgent:
    """The planning heuristic described in the module docstring.

    ``seed`` only breaks exact ties (the policy is deterministic). The other options are the
    knobs of its :class:`~ttr_rules.agents.planning.Style`: ``ticket_weight`` (default 0.8,
    the planning weight one ticket point repays when choosing tickets), ``claim_weight``
    (default 2.0, the planning weight of a claim's turn), ``points_weight`` (default 0.0,
    planning weight taken off a route per point it scores), ``tickets_min_trains``
    (default 14, the fewest trains with which it draws new tickets), ``tunnel_weight``
    (default 1.0, the extra planning weight of a tunnel) and ``last_chance`` (default 2: once
    another player has at most this many trains more than the count that ends the game, it
    claims what scores most now rather than drawing). The ``mcts`` agent plays its own seat
    with ``greedy:claim_weight=4,points_weight=0.8,ticket_weight=1.2,tickets_min_trains=20,
    tunnel_weight=5,last_chance=0`` (:data:`~ttr_rules.agents.planning.STRONG_STYLE`).

    >>> from ttr_rules import new_game, observe
    >>> agent = GreedyAgent(seed=0)
    >>> state = new_game("europe", players=2, seed=0)
    >>> type(agent.act(observe(state, 0))).__name__
    'KeepTickets'
    >>> GreedyAgent(points_weight=-1)
    Traceback (most recent call last):
    ...
    ValueError: points_weight must be a number from 0 to 10, got -1
    """

    name = "greedy"

    def __init__(
        self,
        *,
        seed: int = 0,
        ticket_weight: float = GREEDY_STYLE.ticket_weight,
        claim_weight: float = GREEDY_STYLE.claim_weight,
        points_weight: float = GREEDY_STYLE.points_weight,
        tickets_min_trains: int = GREEDY_STYLE.tickets_min_trains,
        tunnel_weight: float = GREEDY_STYLE.tunnel_weight,
        last_chance: int = GREEDY_STYLE.last_chance,
    ) -> None:
        for name, value in (
            ("ticket_weight", ticket_weight),
            ("claim_weight", claim_weight),
            ("points_weight", points_weight),
            ("tunnel_weight", tunnel_weight),
        ):
            check_number(name, value, 0.0, _MAX_WEIGHT)
        check_whole("tickets_min_trains", tickets_min_trains, 0, _MAX_TRAINS)
        check_whole("last_chance", last_chance, 0, _MAX_TRAINS)
        self.seed = seed
        self.style = Style(
            claim_weight=float(claim_weight),
            points_weight=float(points_weight),
            ticket_weight=float(ticket_weight),
            tickets_min_trains=tickets_min_trains,
            tunnel_weight=float(tunnel_weight),
            last_chance=last_chance,
        )
        if self.style == GREEDY_STYLE:
            self.style = GREEDY_STYLE  # default agents share the one default style

    @property
    def ticket_weight(self) -> float:
        """The planning weight one ticket point repays (its style's)."""
        return self.style.ticket_weight

    def act(self, view: PlayerView) -> Action:
        check_view(view)
        return greedy_action(Situation.of_view(view, self.style), view_legal_actions(view))

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed})"


#: The largest style weights and train counts the agent takes (beyond them nothing changes).
_MAX_WEIGHT = 10.0
_MAX_TRAINS = 1_000


def greedy_action(
    situation: Situation,
    legal: Sequence[Action],
    *,
    ticket_weight: float | None = None,
    plan: Plan | None = None,
) -> Action:
    """The greedy policy's choice among ``legal`` (the situation's legal actions);
    ``ticket_weight`` defaults to the situation's style's."""
    if ticket_weight is None:
        ticket_weight = situation.style.ticket_weight
    return _greedy(situation, legal, ticket_weight, plan, Options.scan)


def greedy_ordered(situation: Situation, legal: Sequence[Action], plan: Plan | None) -> Action:
    """:func:`greedy_action` (the style's ticket weight) for ``legal`` in the order of
    :func:`~ttr_rules.legal_actions` (searched, not scanned: the fast path of rollouts)."""
    return _greedy(situation, legal, situation.style.ticket_weight, plan, Options.ordered)


def _greedy(
    situation: Situation,
    legal: Sequence[Action],
    ticket_weight: float,
    plan: Plan | None,
    split: Callable[[Sequence[Action]], Options],
) -> Action:
    if len(legal) == 1:
        return legal[0]
    phase = situation.phase
    if phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS:
        return best_keep(situation, legal, ticket_weight)
    if phase is Phase.TUNNEL:
        return _tunnel_choice(situation, legal)
    if plan is None:
        plan = make_plan(situation, situation.tickets, reserve=RESERVE)
    if phase is Phase.SECOND_CARD:
        return _draw_choice(situation, split(legal), plan, False, None)
    if phase is Phase.PAYMENT:
        return _payment_choice(situation, legal, plan)
    return _start_choice(situation, split(legal), plan)


def _payment_choice(situation: Situation, legal: Sequence[Action], plan: Plan) -> Action:
    """Picking a payment with substitute sets: claim as soon as the picked cards pay (the
    fewest cards on the way picked); else the card the plan needs least, locomotives last."""
    for action in legal:
        if isinstance(action, ClaimRoute):
            return action
    demand = _demand(situation, plan)
    hand = situation.hand.counts
    cards = [a for a in legal if isinstance(a, PayCard)]
    if not cards:
        return legal[0]
    return min(
        cards,
        key=lambda a: (a.card is Color.LOCOMOTIVE, demand[a.card.code], -hand[a.card.code]),
    )


def start_action_fast(state: GameState, situation: Situation, plan: Plan) -> Action | None:
    """The greedy choice at the start of a turn without listing the legal actions, or None
    when this shortcut does not apply (then :func:`greedy_ordered` on ``legal_actions``).

    It applies in the common case of a rollout: a plan with routes, no station links, not the
    last turns. Then the policy claims the best planned route it can pay for, or draws. The
    cheapest payment of each planned route (fewest locomotives, then the colour least in
    demand, then the first in ``legal_actions``' order) follows from the hand; the engine
    confirms it with :func:`~ttr_rules.is_legal` (a route none of whose payments is legal
    fails there too), and each card draw is confirmed the same way. The choice is the one
    :func:`greedy_action` makes from the list (``tests/test_agents_planning.py`` compares
    them on thousands of positions).
    """
    if plan.links or not plan.routes or _last_chance(situation) or general_payments(state):
        return None  # (payments with sets are chosen from the list)
    demand = _demand(situation, plan)
    t = situation.tables
    hand = situation.hand.counts
    locos = hand[LOCOMOTIVE_CODE]
    best: ClaimRoute | None = None
    best_key: tuple[int, bool, tuple[int, int], int] | None = None
    for r in plan.routes:
        length = t.length[r]
        ferry = t.ferry[r]
        code = t.color[r]
        cost: tuple[int, int] | None = None
        pay = -1
        most = locos if locos < length - 1 else length - 1
        for c in range(8) if code < 0 else (code,):
            k = length - hand[c]
            if k < ferry:
                k = ferry
            if k <= most:
                key = (k, demand[c])
                if cost is None or key < cost:
                    cost, pay = key, c
        if locos >= length:
            key = (length, demand[LOCOMOTIVE_CODE])
            if cost is None or key < cost:
                cost, pay = key, LOCOMOTIVE_CODE
        if cost is None:
            continue
        rank = (-length, t.tunnel[r], cost, r)
        if best_key is not None and rank >= best_key:
            continue
        claim = ClaimRoute(r, COLORS[pay], cost[0])
        if is_legal(state, claim):
            best, best_key = claim, rank
    if best is not None:
        return best
    candidates: list[Action] = [*_face_up_draws(len(state.face_up)), _BLIND]
    draws = [a for a in candidates if is_legal(state, a)]
    if not draws:
        return None
    return _draw_choice(situation, Options(draws, draws, (), (), ()), plan, True, demand)


_BLIND = DrawBlind()
_FACE_UP_DRAWS: list[DrawFaceUp] = []


def _face_up_draws(slots: int) -> list[DrawFaceUp]:
    while len(_FACE_UP_DRAWS) < slots:
        _FACE_UP_DRAWS.append(DrawFaceUp(len(_FACE_UP_DRAWS)))
    return _FACE_UP_DRAWS[:slots]


def _kind(action: Action) -> int:
    return _KIND.get(type(action), 4)


_DRAWS = (DrawFaceUp, DrawBlind)
_ROUTE = attrgetter("route")
_KIND: dict[type, int] = {
    DrawFaceUp: 0,
    DrawBlind: 0,
    ClaimRoute: 1,
    ClaimWithSets: 1,
    DrawTickets: 2,
    BuildStation: 3,
}


class Options:
    """Legal actions at the start of a turn (or of a second card) split by kind, each part in
    the order of ``legal``: card draws, claims, ticket draws, stations (the greedy policy
    reads each part on its own instead of scanning the whole list several times)."""

    __slots__ = ("all", "by_route", "claims", "draws", "stations", "tickets")

    def __init__(
        self,
        legal: Sequence[Action],
        draws: Sequence[Action],
        claims: Sequence[Action],
        tickets: Sequence[Action],
        stations: Sequence[Action],
        *,
        by_route: bool = False,
    ) -> None:
        self.all = legal
        #: True when ``claims`` are claims only, sorted by route.
        self.by_route = by_route
        self.draws = draws
        self.claims = claims
        self.tickets = tickets
        self.stations = stations

    @classmethod
    def scan(cls, legal: Sequence[Action]) -> Options:
        """Any order: one pass over ``legal``."""
        parts: tuple[list[Action], ...] = ([], [], [], [], [])
        for action in legal:
            parts[_kind(action)].append(action)
        return cls(legal, *parts[:4])

    @classmethod
    def ordered(cls, legal: Sequence[Action]) -> Options:
        """``legal`` in :func:`~ttr_rules.legal_actions`' order (draws, claims, the ticket
        draw, stations): the few draws counted, the end of the claims by binary search."""
        n = len(legal)
        claims = 0
        while claims < n and type(legal[claims]) in _DRAWS:
            claims += 1
        tickets = bisect_left(legal, 2, lo=claims, key=_kind)
        stations = tickets + 1 if tickets < n and type(legal[tickets]) is DrawTickets else tickets
        # The rest are stations (the station choice reads only those).
        return cls(
            legal,
            legal[:claims],
            legal[claims:tickets],
            legal[tickets:stations],
            legal[stations:],
            by_route=True,
        )


# --------------------------------------------------------------------------- tickets


def keep_value(
    situation: Situation,
    keep: frozenset[int],
    ticket_weight: float,
) -> float:
    """How good keeping ``keep`` is: its points minus the extra planning weight it costs
    (scaled by ``ticket_weight``), tickets that cannot be connected counting negative."""
    return keep_values(situation, [keep], ticket_weight)[0]


def keep_values(
    situation: Situation, keeps: Sequence[frozenset[int]], ticket_weight: float
) -> list[float]:
    """:func:`keep_value` of each of ``keeps`` (the plans made together: the tickets they
    begin with are planned once)."""
    held = situation.tickets
    base, *plans = make_plans(
        situation, [held, *((*held, *keep) for keep in keeps)], reserve=RESERVE
    )
    points = situation.tables.points
    values = []
    for keep, plan in zip(keeps, plans, strict=True):
        value = 0.0
        for k in keep:
            value += -points[k] if k in plan.lost else points[k]
        # Held tickets that the new ones crowd out count against them too.
        for k in held:
            if k in plan.lost and k not in base.lost:
                value -= 2 * points[k]
        values.append(value - ticket_weight * (plan.weight - base.weight))
    return values


def best_keep(situation: Situation, legal: Sequence[Action], ticket_weight: float) -> Action:
    """The ticket choice with the best :func:`keep_value` (fewer tickets on ties)."""
    options = [a for a in legal if isinstance(a, KeepTickets)]
    if not options:
        return legal[0]
    values = keep_values(situation, [a.tickets for a in options], ticket_weight)
    best: Action = options[0]
    best_key: tuple[float, int] | None = None
    for action, value in zip(options, values, strict=True):
        key = (value, -len(action.tickets))
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


# --------------------------------------------------------------------------- turns


def _start_choice(situation: Situation, options: Options, plan: Plan) -> Action:
    station = station_choice(situation, options.stations, plan)
    if station is not None:
        return station
    if _last_chance(situation):
        last = _last_turn_claim(situation, options.claims, plan)
        if last is not None:
            return last
    demand = _demand(situation, plan) if plan.routes else None
    claims = _rank_claims(situation, options.claims, plan, demand, options.by_route)
    if claims:
        return claims[0]
    if not plan.routes and "grand_tour" in situation.rules.bonuses:
        loop = grand_tour_claim(situation, options.claims)
        if loop is not None:
            return loop
    if not plan.routes and not plan.links:
        if (
            situation.final_turns is None
            and situation.my_trains >= situation.style.tickets_min_trains
            and situation.ticket_deck_size > 0
            and options.tickets
        ):
            return options.tickets[0]
        best = best_scoring_claim(situation, options.claims)
        if best is not None:
            return best
    return _draw_choice(situation, options, plan, True, demand)


def _last_chance(situation: Situation) -> bool:
    """True in the final round (one turn left, E67) or when another player may trigger it."""
    if situation.final_turns is not None:
        return True
    trains = situation.trains
    me = situation.me
    least = min(trains[:me] + trains[me + 1 :])
    return least <= situation.rules.end_trigger_trains + situation.style.last_chance


def _last_turn_claim(situation: Situation, legal: Sequence[Action], plan: Plan) -> Action | None:
    """With (maybe) one turn left, drawing is worth nothing: the claim worth most now, its
    route points plus twice the points of a ticket it completes (a loss becomes a gain)."""
    t = situation.tables
    completes: dict[int, int] = {}
    for ticket, routes, links in plan.paths:
        open_routes = {r for r in routes if situation.route_owner[r] is None}
        if len(open_routes) == 1 and not links:
            (r,) = open_routes
            completes[r] = completes.get(r, 0) + 2 * t.points[ticket]
    best: ClaimRoute | ClaimWithSets | None = None
    best_key: tuple[int, int] = (0, 0)
    for action in legal:
        if isinstance(action, ClaimRoute | ClaimWithSets):
            r = action.route
            key = (
                situation.rules.claim_points(t.length[r], t.trains[r] - t.length[r])
                + completes.get(r, 0),
                -_locomotives(action),
            )
            if best is None or key > best_key:
                best, best_key = action, key
    if best is not None and situation.final_turns is None and best_key[0] < 4:
        return None  # not yet the last turn: a small route is not worth it
    return best


def _locomotives(action: ClaimRoute | ClaimWithSets) -> int:
    """A claim's locomotives; a payment with sets counts as dearer than any without."""
    return action.locomotives if isinstance(action, ClaimRoute) else _SETS_COST


#: What a payment with sets counts as in locomotives: more than any payment without sets.
_SETS_COST = 99


def rank_claims(
    situation: Situation, legal: Sequence[Action], plan: Plan
) -> list[ClaimRoute | ClaimWithSets]:
    """The claims of planned routes, best first: one payment per route (the cheapest), longest
    routes first, tunnels after other routes of the same length."""
    return _rank_claims(situation, legal, plan, None, False)


def _rank_claims(
    situation: Situation,
    legal: Sequence[Action],
    plan: Plan,
    demand: list[int] | None,
    by_route: bool,
) -> list[ClaimRoute | ClaimWithSets]:
    """:func:`rank_claims`, given the plan's :func:`_demand` when known already. ``by_route``:
    ``legal`` holds only claims, sorted by route (as ``legal_actions`` lists them), so the
    payments of each planned route are found by binary search."""
    planned = set(plan.routes)
    if not planned:
        return []
    if by_route:
        n = len(legal)
        found: list[Action] = []
        for r in planned:
            i = bisect_left(legal, r, key=_ROUTE)
            while i < n and legal[i].route == r:  # type: ignore[union-attr]
                found.append(legal[i])
                i += 1
        legal = found
    best: dict[int, ClaimRoute | ClaimWithSets] = {}
    cost: dict[int, tuple[int, int]] = {}
    for action in legal:
        if isinstance(action, ClaimRoute | ClaimWithSets) and action.route in planned:
            if demand is None:
                demand = _demand(situation, plan)
            if isinstance(action, ClaimWithSets):
                c = (_SETS_COST, 0)
            else:
                c = (action.locomotives, demand[action.color.code])
            if action.route not in cost or c < cost[action.route]:
                best[action.route], cost[action.route] = action, c
    t = situation.tables
    return sorted(
        best.values(),
        key=lambda a: (-t.length[a.route], t.tunnel[a.route], cost[a.route], a.route),
    )


def grand_tour_claim(situation: Situation, legal: Sequence[Action]) -> Action | None:
    """The claim that joins the most completed tickets by a second path (India's Grand Tour,
    U35: the bonus grows with the tickets joined twice), fewest locomotives first; None when no
    claim joins one more. Read when the plan needs no route: the tickets come first.

    >>> from ttr_rules import load_map, observe, scenario
    >>> state = scenario(load_map("india"), tickets=[[0], []])
    >>> grand_tour_claim(Situation.of_view(observe(state, 0)), []) is None
    True
    """
    index = map_index(situation.map)
    ends = index.route_ends
    mine = [r for r, owner in enumerate(situation.route_owner) if owner == situation.me]
    size = len(index.city_routes)

    def looped(extra: list[int]) -> int:
        labels = two_edge_labels(size, [ends[r] for r in mine + extra])
        return sum(ticket_connected(index, t, labels) for t in situation.tickets)

    base = looped([])
    best: tuple[int, int] = (0, 0)
    choice: Action | None = None
    for action in legal:
        if isinstance(action, ClaimRoute | ClaimWithSets):
            gain = looped([action.route]) - base
            key = (gain, -_locomotives(action))
            if gain > 0 and (choice is None or key > best):
                best, choice = key, action
    return choice


def best_scoring_claim(situation: Situation, legal: Sequence[Action]) -> Action | None:
    """The claim of the highest-scoring route (fewest locomotives), or None. With many
    trains left and no deadline, short routes are not worth a turn yet."""
    t = situation.tables
    best: ClaimRoute | ClaimWithSets | None = None
    for action in legal:
        if isinstance(action, ClaimRoute | ClaimWithSets):
            key = (t.length[action.route], -_locomotives(action), -t.tunnel[action.route])
            if best is None or key > (
                t.length[best.route],
                -_locomotives(best),
                -t.tunnel[best.route],
            ):
                best = action
    if best is None:
        return None
    hurry = situation.final_turns is not None or situation.my_trains <= 8
    if t.length[best.route] < 3 and not hurry and situation.my_trains > t.length[best.route] + 4:
        return None
    return best


def station_choice(situation: Situation, legal: Sequence[Action], plan: Plan) -> Action | None:
    """A station for a ticket whose only missing connections are station links, when its
    points exceed the station's value (its reserve bonus, E59)."""
    if not plan.links:
        return None
    t = situation.tables
    taken = {c for seats in situation.stations for c in seats}
    for ticket, routes, links in plan.paths:
        if not links or any(situation.route_owner[r] is None for r in routes):
            continue
        if t.points[ticket] <= situation.rules.station_bonus:
            continue
        cities = situation.map.cities
        for r in links:
            for city in (cities[t.route_a[r]], cities[t.route_b[r]]):
                if city in taken:
                    continue
                options = [a for a in legal if isinstance(a, BuildStation) and a.city == city]
                if options:
                    return min(options, key=lambda a: (a.locomotives, a.color.code))
    return None


def _demand(situation: Situation, plan: Plan) -> list[int]:
    """Cards of each kind the planned routes still need beyond the hand (negative: spare),
    gray routes assigned to the colour with the most spare cards."""
    t = situation.tables
    hand = situation.hand.counts
    color, lengths, ferry = t.color, t.length, t.ferry
    need = [0] * 9
    grays: list[int] = []
    locos = 0
    for r in plan.routes:
        code = color[r]
        if code < 0:
            grays.append(lengths[r])
        else:
            need[code] += lengths[r]
        locos += ferry[r]
    need[LOCOMOTIVE_CODE] += locos
    if grays:
        spare = list(map(sub, hand, need))
        grays.sort(reverse=True)
        for length in grays:
            colours = spare[:8]
            c = colours.index(max(colours))  # the most spare, the lowest code on ties
            need[c] += length
            spare[c] -= length
    return list(map(sub, need, hand))


def _target_demand(situation: Situation) -> list[int]:
    """Without a plan: the cards the longest open route this player can still afford in trains
    needs (its colour, or the best-held colour for a gray one)."""
    t = situation.tables
    hand = situation.hand.counts
    best = -1
    for r in range(len(t.length)):
        if (
            t.trains[r] <= situation.my_trains
            and situation.claimable(r)
            and (best < 0 or t.length[r] > t.length[best])
        ):
            best = r
    need = [0] * 9
    if best >= 0:
        code = t.color[best]
        if code < 0:
            code = max(range(8), key=lambda k: (hand[k], -k))
        need[code] = t.length[best] - hand[code]
        need[LOCOMOTIVE_CODE] = t.ferry[best] - hand[LOCOMOTIVE_CODE]
    return need


def draw_choice(
    situation: Situation, legal: Sequence[Action], plan: Plan, *, first: bool
) -> Action:
    """A card draw: a face-up card of the colour most lacking, a face-up locomotive when a
    ferry lacks one (or one card is missing), else blind; any draw when the deck is empty."""
    return _draw_choice(situation, Options.scan(legal), plan, first, None)


def _draw_choice(
    situation: Situation, options: Options, plan: Plan, first: bool, demand: list[int] | None
) -> Action:
    """:func:`draw_choice` among ``options`` (``demand``: the plan's :func:`_demand`, when
    known already)."""
    if plan.routes:
        deficit = demand if demand is not None else _demand(situation, plan)
    else:
        deficit = _target_demand(situation)
    best: Action | None = None
    best_need = 0
    blind: Action | None = None
    loco_slot: Action | None = None
    face_up = situation.face_up
    for action in options.draws:
        if isinstance(action, DrawFaceUp):
            card = face_up[action.slot]
            if card is None:
                continue
            if card is Color.LOCOMOTIVE:
                loco_slot = action
            elif deficit[card.code] > best_need:
                best, best_need = action, deficit[card.code]
        else:
            blind = action
    if best is not None:
        return best
    if first and loco_slot is not None:
        missing = sum(d for d in deficit[:8] if d > 0)
        if deficit[LOCOMOTIVE_CODE] > 0 or 0 < missing <= 1:
            return loco_slot
    if blind is not None:
        return blind
    for action in options.draws:
        if isinstance(action, DrawFaceUp):
            return action
    # Nothing to draw: claim anything, else whatever is legal (tickets, a station, a pass).
    if options.claims:
        return best_scoring_claim(situation, options.claims) or options.claims[0]
    legal = options.all
    for action in legal:
        if not isinstance(action, BuildStation):
            return action
    return legal[0]


def _tunnel_choice(situation: Situation, legal: Sequence[Action]) -> Action:
    """Pay the extra cards (fewest locomotives) when the route is planned, the extra needs no
    locomotive, or trains are running out; decline otherwise (E39–E45)."""
    pays = [a for a in legal if isinstance(a, PayTunnel)]
    decline = next((a for a in legal if isinstance(a, DeclineTunnel)), None)
    if not pays:
        return decline if decline is not None else legal[0]
    cheapest = min(pays, key=lambda a: a.locomotives)
    tunnel = situation.tunnel
    if tunnel is None or decline is None:
        return cheapest
    if cheapest.locomotives == 0 or situation.my_trains <= 10:
        return cheapest
    plan = make_plan(situation, situation.tickets, reserve=RESERVE)
    if tunnel.route in plan.routes:
        return cheapest
    return decline
