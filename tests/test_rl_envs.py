"""The PettingZoo, Gymnasium and OpenSpiel adapters and their conformance suites (issue 13)."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from ttr_rules import (
    GameState,
    IllegalActionError,
    final_scores,
    is_legal,
    legal_actions,
    load_map,
    observe,
    winners,
)
from ttr_rules.rl import ActionSpace, encode_observation, encode_state_observation
from ttr_rules.rl.gymnasium import ENV_ID, TicketToRideEnv
from ttr_rules.rl.pettingzoo import env, raw_env
from ttr_rules.testing.strategies import states

EUROPE = load_map("europe")


def _quiet(call: object) -> None:
    """Run a conformance suite, silencing the warnings it prints about Dict observations
    (which every classic PettingZoo environment triggers)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        call()  # type: ignore[operator]


# ----------------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("players", [2, 3, 5])
def test_pettingzoo_api_test(players: int) -> None:
    _quiet(lambda: api_test(env(players=players), num_cycles=400))


def test_pettingzoo_seed_test() -> None:
    _quiet(lambda: seed_test(lambda: env(players=3), num_cycles=400))


def _play(e: raw_env, seed: int) -> list[str]:
    """Play a game with masked random actions; the acting agents in order."""
    rnd = np.random.default_rng(seed)
    e.reset(seed=seed)
    order = []
    for agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        order.append(agent)
        assert e.possible_agents[e.state.current] == agent
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        assert mask.sum() == len(legal_actions(e.state))
        e.step(int(rnd.choice(np.flatnonzero(mask))))
    return order


def _win_rewards(state: object, players: int) -> list[float]:
    best = set(winners(state))  # type: ignore[arg-type]
    if len(best) == players:
        return [0.0] * players
    return [1.0 if seat in best else -1.0 for seat in range(players)]


def test_pettingzoo_plays_the_engines_game_and_rewards_the_winners() -> None:
    e = raw_env(players=3)
    e.reset(seed=5)
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    rnd = np.random.default_rng(5)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        rewards[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert e.possible_agents[e.state.current] == agent
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() == len(legal_actions(e.state))
        e.step(int(rnd.choice(np.flatnonzero(mask))))
    assert e.state.is_terminal and not e.agents
    assert list(rewards.values()) == _win_rewards(e.state, 3)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_observations_and_masks_along_games(players: int) -> None:
    """Every seat's observation after every step of whole games (the last of one game
    followed by the first of the next) is the view's encoding, the acting seat's mask the
    legal actions and the others' masks all zero."""
    e = env(players=players)
    space = ActionSpace(EUROPE, players)
    rnd = np.random.default_rng(players)
    for seed in (1, 2):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            for other in e.agents:
                seat = int(other.split("_")[1])
                seen = e.observe(other)
                assert (seen["observation"] == encode_observation(observe(e.state, seat))).all()
                if other != agent:
                    assert not seen["action_mask"].any()
            assert (obs["action_mask"].view(bool) == space.mask(e.state)).all()
            if terminated or truncated:
                e.step(None)
            else:
                e.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))


def test_pettingzoo_reset_seed_deals_new_game_seed() -> None:
    from ttr_rules import new_game

    e = raw_env(players=2)
    e.reset(seed=11)
    assert e.state == new_game(EUROPE, 2, seed=11)
    obs = e.observe("player_1")
    assert (obs["observation"] == encode_state_observation(e.state, 1)).all()
    assert not obs["action_mask"].any()  # player_1 is not to act
    assert _play(raw_env(players=2), 3) == _play(raw_env(players=2), 3)


def test_pettingzoo_score_rewards_are_margins() -> None:
    e = raw_env(players=2, reward="score")
    _play(e, 2)
    totals = [s.total for s in final_scores(e.state)]
    assert e._cumulative_rewards == {}  # every agent has left
    e.reset(seed=2)
    collected = dict.fromkeys(e.possible_agents, 0.0)
    rnd = np.random.default_rng(2)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        collected[agent] += reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
    totals = [s.total for s in final_scores(e.state)]
    assert collected == {"player_0": totals[0] - totals[1], "player_1": totals[1] - totals[0]}


def test_pettingzoo_illegal_moves() -> None:
    e = env(players=2)
    e.reset(seed=0)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(UserWarning):
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[e.possible_agents[0]] == -1.0 and e.rewards["player_1"] == 0.0
    raw = raw_env(players=2)
    raw.reset(seed=0)
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    for outside in (raw.space.size, -1):  # a negative index is not read from the end
        with pytest.raises(ValueError, match="outside the action space"):
            raw.step(outside)
    with pytest.raises(RuntimeError):
        raw_env(players=2).step(0)
    with pytest.raises(ValueError):
        raw_env(players=2, reward="glory")


