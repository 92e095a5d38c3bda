"""Final scoring: routes, tickets with stations, the European Express, tie-breakers.

The scoring order of the rules (RULES.md E78): route points (scored during play, E29/E71),
then tickets with the stations' routes assigned (E55–E58, E65, U9), stations left in reserve
(E59), the European Express for the longest trail (E72–E75, U10), and finally the winner with
the tie-breakers (E77, U11, U12). Every function here is pure and valid on any state: before
the end of the game the scores are provisional.

Cities are small ints (their index in ``GameMap.cities``) and connectivity is a union-find over
them; the per-map tables are built once per map.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from heapq import heappop, heappush
from itertools import product

from attrs import frozen

from .maps import GameMap
from .rules import Rules
from .state import GameState

__all__ = [
    "PlayerScore",
    "final_scores",
    "format_scores",
    "longest_path",
    "longest_trail",
    "rank_winners",
    "winners",
]

#: An edge of a trail search: ``(city, city, length)``.
Edge = tuple[int, int, int]
#: The route (by id) each built station uses, in building order; None = no route (U9).
Assignment = tuple[int | None, ...]


@frozen
class PlayerScore:
    """One player's score breakdown (DESIGN.md §3 "Scoring").

    ``total == route_points + ticket_points + station_bonus + express_bonus`` (E76).
    ``station_routes`` has one ``(city, route id or None)`` pair per built station, in building
    order: the opponent route the station uses for every ticket (E56, U9), None when it helps no
    ticket.
    """

    player: int
    route_points: int
    ticket_points: int
    tickets_completed: int
    tickets_failed: int
    station_bonus: int
    longest_path: int
    express_bonus: int
    total: int
    station_routes: tuple[tuple[str, int | None], ...] = ()

    def __str__(self) -> str:
        """One line: the total and where it comes from.

        >>> print(PlayerScore(1, 40, -4, 2, 1, 4, 12, 0, 40))
        P1: 40 points (routes 40, tickets -4: 2 done 1 failed, stations +4, express 0, path 12)
        """
        ticket = f"{self.ticket_points:+d}" if self.ticket_points else "0"
        station = f"+{self.station_bonus}" if self.station_bonus else "0"
        express = f"+{self.express_bonus}" if self.express_bonus else "0"
        return (
            f"P{self.player}: {self.total} points (routes {self.route_points}, tickets {ticket}:"
            f" {self.tickets_completed} done {self.tickets_failed} failed, stations {station},"
            f" express {express}, path {self.longest_path})"
        )


# --------------------------------------------------------------------------------------------
# Per-map tables


@frozen(eq=False)
class _Tables:
    """Flat lookups of one map: route ends, routes by city, ticket ends (city indices)."""

    city_index: dict[str, int]
    #: ``(a, b, length)`` of each route, by route id.
    route_ends: tuple[Edge, ...]
    #: The ids of the routes touching each city, ascending, by city index.
    city_routes: tuple[tuple[int, ...], ...]
    #: ``(a, b, points)`` of each ticket, by ticket id.
    ticket_ends: tuple[Edge, ...]


# Keyed by id(); an entry is dropped when its map is garbage-collected (see board.board_for).
_TABLES: dict[int, _Tables] = {}


def _tables(game_map: GameMap) -> _Tables:
    tables = _TABLES.get(id(game_map))
    if tables is None:
        index = {city: i for i, city in enumerate(game_map.cities)}
        ends = tuple((index[r.a], index[r.b], r.length) for r in game_map.routes)
        touching: list[list[int]] = [[] for _ in game_map.cities]
        for rid, (a, b, _) in enumerate(ends):
            touching[a].append(rid)
            if b != a:
                touching[b].append(rid)
        tickets = tuple((index[t.a], index[t.b], t.points) for t in game_map.tickets)
        tables = _TABLES[id(game_map)] = _Tables(
            index, ends, tuple(tuple(t) for t in touching), tickets
        )
        weakref.finalize(game_map, _TABLES.pop, id(game_map), None)
    return tables


def _owned_routes(state: GameState) -> list[list[int]]:
    """Route ids by owner seat."""
    owned: list[list[int]] = [[] for _ in state.players]
    for rid, owner in enumerate(state.route_owner):
        if owner is not None:
            owned[owner].append(rid)
    return owned


# --------------------------------------------------------------------------------------------
# Longest trail (E72, E73)


#: Cores with more edges than this (after contraction) go to :func:`_branch_and_bound`: the
#: memoized search is exponential in the number of core edges. Realistic networks (45 trains)
#: stay far below it.
_SEARCH_LIMIT = 22


def longest_trail(edges: Sequence[Edge]) -> int:
    """The length of the longest trail over ``edges`` (``(u, v, length)``, ``length >= 1``):
    each edge used at most once, vertices revisitable, loops and parallel edges allowed (E72).

    Exact; each connected component is solved on its own (:func:`_component_trail`).
    """
    best = 0
    for component in _components(edges):
        best = max(best, _component_trail(component))
    return best


def _components(edges: Sequence[Edge]) -> list[list[Edge]]:
    """The edges grouped by connected component."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = parent.setdefault(x, x)
        while root != parent[root]:
            parent[root] = parent[parent[root]]
            root = parent[root]
        return root

    for u, v, _ in edges:
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[ru] = rv
    groups: dict[int, list[Edge]] = {}
    for edge in edges:
        groups.setdefault(find(edge[0]), []).append(edge)
    return list(groups.values())


