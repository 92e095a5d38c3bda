"""The adapters as researchers' stock tools use them, with no glue (issue 32): sb3-contrib's
mask hook, Gymnasium's registry and vector environments, OpenSpiel's serialization and
ISMCTS; and the adapters' input checks (issue 29, R11)."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from numpy.typing import NDArray

import ttr_rules.rl.gymnasium  # registers the ids (a spawned child imports this module too)
import ttr_rules.rl.openspiel  # noqa: F401 (registers python_ttr)
from ttr_rules import MapNotFoundError, available_maps, load_map, observe
from ttr_rules.agents import make_agent
from ttr_rules.rl import encode_state_observation, observation_layout, scale_observation
from ttr_rules.rl.gymnasium import TicketToRideEnv
from ttr_rules.rl.pettingzoo import env as aec_env
from ttr_rules.rl.registration import env_id

#: The maps this package ships (plugin maps installed beside them are tested by their own
#: packages).
SHIPPED_MAPS = ["europe", "usa", "nordic"]

# ----------------------------------------------------------------------------- Gymnasium


def _docs_script(marker: str) -> str:
    """The ``{code-block} python`` block of docs/rl.md that contains ``marker``."""
    text = (Path(__file__).parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```\{code-block\} python\n(.*?)^```", text, re.M | re.S)
    return next(str(block) for block in blocks if marker in block)


def _run_script(code: str, directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = directory / "script.py"
    script.write_text(code, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script), *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_spawned_workers_make_every_installed_map_by_its_plain_id(tmp_path: Path) -> None:
    """The script of docs/rl.md, run as a user runs it: each worker, a spawned process,
    makes every installed map's environment by its plain id."""
    run = _run_script(_docs_script('get_context("spawn")'), tmp_path)
    assert run.returncode == 0, run.stderr
    made = dict(line.split() for line in run.stdout.splitlines())
    assert list(made) == [env_id(name) for name in available_maps()]
    assert {"ttr_rules/Europe-v0", "ttr_rules/USA-v0", "ttr_rules/Nordic-v0"} <= set(made)
    assert all(int(legal) > 0 for legal in made.values())


_WITHOUT_THE_IMPORT = """
import multiprocessing
import sys

import gymnasium


def legal_actions_at_the_start(ident):
    env = gymnasium.make(ident)
    _, info = env.reset(seed=0)
    return int(info["action_mask"].sum())


if __name__ == "__main__":
    IMPORT
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        print(pool.map(legal_actions_at_the_start, sys.argv[1:]))
"""


def test_a_module_qualified_id_needs_no_import_and_a_late_import_is_not_seen(
    tmp_path: Path,
) -> None:
    """What docs/rl.md says of other processes: ``"ttr_rules.rl.gymnasium:<id>"`` works in a
    spawned worker of a script that never imports the package; a plain id does not when the
    script imports the module only under ``if __name__ == "__main__":``."""
    qualified = [f"ttr_rules.rl.gymnasium:{env_id(name)}" for name in available_maps()]
    run = _run_script(_WITHOUT_THE_IMPORT.replace("IMPORT", "pass"), tmp_path, *qualified)
    assert run.returncode == 0, run.stderr
    late = _WITHOUT_THE_IMPORT.replace("IMPORT", "import ttr_rules.rl.gymnasium")
    run = _run_script(late, tmp_path, "ttr_rules/Europe-v0")
    assert run.returncode != 0 and "Namespace ttr_rules not found" in run.stderr


@pytest.mark.parametrize("map_name", SHIPPED_MAPS)
@pytest.mark.parametrize("form", ["scaled", "raw"])
def test_action_masks_equal_the_info_mask_and_observations_stay_in_bounds(
    map_name: str, form: Any
) -> None:
    made = gymnasium.make(env_id(map_name), players=3, observation=form)
    space = made.observation_space
    assert isinstance(space, gymnasium.spaces.Box)
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    if form == "scaled":
        assert (space.low == 0).all() and (space.high == 1).all()
    rng = np.random.default_rng(3)
    for game in range(2):
        observation, info = made.reset(seed=game)
        while True:
            masks = made.get_wrapper_attr("action_masks")()
            assert masks.dtype == np.bool_ and (masks == info["action_mask"].astype(bool)).all()
            assert space.contains(observation)
            legal = np.flatnonzero(masks)
            observation, _, terminated, _, info = made.step(int(rng.choice(legal)))
            if terminated:
                assert "illegal_action" not in info
                assert (made.get_wrapper_attr("action_masks")() == info["action_mask"]).all()
                assert info["action_mask"].all()  # nothing to choose: any action is ignored
                break


