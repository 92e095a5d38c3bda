"""Difficulty levels a front end can offer: ``easy``, ``medium`` and ``hard``.

They are names in the agent registry (``make_agent("easy")``), ordered by measured strength
(docs/agents.md, "Results"):

* ``easy`` — :class:`EasyAgent`: the greedy planner that, on a share of its turns (``slip``,
  default 0.5), draws a card at random instead of its planned move, and keeps a random set of
  the offered tickets as often;
* ``medium`` — the ``greedy`` planner;
* ``hard`` — ``mcts`` at its default budget.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action, DrawBlind, DrawFaceUp, KeepTickets
from ..state import Phase
from ..views import PlayerView, view_legal_actions
from .greedy import GreedyAgent, greedy_action
from .mcts import MctsAgent
from .planning import Situation
from .protocol import Agent, check_view

__all__ = ["LEVELS", "EasyAgent", "hard", "medium"]


class EasyAgent:
    """The greedy planner with slips: a beatable opponent for new players.

    On a ``slip`` share of its turns (default 0.5) it draws a random card instead of its
    planned move, and it keeps a random legal set of tickets as often. Deterministic for a
    seed.

    >>> from ttr_rules import new_game, observe, view_legal_actions
    >>> view = observe(new_game("europe", players=2, seed=0), 0)
    >>> EasyAgent(seed=1).act(view) in view_legal_actions(view)
    True
    """

    name = "easy"

    def __init__(self, *, seed: int = 0, slip: float = 0.5) -> None:
        if not isinstance(slip, int | float) or not 0 <= slip <= 1:
            raise ValueError(f"slip must be a number from 0 to 1, got {slip!r}")
        self.seed = seed
        self.slip = float(slip)
        self._rnd = random.Random(seed)

    def __repr__(self) -> str:
        return f"EasyAgent(seed={self.seed}, slip={self.slip})"

    def act(self, view: PlayerView) -> Action:
        check_view(view)
        legal = view_legal_actions(view)
        if self._rnd.random() < self.slip:
            if view.phase is Phase.START:
                draws = [a for a in legal if isinstance(a, DrawBlind | DrawFaceUp)]
                if draws:
                    return self._rnd.choice(draws)
            elif view.phase is Phase.INITIAL_TICKETS or view.phase is Phase.KEEP_TICKETS:
                keeps = [a for a in legal if isinstance(a, KeepTickets)]
                if keeps:
                    return self._rnd.choice(keeps)
        return greedy_action(Situation.of_view(view), legal)


def medium(*, seed: int = 0, **options: Any) -> Agent:
    """The ``medium`` level: :class:`~ttr_rules.agents.GreedyAgent`, named as the player chose
    it (the name a front end shows).

    >>> medium().name
    'medium'
    """
    agent = GreedyAgent(seed=seed, **options)
    agent.name = "medium"
    return agent


def hard(*, seed: int = 0, **options: Any) -> Agent:
    """The ``hard`` level: :class:`~ttr_rules.agents.MctsAgent` at its default budget, named as
    the player chose it.

    >>> hard().name
    'hard'
    """
    agent = MctsAgent(seed=seed, **options)
    agent.name = "hard"
    return agent


#: The difficulty levels, weakest first, and their factories.
LEVELS: dict[str, Any] = {"easy": EasyAgent, "medium": medium, "hard": hard}
