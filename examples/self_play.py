"""Self-play with stock sb3-contrib MaskablePPO: the learner plays against a pool of ``random``,
``greedy`` and its own past selves, then is measured against ``greedy``.

Requirements (not part of any ttr-rules extra; torch is large)::

    pip install "ttr-rules[rl]" torch stable-baselines3 sb3-contrib

Then::

    python examples/self_play.py --map nordic --minutes 30 --games 200

trains in ``--envs`` subprocesses (sb3's ``SubprocVecEnv``) for ``--minutes`` of wall time.
Every ``--snapshot-steps`` steps the policy is saved, and the newest ``--keep`` snapshots join
the pool as :class:`~ttr_rules.rl.PolicyOpponent` opponents: each is a path, which pickles into
the workers, where the model is loaded once. Then the policy plays ``--games`` games against
``greedy`` (seeds no training game used) and the script prints its wins and the CPU time that
training took, its workers included.

Only :func:`train` needs torch; :func:`opponent_pool`, :func:`play` and
:func:`evaluate` take any policy, a callable ``(observation, mask) -> index`` (the tests
run them without torch).
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ttr_rules.rl import PolicyOpponent

# at the top: it registers the ids, and subprocess workers import this script first
from ttr_rules.rl.gymnasium import TicketToRideEnv
from ttr_rules.rl.registration import env_id

Policy = Callable[[NDArray[np.float32], NDArray[np.int8]], Any]

#: Evaluation games' seeds start here, far from the seeds training draws.
EVALUATION_SEEDS = 1 << 40


def opponent_pool(
    snapshots: Sequence[Path | str], *, random: float = 1.0, greedy: float = 2.0
) -> dict[Any, float]:
    """The pool: ``random`` and ``greedy`` with their weights, and each past self with weight
    1 (together as much as ``greedy`` at most, so that the fixed agents keep their share).

    >>> opponent_pool([])
    {'random': 1.0, 'greedy': 2.0}
    """
    pool: dict[Any, float] = {"random": random, "greedy": greedy}
    each = min(1.0, greedy / len(snapshots)) if snapshots else 0.0
    for snapshot in snapshots:
        pool[PolicyOpponent(snapshot)] = each
    return pool


def play(env: TicketToRideEnv, policy: Policy, seed: int) -> float:
    """One game of ``policy`` in the learner's seat: its final reward."""
    observation, info = env.reset(seed=seed)
    while True:
        action = policy(observation, info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return float(reward)


def evaluate(
    policy: Policy, map_name: str, games: int, opponent: str = "greedy", players: int = 2
) -> dict[str, int]:
    """Wins, losses and ties of ``policy`` (seat 0, win reward) in ``games`` games against
    ``opponent`` in every other seat."""
    env = TicketToRideEnv(map_name, players, opponents=opponent)
    tally = {"wins": 0, "losses": 0, "ties": 0}
    for game in range(games):
        reward = play(env, policy, EVALUATION_SEEDS + game)
        tally["wins" if reward > 0 else "losses" if reward < 0 else "ties"] += 1
    return tally


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the workers, once closed)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def train(
    map_name: str,
    players: int,
    minutes: float,
    *,
    envs: int = 2,
    snapshot_steps: int = 8192,
    keep: int = 5,
    directory: Path = Path("self-play"),
    reward: str = "score",
    seed: int = 0,
) -> tuple[Any, list[Path], int]:
    """A MaskablePPO policy trained for ``minutes`` of wall time against the pool, its
    snapshots, and the steps it took (needs torch)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    # A small MLP gains nothing from several threads, and on a busy machine they contend.
    torch.set_num_threads(1)
    directory.mkdir(parents=True, exist_ok=True)
    vec = make_vec_env(
        env_id(map_name),
        n_envs=envs,
        seed=seed,
        vec_env_cls=SubprocVecEnv,
        # spawned workers are this process's own children, so their CPU time is counted
        vec_env_kwargs={"start_method": "spawn"},
        env_kwargs={"players": players, "reward": reward, "opponents": opponent_pool([])},
    )
    model = MaskablePPO(
        "MlpPolicy", vec, seed=seed, n_steps=2048 // envs, batch_size=256, verbose=0
    )
    snapshots: list[Path] = []
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() < deadline:
        model.learn(total_timesteps=snapshot_steps, reset_num_timesteps=False)
        snapshots.append(directory / f"{map_name}-{model.num_timesteps}.zip")
        model.save(snapshots[-1])
        vec.env_method("set_opponents", opponent_pool(snapshots[-keep:]))
    vec.close()
    return model, snapshots, model.num_timesteps


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--map", default="nordic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=30.0, help="wall time of training")
    parser.add_argument("--envs", type=int, default=2, help="SubprocVecEnv workers")
    parser.add_argument("--snapshot-steps", type=int, default=8192)
    parser.add_argument("--keep", type=int, default=5, help="past selves in the pool")
    parser.add_argument("--games", type=int, default=200, help="evaluation games")
    parser.add_argument("--directory", type=Path, default=Path("self-play"))
    parser.add_argument("--reward", choices=["win", "score"], default="score")
    args = parser.parse_args(argv)
    missing = [
        name for name in ("torch", "stable_baselines3", "sb3_contrib") if not find_spec(name)
    ]
    if missing:
        parser.exit(
            2,
            f"training needs {', '.join(missing)}: "
            "pip install torch stable-baselines3 sb3-contrib\n",
        )
    began = time.monotonic()
    _, snapshots, steps = train(
        args.map,
        args.players,
        args.minutes,
        envs=args.envs,
        snapshot_steps=args.snapshot_steps,
        keep=args.keep,
        directory=args.directory,
        reward=args.reward,
    )
    wall, cpu = time.monotonic() - began, cpu_seconds()
    print(f"trained {steps} steps in {wall:.0f} s of wall time, {cpu:.0f} s of CPU time")
    final = cast(Policy, PolicyOpponent(snapshots[-1]).build(seed=0))  # a model's policy
    print(f"against greedy on {args.map}:", evaluate(final, args.map, args.games, "greedy"))
    print(f"against random on {args.map}:", evaluate(final, args.map, args.games, "random"))


if __name__ == "__main__":
    main()