def test_the_scaled_observation_is_the_raw_one_divided_by_its_bounds() -> None:
    e = TicketToRideEnv(players=2, observation="scaled")
    raw = TicketToRideEnv(players=2, observation="raw")
    scaled_obs, _ = e.reset(seed=5)
    raw_obs, _ = raw.reset(seed=5)
    layout = observation_layout("europe", 2)
    assert (scaled_obs == scale_observation(raw_obs, layout)).all()
    hand = layout["hand"]
    assert np.allclose(scaled_obs[hand] * layout.high[hand], raw_obs[hand])


@pytest.mark.parametrize(
    ("map_name", "mode"),
    [
        ("europe", "sync"),
        ("europe", "async"),
        ("nordic", "sync"),
    ],
)
def test_make_vec_masks_stay_valid_across_autoresets(map_name: str, mode: str) -> None:
    vec = gymnasium.make_vec(env_id(map_name), num_envs=2, vectorization_mode=mode)
    _, info = vec.reset(seed=7)
    rng = np.random.default_rng(7)
    episodes = 0
    try:
        while episodes < 3:
            masks = info["action_mask"]
            assert masks.shape == (2, vec.single_action_space.n)  # type: ignore[attr-defined]
            assert all(row.any() for row in masks)
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
            _, _, terminated, _, info = vec.step(actions)
            assert "illegal_action" not in info or not info["illegal_action"].any()
            episodes += int(terminated.sum())
    finally:
        vec.close()


def test_opponents_may_be_any_policy_callable() -> None:
    seen: list[tuple[int, int]] = []

    def first_legal(observation: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        seen.append((observation.shape[0], int(mask.sum())))
        assert observation.min() >= 0.0 and observation.max() <= 1.0
        return int(np.flatnonzero(mask)[0])

    e = TicketToRideEnv(players=3, opponents=[first_legal, make_agent("random", seed=1)])
    _, info = e.reset(seed=2)
    while True:
        _, _, terminated, _, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
    assert seen and all(size == e.layout.size and legal > 0 for size, legal in seen)
    e.set_opponents("greedy")
    assert e.opponents == ["greedy", "greedy"]
    with pytest.raises(ValueError, match="need 2 opponents"):
        e.set_opponents(["random"])
    with pytest.raises(TypeError, match="an opponent is"):
        e.set_opponents([3, "random"])  # type: ignore[list-item]
    bad = TicketToRideEnv(players=2, seat=1, opponents=lambda obs, mask: 10**6)
    with pytest.raises(ValueError, match="outside the action space"):
        bad.reset(seed=0)


def test_gymnasium_refuses_actions_that_are_not_indices() -> None:
    e = TicketToRideEnv(players=2)
    _, info = e.reset(seed=1)
    for action in (2.7, "3", True, None):
        with pytest.raises(TypeError, match="whole-number index"):
            e.step(action)  # type: ignore[arg-type]
    e.step(np.int64(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(ValueError, match="observation must be one of scaled, raw"):
        TicketToRideEnv(observation="normalised")  # type: ignore[arg-type]


def test_observation_layout_takes_a_map_name_or_a_map() -> None:
    assert observation_layout("usa", 3) is observation_layout(load_map("usa"), 3)
    with pytest.raises(ValueError, match="players"):
        observation_layout("europe", 0)


# ----------------------------------------------------------------------------- PettingZoo


def test_pettingzoo_refuses_actions_that_are_not_indices() -> None:
    e = aec_env(players=2)
    e.reset(seed=1)
    for action in (2.7, "3", True, 1.0):
        with pytest.raises(TypeError, match="whole-number index"):
            e.step(action)  # type: ignore[arg-type]
    assert e.state.turn == 0 and len(e.agents) == 2  # nothing was played
    obs, *_ = e.last()
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- OpenSpiel


def _mid_game(players: int, decisions: int, seed: int = 0) -> Any:
    game = pyspiel.load_game("python_ttr", {"players": players})
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    state.apply_action(int(rng.integers(game.max_chance_outcomes())))
    for _ in range(decisions):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


def test_openspiel_state_pickles_and_serializes_mid_game() -> None:
    game, state = _mid_game(3, 60)
    for copy in (
        pickle.loads(pickle.dumps(state)),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ):
        assert copy.state == state.state and copy.history() == state.history()
        assert copy.decisions == state.decisions
        assert copy.information_state_string(1) == state.information_state_string(1)
        action = state.legal_actions()[0]
        assert copy.legal_actions() == state.legal_actions()
        copy.apply_action(action)
        state.clone().apply_action(action)


def test_openspiel_declares_zero_sum_where_it_holds() -> None:
    zero = pyspiel.GameType.Utility.ZERO_SUM
    general = pyspiel.GameType.Utility.GENERAL_SUM
    kinds = {
        (2, "win"): zero,
        (3, "win"): general,
        (2, "score"): zero,
        (4, "score"): zero,
    }
    for (players, reward), utility in kinds.items():
        game = pyspiel.load_game("python_ttr", {"players": players, "reward": reward})
        assert game.get_type().utility == utility


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"max_game_length": 0}, "max_game_length must be a whole number from 1"),
        ({"max_game_length": -5}, "max_game_length must be a whole number from 1"),
        ({"players": 1}, "players must be a whole number from 2 to 5"),
        ({"players": 6}, "players must be a whole number from 2 to 5"),
        ({"map": "nordic", "players": 4}, "players must be a whole number from 2 to 3"),
        ({"deals": 0}, "deals must be a whole number from 1"),
        ({"seed": -1}, "seed must be a whole number from 0"),
        ({"map": "atlantis"}, "map must be one of"),
        ({"reward": "points"}, "reward must be one of win, score"),
    ],
)
def test_openspiel_refuses_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game("python_ttr", params)


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    _, state = _mid_game(3, 40, seed=4)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    for world in worlds:
        assert observe(world.state, player) == observe(state.state, player)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert (
            encode_state_observation(world.state, player)
            == encode_state_observation(state.state, player)
        ).all()
    assert any(w.state != state.state for w in worlds)  # the hidden cards were dealt anew


