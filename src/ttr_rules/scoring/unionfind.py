"""Disjoint sets (union-find) over integers: the one connectivity structure of scoring.

Used for the components of a trail search (:mod:`~ttr_rules.scoring.trail`) and for the
networks of tickets and stations (:mod:`~ttr_rules.scoring.tickets`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["DisjointSets", "component_labels"]


class DisjointSets:
    """Union-find with path halving; an integer not seen yet is a set of its own.

    >>> sets = DisjointSets.joined([(1, 2), (2, 3), (7, 8)])
    >>> sets.connected(1, 3), sets.connected(3, 7), sets.connected(5, 5)
    (True, False, True)
    """

    __slots__ = ("_parent",)

    def __init__(self) -> None:
        self._parent: dict[int, int] = {}

    @classmethod
    def joined(cls, pairs: Iterable[tuple[int, int]]) -> DisjointSets:
        """The sets after joining the two members of every pair, in order."""
        sets = cls()
        for a, b in pairs:
            sets.union(a, b)
        return sets

    def find(self, x: int) -> int:
        """The representative of ``x``'s set."""
        parent = self._parent
        root = parent.setdefault(x, x)
        while root != parent[root]:
            parent[root] = parent[parent[root]]
            root = parent[root]
        return root

    def union(self, a: int, b: int) -> bool:
        """Join the sets of ``a`` and ``b`` (``b``'s representative stays); False if they were
        already one set."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self._parent[ra] = rb
        return True

    def connected(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` are in the same set."""
        return self.find(a) == self.find(b)


def component_labels(size: int, pairs: Iterable[Sequence[int]]) -> list[int]:
    """The label of each vertex ``0 .. size - 1`` after joining the first two items of every
    pair: two vertices share a label when they are connected (the label is the smallest vertex
    of the component).

    A union-find on a list, path halving inlined: a root always links under the smaller root,
    so every parent is at most its child and one pass in vertex order labels every vertex.

    >>> component_labels(6, [(1, 2), (4, 3), (2, 4)])
    [0, 1, 1, 1, 1, 5]
    """
    parent = list(range(size))
    for pair in pairs:
        a = pair[0]
        while a != parent[a]:
            parent[a] = a = parent[parent[a]]
        b = pair[1]
        while b != parent[b]:
            parent[b] = b = parent[parent[b]]
        if a < b:
            parent[b] = a
        elif b < a:
            parent[a] = b
    for x in range(size):
        parent[x] = parent[parent[x]]
    return parent


def two_edge_labels(size: int, edges: Sequence[Sequence[int]]) -> list[int]:
    """A label for each of ``size`` vertices: two vertices share one when at least two paths
    with no edge in common join them (their 2-edge-connected component; Menger). ``edges``
    may repeat a pair: two parallel edges are two paths.

    The bridges (edges on no cycle) are found by one depth-first search (Tarjan's low-link,
    without recursion); the components of the other edges are the labels.

    >>> two_edge_labels(5, [(0, 1), (1, 2), (2, 0), (2, 3)])  # a triangle and a tail
    [0, 0, 0, 3, 4]
    >>> two_edge_labels(3, [(0, 1), (0, 1), (1, 2)])  # parallel edges are two paths
    [0, 0, 2]
    """
    around: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for number, (a, b, *_) in enumerate(edges):
        around[a].append((b, number))
        around[b].append((a, number))
    order = [-1] * size
    low = [0] * size
    bridges: set[int] = set()
    clock = 0
    for root in range(size):
        if order[root] >= 0 or not around[root]:
            continue
        order[root] = low[root] = clock
        clock += 1
        stack = [(root, -1, iter(around[root]))]
        while stack:
            vertex, via, rest = stack[-1]
            for other, number in rest:
                if number == via:
                    continue
                if order[other] < 0:
                    order[other] = low[other] = clock
                    clock += 1
                    stack.append((other, number, iter(around[other])))
                    break
                low[vertex] = min(low[vertex], order[other])
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[vertex])
                    if low[vertex] > order[parent]:
                        bridges.add(via)
    kept = [edge for number, edge in enumerate(edges) if number not in bridges]
    return component_labels(size, kept)
