"""The observation encoder's share of a real training run (issue 32).

Trains stock sb3-contrib MaskablePPO on ``ttr_rules/Europe-v0`` in one process (DummyVecEnv,
so that the environment's time is the training's) and prints the run's wall time, the share
of it spent in the environment (``reset`` and ``step``, the opponents' moves and the masks
included) and the share spent encoding observations (``encode_state_observation``).

Issue 32 measured the incremental encoder this way (0.9% of the wall time, against 2.2% for
the plain one) and replaced it by the plain encoder, which buys under 5%.

Needs torch, stable-baselines3 and sb3-contrib (not in any extra)::

    nice -n 10 python benchmarks/rl_ppo_encoder_share.py --steps 8192 --rounds 2
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import ttr_rules.rl.gymnasium as gym_env


def timed(call: Callable[..., Any], spent: list[float]) -> Callable[..., Any]:
    """``call``, adding the seconds each call takes to ``spent[0]``."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    return wrapper


def run(steps: int, seed: int) -> tuple[float, float, float]:
    """(wall seconds, seconds in the environment, seconds encoding) of one MaskablePPO run."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    in_env, encoding = [0.0], [0.0]
    env_class = gym_env.TicketToRideEnv
    encoder = getattr(gym_env, "encode_state_observation")  # noqa: B009 (the module's own)
    originals = {
        (gym_env, "encode_state_observation"): encoder,
        (env_class, "step"): env_class.step,
        (env_class, "reset"): env_class.reset,
    }
    setattr(gym_env, "encode_state_observation", timed(encoder, encoding))  # noqa: B010
    setattr(env_class, "step", timed(env_class.step, in_env))  # noqa: B010
    setattr(env_class, "reset", timed(env_class.reset, in_env))  # noqa: B010
    try:
        start = time.perf_counter()
        vec = make_vec_env(gym_env.ENV_ID, n_envs=1, seed=seed)
        model = MaskablePPO("MlpPolicy", vec, seed=seed, n_steps=1024, verbose=0)
        model.learn(total_timesteps=steps)
        wall = time.perf_counter() - start
    finally:
        for (owner, name), original in originals.items():
            setattr(owner, name, original)
    return wall, in_env[0], encoding[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=8192)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    runs = [run(args.steps, seed=round_) for round_ in range(args.rounds)]
    for i, (wall, in_env, encoding) in enumerate(runs):
        print(
            f"run {i}: {args.steps} steps, wall {wall:6.1f} s ({args.steps / wall:4.0f} steps/s),"
            f" environment {100 * in_env / wall:4.1f}%, encoding {100 * encoding / wall:4.1f}%"
        )
    wall = sum(w for w, _, _ in runs)
    print(
        f"all: environment {100 * sum(e for _, e, _ in runs) / wall:4.1f}%,"
        f" encoding {100 * sum(c for _, _, c in runs) / wall:4.1f}% of {wall:.1f} s"
    )


if __name__ == "__main__":
    main()
