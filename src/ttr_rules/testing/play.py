"""Playing games from a list of choices: the engine of the strategies and of ``check_map``.

The playout itself is the library's :mod:`ttr_rules.playout` (re-exported here); this module
adds the :data:`TARGETS`, the kinds of rare position the strategies steer toward.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from ..playout import (
    POLICIES,
    Chooser,
    PlayedGame,
    Step,
    chooser,
    play,
    playout,
    preferred_actions,
    random_chooser,
)
from ..state import GameState, Phase

__all__ = [
    "POLICIES",
    "TARGETS",
    "Chooser",
    "PlayedGame",
    "Step",
    "Target",
    "chooser",
    "play",
    "playout",
    "preferred_actions",
    "random_chooser",
]


@frozen
class Target:
    """A kind of position a strategy steers toward: a name, a policy and a predicate."""

    name: str
    policy: str
    reached: Callable[[GameState], bool]


def _empty_deck(state: GameState) -> bool:
    return not state.deck and not state.discard and state.phase is not Phase.GAME_OVER


#: Positions :func:`~ttr_rules.testing.strategies.states` steers toward, rare phases included.
TARGETS: tuple[Target, ...] = (
    Target("any", "uniform", lambda s: False),
    Target("second card", "draws", lambda s: s.phase is Phase.SECOND_CARD),
    Target("keep tickets", "tickets", lambda s: s.phase is Phase.KEEP_TICKETS),
    Target("tunnel", "claims", lambda s: s.phase is Phase.TUNNEL),
    Target("final round", "claims", lambda s: s.final_turns is not None and not s.is_terminal),
    Target("empty deck", "draws", _empty_deck),
    Target("game over", "uniform", lambda s: s.is_terminal),
)
