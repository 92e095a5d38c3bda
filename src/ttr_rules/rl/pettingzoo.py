"""A PettingZoo AEC environment of Ticket to Ride (issue 13), after PettingZoo's classic
environments (chess, connect four).

>>> from ttr_rules.rl.pettingzoo import env
>>> e = env(players=2)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["action_mask"].dtype
(['action_mask', 'observation'], dtype('int8'))

* Agents are ``"player_0" .. "player_{n-1}"`` (seat order); the agent to act is the engine's
  current player, so one agent acts several times in a row within a multi-step turn.
* ``action_space(agent)`` is ``Discrete(ActionSpace.size)``; the observation is
  ``{"observation": encode_observation(view), "action_mask": int8 mask}``, the mask all zero
  for an agent that is not to act.
* Rewards come at the end only: ``reward="win"`` (default) gives +1 to each winner and −1 to
  the others (0 to everyone when all tie); ``reward="score"`` gives each player's final score
  minus the mean of the others'.
* ``observation="scaled"`` divides every entry by its bound, into [0, 1]
  (:func:`~ttr_rules.rl.scale_observation`); the default ``"raw"`` keeps the counts.
* ``reset(seed=s)`` deals ``new_game(map, players, seed=s)``; ``reset()`` draws the next seed.
* ``render_mode``: ``"ansi"`` (text), ``"svg"`` (an SVG document) or ``"rgb_array"``
  (rasterised with cairosvg).
* ``env(...)`` behaves like the classic environments' wrapped ``env()``: an illegal action
  ends the game with ``illegal_reward`` (−1) for the offender and 0 for the others (PettingZoo's
  ``TerminateIllegalWrapper``), an action outside the space raises :class:`ValueError`
  (``AssertOutOfBoundsWrapper``), and stepping or observing before ``reset()`` raises
  :class:`RuntimeError` (``OrderEnforcingWrapper``). These checks are built in rather than
  stacked as wrappers, whose attribute forwarding would cost more than the game itself.
  ``raw_env(...)`` is the same class with ``illegal_reward=None``: an illegal action raises
  :class:`~ttr_rules.IllegalActionError`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.logger import warn
from numpy.typing import NDArray
from pettingzoo import AECEnv

from ttr_rules import (
    GameMap,
    IllegalActionError,
    Phase,
    Rules,
    apply_action,
    new_game,
)

from ._common import (
    action_index,
    env_setup,
    game_seed,
    render_modes,
    render_state,
    terminal_rewards,
)
from .observation import (
    ObservationForm,
    encode_state_observation,
    scale_observation,
)
from .space import INT8

__all__ = ["env", "metadata_name", "raw_env"]

Observation = dict[str, NDArray[Any]]
_GAME_OVER = Phase.GAME_OVER


def env(
    map: str | GameMap = "europe",
    players: int = 2,
    render_mode: str | None = None,
    reward: str = "win",
    *,
    rules: Rules | None = None,
    illegal_reward: float = -1.0,
    observation: ObservationForm = "raw",
) -> raw_env:
    """The environment as PettingZoo's classic ``env()`` functions return it (see the module
    documentation)."""
    return raw_env(
        map,
        players,
        render_mode,
        reward,
        rules=rules,
        illegal_reward=illegal_reward,
        observation=observation,
    )


def metadata_name(map_name: str) -> str:
    """The environment's PettingZoo name on a map (``metadata["name"]``), after the classic
    environments' ``chess_v6``: the map's name in lower case, with ``_`` for any other
    character than a letter or a digit.

    >>> metadata_name("europe"), metadata_name("usa-1910")
    ('ttr_europe_v0', 'ttr_usa_1910_v0')
    """
    return "ttr_" + re.sub(r"[^a-z0-9]", "_", map_name.lower()) + "_v0"


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """The unwrapped AEC environment; see the module documentation. ``metadata["name"]``
    names the map (:func:`metadata_name`)."""

    #: Every map's metadata but its name (each instance names its map).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": render_modes(),
        "name": "ttr_europe_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        map: str | GameMap = "europe",
        players: int = 2,
        render_mode: str | None = None,
        reward: str = "win",
        *,
        rules: Rules | None = None,
        illegal_reward: float | None = None,
        observation: ObservationForm = "raw",
    ) -> None:
        super().__init__()
        setup = env_setup(map, players, rules, reward, observation, render_mode, illegal_reward)
        self.metadata = {**raw_env.metadata, "name": metadata_name(setup.game_map.name)}
        self.illegal_reward = setup.illegal_reward
        self.game_map, self.rules, self.space = setup.game_map, setup.rules, setup.space
        self.layout, self.render_mode = setup.layout, setup.render_mode
        self.reward_kind, self.observation_form = setup.reward, setup.observation
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seats = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(setup.low, setup.high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.space.size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(self.space.size) for agent in self.possible_agents
        }
        self._no_mask = np.zeros(self.space.size, dtype=np.int8)
        #: The action of each index that needs no state (None for the ticket keeps).
        self._fixed = self.space._fixed
        self._seeder = random.Random()
        self.state = new_game(self.game_map, players, 0, self.rules)
        #: The state whose mask this is.
        self._mask_of: object = None
        self._mask = self._no_mask
        self._reset_done = False

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """The agent to act, until the game is over (or ``max_iter`` steps), as PettingZoo's
        ``agent_iter``: each ``iter()`` of the result starts afresh. Its iterator is a generator,
        cheaper per step than PettingZoo's iterator class."""
        return _AgentIterable(self, max_iter)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``Dict(observation=Box, action_mask=Box(int8))``, the same object every call."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(ActionSpace.size)``, the same object every call."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal ``new_game(map, players, seed=seed)`` (the next seed when None)."""
        game, self._seeder = game_seed(seed, self._seeder)
        self.state = new_game(self.game_map, len(self.possible_agents), game, self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current]
        self._reset_done = True

    def observe(self, agent: str) -> Observation:
        """``{"observation": vector, "action_mask": int8 mask}`` of ``agent``."""
        if not self._reset_done:
            raise RuntimeError("reset() must be called before observe()")
        seat = self._seats[agent]
        state = self.state
        if seat != state.current or state.phase is _GAME_OVER:
            mask = self._no_mask
        elif self._mask_of is state:
            mask = self._mask
        else:
            # The agent's mask wraps the bytes themselves: step() does not read them (the
            # engine's own check decides what is legal), so what an agent does to its mask
            # changes nothing.
            mask = self._mask = np.frombuffer(self.space._state_bytes(state), INT8)
            self._mask_of = state
        vector = encode_state_observation(state, seat)
        if self.observation_form == "scaled":
            vector = scale_observation(vector, self.layout)
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action index ``action`` for the agent to act (None once it is done)."""
        if not self._reset_done:
            raise RuntimeError("reset() must be called before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is accepted only once the game is over")
        index = action_index(action)
        try:
            if index < 0:
                raise IndexError
            chosen = self._fixed[index]
        except IndexError:
            raise ValueError(
                f"action {action!r} outside the action space 0..{len(self._fixed) - 1}"
            ) from None
        # PettingZoo zeroes the acting agent's accumulated reward here; before the end of the
        # game (the only time an agent acts) every reward is 0 already.
        before = self.state
        # The engine checks the action (is_legal's and apply_action's one check, U22), and it
        # accepts exactly the mask's ones (tested for every index): checking the mask too
        # would need a copy of it that no agent can change.
        try:
            if chosen is None:  # a ticket keep: its positions name tickets of the offer
                chosen = self.space.action(index, before)
            state = apply_action(before, chosen)
        except ValueError as error:  # illegal, or a keep of positions beyond the offer
            if self.illegal_reward is None or not (
                chosen is None or isinstance(error, IllegalActionError)
            ):
                raise
            self._end_illegally(agent)
            return
        self.state = state
        if state.phase is _GAME_OVER:
            values = terminal_rewards(state, self.reward_kind)
            self.rewards = {a: values[self._seats[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            # Rewards come only at the end: until then every reward is 0 and accumulating
            # them would change nothing.
            self.agent_selection = self.possible_agents[state.current]

    def _end_illegally(self, agent: str) -> None:
        """PettingZoo's illegal-move rule: the game ends, the offender gets
        ``illegal_reward``, everyone else 0."""
        warn(f"{agent} made an illegal move; the game ends")
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward or 0.0)
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> Any:
        """The whole state in the ``render_mode`` given at construction."""
        if self.render_mode is None:
            warn("render() called without a render_mode; pass render_mode= to env()")
            return None
        return render_state(self.state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


class _AgentIterable:
    """What :meth:`raw_env.agent_iter` returns."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: raw_env, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection
