"""The ``random`` agent: a uniformly random legal action."""

from __future__ import annotations

import random

from ..actions import Action
from ..views import PlayerView, view_legal_actions
from .protocol import check_view

__all__ = ["RandomAgent"]


class RandomAgent:
    """Plays a uniformly random legal action, drawn from its own ``random.Random(seed)``.

    The baseline every other agent must beat by a wide margin.

    >>> from ttr_rules import new_game, observe
    >>> agent = RandomAgent(seed=1)
    >>> state = new_game("europe", players=2, seed=0)
    >>> type(agent.act(observe(state, 0))).__name__
    'KeepTickets'
    """

    name = "random"

    def __init__(self, *, seed: int = 0) -> None:
        self.seed = seed
        self._rnd = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        check_view(view)
        options = view_legal_actions(view)
        return options[int(self._rnd.random() * len(options))]

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"