@frozen(eq=False)
class _Peeled:
    """A component with its hanging trees cut off (see :func:`_peel`)."""

    #: The edges of the 2-core: every vertex has degree >= 2 in it.
    core: list[Edge]
    #: The two longest descents into the trees hanging at each core vertex (0 when none).
    down1: dict[int, int]
    down2: dict[int, int]
    #: The longest path lying in the trees without entering the core.
    inside: int


def _peel(edges: list[Edge]) -> _Peeled:
    """Cut the trees off the component by repeatedly removing degree-1 vertices.

    Tree parts can be left and entered once only, so a trail meets the trees hanging at a core
    vertex ``x`` in at most two descents from ``x`` (at its start and at its end); only the two
    longest matter. Paths that stay in a tree are measured on the way (``inside``).
    """
    degree: dict[int, int] = {}
    incident: dict[int, set[int]] = {}
    for eid, (u, v, _) in enumerate(edges):
        for x in (u, v):
            degree[x] = degree.get(x, 0) + 1
            incident.setdefault(x, set()).add(eid)
    down1 = dict.fromkeys(degree, 0)
    down2 = dict.fromkeys(degree, 0)
    alive = [True] * len(edges)
    inside = 0
    leaves = [v for v, d in degree.items() if d == 1]
    while leaves:
        leaf = leaves.pop()
        if degree[leaf] != 1:
            continue  # the other end of an edge whose leaf was removed first
        (eid,) = incident[leaf]
        u, v, length = edges[eid]
        x = v if u == leaf else u
        inside = max(inside, down1[leaf] + down2[leaf])
        height = length + down1[leaf]
        if height > down1[x]:
            down1[x], down2[x] = height, down1[x]
        elif height > down2[x]:
            down2[x] = height
        alive[eid] = False
        incident[leaf].clear()
        incident[x].discard(eid)
        degree[leaf] = 0
        degree[x] -= 1
        if degree[x] == 1:
            leaves.append(x)
    for x, d in degree.items():
        if d == 0:
            inside = max(inside, down1[x] + down2[x])
    core = [edge for edge, kept in zip(edges, alive, strict=True) if kept]
    return _Peeled(core, down1, down2, inside)


