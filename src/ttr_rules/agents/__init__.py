"""Agents: players that act from their own view (E79).

* :class:`Agent` — the protocol: ``name`` and ``act(view) -> Action``;
* :func:`available_agents`, :func:`make_agent` — the registry (built-ins and the
  ``ttr_rules.agents`` entry-point group);
* :class:`AgentOptionError` — an option the agent does not take, or of the wrong type;
* :class:`AgentError` — an agent that failed in a game (it names the agent and the seat);
* :func:`play_game` — one game between agents, returning the terminal state;
* the built-in agents: ``random`` (:class:`RandomAgent`), ``greedy`` (:class:`GreedyAgent`),
  ``mcts`` (:class:`MctsAgent`);
* the difficulty levels ``easy`` (:class:`EasyAgent`), ``medium`` (greedy), ``hard`` (mcts);
* :func:`suggest` — ranked hints for a seat, with reasons (:class:`Suggestion`).
"""

from __future__ import annotations

from ..errors import AgentError
from .base import (
    ENTRY_POINT_GROUP,
    AgentFactory,
    AgentNotFoundError,
    available_agents,
    make_agent,
    play_game,
    register_agent,
)
from .greedy import GreedyAgent
from .hints import Suggestion, compared, hint_lines, suggest
from .levels import LEVELS, EasyAgent
from .mcts import MctsAgent
from .options import AgentOptionError
from .protocol import Agent
from .random_agent import RandomAgent

__all__ = [
    "ENTRY_POINT_GROUP",
    "LEVELS",
    "Agent",
    "AgentError",
    "AgentFactory",
    "AgentNotFoundError",
    "AgentOptionError",
    "EasyAgent",
    "GreedyAgent",
    "MctsAgent",
    "RandomAgent",
    "Suggestion",
    "available_agents",
    "compared",
    "hint_lines",
    "make_agent",
    "play_game",
    "register_agent",
    "suggest",
]