@settings(max_examples=10)
@given(states(players=st.sampled_from([2, 3, 4, 5])))
def test_the_engine_accepts_exactly_the_masks_indices(state: GameState) -> None:
    """``step()`` leaves the verdict to the engine's check (``is_legal``'s and
    ``apply_action``'s), not to the mask: at every index of the space, the check accepts
    exactly where the mask is 1 (a keep of positions beyond the offer is no action at all)."""
    space = ActionSpace(state.map, state.num_players, rules=state.rules)
    mask = space.mask(state)
    for index in range(space.size):
        try:
            action = space.action(index, state)
        except ValueError:
            accepted = False
        else:
            accepted = is_legal(state, action)
        assert accepted == mask[index], (index, action)


def test_pettingzoo_step_ignores_what_an_agent_does_to_its_mask() -> None:
    e = env(players=2)
    e.reset(seed=4)
    mask = e.last()[0]["action_mask"]
    legal = np.flatnonzero(mask)
    illegal = int(np.flatnonzero(mask == 0)[0])
    mask[:] = 0
    mask[illegal] = 1
    e.step(int(legal[0]))  # still legal: accepted
    assert not any(e.terminations.values())
    e.reset(seed=4)
    e.last()[0]["action_mask"][illegal] = 1
    with pytest.warns(UserWarning):
        e.step(illegal)  # still illegal: the game ends
    assert all(e.terminations.values())


def test_pettingzoo_render_ansi() -> None:
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text
    silent = raw_env(players=2)
    silent.reset(seed=1)
    with pytest.warns(UserWarning):
        assert silent.render() is None


def test_pettingzoo_render_svg_and_rgb_array() -> None:
    import xml.etree.ElementTree as ET

    drawn = raw_env(players=2, render_mode="svg")
    drawn.reset(seed=1)
    document = drawn.render()
    assert ET.fromstring(document).tag.endswith("svg")
    assert drawn.metadata["render_modes"] == ["ansi", "svg", "rgb_array"]
    painted = raw_env(players=2, render_mode="rgb_array")
    painted.reset(seed=1)
    pixels = painted.render()
    assert pixels.ndim == 3 and pixels.shape[2] == 3 and pixels.dtype == np.uint8
    assert pixels.shape[0] > 100 and pixels.shape[1] > 100 and pixels.std() > 0


def test_gymnasium_renders_the_learners_view_only() -> None:
    a = TicketToRideEnv(players=2, seat=0, render_mode="svg")
    a.reset(seed=3)
    document = a.render()
    assert isinstance(document, str) and "<svg" in document
    assert TicketToRideEnv(players=2, seat=0, render_mode="ansi").metadata["render_modes"]


# ----------------------------------------------------------------------------- Gymnasium


def test_gymnasium_check_env_and_registration() -> None:
    made = gymnasium.make(ENV_ID, players=3, opponents=["greedy", "random"])
    check_env(made.unwrapped)
    with warnings.catch_warnings():
        # The render modes were checked through gymnasium.make above: an environment built
        # directly has no spec to build them from, which check_env warns about.
        warnings.filterwarnings("ignore", "[^ ]*WARN: Not able to test alternative render modes")
        check_env(TicketToRideEnv(players=2, seat=1))
    lazily = gymnasium.make("ttr_rules.rl.gymnasium:ttr_rules/Europe-v0")
    assert lazily.spec is not None and lazily.spec.id == ENV_ID


def _episode(e: TicketToRideEnv, seed: int) -> tuple[list[int], float]:
    observation, info = e.reset(seed=seed)
    rnd = np.random.default_rng(seed)
    taken: list[int] = []
    while True:
        assert e.observation_space.contains(observation)
        assert e.state.current == e.seat or e.state.is_terminal
        action = int(rnd.choice(np.flatnonzero(info["action_mask"])))
        taken.append(action)
        observation, reward, terminated, truncated, info = e.step(action)
        if terminated:
            return taken, float(reward)
        assert reward == 0.0 and not truncated


def test_gymnasium_episode_against_agents() -> None:
    e = TicketToRideEnv(players=3, seat=2, opponents=["greedy", "random"])
    taken, reward = _episode(e, 9)
    assert e.state.is_terminal
    assert reward == (
        1.0 if winners(e.state) == (2,) else -1.0 if 2 not in winners(e.state) else reward
    )
    again = TicketToRideEnv(players=3, seat=2, opponents=["greedy", "random"])
    assert _episode(again, 9) == (taken, reward)


