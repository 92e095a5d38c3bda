"""A single-agent Gymnasium environment: the learner plays one seat against agents from
:mod:`ttr_rules.agents` (issue 13).

Importing this module registers ``ttr_rules/Europe-v0``:

>>> import gymnasium
>>> import ttr_rules.rl.gymnasium
>>> env = gymnasium.make("ttr_rules/Europe-v0", players=3, opponents=["greedy", "random"])
>>> observation, info = env.reset(seed=1)
>>> observation.shape == env.observation_space.shape, info["action_mask"].dtype
(True, dtype('int8'))

(``gymnasium.make("ttr_rules.rl.gymnasium:ttr_rules/Europe-v0")`` imports it on demand.)

* The observation is :func:`~ttr_rules.rl.encode_observation` of the learner's view; the
  action is an index of :class:`~ttr_rules.rl.ActionSpace`; ``info["action_mask"]`` (int8)
  marks the legal ones, as gymnasium's ``Discrete.sample(mask)`` expects.
* Between the learner's decisions the opponents act (each through its own view); one
  ``step`` is one decision of the learner, so a multi-step turn takes several steps.
* The reward is 0 until the game ends, then ``reward="win"`` (+1 win, −1 loss, 0 when all
  tie) or ``reward="score"`` (the learner's score minus the mean of the others').
* ``opponents``: one agent name (for every other seat) or a list with one name or
  :class:`~ttr_rules.agents.Agent` per other seat, in seat order; named agents are made
  afresh at every ``reset`` with seeds derived from the game's, so a seeded reset replays
  exactly. ``seat`` is the learner's seat (default 0).
* An illegal action (one the mask excludes) ends the episode with ``illegal_reward`` (−1) and
  ``info["illegal_action"] = True``, as PettingZoo's classic environments do; with
  ``illegal_reward=None`` it raises :class:`~ttr_rules.IllegalActionError` instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ttr_rules import GameMap, IllegalActionError, Reason, Rules, apply_action, load_map, new_game
from ttr_rules import observe as observe_view
from ttr_rules.agents import Agent, make_agent

from ._common import check_reward, game_seed, render_modes, render_state, terminal_rewards
from .observation import encode_state_observation, observation_layout
from .space import ActionSpace

__all__ = ["ENV_ID", "TicketToRideEnv"]

#: The registered id of the Europe environment.
ENV_ID = "ttr_rules/Europe-v0"


class TicketToRideEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """One seat of a game against agents; see the module documentation."""

    metadata: dict[str, Any] = {"render_modes": render_modes(), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        map: str | GameMap = "europe",
        players: int = 2,
        *,
        seat: int = 0,
        opponents: str | Sequence[str | Agent] = "random",
        reward: str = "win",
        render_mode: str | None = None,
        rules: Rules | None = None,
        illegal_reward: float | None = -1.0,
    ) -> None:
        self.illegal_reward = illegal_reward
        self.game_map = map if isinstance(map, GameMap) else load_map(map)
        self.rules = rules if rules is not None else self.game_map.rules
        self.space = ActionSpace(self.game_map, players, rules=self.rules)
        self.players = players
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}, got {seat!r}")
        self.seat = seat
        chosen: list[str | Agent] = (
            [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        )
        if len(chosen) != players - 1:
            raise ValueError(f"need {players - 1} opponents, got {len(chosen)}")
        self.opponents: list[str | Agent] = chosen
        self.reward_kind = check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        layout = observation_layout(self.game_map, players, self.rules)
        self.observation_space = spaces.Box(layout.low, layout.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.space.size)
        self._seeder = random.Random()
        self.state = new_game(self.game_map, players, 0, self.rules)
        self._agents: dict[int, Agent] = {}
        self._ended = False

    def _make_agents(self, game: int) -> dict[int, Agent]:
        others = [s for s in range(self.players) if s != self.seat]
        agents: dict[int, Agent] = {}
        for i, (seat, who) in enumerate(zip(others, self.opponents, strict=True)):
            agents[seat] = make_agent(who, seed=game * 7919 + i) if isinstance(who, str) else who
        return agents

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_terminal and state.current != self.seat:
            agent = self._agents[state.current]
            state = apply_action(state, agent.act(observe_view(state, state.current)))
        self.state = state

    def _observation(self) -> tuple[NDArray[np.float32], dict[str, Any]]:
        state = self.state
        mask = self.space.mask(state).view(np.int8)
        return encode_state_observation(state, self.seat), {"action_mask": mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """A new game (``new_game(seed=seed)``; the next seed when None), played by the
        opponents up to the learner's first decision: the observation and
        ``{"action_mask": ...}``."""
        super().reset(seed=seed)
        game, self._seeder = game_seed(seed, self._seeder)
        self.state = new_game(self.game_map, self.players, game, self.rules)
        self._agents = self._make_agents(game)
        self._ended = False
        self._play_opponents()
        return self._observation()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents' up to the learner's next decision:
        ``(observation, reward, terminated, truncated, info)``."""
        state = self.state
        if state.is_terminal or self._ended:
            raise IllegalActionError(Reason.GAME_OVER, None, "the episode is over: call reset()")
        index = int(action)
        if self.illegal_reward is not None and not (
            0 <= index < self.space.size and self.space.mask(state)[index]
        ):
            self._ended = True
            observation, info = self._observation()
            info["illegal_action"] = True
            return observation, float(self.illegal_reward), True, False, info
        self.state = apply_action(state, self.space.action(index, state))
        self._play_opponents()
        observation, info = self._observation()
        terminated = self.state.is_terminal
        reward = terminal_rewards(self.state, self.reward_kind)[self.seat] if terminated else 0.0
        return observation, reward, terminated, False, info

    def render(self) -> Any:
        """The learner's view in the ``render_mode`` given at construction."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return render_state(self.state, self.render_mode, self.seat)


gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:TicketToRideEnv", kwargs={"map": "europe"})