@pytest.mark.parametrize("map_name", SHIPPED_MAPS)
def test_stock_ismcts_bot_plays_whole_games(map_name: str) -> None:
    """Stock ``ISMCTSBot`` (searching worlds dealt by ``resample_from_infostate``) plays whole
    games against ``uniform_random`` through ``evaluate_bots``, in each seat."""
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("python_ttr", {"map": map_name, "players": 2})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2, random_state=rng)
    bot.restart_at = lambda state: bot.reset()  # open_spiel 2.0.2 lacks ISMCTSBot.restart_at
    for seat in (0, 1):
        bots = [uniform_random.UniformRandomBot(1 - seat, rng)]
        bots.insert(seat, bot)
        state = game.new_initial_state()
        returns = evaluate_bots(state, bots, rng)
        assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


def test_pettingzoo_scaled_observations_stay_in_the_unit_box() -> None:
    e = aec_env(players=3, observation="scaled")
    e.reset(seed=2)
    space = e.observation_space("player_0")["observation"]  # type: ignore[index]
    assert (space.low == 0).all() and (space.high == 1).all()
    rng = np.random.default_rng(2)
    for _agent in e.agent_iter(max_iter=300):
        obs, _, terminated, truncated, _ = e.last()
        assert space.contains(obs["observation"])
        e.step(
            None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"reward": "points"}, ValueError, "reward must be one of win, score, got 'points'"),
        ({"observation": "pixels"}, ValueError, "observation must be one of scaled, raw"),
        ({"render_mode": "movie"}, ValueError, "render_mode must be one of ansi, svg"),
        ({"illegal_reward": "lose"}, TypeError, "illegal_reward must be a finite number"),
        ({"illegal_reward": float("nan")}, TypeError, "illegal_reward must be a finite number"),
        ({"map": "atlantis"}, MapNotFoundError, "no map named 'atlantis'"),
        ({"players": 9}, ValueError, "players"),
    ],
)
def test_both_environments_refuse_the_same_bad_arguments(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    """The PettingZoo and Gymnasium environments check their common arguments in one place:
    the same argument is refused by both, with the same message."""
    with pytest.raises(error, match=re.escape(message)):
        aec_env(**arguments)
    with pytest.raises(error, match=re.escape(message)):
        TicketToRideEnv(**arguments)
