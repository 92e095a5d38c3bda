"""The agent protocol, the agent registry and :func:`play_game`.

An agent is any object with a ``name`` and an ``act(view) -> Action`` method. It is given only
the acting player's :class:`~ttr_rules.PlayerView` (what :func:`~ttr_rules.observe` shows that
seat, E79), never the full state, so it cannot see the deck order, the other hands
or the other players' tickets.

Agents are found by name: the built-in ones (``random``, ``greedy``, ``mcts`` and the
difficulty levels ``easy``, ``medium``, ``hard``) and those that
other distributions register in the entry-point group ``ttr_rules.agents``::

    [project.entry-points."ttr_rules.agents"]
    cautious = "my_package.agents:CautiousAgent"

The entry point names a factory called as ``factory(seed=seed, **options)`` that returns an
agent (a class whose ``__init__`` takes a keyword ``seed`` is the usual choice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import importlib_metadata

from ..actions import Action
from ..errors import IllegalActionError
from ..game import apply_action, new_game
from ..maps import GameMap
from ..rules import Rules
from ..state import GameState, Phase
from ..views import observe
from .greedy import GreedyAgent
from .levels import LEVELS
from .mcts import MctsAgent
from .options import check_options
from .protocol import Agent
from .random_agent import RandomAgent

__all__ = [
    "ENTRY_POINT_GROUP",
    "AgentFactory",
    "AgentNotFoundError",
    "available_agents",
    "make_agent",
    "play_game",
    "register_agent",
]

#: The entry-point group where other distributions register agents.
ENTRY_POINT_GROUP = "ttr_rules.agents"

#: A factory of agents: called as ``factory(seed=seed, **options)``.
AgentFactory = Callable[..., "Agent"]


class AgentNotFoundError(LookupError):
    """No agent of this name is installed; the message lists the available names."""


_BUILTIN: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make ``factory`` available to :func:`make_agent` under ``name`` in this process.

    Installed distributions use the ``ttr_rules.agents`` entry-point group instead, which
    needs no import. Re-registering a name replaces it.

    >>> from ttr_rules.agents import RandomAgent, make_agent
    >>> register_agent("doc-example", lambda seed=0, **options: RandomAgent(seed=seed))
    >>> make_agent("doc-example", seed=3).name
    'random'
    """
    _BUILTIN[name.strip().lower()] = factory


def _entry_points() -> dict[str, importlib_metadata.EntryPoint]:
    return {
        ep.name.strip().lower(): ep
        for ep in importlib_metadata.entry_points(group=ENTRY_POINT_GROUP)
    }


def available_agents() -> list[str]:
    """The sorted names of every agent :func:`make_agent` can build: ``"greedy"``,
    ``"mcts"``, ``"random"`` and the installed plugins' agents.

    >>> [name for name in available_agents() if name in ("greedy", "mcts", "random")]
    ['greedy', 'mcts', 'random']
    """
    _load_builtins()
    return sorted(set(_BUILTIN) | set(_entry_points()))


def make_agent(name: str, *, seed: int = 0, **options: Any) -> Agent:
    """A new agent called ``name``, seeded with ``seed``; ``options`` go to its factory.

    An unknown name raises :class:`AgentNotFoundError` (a :class:`LookupError`) listing the
    available agents. Options are checked against the annotations of the factory's signature
    first (:func:`~ttr_rules.agents.options.check_options`): an unknown option or a value of the
    wrong type (``ticket_weight="abc"`` for a ``float``) raises
    :class:`~ttr_rules.agents.options.AgentOptionError` (a ``TypeError`` and a ``ValueError``);
    ``ticket_weight=2`` becomes ``2.0``. Any other error of the factory names the agent.

    >>> agent = make_agent("greedy", seed=3)
    >>> agent.name
    'greedy'
    >>> try:
    ...     make_agent("nobody")
    ... except LookupError as error:
    ...     print(str(error).split(";")[0])
    no agent named 'nobody'
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    _load_builtins()
    key = name.strip().lower() if isinstance(name, str) else name
    factory = _BUILTIN.get(key)
    if factory is None:
        ep = _entry_points().get(key)
        if ep is None:
            raise AgentNotFoundError(
                f"no agent named {name!r}; available agents: {', '.join(available_agents())}"
            )
        try:
            factory = ep.load()
        except Exception as exc:
            raise AgentNotFoundError(
                f"agent plugin {key!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}"
            ) from exc
    typed = check_options(key, factory, options)
    try:
        agent: Agent = factory(seed=seed, **typed)
    except (TypeError, ValueError) as exc:
        if repr(key) in str(exc):
            raise
        kind = TypeError if isinstance(exc, TypeError) else ValueError
        raise kind(f"agent {key!r}: {exc}") from exc
    return agent


def _load_builtins() -> None:
    """Register the built-in agents (once; :func:`register_agent` may have replaced them)."""
    if "random" in _BUILTIN:
        return
    _BUILTIN.setdefault("random", RandomAgent)
    _BUILTIN.setdefault("greedy", GreedyAgent)
    _BUILTIN.setdefault("mcts", MctsAgent)
    for level, factory in LEVELS.items():
        _BUILTIN.setdefault(level, factory)


def play_game(
    agents: Sequence[Agent | str],
    *,
    map: str | GameMap = "europe",  # the contract's parameter name
    seed: int = 0,
    rules: Rules | None = None,
    max_decisions: int = 100_000,
    on_decision: Callable[[GameState, Action], None] | None = None,
) -> GameState:
    """Play one game between ``agents`` (one per seat, seat 0 first) and return the terminal
    state.

    The deal is ``new_game(map, len(agents), seed=seed, rules=rules)``. Each decision goes to
    the agent of the player to act, who receives ``observe(state, seat)`` and nothing else.
    Agents given by name are built with ``make_agent(name, seed=seed + seat)``.
    ``on_decision(state, action)`` is called before each action is applied (for logging or
    timing). An agent returning an illegal action raises :class:`~ttr_rules.IllegalActionError`
    whose message names the agent and the seat. ``max_decisions`` is a safety net against
    agents that never end a game (``RuntimeError``).

    >>> from ttr_rules import final_scores
    >>> end = play_game(["greedy", "random"], seed=1)
    >>> end.is_terminal
    True
    """
    players = [
        make_agent(a, seed=seed + seat) if isinstance(a, str) else a
        for seat, a in enumerate(agents)
    ]
    state = new_game(map, len(players), seed=seed, rules=rules)
    decisions = 0
    while state.phase is not Phase.GAME_OVER:
        if decisions >= max_decisions:
            raise RuntimeError(f"no end after {max_decisions} decisions")
        seat = state.current
        agent = players[seat]
        action = agent.act(observe(state, seat))
        if on_decision is not None:
            on_decision(state, action)
        try:
            state = apply_action(state, action)
        except IllegalActionError as exc:
            raise IllegalActionError(
                exc.reason,
                action,
                f"agent {agent.name!r} in seat {seat}" + (f": {exc.detail}" if exc.detail else ""),
                exc.said,
            ) from exc
        decisions += 1
    return state