def _component_trail(edges: list[Edge], search_limit: int = _SEARCH_LIMIT) -> int:
    """The longest trail of one connected component.

    The hanging trees are cut off (:func:`_peel`); on the remaining core a trail is one
    optional tree descent, a trail of core edges from ``x`` to ``y``, and one optional tree
    descent. If no trees hang and every core degree is even, an Euler circuit uses every edge.
    Otherwise every longest trail ends at odd-degree vertices (a longest trail ending at an even
    vertex, or a closed one, could be extended by an unused edge there), so core vertices of
    degree 2 without trees are never endpoints and their two edges merge into one
    (:func:`_contract`); a memoized depth-first search then starts from every possible end.
    A component without a city of degree 3 or more is a path or a cycle: all of it. A core of
    more than ``search_limit`` contracted edges goes to :func:`_branch_and_bound` instead.
    """
    if len(edges) < 3 or _max_degree(edges) <= 2:
        return sum(length for _, _, length in edges)
    peeled = _peel(edges)
    core = peeled.core
    if not core:
        return peeled.inside
    degree: dict[int, int] = {}
    total = 0
    for u, v, length in core:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
        total += length
    hanging = {x for x in degree if peeled.down1[x]}
    odd = [x for x in degree if (degree[x] + (x in hanging) + (peeled.down2[x] > 0)) % 2]
    if not odd and not hanging:
        return total  # an Euler circuit uses every edge
    contracted = _contract(core, degree, hanging)
    if len(contracted) > search_limit:
        with_descents = contracted + _descent_edges(degree, peeled)
        return max(peeled.inside, _branch_and_bound(with_descents))
    starts = sorted(hanging.union(odd))
    bound = _upper_bound(contracted, peeled)
    return max(peeled.inside, _search(contracted, starts, peeled, bound))


def _descent_edges(core_degree: dict[int, int], peeled: _Peeled) -> list[Edge]:
    """The tree descents as pendant edges to fresh vertices (numbered after every core vertex).

    A pendant edge can only be the first or the last edge of a trail, exactly like a descent, so
    the longest trail of the core plus these edges is the longest trail of the core with its
    descents.
    """
    fresh = max(core_degree) + 1
    pendants: list[Edge] = []
    for x in sorted(core_degree):
        for descent in (peeled.down1[x], peeled.down2[x]):
            if descent:
                pendants.append((x, fresh, descent))
                fresh += 1
    return pendants


def _max_degree(edges: list[Edge]) -> int:
    degree: dict[int, int] = {}
    for u, v, _ in edges:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
    return max(degree.values())


def _contract(edges: list[Edge], degree: dict[int, int], keep: set[int]) -> list[Edge]:
    """Merge the two edges at every vertex of degree 2 not in ``keep`` into one edge of the
    summed length. Degrees of the other vertices are unchanged."""
    incident: dict[int, list[int]] = {v: [] for v in degree}
    alive: dict[int, Edge] = {}
    for eid, (u, v, length) in enumerate(edges):
        alive[eid] = (u, v, length)
        incident[u].append(eid)
        incident[v].append(eid)
    next_id = len(edges)
    for v, d in degree.items():
        ends = incident[v]
        if d != 2 or v in keep or ends[0] == ends[1]:
            continue
        e1, e2 = ends
        u1, w1, l1 = alive.pop(e1)
        u2, w2, l2 = alive.pop(e2)
        a = w1 if u1 == v else u1
        b = w2 if u2 == v else u2
        incident[a].remove(e1)
        incident[b].remove(e2)
        alive[next_id] = (a, b, l1 + l2)
        incident[a].append(next_id)
        incident[b].append(next_id)
        next_id += 1
        del incident[v]
    return list(alive.values())


def _upper_bound(core: list[Edge], peeled: _Peeled) -> int:
    """No trail is longer than this bound on the core with its two descents per vertex.

    Take the graph of the core edges plus each descent as a pendant edge. Every odd vertex but
    the two ends of a trail keeps an unused edge; each unused edge covers at most two odd
    vertices and is at least as long as the shortest edge at each, so the unused length is at
    least half the sum of the smallest ``odd - 2`` per-vertex shortest edges.
    """
    degree: dict[int, int] = {}
    shortest: dict[int, int] = {}
    total = 0
    pendants: list[int] = []
    for u, v, length in core:
        total += length
        for x in (u, v):
            degree[x] = degree.get(x, 0) + 1
            shortest[x] = min(shortest.get(x, length), length)
    for x in degree:
        for descent in (peeled.down1[x], peeled.down2[x]):
            if descent:
                total += descent
                degree[x] += 1
                shortest[x] = min(shortest[x], descent)
                pendants.append(descent)
    minima = sorted(pendants + [shortest[x] for x, d in degree.items() if d % 2])
    return total - (sum(minima[: len(minima) - 2]) + 1) // 2


