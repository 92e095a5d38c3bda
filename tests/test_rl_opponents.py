"""Opponents of the Gymnasium environment for self-play (issue 48, B4): names with options,
factories, agent objects, pools, :class:`PolicyOpponent` across processes; the mask computed
once per state; each map's PettingZoo name."""

from __future__ import annotations

import functools
import multiprocessing
import pickle
from collections.abc import Callable
from typing import Any
from unittest import mock

import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv
from numpy.typing import NDArray

from ttr_rules import GameState, available_maps
from ttr_rules.agents import (
    AgentNotFoundError,
    AgentOptionError,
    GreedyAgent,
    MctsAgent,
    RandomAgent,
)
from ttr_rules.rl import ActionSpace, PolicyOpponent
from ttr_rules.rl.gymnasium import TicketToRideEnv
from ttr_rules.rl.pettingzoo import env as aec_env


def first_legal(observation: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
    """A policy importable as ``test_rl_opponents:first_legal`` (a spawned worker imports
    this module by that name)."""
    return int(np.flatnonzero(mask)[0])


def last_legal(observation: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
    return int(np.flatnonzero(mask)[-1])


def _game(e: TicketToRideEnv, seed: int, limit: int = 10_000) -> tuple[GameState, list[int]]:
    """A game of the learner playing its first legal action: the last state and the
    learner's actions."""
    _, info = e.reset(seed=seed)
    taken: list[int] = []
    for _ in range(limit):
        taken.append(first_legal(np.zeros(0, np.float32), info["action_mask"]))
        _, _, terminated, _, info = e.step(taken[-1])
        if terminated:
            break
    return e.state, taken


def test_an_agent_object_plays_each_game_afresh() -> None:
    """The same seed gives the same game: the agent object given is copied for each game,
    not reused with the random state its last game left it in."""
    e = TicketToRideEnv("europe", 2, opponents=RandomAgent(seed=5))
    first = _game(e, 7)
    assert _game(e, 7) == first
    assert _game(e, 8) != first


@pytest.mark.parametrize(
    "opponent",
    [
        "easy",
        "easy:slip=0.9",
        GreedyAgent,
        functools.partial(GreedyAgent, ticket_weight=2),
        {"random": 1, "greedy": 2},
        PolicyOpponent("ttr_rules.agents:RandomAgent"),
        PolicyOpponent("test_rl_opponents:first_legal"),
    ],
    ids=["name", "options", "class", "partial", "pool", "policy-factory", "policy"],
)
def test_every_kind_of_opponent_replays_a_seeded_game(opponent: Any) -> None:
    e = TicketToRideEnv("europe", 2, opponents=opponent)
    first = _game(e, 3)
    assert _game(e, 3) == first
    again = TicketToRideEnv("europe", 2, opponents=opponent)
    assert _game(again, 3) == first


def test_names_take_options_and_wrong_ones_are_refused_at_once() -> None:
    made: list[Any] = []
    real = MctsAgent

    def spy(**options: Any) -> MctsAgent:
        made.append(options)
        return real(**options)

    with mock.patch.dict("ttr_rules.agents.base._BUILTIN", {"mcts": spy}):
        e = TicketToRideEnv("europe", 3, opponents=["mcts:iterations=3:candidates=2", "random"])
        e.reset(seed=11)
    assert made[-1] == {"seed": 11 * 7919, "iterations": 3, "candidates": 2}
    with pytest.raises(AgentOptionError, match="iterations"):
        TicketToRideEnv("europe", 2, opponents="mcts:iterations=many")
    with pytest.raises(AgentNotFoundError, match="nobody"):
        TicketToRideEnv("europe", 2, opponents={"nobody": 1})
    with pytest.raises(ValueError, match="key=value"):
        TicketToRideEnv("europe", 2, opponents="mcts:iterations")


def test_factories_are_called_with_each_games_seed() -> None:
    seeds: list[int] = []

    def factory(*, seed: int) -> Callable[..., int]:
        seeds.append(seed)
        return first_legal

    e = TicketToRideEnv("europe", 3, opponents=[factory, factory])
    e.reset(seed=4)
    e.reset(seed=4)
    e.reset(seed=5)
    assert seeds == [4 * 7919, 4 * 7919 + 1] * 2 + [5 * 7919, 5 * 7919 + 1]


def test_a_pool_is_drawn_by_weight_at_each_reset_from_the_games_seed() -> None:
    drawn: list[str] = []

    def recorder(name: str) -> Callable[..., Any]:
        def factory(*, seed: int) -> RandomAgent:
            drawn.append(name)
            return RandomAgent(seed=seed)

        return factory

    a, b, never = recorder("a"), recorder("b"), recorder("never")
    e = TicketToRideEnv("europe", 2, opponents={a: 1, b: 3, never: 0})
    for seed in range(40):
        e.reset(seed=seed)
    counts = {name: drawn.count(name) for name in ("a", "b", "never")}
    assert counts["never"] == 0 and 0 < counts["a"] < counts["b"]
    replay = drawn[:]
    drawn.clear()
    for seed in range(40):
        e.reset(seed=seed)
    assert drawn == replay
    for bad, error in [({}, ValueError), ({"random": -1}, ValueError), ({"random": 0}, ValueError)]:
        with pytest.raises(error, match="pool"):
            TicketToRideEnv("europe", 2, opponents=bad)
    with pytest.raises(TypeError, match="weights are numbers"):
        TicketToRideEnv("europe", 2, opponents={"random": "1"})  # type: ignore[dict-item]


def test_policy_opponent_is_a_value_that_pickles_and_checks_its_source(tmp_path: Any) -> None:
    opponent = PolicyOpponent("test_rl_opponents:first_legal")
    assert pickle.loads(pickle.dumps(opponent)) == opponent and not opponent.is_model
    assert opponent.build(seed=1) is first_legal
    with pytest.raises(FileNotFoundError, match="no saved model"):
        PolicyOpponent(tmp_path / "missing")
    saved = tmp_path / "snapshot.zip"
    saved.write_bytes(b"not loaded until a game needs it")
    model = PolicyOpponent(tmp_path / "snapshot")  # sb3 saves "snapshot" as snapshot.zip
    assert model.is_model and model.source == str(saved.resolve())
    assert pickle.loads(pickle.dumps(model)) == model
    with pytest.raises(ValueError, match="module:Class"):
        PolicyOpponent(saved, algorithm="MaskablePPO")
    with pytest.raises(TypeError, match="deterministic must be True or False"):
        PolicyOpponent(saved, deterministic="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PolicyOpponent wraps"):
        PolicyOpponent(3)  # type: ignore[arg-type]


def test_policy_opponents_cross_into_subprocess_workers() -> None:
    """What sb3's ``SubprocVecEnv`` does: the environments live in spawned processes, and
    ``set_opponents`` travels there through a pipe, pickled (a lambda would not). The worker
    plays the same games as this process."""
    pool = {PolicyOpponent("test_rl_opponents:last_legal"): 1, "random": 1}
    make = functools.partial(TicketToRideEnv, "europe", 2, opponents="random")
    local = make()
    local.set_opponents(pool)
    context = multiprocessing.get_context("spawn")
    vec = AsyncVectorEnv([make, make], context=context.get_start_method())
    try:
        vec.call("set_opponents", pool)
        observations, info = vec.reset(seed=[21, 22])
        for steps in range(40):  # noqa: B007 (steps is read after the loop)
            actions = np.array(
                [first_legal(np.zeros(0, np.float32), row) for row in info["action_mask"]]
            )
            observations, _, terminated, _, info = vec.step(actions)
            assert not terminated.any()
        mine, mine_info = local.reset(seed=21)
        for _ in range(steps + 1):
            mine, _, _, _, mine_info = local.step(
                first_legal(np.zeros(0, np.float32), mine_info["action_mask"])
            )
        assert (observations[0] == mine).all()
    finally:
        vec.close()


def test_the_mask_is_computed_once_per_learner_state() -> None:
    """A MaskablePPO step asks for the mask (``action_masks()``), then steps, whose ``info``
    carries the next mask; each state the learner meets has its mask computed once."""
    e = TicketToRideEnv("nordic", 2, opponents="greedy")
    calls = 0
    real = ActionSpace.mask

    def counted(self: ActionSpace, state: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(self, state)

    with mock.patch.object(ActionSpace, "mask", counted):
        _, info = e.reset(seed=2)
        steps = 0
        while True:
            masks = e.action_masks()
            assert (masks == info["action_mask"].astype(bool)).all()
            _, _, terminated, _, info = e.step(int(np.flatnonzero(masks)[0]))
            steps += 1
            if terminated:
                break
    assert calls == steps  # the first state's and each next one's but the last (terminal)
    masks[:] = False  # what a caller does to its copy changes nothing
    assert e.action_masks().all()


def test_each_maps_pettingzoo_environment_has_its_own_name() -> None:
    names = {aec_env(name).metadata["name"] for name in available_maps()}
    assert len(names) == len(available_maps())
    assert aec_env("nordic").metadata["name"] == "ttr_nordic_v0"
    assert aec_env("europe").metadata["name"] == "ttr_europe_v0"
