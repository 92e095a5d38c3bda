"""End-of-game bonuses: a registry of named scorers (docs/rules.md, "Bonuses").

A scorer is a pure function of a final state: ``scorer(state) -> points``, one integer per
seat. :attr:`Rules.bonuses <ttr_rules.Rules.bonuses>` names the ones a game scores, in order;
the score table shows each under its name. Scorers are found under the entry-point group
``ttr_rules.bonuses``, where the library registers its own two the same way a plugin would:

- ``express``: :attr:`~ttr_rules.Rules.longest_path_bonus` to every player tied for the longest
  continuous trail, when it has at least ``longest_path_min_length`` spaces (E72–E75, U10);
- ``globetrotter``: :attr:`~ttr_rules.Rules.globetrotter_bonus` to every player tied for the
  most completed tickets, when at least one ticket is completed (U23);
- ``asian_explorer``: :attr:`~ttr_rules.Rules.asian_explorer_bonus` to every player tied for the
  most cities joined in one network of their own routes, when anyone has a route (U29);
- ``grand_tour``: India's Mandala bonus, by the number of completed tickets whose ends are
  joined by two paths of the owner's trains with no route in common (:data:`GRAND_TOUR_POINTS`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from ..errors import MapError
from ..maps.index import map_index
from ..rules import BONUS_GROUP, Rules
from ..state import GameState
from .tickets import ticket_connected, ticket_result
from .trail import network_trail
from .unionfind import component_labels, two_edge_labels

__all__ = [
    "GRAND_TOUR_POINTS",
    "GROUP",
    "BonusScorer",
    "asian_explorer",
    "bonus_names",
    "bonus_scorer",
    "express",
    "express_holders",
    "globetrotter",
    "grand_tour",
    "largest_network",
]

#: The entry-point group of bonus scorers.
GROUP = BONUS_GROUP

#: A bonus: the points of each seat, from a final state (a pure function).
BonusScorer = Callable[[GameState], Sequence[int]]


def express_holders(paths: Sequence[int], rules: Rules) -> frozenset[int]:
    """Every player tied at the longest path, when it is at least
    ``longest_path_min_length`` (E74, E75, U10)."""
    top = max(paths, default=0)
    if top < rules.longest_path_min_length:
        return frozenset()
    return frozenset(seat for seat, length in enumerate(paths) if length == top)


def _networks(state: GameState) -> list[tuple[list[int], int]]:
    """Each seat's network labels and longest trail."""
    index = map_index(state.map)
    size = len(index.city_routes)
    ends = index.route_ends
    found = []
    for seat in range(len(state.players)):
        edges = [ends[r] for r, owner in enumerate(state.route_owner) if owner == seat]
        network = component_labels(size, edges)
        found.append((network, network_trail(edges, size, network)))
    return found


def express(state: GameState) -> tuple[int, ...]:
    """The longest-path bonus (the European Express; the USA's longest continuous path).

    >>> from ttr_rules import scenario
    >>> express(scenario(players=2, routes={23: 0, 59: 0}))
    (10, 0)
    """
    paths = [trail for _, trail in _networks(state)]
    holders = express_holders(paths, state.rules)
    points = state.rules.longest_path_bonus
    return tuple(points if seat in holders else 0 for seat in range(len(paths)))


def globetrotter(state: GameState) -> tuple[int, ...]:
    """The Globetrotter: :attr:`Rules.globetrotter_bonus <ttr_rules.Rules.globetrotter_bonus>`
    to every player tied for the most completed tickets, none when nobody completed one (U23).

    >>> from ttr_rules import scenario
    >>> globetrotter(scenario(players=2))  # nobody has a completed ticket
    (0, 0)
    """
    done = [
        ticket_result(state, seat, network).completed
        for seat, (network, _) in enumerate(_networks(state))
    ]
    top = max(done, default=0)
    points = state.rules.globetrotter_bonus
    return tuple(points if top > 0 and n == top else 0 for n in done)


def largest_network(state: GameState, seat: int) -> int:
    """The most cities that ``seat``'s own routes join into one network (0 without a route).

    >>> from ttr_rules import scenario
    >>> largest_network(scenario(players=2, routes={23: 0, 59: 0}), 0)  # Brest-Paris-Frankfurt
    3
    """
    index = map_index(state.map)
    ends = index.route_ends
    edges = [ends[r] for r, owner in enumerate(state.route_owner) if owner == seat]
    labels = component_labels(len(index.city_routes), edges)
    sizes: dict[int, int] = {}
    for city in {end for a, b, _ in edges for end in (a, b)}:
        sizes[labels[city]] = sizes.get(labels[city], 0) + 1
    return max(sizes.values(), default=0)


def asian_explorer(state: GameState) -> tuple[int, ...]:
    """The Asian Explorer: :attr:`Rules.asian_explorer_bonus
    <ttr_rules.Rules.asian_explorer_bonus>` to every player tied for the most cities in one
    network of their own routes, none when nobody has a route (U29).

    >>> from ttr_rules import scenario
    >>> asian_explorer(scenario(players=2, routes={23: 0, 59: 0, 0: 1}))
    (10, 0)
    """
    sizes = [largest_network(state, seat) for seat in range(len(state.players))]
    top = max(sizes, default=0)
    points = state.rules.asian_explorer_bonus
    return tuple(points if top > 0 and n == top else 0 for n in sizes)


#: The Grand Tour's points by the number of qualifying tickets (India's Mandala table: 1 -> 5,
#: 2 -> 10, 3 -> 20, 4 -> 30, 5 or more -> 40).
GRAND_TOUR_POINTS = (0, 5, 10, 20, 30, 40)


def grand_tour(state: GameState) -> tuple[int, ...]:
    """The Grand Tour (India's Mandala): points by the number of completed tickets whose ends
    are joined by two paths of the owner's own trains with no route in common (they may share
    and cross cities), 5, 10, 20, 30 and 40 for 1 to 5 or more (:data:`GRAND_TOUR_POINTS`).

    A ticket to several destinations qualifies when one destination it reaches is joined so
    (U35).

    >>> from ttr_rules import scenario
    >>> grand_tour(scenario(players=2))
    (0, 0)
    """
    index = map_index(state.map)
    size = len(index.city_routes)
    ends = index.route_ends
    found = []
    for seat, player in enumerate(state.players):
        edges = [ends[r] for r, owner in enumerate(state.route_owner) if owner == seat]
        labels = two_edge_labels(size, edges)
        count = sum(ticket_connected(index, tid, labels) for tid in player.tickets)
        found.append(GRAND_TOUR_POINTS[min(count, len(GRAND_TOUR_POINTS) - 1)])
    return tuple(found)


@functools.cache
def _registered() -> dict[str, BonusScorer]:
    found: dict[str, BonusScorer] = {}
    for entry in entry_points(group=GROUP):
        found.setdefault(entry.name, entry.load())
    return found


def bonus_names() -> tuple[str, ...]:
    """The names of the installed bonus scorers, sorted.

    >>> {"express", "globetrotter"} <= set(bonus_names())
    True
    """
    return tuple(sorted(_registered()))


def bonus_scorer(name: str) -> BonusScorer:
    """The scorer registered as ``name``; :class:`~ttr_rules.errors.MapError` when none is.

    >>> bonus_scorer("express") is express
    True
    """
    try:
        return _registered()[name]
    except KeyError:
        known = ", ".join(bonus_names())
        raise MapError(f"no bonus scorer named {name!r} is installed (known: {known})") from None