def _search(edges: list[Edge], starts: list[int], peeled: _Peeled, bound: int) -> int:
    """Depth-first search over core trails (used edges as a bitmask) from each start, adding
    the longest descent at the start and the longest unused one at the end."""
    vertices = sorted({x for u, v, _ in edges for x in (u, v)})
    index = {v: i for i, v in enumerate(vertices)}
    adjacency: list[list[tuple[int, int, int]]] = [[] for _ in vertices]
    for eid, (u, v, length) in enumerate(edges):
        bit = 1 << eid
        adjacency[index[u]].append((bit, index[v], length))
        if u != v:
            adjacency[index[v]].append((bit, index[u], length))
    down1 = [peeled.down1[v] for v in vertices]
    down2 = [peeled.down2[v] for v in vertices]
    best = 0
    for start in starts:
        s = index[start]
        finish = down1.copy()
        finish[s] = down2[s]  # a closed trail ends in the other descent at its start
        best = max(best, down1[s] + _longest_from(s, adjacency, finish))
        if best >= bound:
            break
    return best


def _longest_from(
    start: int, adjacency: list[list[tuple[int, int, int]]], finish: list[int]
) -> int:
    """The longest core trail from ``start`` plus ``finish`` at its end, memoized on (vertex,
    used edges)."""
    shift = len(adjacency).bit_length()
    memo: dict[int, int] = {}

    def extend(v: int, used: int) -> int:
        key = (used << shift) | v
        known = memo.get(key)
        if known is not None:
            return known
        longest = finish[v]
        for bit, w, step in adjacency[v]:
            if not used & bit:
                length = step + extend(w, used | bit)
                if length > longest:
                    longest = length
        memo[key] = longest
        return longest

    return extend(start, 0)


# --------------------------------------------------------------------------------------------
# Longest trail on large networks: branch and bound over T-join relaxations
#
# A trail is a connected subgraph H with at most two odd vertices (its ends), and every such H
# is a trail (Euler). The longest trail is therefore the total length minus the lightest set R
# of removed edges that leaves (a) at most two odd vertices and (b) the other edges connected.
# Dropping (b) leaves a classic problem: R is a T-join, solved exactly by a minimum-weight
# perfect matching (:func:`_relaxation`). Where the relaxed answer is disconnected, the search
# branches on how the true answer crosses one of its pieces (:func:`_expand`).

#: A subproblem: the edges forced out (removed) and forced in (kept), by edge index.
_Constraints = tuple[frozenset[int], frozenset[int]]


def _branch_and_bound(edges: list[Edge], search_limit: int = _SEARCH_LIMIT) -> int:
    """The exact longest trail over ``edges`` (a connected multigraph of any size).

    Best-first search over subproblems keyed by an upper bound of their longest trail; each
    subproblem that is not solved outright yields trails (lower bounds, valid for the whole
    graph since its edges are edges of the graph) and children that partition its trails. The
    search stops when no open subproblem can beat the best trail found. Components without
    constraints of at most ``search_limit`` edges go to the memoized search (0: never).
    """
    best = 0
    heap: list[tuple[int, int, _Constraints]] = [
        (-sum(length for _, _, length in edges), 0, (frozenset(), frozenset()))
    ]
    pushed = 1
    while heap:
        negative_bound, _, constraints = heappop(heap)
        if -negative_bound <= best:
            break
        found, children = _expand(edges, constraints, best, search_limit)
        best = max(best, found)
        for bound, child in children:
            if bound > best:
                heappush(heap, (-bound, pushed, child))
                pushed += 1
    return best


