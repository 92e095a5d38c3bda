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