def test_gymnasium_illegal_action_ends_the_episode() -> None:
    e = TicketToRideEnv(players=2)
    _, info = e.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = e.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    with pytest.raises(IllegalActionError):
        e.step(int(np.flatnonzero(info["action_mask"])[0]))
    strict = TicketToRideEnv(players=2, illegal_reward=None)
    strict.reset(seed=4)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError):
        TicketToRideEnv(players=3, opponents=["random"])


# ----------------------------------------------------------------------------- OpenSpiel


def _game(players: int) -> Any:
    import ttr_rules.rl.openspiel  # noqa: F401 (registers the game)

    return pyspiel.load_game("python_ttr", {"players": players})


@pytest.mark.parametrize(("players", "sims"), [(2, 2), (4, 1)])
def test_openspiel_random_sim_test_with_serialization(players: int, sims: int) -> None:
    pyspiel.random_sim_test(_game(players), num_sims=sims, serialize=True, verbose=False)


def test_openspiel_score_margins() -> None:
    import ttr_rules.rl.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_ttr", {"players": 2, "reward": "score", "seed": 4})
    state = game.new_initial_state()
    rnd = np.random.default_rng(4)
    while not state.is_terminal():
        state.apply_action(int(rnd.choice(state.legal_actions())))
    totals = [s.total for s in final_scores(state.state)]
    assert state.returns() == [totals[0] - totals[1], totals[1] - totals[0]]
    assert game.min_utility() <= min(state.returns()) <= max(state.returns()) <= game.max_utility()
    short = pyspiel.load_game("python_ttr", {"players": 2, "max_game_length": 10})
    cut = short.new_initial_state()
    cut.apply_action(0)
    while not cut.is_terminal():
        cut.apply_action(cut.legal_actions()[0])
    assert len(cut.decisions) == 10 and not cut.state.is_terminal


def test_openspiel_legal_actions_are_the_librarys() -> None:
    game = _game(3)
    space = ActionSpace(EUROPE, 3)
    state = game.new_initial_state()
    state.apply_action(11)  # the deal
    rnd = np.random.default_rng(0)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal)
        assert [space.action(i, state.state) for i in legal] == sorted(
            legal_actions(state.state), key=lambda a: space.index(a, state.state)
        )
        assert state.current_player() == state.state.current
        clone = state.clone()
        state.apply_action(int(rnd.choice(legal)))
        assert clone.state is not state.state
        steps += 1
    assert steps == len(state.decisions)
    assert state.returns() == _win_rewards(state.state, 3)


def test_openspiel_observations_hide_what_they_should() -> None:
    game = _game(2)
    state = game.new_initial_state()
    state.apply_action(0)  # the deal
    state.apply_action(state.legal_actions()[0])  # player 0 keeps some initial tickets
    theirs = state.information_state_string(1)
    mine = state.information_state_string(0)
    kept = state.decisions[0][1]
    assert str(kept) in mine and str(kept) not in theirs
    assert f"tickets keep {len(kept.tickets)}" in theirs
    tensor = np.asarray(state.observation_tensor(1), dtype=np.float32)
    assert (tensor == encode_state_observation(state.state, 1)).all()
    assert state.observation_string(0) != state.observation_string(1)
    assert np.asarray(state.information_state_tensor(0)).shape == tensor.shape


def test_environments_pickle_and_copy() -> None:
    import copy
    import pickle

    e = raw_env(players=3)
    _play_steps = 30
    e.reset(seed=3)
    rnd = np.random.default_rng(3)
    for _ in range(_play_steps):
        obs, *_ = e.last()
        e.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
    for clone in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        assert clone.state == e.state and clone.agent_selection == e.agent_selection
        mine, theirs = e.observe(e.agent_selection), clone.observe(clone.agent_selection)
        assert (mine["observation"] == theirs["observation"]).all()
        assert (mine["action_mask"] == theirs["action_mask"]).all()
    space = ActionSpace(EUROPE, 3)
    copied = copy.deepcopy(space)
    assert copied.legal_indices(e.state) == space.legal_indices(e.state)
    g = TicketToRideEnv(players=2)
    g.reset(seed=2)
    assert pickle.loads(pickle.dumps(g)).state == g.state