def _expand(
    edges: list[Edge], constraints: _Constraints, best: int, search_limit: int
) -> tuple[int, list[tuple[int, _Constraints]]]:
    """Solve or split one subproblem: the longest trail using no removed edge and every kept
    edge. Returns a trail length found (0 when none) and the children with their bounds.

    A trail is connected, so it lies in one component of the allowed edges: the one with every
    kept edge (none if they are spread over several), or any one of them when nothing is kept.
    A small component without kept edges is solved exactly by :func:`_component_trail` (with
    a limit that keeps it on the memoized search: contraction never adds edges). Else
    the T-join relaxation gives a bound and a subgraph H whose components are all trails (H has
    at most two odd vertices, so each component has 0 or 2). If H is connected it is optimal.
    Otherwise take the piece S of H with the fewest edges leaving it (all removed in H): the
    best trail uses none of them, so it lies inside S or outside it (one child with the whole
    cut removed), or uses a first one e_i (child i: e_1 ... e_{i-1} removed, e_i kept). These
    children partition the subproblem and each strictly adds a constraint.
    """
    removed, kept = constraints
    allowed = [eid for eid in range(len(edges)) if eid not in removed]
    groups = _edge_components(edges, allowed)
    if kept:
        groups = [group for group in groups if not kept.isdisjoint(group)]
        if len(groups) != 1:
            return 0, []
    if len(groups) > 1:
        return 0, [
            (_weight(edges, group), (removed.union(allowed).difference(group), kept))
            for group in groups
        ]
    if not groups:
        return 0, []
    group = groups[0]
    if _weight(edges, group) <= best:
        return 0, []
    if not kept and len(group) <= search_limit:
        return _component_trail([edges[eid] for eid in group], len(group)), []
    relaxed = _relaxation(edges, group, kept)
    if relaxed is None or relaxed[0] <= best:
        return 0, []
    bound, join = relaxed
    pieces = _edge_components(edges, [eid for eid in group if eid not in join])
    found = max((_weight(edges, piece) for piece in pieces), default=0)
    if len(pieces) <= 1 or found >= bound:
        return found, []
    cut = min((_cut(edges, group, piece) for piece in pieces), key=len)
    children = [(bound, (removed.union(cut), kept))]
    for i, eid in enumerate(cut):
        children.append((bound, (removed.union(cut[:i]), kept | {eid})))
    return found, children


def _weight(edges: list[Edge], ids: Iterable[int]) -> int:
    return sum(edges[eid][2] for eid in ids)


def _edge_components(edges: list[Edge], ids: list[int]) -> list[list[int]]:
    """The edge indices ``ids`` grouped by connected component."""
    parent: dict[int, int] = {}
    for eid in ids:
        u, v, _ = edges[eid]
        ru, rv = _root_of(parent, u), _root_of(parent, v)
        if ru != rv:
            parent[ru] = rv
    groups: dict[int, list[int]] = {}
    for eid in ids:
        groups.setdefault(_root_of(parent, edges[eid][0]), []).append(eid)
    return list(groups.values())


def _root_of(parent: dict[int, int], x: int) -> int:
    root = parent.setdefault(x, x)
    while root != parent[root]:
        parent[root] = parent[parent[root]]
        root = parent[root]
    return root


def _cut(edges: list[Edge], group: list[int], piece: list[int]) -> list[int]:
    """The edges of ``group`` with exactly one end among the vertices of ``piece``."""
    inside = {x for eid in piece for x in edges[eid][:2]}
    return [eid for eid in group if (edges[eid][0] in inside) != (edges[eid][1] in inside)]


def _relaxation(
    edges: list[Edge], group: list[int], kept: frozenset[int]
) -> tuple[int, set[int]] | None:
    """An upper bound of the longest trail over ``group`` keeping ``kept``, and an edge set
    whose removal leaves at most two odd vertices (None when no such removal exists).

    Every trail leaves unused a set R of edges whose odd vertices are those of the graph but
    the two ends of the trail (a longest trail ends at odd vertices, or is closed and uses
    everything, since an unused edge at an end would extend it; extending never breaks the
    constraints of a subproblem): R is a T-join. The lightest T-join for a set T is a minimum
    perfect matching of T under shortest-path distances, taking the symmetric difference of the
    matched paths; letting two dummy vertices match any vertex at cost 0 (and each other: no
    open ends) chooses the best two ends at once. Kept edges may not be removed, so paths avoid
    them. The total minus this minimum bounds every trail of the subproblem from above.
    """
    import networkx as nx  # only on this path: large networks at final scoring

    parity: dict[int, int] = {}
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for eid in group:
        u, v, length = edges[eid]
        if u == v:
            continue
        parity[u] = parity.get(u, 0) ^ 1
        parity[v] = parity.get(v, 0) ^ 1
        if eid not in kept:
            adjacency.setdefault(u, []).append((v, length, eid))
            adjacency.setdefault(v, []).append((u, length, eid))
    total = _weight(edges, group)
    odd = sorted(x for x, p in parity.items() if p)
    if len(odd) <= 2:
        return total, set()
    paths = {a: _shortest_paths(adjacency, a) for a in odd}
    matching = nx.Graph()
    dummies = (-1, -2) if min(odd) >= 0 else (min(odd) - 1, min(odd) - 2)
    matching.add_edge(*dummies, weight=0)
    for i, a in enumerate(odd):
        for dummy in dummies:
            matching.add_edge(a, dummy, weight=0)
        for b in odd[i + 1 :]:
            if b in paths[a][0]:
                matching.add_edge(a, b, weight=paths[a][0][b])
    mates: set[tuple[int, int]] = nx.min_weight_matching(matching)
    if 2 * len(mates) != len(odd) + 2:
        return None
    join: set[int] = set()
    cost = 0
    for a, b in mates:
        if a in dummies or b in dummies:
            continue
        distance, previous = paths[a]
        cost += distance[b]
        at = b
        while at != a:
            at, eid = previous[at]
            join ^= {eid}
    return total - cost, join


