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

With ``--imitate GAMES`` the policy starts warm: it first watches ``greedy`` play that many
games in its seat against the same pool (:func:`demonstrations`; ``greedy``'s actions are
:class:`~ttr_rules.rl.ActionSpace` indices, so this is a supervised pass), learns to choose
as ``greedy`` does and to value its positions as those games ended (:func:`clone`), and
then improves by self-play with a smaller learning rate and clip range, so that PPO's first
updates do not wash the warm start out. ``--cpu-minutes`` bounds the whole run, the
demonstrations and the workers included, by CPU time rather than wall time (it needs
psutil to read the workers' time while they run).

Only :func:`train` and :func:`clone` need torch; :func:`opponent_pool`, :func:`play`,
:func:`demonstrations` and :func:`evaluate` take any policy, a callable
``(observation, mask) -> index`` (the tests run them without torch).
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import time
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ttr_rules import observe
from ttr_rules.agents import make_agent
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


class Demonstrations(NamedTuple):
    """A teacher's decisions in the learner's seat: what it saw, what it could do, what it
    did, and the value of its position (the game's final reward, discounted to that
    decision)."""

    observations: NDArray[np.float32]
    masks: NDArray[np.bool_]
    actions: NDArray[np.int64]
    values: NDArray[np.float32]


def demonstrations(
    map_name: str,
    games: int,
    *,
    players: int = 2,
    teacher: str = "greedy",
    reward: str = "score",
    gamma: float = 0.99,
    seed: int = 0,
) -> Demonstrations:
    """``teacher``'s decisions in seat 0 of ``games`` games against the pool of
    :func:`opponent_pool` (no past selves yet), on seeds from ``seed``.

    >>> shown = demonstrations("nordic", 1)
    >>> len(shown.actions) == len(shown.values) == len(shown.masks) > 0
    True
    >>> bool(shown.masks[np.arange(len(shown.actions)), shown.actions].all())
    True
    """
    env = TicketToRideEnv(map_name, players, opponents=opponent_pool([]), reward=reward)
    observations: list[NDArray[np.float32]] = []
    masks: list[NDArray[np.bool_]] = []
    actions: list[int] = []
    values: list[float] = []
    for game in range(games):
        agent = make_agent(teacher, seed=seed + game)
        observation, info = env.reset(seed=seed + game)
        start = len(actions)
        terminated = truncated = False
        while not (terminated or truncated):
            index = env.space.index(agent.act(observe(env.state, env.seat)), env.state)
            observations.append(observation)
            masks.append(info["action_mask"].astype(bool))
            actions.append(index)
            observation, final, terminated, truncated, info = env.step(index)
        steps = len(actions) - start
        values.extend(float(final) * gamma ** (steps - 1 - i) for i in range(steps))
    return Demonstrations(
        np.asarray(observations, dtype=np.float32),
        np.asarray(masks, dtype=bool),
        np.asarray(actions, dtype=np.int64),
        np.asarray(values, dtype=np.float32),
    )


def clone(model: Any, shown: Demonstrations, epochs: int = 10, batch: int = 256) -> float:
    """Teach ``model`` (a MaskablePPO) to choose as in ``shown`` and to value its positions
    as they ended: a supervised pass with the policy's own optimizer (needs torch). Returns
    the share of ``shown`` decisions the policy then picks as its most likely action."""
    import torch

    policy = model.policy
    device = policy.device
    observations = torch.as_tensor(shown.observations, device=device)
    masks = torch.as_tensor(shown.masks, device=device)
    actions = torch.as_tensor(shown.actions, device=device)
    values = torch.as_tensor(shown.values, device=device)
    policy.set_training_mode(True)
    for _ in range(epochs):
        for part in torch.randperm(len(actions), device=device).split(batch):
            predicted, log_prob, _ = policy.evaluate_actions(
                observations[part], actions[part], action_masks=masks[part]
            )
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(
                predicted.flatten(), values[part]
            )
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        chosen = [
            policy.get_distribution(
                observations[part], action_masks=masks[part].cpu().numpy()
            ).distribution.probs.argmax(dim=1)
            for part in torch.arange(len(actions)).split(4096)
        ]
    return float((torch.cat(chosen) == actions).float().mean())


def cpu_seconds() -> float:
    """CPU time of this process and of its children: live ones (the workers while they run)
    through psutil when it is installed, finished ones always."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    if find_spec("psutil"):
        import psutil

        for child in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error):
                times = child.cpu_times()
                total += times.user + times.system
    return total


def train(
    map_name: str,
    players: int,
    minutes: float,
    *,
    cpu_minutes: float | None = None,
    imitate: int = 0,
    envs: int = 2,
    snapshot_steps: int = 8192,
    keep: int = 5,
    directory: Path = Path("self-play"),
    reward: str = "score",
    seed: int = 0,
) -> tuple[Any, list[Path], int]:
    """A MaskablePPO policy trained against the pool for ``minutes`` of wall time (or
    ``cpu_minutes`` of CPU time, when given), warm-started on ``imitate`` games of
    ``greedy``; its snapshots and the steps it took (needs torch)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    # A small MLP gains nothing from several threads, and on a busy machine they contend.
    torch.set_num_threads(1)
    directory.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()

    def in_budget() -> bool:
        if cpu_minutes is not None:
            return cpu_seconds() < 60 * cpu_minutes
        return time.monotonic() - began < 60 * minutes

    vec = make_vec_env(
        env_id(map_name),
        n_envs=envs,
        seed=seed,
        vec_env_cls=SubprocVecEnv,
        # spawned workers are this process's own children, so their CPU time is counted
        vec_env_kwargs={"start_method": "spawn"},
        env_kwargs={"players": players, "reward": reward, "opponents": opponent_pool([])},
    )
    # Imitating a planner takes a wider net than stock PPO's 64 × 64, and a warm start is
    # refined gently: PPO's default steps would undo much of it at once.
    gentle: dict[str, Any] = (
        {"learning_rate": 1e-4, "clip_range": 0.1, "policy_kwargs": {"net_arch": [256, 256]}}
        if imitate
        else {}
    )
    model = MaskablePPO(
        "MlpPolicy", vec, seed=seed, n_steps=2048 // envs, batch_size=256, verbose=0, **gentle
    )
    if imitate:
        # seeds far from those the workers draw, and from the evaluation's
        shown = demonstrations(map_name, imitate, players=players, reward=reward, seed=1 << 30)
        agreement = clone(model, shown)
        print(
            f"imitated greedy on {len(shown.actions)} decisions of {imitate} games: "
            f"picks greedy's action {agreement:.0%} of the time, "
            f"{cpu_seconds():.0f} s of CPU time so far",
            flush=True,
        )
        snapshots = [directory / f"{map_name}-0.zip"]
        model.save(snapshots[-1])
        vec.env_method("set_opponents", opponent_pool(snapshots))
    else:
        snapshots = []
    while in_budget():
        model.learn(total_timesteps=snapshot_steps, reset_num_timesteps=False)
        snapshots.append(directory / f"{map_name}-{model.num_timesteps}.zip")
        model.save(snapshots[-1])
        vec.env_method("set_opponents", opponent_pool(snapshots[-keep:]))
        print(
            f"{model.num_timesteps} steps, {cpu_seconds():.0f} s of CPU time, "
            f"{time.monotonic() - began:.0f} s of wall time",
            flush=True,
        )
    vec.close()
    return model, snapshots, model.num_timesteps


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--map", default="nordic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=30.0, help="wall time of training")
    parser.add_argument(
        "--cpu-minutes", type=float, help="CPU time of the whole run instead (needs psutil)"
    )
    parser.add_argument(
        "--imitate", type=int, default=0, metavar="GAMES", help="warm start on greedy's games"
    )
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
        cpu_minutes=args.cpu_minutes,
        imitate=args.imitate,
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
