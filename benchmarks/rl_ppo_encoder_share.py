"""What the incremental observation encoder buys in a real training run (issue 32).

Trains stock sb3-contrib MaskablePPO on ``ttr_rules/Europe-v0`` (one process, DummyVecEnv,
so that the environment's time is the training's) twice, interleaved, with the same seed:
once with the environments' encoder (:func:`ttr_rules.rl.encode_state_observation`, the
incremental ``_Board``) and once with the plain encoder
(``encode_observation(observe(state, seat))``), and prints each run's wall time and the share
of it spent encoding observations.

Needs torch, stable-baselines3 and sb3-contrib (not in any extra)::

    nice -n 10 python benchmarks/rl_ppo_encoder_share.py --steps 8192 --rounds 2
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

import ttr_rules.rl.gymnasium as gym_env
from ttr_rules import GameState, observe
from ttr_rules.rl import encode_observation, encode_state_observation

Encoder = Callable[[GameState, int], NDArray[np.float32]]


def plain(state: GameState, seat: int) -> NDArray[np.float32]:
    return encode_observation(observe(state, seat))


def run(encoder: Encoder, steps: int, seed: int) -> tuple[float, float]:
    """(wall seconds, seconds spent encoding) of one MaskablePPO run."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    spent = [0.0]

    def timed(state: GameState, seat: int) -> NDArray[np.float32]:
        start = time.perf_counter()
        vector = encoder(state, seat)
        spent[0] += time.perf_counter() - start
        return vector

    setattr(gym_env, "encode_state_observation", timed)  # noqa: B010
    try:
        start = time.perf_counter()
        vec = make_vec_env(gym_env.ENV_ID, n_envs=1, seed=seed)
        model = MaskablePPO("MlpPolicy", vec, seed=seed, n_steps=1024, verbose=0)
        model.learn(total_timesteps=steps)
        wall = time.perf_counter() - start
    finally:
        setattr(gym_env, "encode_state_observation", encode_state_observation)  # noqa: B010
    return wall, spent[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=8192)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {"incremental": [], "plain": []}
    encoders: dict[str, Encoder] = {"incremental": encode_state_observation, "plain": plain}
    for round_ in range(args.rounds):
        for name, encoder in encoders.items():
            results[name].append(run(encoder, args.steps, seed=round_))
    for name, runs in results.items():
        wall = sum(w for w, _ in runs)
        spent = sum(s for _, s in runs)
        print(
            f"{name:12} wall {wall:7.1f} s, encoding {spent:6.1f} s ({100 * spent / wall:4.1f}%),"
            f" {args.steps * len(runs) / wall:5.0f} steps/s"
        )
    inc = sum(w for w, _ in results["incremental"])
    pla = sum(w for w, _ in results["plain"])
    print(f"the plain encoder's run takes {100 * (pla - inc) / inc:+.1f}% wall time")


if __name__ == "__main__":
    main()