def _shortest_paths(
    adjacency: dict[int, list[tuple[int, int, int]]], source: int
) -> tuple[dict[int, int], dict[int, tuple[int, int]]]:
    """Dijkstra from ``source``: distances and, per vertex, (previous vertex, edge index)."""
    distance = {source: 0}
    previous: dict[int, tuple[int, int]] = {}
    queue = [(0, source)]
    while queue:
        d, x = heappop(queue)
        if d > distance[x]:
            continue
        for y, length, eid in adjacency.get(x, ()):
            if d + length < distance.get(y, d + length + 1):
                distance[y] = d + length
                previous[y] = (x, eid)
                heappush(queue, (d + length, y))
    return distance, previous


def longest_path(state: GameState, player: int) -> int:
    """The length in train spaces of ``player``'s longest continuous trail (E72).

    Only the player's own routes count: stations and the opponent routes they reach neither
    count nor bridge the trail (E73).
    """
    ends = _tables(state.map).route_ends
    return longest_trail([ends[rid] for rid in state.routes_of(player)])


# --------------------------------------------------------------------------------------------
# Tickets with stations (E55–E58, E65, U9)


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _root(link: dict[int, int], x: int) -> int:
    while x in link:
        x = link[x]
    return x


@frozen
class _TicketResult:
    points: int
    completed: int
    failed: int
    assignment: Assignment


#: A station's usable route: ``(station index, route id, component, component)``.
_Option = tuple[int, int, int, int]


def _ticket_result(
    state: GameState, tables: _Tables, player: int, owned: Sequence[int]
) -> _TicketResult:
    """Kept tickets scored on the final network (E65), with the best station assignment.

    The own network's components come from a union-find over city indices. Tickets already
    connected score whatever the stations do; the others ("open" tickets) are decided by the
    search over station assignments (:func:`_best_assignment`).
    """
    parent = list(range(len(tables.city_index)))
    ends = tables.route_ends
    for rid in owned:
        a, b, _ = ends[rid]
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:
            parent[ra] = rb
    points = completed = 0
    open_tickets: list[Edge] = []
    for tid in state.players[player].tickets:
        a, b, value = tables.ticket_ends[tid]
        ra, rb = _find(parent, a), _find(parent, b)
        if ra == rb:
            points += value
            completed += 1
        else:
            points -= value
            open_tickets.append((ra, rb, value))
    stations = state.players[player].stations
    assignment: Assignment = (None,) * len(stations)
    if stations and open_tickets:
        options = _station_options(state, tables, player, parent)
        gain, extra, assignment = _best_assignment(len(stations), options, open_tickets)
        points += gain
        completed += extra
    failed = len(state.players[player].tickets) - completed
    return _TicketResult(points, completed, failed, assignment)


def _station_options(
    state: GameState, tables: _Tables, player: int, parent: list[int]
) -> list[_Option]:
    """Every opponent route a station may use (E55, E58), by station then route id.

    Only a claimed route of another player touching the station's city qualifies. A route
    inside one component of the own network changes nothing and is dropped; of several routes
    joining the same two components for one station only the lowest id is kept: both are
    exact, since the tie-break prefers no route, then the lowest id (U9).
    """
    owner = state.route_owner
    ends = tables.route_ends
    options: list[_Option] = []
    for s, city in enumerate(state.players[player].stations):
        seen: set[tuple[int, int]] = set()
        for rid in tables.city_routes[tables.city_index[city]]:
            holder = owner[rid]
            if holder is None or holder == player:
                continue
            a, b, _ = ends[rid]
            ra, rb = _find(parent, a), _find(parent, b)
            pair = (ra, rb) if ra < rb else (rb, ra)
            if ra != rb and pair not in seen:
                seen.add(pair)
                options.append((s, rid, ra, rb))
    return options


