"""Route planning for the agents: per-map tables, shortest connections and ticket plans.

Everything here is plain Python over small tuples (no networkx): a map's tables are built once
and cached, a shortest connection is a Dijkstra search over the ~50 cities of a board, and a
*plan* is the set of open routes a player still needs to complete its tickets.

The board as a player sees it (E23–E34): its own routes cost nothing; a route another
player owns is gone; an open route costs its length plus one turn to claim it (plus a little for
tunnels and ferries, whose cost is uncertain or needs locomotives); the second track of a double
route is closed to the owner of the first (E31) and, with fewer players than
``double_route_min_players``, to everyone once either track is taken (E32). A station (E51–E58)
lets a player use one route of another player at its city: planning allows that as a last resort
at a high cost.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import compress, repeat
from operator import ge as _ge
from operator import is_not

from attrs import evolve, field, frozen

from ..cards import Color, Hand
from ..maps import GameMap
from ..maps.index import MultiTicket, map_index
from ..rules import Rules
from ..state import GameState, PendingTunnel, Phase
from ..views import PlayerView

__all__ = [
    "GREEDY_STYLE",
    "INF",
    "STRONG_STYLE",
    "MapTables",
    "Plan",
    "PlanKeeper",
    "Situation",
    "Style",
    "make_plan",
    "make_plans",
    "map_tables",
    "shortest",
    "shortest_many",
]

INF = float("inf")
#: Planning weight of a route used through a station (the station's cards, its 4 bonus points).
STATION_WEIGHT = 9.0
#: Extra planning weight of a turn spent claiming, of a tunnel and of a ferry locomotive.
CLAIM_WEIGHT = 2.0
TUNNEL_WEIGHT = 1.0
FERRY_WEIGHT = 1.5
#: Answers kept per pair of cities by the memo of :func:`_shortest_memo` (the latest first).
_MEMO_ENTRIES = 4


@frozen(eq=False)
class MapTables:
    """Flat tables of one map for planning (built once per map by :func:`map_tables`)."""

    city_index: dict[str, int]
    #: Endpoint city indices, length, colour code (−1 gray), tunnel flag, ferry locomotives and
    #: other track (−1 when none) of each route.
    route_a: tuple[int, ...]
    route_b: tuple[int, ...]
    length: tuple[int, ...]
    color: tuple[int, ...]
    tunnel: tuple[bool, ...]
    ferry: tuple[int, ...]
    double: tuple[int, ...]
    #: The trains each route's claim takes: its length and its X marks (U27).
    trains: tuple[int, ...]
    #: For each city: ``(neighbour city, route id)`` pairs.
    adjacent: tuple[tuple[tuple[int, int], ...], ...]
    #: Routes touching each city.
    city_routes: tuple[tuple[int, ...], ...]
    #: The two cities of each ticket (a stand-in pair for a ticket to several destinations).
    ticket_a: tuple[int, ...]
    ticket_b: tuple[int, ...]
    #: The points a ticket is planned for: a ticket to several destinations is planned to
    #: its cheapest end-point, and counts the value of the destination nearest on the open
    #: board.
    points: tuple[int, ...]
    #: For each ticket to several destinations, ``(origin places, destination places)``; None
    #: for a two-city ticket.
    ticket_places: tuple[tuple[tuple[int, ...], tuple[int, ...]] | None, ...]
    #: Planning weight of each route when open (length + claim turn + tunnel/ferry extras).
    open_weight: tuple[float, ...]
    #: The last connection found between two cities, by :func:`make_plan` (see
    #: :func:`_shortest_memo`): (kind, source, target) -> (weights, cost, path).
    paths: dict[tuple[int, int, int], list[tuple[tuple[float, ...], float, list[int]]]] = field(
        factory=dict, repr=False
    )


@frozen
class Style:
    """How a planner weighs its choices (the greedy policy's knobs; see docs/agents.md).

    ``claim_weight``: the planning weight of the turn a claim takes (higher: fewer, longer
    routes). ``points_weight``: planning weight taken off an open route per point it scores, so
    that routes worth more points per train are preferred (0: routes cost their length only).
    ``ticket_weight``: planning weight one ticket point repays when choosing tickets.
    ``tickets_min_trains``: new tickets are drawn only with at least this many trains left.
    ``tunnel_weight``: the extra planning weight of a tunnel, whose cost is uncertain (higher:
    tunnels are avoided more). ``last_chance``: once another player holds at most this many
    trains more than the count that ends the game, every turn may be the last: the planner
    claims what scores most now rather than drawing for later.

    >>> STRONG_STYLE.points_weight > GREEDY_STYLE.points_weight
    True
    """

    claim_weight: float = CLAIM_WEIGHT
    points_weight: float = 0.0
    ticket_weight: float = 0.8
    tickets_min_trains: int = 14
    tunnel_weight: float = TUNNEL_WEIGHT
    last_chance: int = 2

    @property
    def reweighs(self) -> bool:
        """True when the style's route weights differ from the map's own tables."""
        return (
            self.claim_weight != CLAIM_WEIGHT
            or self.points_weight != 0.0
            or self.tunnel_weight != TUNNEL_WEIGHT
        )


#: The ``greedy`` agent's style: routes cost their length (plus the claim turn).
GREEDY_STYLE = Style()
#: The style the ``mcts`` agent plays its own seat with: it seeks routes worth many points per
#: train and tickets that repay them, draws new tickets earlier, avoids tunnels and keeps to
#: its plan until the final round. Measured against a field of ``greedy`` in
#: ``benchmarks/agents.py`` (docs/agents.md).
STRONG_STYLE = Style(
    claim_weight=4.0,
    points_weight=0.8,
    ticket_weight=1.2,
    tickets_min_trains=20,
    tunnel_weight=5.0,
    last_chance=0,
)
#: The least planning weight of an open route under any style (weights must stay positive).
_LEAST_WEIGHT = 0.5


@lru_cache(maxsize=16)
def style_tables(game_map: GameMap, rules: Rules, style: Style) -> MapTables:
    """:func:`map_tables` of ``game_map`` with the open-route weights of ``style`` (cached; the
    greedy style's are the map's own tables)."""
    tables = map_tables(game_map)
    if not style.reweighs:
        return tables
    extra = style.claim_weight - CLAIM_WEIGHT
    tunnel_extra = style.tunnel_weight - TUNNEL_WEIGHT
    weights = tuple(
        max(
            _LEAST_WEIGHT,
            w
            + extra
            + (tunnel_extra if tunnel else 0.0)
            - style.points_weight * rules.claim_points(length, trains - length),
        )
        for w, length, trains, tunnel in zip(
            tables.open_weight, tables.length, tables.trains, tables.tunnel, strict=True
        )
    )
    return evolve(tables, open_weight=weights, paths={})


@lru_cache(maxsize=16)
def map_tables(game_map: GameMap) -> MapTables:
    """The planning tables of ``game_map`` (cached; maps hash fast, their hash is cached)."""
    index = {c: i for i, c in enumerate(game_map.cities)}
    routes = game_map.routes
    adjacent: list[list[tuple[int, int]]] = [[] for _ in game_map.cities]
    for r in routes:
        adjacent[index[r.a]].append((index[r.b], r.id))
        adjacent[index[r.b]].append((index[r.a], r.id))
    ends = map_index(game_map).ticket_ends
    multi = map_index(game_map).ticket_multi
    tables = MapTables(
        city_index=index,
        route_a=tuple(index[r.a] for r in routes),
        route_b=tuple(index[r.b] for r in routes),
        length=tuple(r.length for r in routes),
        color=tuple(-1 if r.color is None else r.color.code for r in routes),
        tunnel=tuple(r.tunnel for r in routes),
        ferry=tuple(r.ferry_locomotives for r in routes),
        double=tuple(-1 if r.double_of is None else r.double_of for r in routes),
        trains=tuple(r.trains for r in routes),
        adjacent=tuple(tuple(a) for a in adjacent),
        city_routes=tuple(tuple(rid for _, rid in a) for a in adjacent),
        ticket_a=tuple(a for a, _, _ in ends),
        ticket_b=tuple(b for _, b, _ in ends),
        points=tuple(t.points for t in game_map.tickets),
        ticket_places=tuple(
            None if m is None else (m[0], tuple(p for places, _ in m[1] for p in places))
            for m in multi
        ),
        open_weight=tuple(
            r.length
            + CLAIM_WEIGHT
            + (TUNNEL_WEIGHT if r.tunnel else 0.0)
            + FERRY_WEIGHT * r.ferry_locomotives
            + r.mountain  # the trains the X marks take (their points: Style.points_weight)
            for r in routes
        ),
    )
    if not any(m is not None for m in multi):
        return tables
    return evolve(tables, points=_planned_points(tables, multi))


def _planned_points(tables: MapTables, multi: Sequence[MultiTicket | None]) -> tuple[int, ...]:
    """:attr:`MapTables.points` with each ticket to several destinations worth the value of
    its destination nearest on the open board (where its plan leads)."""
    points = list(tables.points)
    for k, spec in enumerate(multi):
        places = tables.ticket_places[k]
        if spec is None or places is None:
            continue
        reached = _search_many(tables, places[0], places[1], tables.open_weight)[2]
        points[k] = next((v for ends, v in spec[1] if reached in ends), spec[2])
    return tuple(points)


def _tables(game_map: GameMap, rules: Rules, style: Style) -> MapTables:
    # A style with the map's own weights skips hashing the rules: this runs at every rollout
    # step.
    return style_tables(game_map, rules, style) if style.reweighs else map_tables(game_map)


class Situation:
    """What one player knows at a decision, read from a view or (for fast rollouts inside
    search) from a full state: the same fields either way."""

    __slots__ = (
        "face_up",
        "final_turns",
        "hand",
        "map",
        "me",
        "offered",
        "phase",
        "players",
        "route_owner",
        "rules",
        "stations",
        "style",
        "tables",
        "ticket_deck_size",
        "tickets",
        "trains",
        "tunnel",
    )

    def __init__(
        self,
        game_map: GameMap,
        rules: Rules,
        me: int,
        *,
        phase: Phase,
        route_owner: tuple[int | None, ...],
        hand: Hand,
        tickets: tuple[int, ...],
        offered: tuple[int, ...],
        trains: tuple[int, ...],
        stations: tuple[tuple[str, ...], ...],
        face_up: tuple[Color | None, ...],
        tunnel: PendingTunnel | None,
        final_turns: int | None,
        ticket_deck_size: int,
        style: Style = GREEDY_STYLE,
    ) -> None:
        self.map = game_map
        self.rules = rules
        self.style = style
        self.tables = _tables(game_map, rules, style)
        self.me = me
        self.phase = phase
        self.route_owner = route_owner
        self.hand = hand
        self.tickets = tickets
        self.offered = offered
        self.trains = trains
        self.stations = stations
        self.face_up = face_up
        self.tunnel = tunnel
        self.final_turns = final_turns
        self.ticket_deck_size = ticket_deck_size
        self.players = len(trains)

    @classmethod
    def of_view(cls, view: PlayerView, style: Style = GREEDY_STYLE) -> Situation:
        me = view.player
        if me is None:
            raise ValueError("a spectator's view has no situation")
        own = view.seats[me]
        assert own.hand is not None  # a player's own view always shows its hand
        return cls(
            view.map,
            view.rules,
            me,
            phase=view.phase,
            route_owner=view.route_owner,
            hand=own.hand,
            tickets=own.tickets or (),
            offered=own.offered or (),
            trains=tuple(s.trains for s in view.seats),
            stations=tuple(s.stations for s in view.seats),
            face_up=view.face_up,
            tunnel=view.tunnel,
            final_turns=view.final_turns,
            ticket_deck_size=view.ticket_deck_size,
            style=style,
        )

    @classmethod
    def of_state(cls, state: GameState, me: int, style: Style = GREEDY_STYLE) -> Situation:
        # The fields set directly (no keyword arguments): this runs at every rollout step.
        players = state.players
        own = players[me]
        self = cls.__new__(cls)
        self.map = game_map = state.map
        self.rules = rules = state.rules
        self.style = style
        self.tables = _tables(game_map, rules, style)
        self.me = me
        self.phase = state.phase
        self.route_owner = state.route_owner
        self.hand = own.hand
        self.tickets = own.tickets
        self.offered = own.offered
        self.trains = tuple([p.trains for p in players])
        self.stations = tuple([p.stations for p in players])
        self.face_up = state.face_up
        self.tunnel = state.tunnel
        self.final_turns = state.final_turns
        self.ticket_deck_size = len(state.ticket_deck)
        self.players = len(players)
        return self

    @property
    def my_trains(self) -> int:
        return self.trains[self.me]

    @property
    def stations_left(self) -> int:
        return self.rules.stations_per_player - len(self.stations[self.me])

    def _closed(self, route: int, doubles_open: bool) -> bool:
        """True when the open ``route`` is a double track closed to this player (E31, E32)."""
        other = self.tables.double[route]
        if other < 0:
            return False
        owner = self.route_owner[other]
        return owner is not None and (owner == self.me or not doubles_open)

    def claimable(self, route: int) -> bool:
        """True when ``route`` is open to this player (ignoring cards and trains)."""
        if self.route_owner[route] is not None:
            return False
        return not self._closed(route, self.players >= self.rules.double_route_min_players)

    def route_weights(self) -> tuple[list[float], list[float]]:
        """Planning weights of every route for this player: (normal, with stations).

        Normal: own routes 0, open routes their :attr:`MapTables.open_weight`, routes that are
        gone (owned by others, a closed double track) infinite — except routes of others at a
        city where this player already has a station, which cost nothing. With stations: routes
        of others cost :data:`STATION_WEIGHT` instead of being gone (when stations are left).
        """
        t = self.tables
        me = self.me
        owner = self.route_owner
        doubles_open = self.players >= self.rules.double_route_min_players
        my_cities = {t.city_index[c] for c in self.stations[me]}
        station_weight = STATION_WEIGHT if self.stations_left > 0 else INF
        normal = list(t.open_weight)
        station = list(t.open_weight)
        double = t.double
        route_a, route_b = t.route_a, t.route_b
        # Only the owned routes (filtered in C: most of the board is open most of the game).
        for r in compress(range(len(owner)), map(is_not, owner, repeat(None))):
            o = owner[r]
            twin = double[r]
            if o == me:
                normal[r] = station[r] = 0.0
                closes = True
            else:
                if my_cities and (route_a[r] in my_cities or route_b[r] in my_cities):
                    normal[r] = 0.0
                    station[r] = 0.0
                else:
                    normal[r] = INF
                    station[r] = station_weight
                closes = not doubles_open
            if twin >= 0 and closes and owner[twin] is None:
                # Closed track: the connection goes through its twin, if anywhere.
                normal[twin] = station[twin] = INF
        return normal, station


def shortest(
    tables: MapTables, source: int, target: int, weight: Sequence[float]
) -> tuple[float, list[int]]:
    """The cheapest connection from city ``source`` to ``target``: (weight, route ids).

    Dijkstra's algorithm; ``(INF, [])`` when the cities cannot be connected. Weights are
    never negative, so a city is settled when it leaves the heap at its distance (a stale
    entry has a larger one) and a relaxation of a settled city, or by an infinite weight,
    never improves it. Ties go to the city that leaves the heap first, then to the route
    listed first in :attr:`MapTables.adjacent`.
    """
    if source == target:
        return 0.0, []
    dist = [INF] * len(tables.adjacent)
    dist[source] = 0.0
    via = [0] * len(dist)  # the route that reached each city
    heap: list[tuple[float, int]] = [(0.0, source)]
    adjacent = tables.adjacent
    pop = heapq.heappop
    push = heapq.heappush
    while heap:
        d, city = pop(heap)
        if d > dist[city]:
            continue
        if city == target:
            path: list[int] = []
            route_a, route_b = tables.route_a, tables.route_b
            while city != source:
                route = via[city]
                path.append(route)
                city = route_a[route] + route_b[route] - city  # the route's other end
            return d, path
        for nxt, route in adjacent[city]:
            nd = d + weight[route]
            if nd < dist[nxt]:
                dist[nxt] = nd
                via[nxt] = route
                push(heap, (nd, nxt))
    return INF, []


def shortest_many(
    tables: MapTables, sources: Sequence[int], targets: Sequence[int], weight: Sequence[float]
) -> tuple[float, list[int]]:
    """:func:`shortest` from the nearest of ``sources`` to the nearest of ``targets`` (a
    ticket to several destinations, a country by its end-points): (weight, route ids, the
    last route first).

    >>> from ttr_rules import load_map
    >>> tables = map_tables(load_map("europe"))
    >>> paris, wien, brest = (tables.city_index[c] for c in ("Paris", "Wien", "Brest"))
    >>> shortest_many(tables, [paris], [wien, brest], tables.open_weight)[0]
    5.0
    """
    cost, path, _ = _search_many(tables, sources, targets, weight)
    return cost, path


def _search_many(
    tables: MapTables, sources: Sequence[int], targets: Sequence[int], weight: Sequence[float]
) -> tuple[float, list[int], int]:
    """:func:`shortest_many` and the target reached (-1 when none is)."""
    dist = [INF] * len(tables.adjacent)
    via = [-1] * len(dist)
    heap: list[tuple[float, int]] = []
    for city in sources:
        dist[city] = 0.0
        heap.append((0.0, city))
    heapq.heapify(heap)
    wanted = set(targets)
    adjacent = tables.adjacent
    while heap:
        d, city = heapq.heappop(heap)
        if d > dist[city]:
            continue
        if city in wanted:
            path: list[int] = []
            end = city
            while via[city] >= 0:
                route = via[city]
                path.append(route)
                city = tables.route_a[route] + tables.route_b[route] - city
            return d, path, end
        for nxt, route in adjacent[city]:
            nd = d + weight[route]
            if nd < dist[nxt]:
                dist[nxt] = nd
                via[nxt] = route
                heapq.heappush(heap, (nd, nxt))
    return INF, [], -1


def _shortest_memo(
    memo: dict[tuple[int, int, int], list[tuple[tuple[float, ...], float, list[int]]]],
    kind: int,
    tables: MapTables,
    source: int,
    target: int,
    weight: list[float],
) -> tuple[float, list[int]]:
    """:func:`shortest`, reusing the last answer for the same cities when it still holds.

    The answer of Dijkstra's algorithm under weights ``old`` is also its answer under
    ``new`` when no weight went down (``new >= old`` everywhere) and the routes of the path
    kept theirs: the path still costs the same, every other connection costs at least as
    much as before, and every city that tied with a city of the path (and lost the tie by
    leaving the heap later, or by a later route) still leaves it no earlier. So the same
    path, with the same ties, comes out. (Tested against :func:`shortest` in
    ``tests/test_agents_planning.py``.) Routes claimed by others only raise weights, so
    after most turns the plans of the other players need no search.
    """
    key = (kind, source, target)
    entries = memo.get(key)
    if entries is None:
        entries = memo[key] = []
    for old, cost, path in entries:
        for r in path:
            if weight[r] != old[r]:
                break
        else:
            if all(map(_ge, weight, old)):
                return cost, path
    cost, path = shortest(tables, source, target, weight)
    entries.insert(0, (tuple(weight), cost, path))
    del entries[_MEMO_ENTRIES:]
    return cost, path


@frozen
class Plan:
    """The open routes a player still needs for its tickets, in the order they were planned.

    ``links`` are routes of other players to be used through stations; ``completed`` the
    tickets already connected; ``lost`` those that cannot (or can no longer affordably) be
    completed; ``trains`` the trains the planned routes need; ``weight`` their planning
    weight (used to compare ticket choices).
    """

    routes: tuple[int, ...]
    links: tuple[int, ...]
    completed: frozenset[int]
    lost: frozenset[int]
    trains: int
    weight: float
    #: For each planned ticket: (ticket, its open routes, its station links).
    paths: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]


def make_plan(
    situation: Situation,
    tickets: Iterable[int],
    weights: tuple[list[float], list[float]] | None = None,
    reserve: int = 0,
) -> Plan:
    """Plan the connection of ``tickets``, best-paying first, reusing routes already planned.

    A ticket is lost when it cannot be connected, or when connecting it would need more trains
    than the player has left (less ``reserve``).
    """
    return _make_plan(situation, tickets, weights, reserve)[0]


def _make_plan(
    situation: Situation,
    tickets: Iterable[int],
    weights: tuple[list[float], list[float]] | None,
    reserve: int,
) -> tuple[Plan, set[int]]:
    """:func:`make_plan` and the routes of every connection it searched (see
    :class:`PlanKeeper`)."""
    planner = _Planner(situation, weights, reserve)
    progress = planner.start()
    for k in planner.order(tickets):
        planner.step(progress, k)
    return progress.plan(), progress.touched


def make_plans(
    situation: Situation,
    ticket_sets: Sequence[Iterable[int]],
    weights: tuple[list[float], list[float]] | None = None,
    reserve: int = 0,
) -> list[Plan]:
    """:func:`make_plan` of each of ``ticket_sets`` (the same plans), planning once the
    tickets that several sets begin with (in the planning order: best-paying first)."""
    planner = _Planner(situation, weights, reserve)
    orders = [planner.order(tickets) for tickets in ticket_sets]
    shared: dict[tuple[int, ...], int] = {}
    for order in orders:
        for n in range(1, len(order)):
            shared[order[:n]] = shared.get(order[:n], 0) + 1
    saved: dict[tuple[int, ...], _Progress] = {}
    plans: list[Plan] = []
    for order in orders:
        n = len(order) - 1  # the longest saved proper prefix
        while n > 0 and order[:n] not in saved:
            n -= 1
        progress = saved[order[:n]].copy() if n > 0 else planner.start()
        n = max(n, 0)
        for i in range(n, len(order)):
            planner.step(progress, order[i])
            if shared.get(order[: i + 1], 0) > 1 and i + 1 < len(order):
                saved[order[: i + 1]] = progress.copy()
        plans.append(progress.plan())
    return plans


class _Progress:
    """A plan being made: what :meth:`_Planner.step` reads and updates, ticket by ticket."""

    __slots__ = (
        "completed",
        "links",
        "lost",
        "paths",
        "planned",
        "touched",
        "trains",
        "weight",
        "work",
        "work_station",
    )

    def __init__(self, work: list[float], work_station: list[float]) -> None:
        self.planned: dict[int, None] = {}
        self.links: dict[int, None] = {}
        self.completed: set[int] = set()
        self.lost: set[int] = set()
        self.paths: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        self.trains = 0
        self.weight = 0.0
        self.work = work
        self.work_station = work_station
        self.touched: set[int] = set()

    def copy(self) -> _Progress:
        other = _Progress(self.work.copy(), self.work_station.copy())
        other.planned = self.planned.copy()
        other.links = self.links.copy()
        other.completed = self.completed.copy()
        other.lost = self.lost.copy()
        other.paths = self.paths.copy()
        other.trains = self.trains
        other.weight = self.weight
        other.touched = self.touched.copy()
        return other

    def plan(self) -> Plan:
        return Plan(
            routes=tuple(self.planned),
            links=tuple(self.links),
            completed=frozenset(self.completed),
            lost=frozenset(self.lost),
            trains=self.trains,
            weight=self.weight,
            paths=tuple(self.paths),
        )


class _Planner:
    """What every ticket step of one player's plans reads (see :func:`make_plan`)."""

    __slots__ = ("budget", "normal", "owner", "station", "stations_left", "tables")

    def __init__(
        self,
        situation: Situation,
        weights: tuple[list[float], list[float]] | None,
        reserve: int,
    ) -> None:
        self.tables = situation.tables
        self.normal, self.station = weights if weights is not None else situation.route_weights()
        self.owner = situation.route_owner
        self.budget = situation.my_trains - reserve
        self.stations_left = situation.stations_left

    def order(self, tickets: Iterable[int]) -> tuple[int, ...]:
        """The planning order: best-paying first, then by ticket id."""
        points = self.tables.points
        return tuple(sorted(set(tickets), key=lambda k: (-points[k], k)))

    def start(self) -> _Progress:
        return _Progress(list(self.normal), list(self.station))

    def step(self, p: _Progress, k: int) -> None:
        """Plan ticket ``k`` on top of the tickets planned in ``p``."""
        t = self.tables
        owner = self.owner
        normal = self.normal
        memo = t.paths
        links = p.links
        planned = p.planned
        places = t.ticket_places[k]
        if places is None:
            cost, path = _shortest_memo(memo, 0, t, t.ticket_a[k], t.ticket_b[k], p.work)
        else:  # to the cheapest end-point of any destination (no stations on such maps)
            cost, path = shortest_many(t, places[0], places[1], p.work)
        a, b = t.ticket_a[k], t.ticket_b[k]
        p.touched.update(path)
        used_links: list[int] = []
        stations_left = self.stations_left
        if cost == INF and stations_left > len(links):
            cost, path = _shortest_memo(memo, 1, t, a, b, p.work_station)
            p.touched.update(path)
            used_links = [r for r in path if owner[r] is not None and normal[r] != 0]
            if len(used_links) + len(links) > stations_left:
                cost = INF
        if cost == INF:
            p.lost.add(k)
            return
        open_routes = [r for r in path if owner[r] is None]
        new = [r for r in open_routes if r not in planned]
        new_links = [r for r in used_links if r not in links]
        if not new and not new_links:
            for r in path:
                if normal[r] != 0:
                    break
            else:
                p.completed.add(k)
                return
        trains = t.trains
        need = sum([trains[r] for r in new])
        if p.trains + need > self.budget:
            p.lost.add(k)
            return
        p.trains += need
        work = p.work
        work_station = p.work_station
        p.weight += sum([work[r] for r in new]) + STATION_WEIGHT * len(new_links)
        for r in new:
            planned[r] = None
            work[r] = 0.0
            work_station[r] = 0.0
        for r in used_links:
            links[r] = None
            work[r] = 0.0
            work_station[r] = 0.0
        p.paths.append((k, tuple(open_routes), tuple(used_links)))


def _route_weight(situation: Situation, owner: Sequence[int | None], r: int) -> tuple[float, float]:
    """The weights (normal, with stations) of route ``r`` for the situation's player on the
    board ``owner``: :meth:`Situation.route_weights` for one route."""
    t = situation.tables
    me = situation.me
    o = owner[r]
    if o is not None:
        if o == me:
            return 0.0, 0.0
        cities = situation.map.cities
        mine = situation.stations[me]
        w = 0.0 if cities[t.route_a[r]] in mine or cities[t.route_b[r]] in mine else INF
        return w, min(w, STATION_WEIGHT if situation.stations_left > 0 else INF)
    twin = t.double[r]
    if twin >= 0:
        other = owner[twin]
        if other is not None and (
            other == me or situation.players < situation.rules.double_route_min_players
        ):
            return INF, INF
    return t.open_weight[r], t.open_weight[r]


class PlanKeeper:
    """The plan of each player along one game (a rollout), made again only when the board
    changed in a way that could change it.

    A plan depends on the player's tickets, stations and trains (the key) and on the board.
    When only routes off every connection the plan searched changed owner, and no route's
    weight fell for this player (:func:`_shortest_memo`: then every search gives the same
    connection, ties included), the plan stands as it is; else it is made afresh.
    """

    __slots__ = ("_entries",)

    def __init__(self, players: int) -> None:
        self._entries: list[
            tuple[tuple[object, ...], tuple[int | None, ...], Plan, set[int]] | None
        ] = [None] * players

    def plan(self, situation: Situation, key: tuple[object, ...], reserve: int) -> Plan:
        """The plan of ``situation.tickets`` (``key``: what besides the board it depends on:
        the player's tickets, stations and trains)."""
        me = situation.me
        owner = situation.route_owner
        entry = self._entries[me]
        if entry is not None and entry[0] == key:
            old = entry[1]
            if old is owner or self._stands(situation, old, entry[3]):
                if old is not owner:
                    self._entries[me] = (key, owner, entry[2], entry[3])
                return entry[2]
        plan, touched = _make_plan(situation, situation.tickets, None, reserve)
        self._entries[me] = (key, owner, plan, touched)
        return plan

    @staticmethod
    def _stands(situation: Situation, old: tuple[int | None, ...], touched: set[int]) -> bool:
        new = situation.route_owner
        double = situation.tables.double
        for r, was in enumerate(old):
            if was is new[r]:
                continue
            twin = double[r]
            for x in (r, twin) if twin >= 0 else (r,):
                before = _route_weight(situation, old, x)
                after = _route_weight(situation, new, x)
                if x in touched:
                    if before != after:
                        return False
                elif after[0] < before[0] or after[1] < before[1]:
                    return False
            if r in touched:
                return False
        return True
