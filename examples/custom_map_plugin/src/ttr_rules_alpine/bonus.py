"""The Alpine Express's own end-of-game bonus, ``summit``: a scorer registered under the
entry-point group ``ttr_rules.bonuses`` (see the distribution's ``pyproject.toml``).

A scorer is a pure function of the final state: it reads the state and returns the points of
each seat, in seat order. The score table shows them in a column named after the entry point
(``summit+``), explained by the first sentence of the scorer's docstring.
"""

from __future__ import annotations

from ttr_rules import GameState

__all__ = ["SUMMIT_POINTS", "summit"]

#: The bonus, given to every player tied for the most tunnel spaces.
SUMMIT_POINTS = 5


def summit(state: GameState) -> tuple[int, ...]:
    """The Summit bonus, 5 points to every player tied for the most tunnel spaces claimed (none
    when nobody claimed a tunnel). Nothing else of the game counts.

    >>> from ttr_rules import scenario
    >>> from ttr_rules_alpine import load
    >>> alpine = load()
    >>> tunnel = next(r.id for r in alpine.routes if r.tunnel)
    >>> summit(scenario(alpine, players=3, routes={tunnel: 1}))
    (0, 5, 0)
    >>> summit(scenario(alpine, players=2))
    (0, 0)
    """
    spaces = [0] * len(state.players)
    for route, owner in zip(state.map.routes, state.route_owner, strict=True):
        if owner is not None and route.tunnel:
            spaces[owner] += route.length
    top = max(spaces)
    return tuple(SUMMIT_POINTS if top and n == top else 0 for n in spaces)
