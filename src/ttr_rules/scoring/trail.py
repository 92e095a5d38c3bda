"""The longest trail of a graph (E72, E73): pure graph code, no game types.

A graph is a list of edges ``(u, v, length)`` between integer vertices; parallel edges and
loops are allowed. :func:`longest_trail` is exact: hanging trees are peeled off, degree-2
vertices contracted and the core searched depth-first with memoization, or, on large cores, by a
branch and bound over T-join relaxations.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from heapq import heappop, heappush
from operator import itemgetter

from .unionfind import DisjointSets, component_labels

__all__ = ["Edge", "longest_trail"]

#: An edge of a trail search: ``(vertex, vertex, length)``.
Edge = tuple[int, int, int]

#: Cores with more edges than this (after contraction) go to :func:`_branch_and_bound`: the
#: memoized search is exponential in the number of core edges. Realistic networks (45 trains)
#: stay far below it.
_SEARCH_LIMIT = 22


def longest_trail(edges: Sequence[Edge]) -> int:
    """The length of the longest trail over ``edges`` (``(u, v, length)``, ``length >= 1``):
    each edge used at most once, vertices revisitable, loops and parallel edges allowed (E72).

    Exact. The vertices are numbered ``0 .. n - 1`` in order of appearance and the graph goes to
    :func:`network_trail`.

    >>> longest_trail([(0, 1, 3), (1, 2, 2), (1, 3, 4)])  # a fork: the two longer branches
    7
    >>> longest_trail([(0, 1, 2), (1, 2, 3), (2, 0, 1), (0, 3, 5)])  # round the loop, then on
    11
    """
    return _renumbered_trail(edges)


def network_trail(
    edges: Sequence[Edge],
    size: int,
    labels: Sequence[int] | None = None,
    search_limit: int = _SEARCH_LIMIT,
) -> int:
    """The longest trail over ``edges`` whose vertices are ``0 .. size - 1`` (E72): a player's
    routes by city index. ``labels``: the component label of each vertex
    (:func:`~ttr_rules.scoring.unionfind.component_labels` of ``edges``), when known.

    A trail stays in one connected component and is no longer than the component's total
    length. A component of at most two edges is one trail; the others are solved by decreasing
    total, until no total beats the longest trail found: their hanging trees cut off
    (:func:`_peel`), then the core left (:func:`_core_trail`).
    """
    if labels is None:
        labels = component_labels(size, edges)
    components: defaultdict[int, list[Edge]] = defaultdict(list)
    for edge in edges:
        components[labels[edge[0]]].append(edge)
    best = 0
    large: list[tuple[int, list[Edge]]] = []
    for component in components.values():
        if len(component) > 2:
            large.append((sum(map(_length, component)), component))
        else:
            total = component[0][2] if len(component) == 1 else component[0][2] + component[1][2]
            if total > best:
                best = total
    large.sort(key=_length_first, reverse=True)
    for total, component in large:
        if total <= best:
            break
        # The hanging trees cut off measure a tree (a path included); the core left of a
        # connected component is connected.
        core, down1, down2, inside = _peel(component, size)
        if inside > best:
            best = inside
        if core:
            length = _core_trail(core, _Peeled(core, down1, down2, inside), search_limit)
            if length > best:
                best = length
    return best


_length = itemgetter(2)
_length_first = itemgetter(0)


class _Peeled:
    """A graph with its hanging trees cut off (see :func:`_peel`)."""

    __slots__ = ("core", "down1", "down2", "inside")

    def __init__(self, core: list[Edge], down1: list[int], down2: list[int], inside: int) -> None:
        #: The edges of the 2-core: every vertex has degree >= 2 in it.
        self.core = core
        #: The two longest descents into the trees hanging at each core vertex (0 when none),
        #: by vertex.
        self.down1 = down1
        self.down2 = down2
        #: The longest path lying in the trees without entering the core.
        self.inside = inside


def _peel(edges: Sequence[Edge], size: int) -> tuple[list[Edge], list[int], list[int], int]:
    """Cut the trees off the graph (vertices ``0 .. size - 1``) by repeatedly removing
    degree-1 vertices: the fields of :class:`_Peeled` (a tuple: most components are trees,
    which need no record).

    Tree parts can be left and entered once only, so a trail meets the trees hanging at a core
    vertex ``x`` in at most two descents from ``x`` (at its start and at its end); only the two
    longest matter. Paths that stay in a tree are measured on the way (``inside``): through a
    vertex when its last edge goes. The one edge left at a leaf is the exclusive or of the ids
    of the edges still at it (a loop adds its id twice, and keeps its vertex off the leaves).
    """
    degree = [0] * size
    incident = [0] * size
    for eid, (u, v, _) in enumerate(edges):
        degree[u] += 1
        degree[v] += 1
        incident[u] ^= eid
        incident[v] ^= eid
    leaves = []
    for u, v, _ in edges:
        if degree[u] == 1:
            leaves.append(u)
        if degree[v] == 1:
            leaves.append(v)
    down1 = [0] * size
    down2 = [0] * size
    removed = 0
    inside = 0
    while leaves:
        leaf = leaves.pop()
        if degree[leaf] != 1:
            continue  # the other end of an edge whose leaf was removed first
        eid = incident[leaf]
        u, x, length = edges[eid]
        if x == leaf:
            x = u
        if down2[leaf]:  # a path through the leaf; with one descent, x's paths are longer
            through = down1[leaf] + down2[leaf]
            if through > inside:
                inside = through
        height = length + down1[leaf]
        if height > down1[x]:
            down2[x] = down1[x]
            down1[x] = height
        elif height > down2[x]:
            down2[x] = height
        removed += 1
        degree[leaf] = 0
        incident[x] ^= eid
        degree[x] -= 1
        if degree[x] == 1:
            leaves.append(x)
        elif not degree[x]:
            through = down1[x] + down2[x]  # the last vertex of a tree
            if through > inside:
                inside = through
    if removed == len(edges):
        return [], down1, down2, inside
    # a removed edge left its leaf at degree 0; a core edge keeps both ends at 2 or more
    core = [edge for edge in edges if degree[edge[0]] and degree[edge[1]]]
    return core, down1, down2, inside


def _renumbered_trail(edges: Sequence[Edge], search_limit: int = _SEARCH_LIMIT) -> int:
    """The longest trail over ``edges`` with any integer vertices, numbered ``0 .. n - 1`` in
    order of appearance for :func:`network_trail`; a core of more than ``search_limit``
    contracted edges goes to :func:`_branch_and_bound`."""
    number: dict[int, int] = {}
    numbered = [
        (number.setdefault(u, len(number)), number.setdefault(v, len(number)), length)
        for u, v, length in edges
    ]
    return network_trail(numbered, len(number), search_limit=search_limit)


def _core_trail(core: list[Edge], peeled: _Peeled, search_limit: int) -> int:
    """The longest trail of one connected component of the core, with its tree descents.

    A trail is one optional tree descent, a trail of core edges from ``x`` to ``y``, and one
    optional tree descent. If no trees hang and every core degree is even, an Euler circuit
    uses every edge. Otherwise every longest trail ends at odd-degree vertices (a longest trail
    ending at an even vertex, or a closed one, could be extended by an unused edge there), so
    core vertices of degree 2 without trees are never endpoints and their two edges merge into
    one (:func:`_contract`); a memoized depth-first search then starts from every possible end.
    A core of more than ``search_limit`` contracted edges goes to :func:`_branch_and_bound`
    instead.
    """
    degree: dict[int, int] = {}
    total = 0
    for u, v, length in core:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
        total += length
    down1, down2 = peeled.down1, peeled.down2
    hanging = {x for x in degree if down1[x]}
    odd = [x for x in degree if (degree[x] + (x in hanging) + (down2[x] > 0)) % 2]
    if not odd and not hanging:
        return total  # an Euler circuit uses every edge
    contracted = _contract(core, degree, hanging)
    if len(contracted) > search_limit:
        with_descents = contracted + _descent_edges(degree, peeled)
        return _branch_and_bound(with_descents)
    starts = sorted(hanging.union(odd))
    bound = _upper_bound(contracted, peeled)
    return _search(contracted, starts, peeled, bound)


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
    A small component without kept edges is solved exactly by :func:`_renumbered_trail` (with
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
        return _renumbered_trail([edges[eid] for eid in group], len(group)), []
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


def _edge_components(edges: Sequence[Edge], ids: Iterable[int]) -> list[list[int]]:
    """The edge indices ``ids`` grouped by connected component."""
    ids = list(ids)
    sets = DisjointSets.joined(edges[eid][:2] for eid in ids)
    groups: dict[int, list[int]] = {}
    for eid in ids:
        groups.setdefault(sets.find(edges[eid][0]), []).append(eid)
    return list(groups.values())


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
