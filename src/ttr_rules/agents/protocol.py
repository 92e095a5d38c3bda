"""The agent protocol and the check every agent makes of the view it is given.

This module imports no agent: the implementations import it, and the registry
(:mod:`~ttr_rules.agents.base`) imports them, so the package has no import cycle.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..actions import Action
from ..state import Phase
from ..views import PlayerView
from ..words import seat_name

__all__ = ["Agent", "check_view"]


@runtime_checkable
class Agent(Protocol):
    """A player: ``act`` gets the acting seat's view and returns one of its legal actions.

    ``act`` is only called when the viewer is the player to act (``view.player ==
    view.current``) and the game is not over. An agent may keep private state between calls
    (a plan, a search tree) but must not mutate anything it did not create; given the same
    seed and the same views it must return the same actions.
    """

    name: str

    def act(self, view: PlayerView) -> Action: ...


def check_view(view: PlayerView) -> int:
    """The viewer's seat, checking that the viewer is the player to act."""
    if view.player is None:
        raise ValueError("an agent acts from a player's view, not a spectator's")
    if view.phase is Phase.GAME_OVER:
        raise ValueError("the game is over")
    if view.player != view.current:
        raise ValueError(f"{seat_name(view.current)} acts, not {seat_name(view.player)}")
    return view.player