def _useful_options(options: list[_Option], open_tickets: list[Edge]) -> list[_Option]:
    """Drop the options that can never complete a ticket in any assignment.

    Options are edges between own-network components. An edge to a component that no other
    option touches and that holds no ticket end cannot lie on a path between ticket ends, so
    such dangling edges are removed repeatedly; then edges of option-graph components holding
    no ticket whose ends they connect are removed. A dropped option scores exactly as "no
    route", which the tie-break prefers, so the result is unchanged (U9).
    """
    terminals = {x for a, b, _ in open_tickets for x in (a, b)}
    while True:
        degree: dict[int, int] = {}
        for _, _, a, b in options:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        kept = [
            o
            for o in options
            if (degree[o[2]] > 1 or o[2] in terminals) and (degree[o[3]] > 1 or o[3] in terminals)
        ]
        if len(kept) == len(options):
            break
        options = kept
    link: dict[int, int] = {}
    for _, _, a, b in options:
        ra, rb = _root(link, a), _root(link, b)
        if ra != rb:
            link[ra] = rb
    reachable = {_root(link, a) for a, b, _ in open_tickets if _root(link, a) == _root(link, b)}
    return [o for o in options if _root(link, o[2]) in reachable]


def _best_assignment(
    station_count: int, options: list[_Option], open_tickets: list[Edge]
) -> tuple[int, int, Assignment]:
    """Search every assignment of stations to usable routes (U9).

    Returns the ticket points gained over "no station route", the extra tickets completed and
    the assignment. Assignments are visited in lexicographic order (None before any route id,
    stations in building order) and one replaces the best only when strictly better in
    (points, completed), so the first best found has the lowest route ids.
    """
    options = _useful_options(options, open_tickets)
    none: Assignment = (None,) * station_count
    if not options:
        return 0, 0, none
    choices: list[list[_Option | None]] = [[None] for _ in range(station_count)]
    for usable in options:
        choices[usable[0]].append(usable)
    reachable = _reachable_tickets(options, open_tickets)
    ceiling = (sum(2 * v for _, _, v in reachable), len(reachable))
    can_stop = all(v >= 0 for _, _, v in reachable)
    best_key = (0, 0)
    best = none
    for combo in product(*choices):
        link: dict[int, int] = {}
        for option in combo:
            if option is not None:
                ra, rb = _root(link, option[2]), _root(link, option[3])
                if ra != rb:
                    link[ra] = rb
        gain = done = 0
        for a, b, value in reachable:
            if _root(link, a) == _root(link, b):
                gain += 2 * value
                done += 1
        if (gain, done) > best_key:
            best_key = (gain, done)
            best = tuple(None if o is None else o[1] for o in combo)
            if can_stop and best_key == ceiling:
                break
    return best_key[0], best_key[1], best


def _reachable_tickets(options: list[_Option], open_tickets: list[Edge]) -> list[Edge]:
    """The open tickets whose ends all the options together could connect."""
    link: dict[int, int] = {}
    for _, _, a, b in options:
        ra, rb = _root(link, a), _root(link, b)
        if ra != rb:
            link[ra] = rb
    return [t for t in open_tickets if _root(link, t[0]) == _root(link, t[1])]


# --------------------------------------------------------------------------------------------
# Final scores, Express, winners (E59, E74–E78)