def test_openspiel_deals_are_the_opening_chance_node() -> None:
    import ttr_rules.rl.openspiel  # noqa: F401 (registers the game)
    from ttr_rules import new_game

    game = pyspiel.load_game("python_ttr", {"players": 2, "seed": 7, "deals": 10})
    first = game.new_initial_state()
    assert first.is_chance_node() and first.chance_outcomes() == [(k, 0.1) for k in range(10)]
    assert first.observation_string(0) == "" and not any(first.observation_tensor(1))
    with pytest.raises(RuntimeError, match="not dealt"):
        _ = first.state
    first.apply_action(3)
    assert first.state == new_game(EUROPE, 2, seed=10) and first.current_player() == 0
    clones = [first.clone() for _ in range(3)]
    assert all(c.state is first.state for c in clones)
    again = game.new_initial_state()
    again.apply_action(3)
    assert again.state == first.state  # the history decides the state


def test_pettingzoo_on_another_map() -> None:
    _quiet(lambda: api_test(env("usa", players=3), num_cycles=200))
    assert TicketToRideEnv("usa", 2).space.size == ActionSpace(load_map("usa"), 2).size


def _reference(e: Any, seat: int) -> Any:
    return encode_observation(observe(e.state, seat))


def test_pettingzoo_observations_are_new_arrays() -> None:
    """Each observation is a new array of the layout's shape and dtype, right after
    ``reset``, during the game and after an illegal move: what a caller writes into one
    changes no later observation."""
    e = env(players=3)
    kept: list[tuple[Any, Any]] = []  # earlier observations, each with a copy of itself
    rnd = np.random.default_rng(5)

    def look() -> None:
        for agent in e.possible_agents:
            got = e.observe(agent)["observation"]
            assert got.dtype == np.float32 and got.shape == e.layout.shape
            assert (got == _reference(e, e._seats[agent])).all()
            assert all(got is not old for old, _ in kept)
            got[int(rnd.integers(len(got)))] += 7.0  # the caller's own array to change
            kept.append((got, got.copy()))
        assert all((old == copy).all() for old, copy in kept)

    e.reset(seed=3)
    look()
    for step, agent in enumerate(e.agent_iter()):
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        elif step == 30:
            with pytest.warns(UserWarning):
                e.step(int(np.flatnonzero(e.space.mask(e.state) == 0)[0]))
        else:
            e.step(int(rnd.choice(e.space.legal_indices(e.state))))
        if step % 10 == 0:
            look()
    look()


def test_openspiel_refuses_a_deal_outside_the_chance_outcomes() -> None:
    import ttr_rules.rl.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_ttr", {"players": 2, "deals": 10})
    for outcome in (10, 11, 2**40):
        state = game.new_initial_state()
        with pytest.raises(ValueError, match="a deal is a chance outcome from 0 to 9, got"):
            state.apply_action(outcome)
        assert state.is_chance_node()  # nothing was dealt
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own check of -1
        game.new_initial_state().apply_action(-1)
    last = game.new_initial_state()
    last.apply_action(9)
    assert not last.is_chance_node()


@pytest.mark.parametrize("seed", [1.5, True, np.bool_(True), "7", 2.0])
def test_reset_reads_seeds_as_new_game_does(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed must be an integer, got"):
        raw_env(players=2).reset(seed=seed)
    with pytest.raises(ValueError, match="seed must be an integer, got"):
        TicketToRideEnv(players=2).reset(seed=seed)


def test_reset_accepts_numpy_integer_seeds() -> None:
    from ttr_rules import new_game

    for seed in (np.int64(11), np.uint16(11), np.int8(11)):
        pz = raw_env(players=2)
        pz.reset(seed=seed)  # type: ignore[arg-type]
        assert pz.state == new_game(EUROPE, 2, seed=11)
        gym = TicketToRideEnv(players=2)
        gym.reset(seed=seed)  # type: ignore[arg-type]
        assert gym.state == new_game(EUROPE, 2, seed=11)


def test_an_opponents_illegal_index_names_the_opponent() -> None:
    def stubborn(observation: Any, mask: Any) -> int:
        return int(np.flatnonzero(mask == 0)[0])  # the first index the mask excludes

    e = TicketToRideEnv(players=2, seat=1, opponents=stubborn)
    with pytest.raises(IllegalActionError, match="played by stubborn, the opponent in seat 0"):
        e.reset(seed=0)
    passes = TicketToRideEnv(players=3, seat=0, opponents=lambda o, m: e.space.size - 1)
    passes.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"pass: .*played by <lambda>, the opponent in"):
        passes.step(int(np.flatnonzero(passes.action_masks())[0]))
