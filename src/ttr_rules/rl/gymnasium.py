"""A single-agent Gymnasium environment: the learner plays one seat against opponents
(issues 13 and 32).

Every installed map has an id, ``ttr_rules/<Map>-v0`` (``ttr_rules/Europe-v0``,
``ttr_rules/USA-v0``, a plugin map's name capitalised: :func:`~ttr_rules.rl.registration.env_id`),
registered when this module is imported (``gymnasium.make("ttr_rules.rl.gymnasium:
ttr_rules/USA-v0")`` imports it on demand):

>>> import gymnasium
>>> import ttr_rules.rl.gymnasium
>>> env = gymnasium.make("ttr_rules/Europe-v0", players=3, opponents=["greedy", "random"])
>>> observation, info = env.reset(seed=1)
>>> observation.shape == env.observation_space.shape, info["action_mask"].dtype
(True, dtype('int8'))
>>> bool((env.unwrapped.action_masks() == info["action_mask"]).all())
True

* The observation is :func:`~ttr_rules.rl.encode_observation` of the learner's view, scaled
  into [0, 1] (``observation="scaled"``, the default: the ``Box`` is ``[0, 1]``, see
  :func:`~ttr_rules.rl.scale_observation`) or raw counts (``observation="raw"``); the
  action is an index of :class:`~ttr_rules.rl.ActionSpace`.
* The legal actions: :meth:`TicketToRideEnv.action_masks` (a bool array, the method
  sb3-contrib's ``MaskablePPO`` looks for, found through any wrapper) and
  ``info["action_mask"]`` (int8, as gymnasium's ``Discrete.sample(mask)`` expects). Once the
  episode is over every action is marked: the vector environments' autoreset ignores that
  action, and a masked policy never meets an empty mask.
* Between the learner's decisions the opponents act; one ``step`` is one decision of the
  learner, so a multi-step turn takes several steps.
* The reward is 0 until the game ends, then ``reward="win"`` (+1 win, −1 loss, 0 when all
  tie) or ``reward="score"`` (the learner's score minus the mean of the others').
* ``opponents``: one opponent for every other seat, or a sequence with one per other seat
  in seat order. An opponent is an agent's name with options (``"mcts:iterations=200"``), an
  agent factory, an :class:`~ttr_rules.agents.Agent`, a callable ``(observation, mask) ->
  index`` given its own seat's observation (in the env's form) and int8 mask (a frozen
  policy, for self-play and leagues), or a :class:`~ttr_rules.rl.PolicyOpponent` (a saved
  model or an importable callable, which pickles into subprocess workers); a mapping
  ``{opponent: weight}`` is a pool drawn from at every reset
  (the type ``Opponent``). Every opponent is rebuilt at each ``reset`` with seeds
  derived from the game's, so a seeded reset replays exactly.
  :meth:`TicketToRideEnv.set_opponents` changes them for the next ``reset``
  (``vec_env.env_method("set_opponents", ...)``). ``seat`` is the learner's seat.
* The mask of each state the learner meets is computed once, however often it is asked for
  (the step's check, ``info`` and ``action_masks()``).
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

from ttr_rules import (
    GameMap,
    GameState,
    IllegalActionError,
    Reason,
    Rules,
    apply_action,
    new_game,
)
from ttr_rules import observe as observe_view
from ttr_rules.agents import Agent

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
from .opponents import Choice, Opponent, Policy, build_opponents, check_choices
from .registration import env_id, register_envs

__all__ = ["ENV_ID", "Choice", "Opponent", "Policy", "TicketToRideEnv"]

#: The registered id of the Europe environment.
ENV_ID = env_id("europe")


class TicketToRideEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """One seat of a game against opponents; see the module documentation."""

    metadata: dict[str, Any] = {"render_modes": render_modes(), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        map: str | GameMap = "europe",
        players: int = 2,
        *,
        seat: int = 0,
        opponents: Choice | Sequence[Choice] = "random",
        reward: str = "win",
        observation: ObservationForm = "scaled",
        render_mode: str | None = None,
        rules: Rules | None = None,
        illegal_reward: float | None = -1.0,
    ) -> None:
        setup = env_setup(map, players, rules, reward, observation, render_mode, illegal_reward)
        self.illegal_reward = setup.illegal_reward
        self.game_map, self.rules, self.space = setup.game_map, setup.rules, setup.space
        self.layout, self.render_mode = setup.layout, setup.render_mode
        self.reward_kind, self.observation_form = setup.reward, setup.observation
        self.observation_space = spaces.Box(setup.low, setup.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.space.size)
        self.players = players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}")
        self.seat = seat
        self.opponents: list[Choice] = []
        self._choices: list[Any] = []
        self.set_opponents(opponents)
        self._seeder = random.Random()
        self.state = new_game(self.game_map, players, 0, self.rules)
        self._agents: dict[int, Agent | Policy] = {}
        self._ended = False
        self._all_actions = np.ones(self.space.size, dtype=bool)
        #: The state whose mask ``_mask`` is.
        self._mask_of: GameState | None = None
        self._mask = self._all_actions

    def set_opponents(self, opponents: Choice | Sequence[Choice]) -> None:
        """The opponents from the next ``reset`` on (see the module documentation); a name or
        an option that no agent has is refused now."""
        self._choices = check_choices(opponents, self.players - 1)
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            self.opponents = list(opponents)
        else:
            self.opponents = [opponents] * (self.players - 1)

    def _make_agents(self, game: int) -> dict[int, Agent | Policy]:
        others = [s for s in range(self.players) if s != self.seat]
        return dict(zip(others, build_opponents(self._choices, game), strict=True))

    def _opponent_action(self, state: GameState) -> Any:
        seat = state.current
        agent = self._agents[seat]
        if isinstance(agent, Agent):
            return agent.act(observe_view(state, seat))
        mask = self.space.mask(state).view(np.int8)
        index = agent(self._encode(state, seat), mask)
        who = _opponent_name(agent, seat)
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise TypeError(f"{who}, returned no action index")
        if not 0 <= int(index) < self.space.size:
            raise ValueError(
                f"{who}, chose {int(index)}, outside the action space 0 to {self.space.size - 1}"
            )
        try:
            return self.space.action(int(index), state)
        except ValueError as error:  # a keep of positions beyond the offer
            raise ValueError(f"{who}, chose {int(index)}: {error}") from None

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_terminal and state.current != self.seat:
            action = self._opponent_action(state)
            try:
                state = apply_action(state, action)
            except IllegalActionError as error:  # an index or action the mask excludes
                who = _opponent_name(self._agents[state.current], state.current)
                detail = f"played by {who}" + (f"; {error.detail}" if error.detail else "")
                raise IllegalActionError(error.reason, action, detail, error.said) from None
        self.state = state

    def _encode(self, state: GameState, seat: int) -> NDArray[np.float32]:
        raw = encode_state_observation(state, seat)
        return scale_observation(raw, self.layout) if self.observation_form == "scaled" else raw

    def _legal(self) -> NDArray[np.bool_]:
        """The learner's mask of the present state (computed once per state): not to be
        handed out, since it is kept."""
        if self._ended or self.state.is_terminal:
            return self._all_actions
        if self._mask_of is not self.state:
            self._mask = self.space.mask(self.state)
            self._mask_of = self.state
        return self._mask

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions as a bool array (every action once the episode is
        over): what sb3-contrib's ``MaskablePPO`` asks for."""
        return self._legal().copy()

    def _observation(self) -> tuple[NDArray[np.float32], dict[str, Any]]:
        return self._encode(self.state, self.seat), {
            "action_mask": self.action_masks().view(np.int8)
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """A new game (``new_game(seed=seed)``; the next seed when None), played by the
        opponents up to the learner's first decision: the observation and
        ``{"action_mask": ...}``."""
        game, self._seeder = game_seed(seed, self._seeder)
        super().reset(seed=None if seed is None else game)
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
        index = action_index(action)
        if self.illegal_reward is not None and not (
            0 <= index < self.space.size and self._legal()[index]
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


def _opponent_name(agent: Agent | Policy, seat: int) -> str:
    """The opponent as a message names it: its agent's or callable's name and its seat."""
    name = (
        agent.name
        if isinstance(agent, Agent)
        else getattr(agent, "__name__", None) or type(agent).__name__
    )
    return f"{name}, the opponent in seat {seat}"


register_envs()
