"""Agents: players that act from their own view (E79).

* :class:`Agent` — the protocol: ``name`` and ``act(view) -> Action``;
* :func:`available_agents`, :func:`make_agent` — the registry (built-ins and the
  ``ttr_rules.agents`` entry-point group);
* :class:`AgentOptionError` — an option the agent does not take, or of the wrong type;
* :func:`play_game` — one game between agents, returning the terminal state;
* the built-in agents: ``random`` (:class:`RandomAgent`), ``greedy`` (:class:`GreedyAgent`),
  ``mcts`` (:class:`MctsAgent`).
"""

from __future__ import annotations

from .base import (
    ENTRY_POINT_GROUP,
    Agent,
    AgentFactory,
    AgentNotFoundError,
    available_agents,
    make_agent,
    play_game,
    register_agent,
)
from .greedy import GreedyAgent
from .mcts import MctsAgent
from .options import AgentOptionError
from .random_agent import RandomAgent

__all__ = [
    "ENTRY_POINT_GROUP",
    "Agent",
    "AgentFactory",
    "AgentNotFoundError",
    "AgentOptionError",
    "GreedyAgent",
    "MctsAgent",
    "RandomAgent",
    "available_agents",
    "make_agent",
    "play_game",
    "register_agent",
]
