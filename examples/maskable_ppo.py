"""Stock sb3-contrib MaskablePPO on ``ttr_rules/Europe-v0``, with no wrapper and no glue.

Requirements (not part of any ttr-rules extra; torch is large)::

    pip install "ttr-rules[rl]" torch stable-baselines3 sb3-contrib

Then::

    python examples/maskable_ppo.py --steps 30000 --envs 4 --games 100

trains in ``--envs`` subprocesses (sb3's ``SubprocVecEnv``; ``--dummy`` for one process) and
plays ``--games`` games of the trained policy against the ``random`` agent. MaskablePPO finds
the environment's ``action_masks()`` method through sb3's vector environments by itself.

Only :func:`train` and :func:`evaluate` need torch; :func:`make_env`, :func:`masks_of` and
:func:`vector_env` use Gymnasium alone (the tests run those).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

import ttr_rules.rl.gymnasium  # registers ttr_rules/<Map>-v0 (children import this script first)

ENV_ID = ttr_rules.rl.gymnasium.ENV_ID


def make_env(seed: int | None = None, **kwargs: Any) -> gymnasium.Env[Any, Any]:
    """The registered environment, as ``gymnasium.make`` gives it (wrappers included)."""
    env = gymnasium.make(ENV_ID, **kwargs)
    env.reset(seed=seed)
    return env


def masks_of(env: gymnasium.Env[Any, Any]) -> NDArray[np.bool_]:
    """The mask as sb3-contrib reads it: the ``action_masks`` method found through the
    wrappers (what ``MaskablePPO`` calls through a vector environment's ``env_method``)."""
    masks: NDArray[np.bool_] = env.get_wrapper_attr("action_masks")()
    return masks


def vector_env(
    envs: int, *, asynchronous: bool = False
) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """Gymnasium's own vector environment of the registered id (sync or async)."""
    mode = "async" if asynchronous else "sync"
    return gymnasium.make_vec(ENV_ID, num_envs=envs, vectorization_mode=mode)


def train(steps: int, envs: int, *, subprocesses: bool = True, seed: int = 0) -> Any:
    """A MaskablePPO policy trained for ``steps`` environment steps (needs torch)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    # A small MLP gains nothing from several threads, and on a busy machine they contend.
    torch.set_num_threads(1)
    vec_cls = SubprocVecEnv if subprocesses and envs > 1 else DummyVecEnv
    vec = make_vec_env(ENV_ID, n_envs=envs, seed=seed, vec_env_cls=vec_cls)
    model = MaskablePPO("MlpPolicy", vec, seed=seed, verbose=0)
    model.learn(total_timesteps=steps)
    vec.close()
    return model


def evaluate(model: Any, games: int, seed: int = 10_000) -> dict[str, int]:
    """Games of ``model`` (seat 0) against the ``random`` agent: wins, losses and ties."""
    env = make_env()
    tally = {"wins": 0, "losses": 0, "ties": 0}
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        while True:
            action, _ = model.predict(observation, action_masks=masks_of(env), deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                break
        outcome = float(reward)
        key = "wins" if outcome > 0 else "losses" if outcome < 0 else "ties"
        tally[key] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=30_000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--dummy", action="store_true", help="one process (DummyVecEnv)")
    args = parser.parse_args()
    start = time.perf_counter()
    model = train(args.steps, args.envs, subprocesses=not args.dummy)
    trained = time.perf_counter() - start
    print(f"trained {args.steps} steps in {trained:.0f} s ({args.steps / trained:.0f} steps/s)")
    print("against random:", evaluate(model, args.games))


if __name__ == "__main__":
    main()