def final_scores(state: GameState) -> tuple[PlayerScore, ...]:
    """Every player's score breakdown, by seat (E76, E78).

    Valid on any state; before the end it is provisional. Tickets are the kept ones (offered
    tickets not yet kept do not count). Route points are those scored during play (E29).
    """
    rules = state.rules
    tables = _tables(state.map)
    owned = _owned_routes(state)
    ends = tables.route_ends
    paths = [longest_trail([ends[rid] for rid in routes]) for routes in owned]
    holders = _express_holders(paths, rules)
    scores = []
    for seat, player in enumerate(state.players):
        tickets = _ticket_result(state, tables, seat, owned[seat])
        reserve = max(0, rules.stations_per_player - len(player.stations))
        station_bonus = reserve * rules.station_bonus
        express = rules.longest_path_bonus if seat in holders else 0
        total = player.route_points + tickets.points + station_bonus + express
        scores.append(
            PlayerScore(
                player=seat,
                route_points=player.route_points,
                ticket_points=tickets.points,
                tickets_completed=tickets.completed,
                tickets_failed=tickets.failed,
                station_bonus=station_bonus,
                longest_path=paths[seat],
                express_bonus=express,
                total=total,
                station_routes=tuple(zip(player.stations, tickets.assignment, strict=True)),
            )
        )
    return tuple(scores)


def _express_holders(paths: Sequence[int], rules: Rules) -> frozenset[int]:
    """Every player tied at the longest path, when it is at least
    ``longest_path_min_length`` (E74, E75, U10)."""
    top = max(paths, default=0)
    if top < rules.longest_path_min_length:
        return frozenset()
    return frozenset(seat for seat, length in enumerate(paths) if length == top)


def rank_winners(scores: Sequence[PlayerScore], rules: Rules) -> tuple[int, ...]:
    """The winners among ``scores``: most points, then ``rules.tie_breakers`` in order (E77).

    ``"tickets"``: most completed tickets; ``"stations"``: fewest stations built (E60, U12);
    ``"express"``: holding the European Express (E74). Players still tied all win (U11).
    """
    holders = _express_holders([s.longest_path for s in scores], rules)

    def key(score: PlayerScore) -> tuple[int, ...]:
        parts = [score.total]
        for name in rules.tie_breakers:
            if name == "tickets":
                parts.append(score.tickets_completed)
            elif name == "stations":
                parts.append(-len(score.station_routes))
            elif name == "express":
                parts.append(int(score.player in holders))
            else:
                raise ValueError(f"unknown tie-breaker {name!r}")
        return tuple(parts)

    if not scores:
        return ()
    keys = {score.player: key(score) for score in scores}
    top = max(keys.values())
    return tuple(sorted(seat for seat, k in keys.items() if k == top))


def winners(state: GameState) -> tuple[int, ...]:
    """The winning seats, ascending, after the tie-breakers (E77, E78, U11, U12).

    More than one only when still tied after every tie-breaker.
    """
    return rank_winners(final_scores(state), state.rules)


# --------------------------------------------------------------------------------------------
# A printable breakdown


def _seat_name(seat: int) -> str:
    """Players are named by seat, as everywhere in the API: P0, P1, ..."""
    return f"P{seat}"


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def format_scores(state: GameState) -> str:
    """A readable table of :func:`final_scores` with the winners marked ``*``, followed by
    the route each built station uses (for ``ttr simulate``)."""
    scores = final_scores(state)
    top = set(rank_winners(scores, state.rules))
    header = (
        "player",
        "routes",
        "tickets",
        "done",
        "failed",
        "stations",
        "longest",
        "express",
        "total",
        "",
    )
    rows = [header] + [
        (
            _seat_name(s.player),
            str(s.route_points),
            _signed(s.ticket_points),
            str(s.tickets_completed),
            str(s.tickets_failed),
            _signed(s.station_bonus),
            str(s.longest_path),
            _signed(s.express_bonus),
            str(s.total),
            "*" if s.player in top else "",
        )
        for s in scores
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [_format_row(row, widths) for row in rows]
    lines.extend(_station_lines(state, scores))
    return "\n".join(lines)


def _format_row(row: Iterable[str], widths: Sequence[int]) -> str:
    cells = [
        cell.ljust(w) if i == 0 else cell.rjust(w)
        for i, (cell, w) in enumerate(zip(row, widths, strict=True))
    ]
    return "  ".join(cells).rstrip()


def _station_lines(state: GameState, scores: Sequence[PlayerScore]) -> list[str]:
    """One line per player with stations: each station's city and the route it uses (U9)."""
    lines = []
    for s in scores:
        if s.station_routes:
            used = ", ".join(
                f"{city} (no route)" if rid is None else f"{city} -> #{rid} {state.map.routes[rid]}"
                for city, rid in s.station_routes
            )
            lines.append(f"  {_seat_name(s.player)} stations: {used}")
    return lines
