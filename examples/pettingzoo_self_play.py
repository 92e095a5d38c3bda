"""Multi-agent self-play on the PettingZoo environment: one policy plays every seat, learns
from all of them (REINFORCE on a linear softmax over the legal actions, in numpy), and is then
measured against its own frozen earlier copy and against masked random play.

The loop is the one any PettingZoo trainer runs (``agent_iter`` / ``last`` / ``step``, the
mask in the observation); swap :class:`LinearPolicy` for a network to train for real.

    python examples/pettingzoo_self_play.py [--games 20] [--players 2]
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ttr_rules.rl.pettingzoo import env

Policy = Callable[[NDArray[np.float32], NDArray[np.int8]], int]


class LinearPolicy:
    """A softmax over the legal actions of ``weights @ observation``."""

    def __init__(self, observations: int, actions: int, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.weights = np.zeros((actions, observations), dtype=np.float32)

    def probabilities(self, observation: NDArray[np.float32], legal: NDArray[np.intp]) -> Any:
        logits = self.weights[legal] @ observation
        logits -= logits.max()
        odds = np.exp(logits)
        return odds / odds.sum()

    def __call__(self, observation: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        legal = np.flatnonzero(mask)
        return int(self.rng.choice(legal, p=self.probabilities(observation, legal)))

    def learn(self, steps: Sequence[tuple[Any, Any, int]], reward: float, rate: float) -> None:
        """One REINFORCE update from one seat's decisions of a game and its final reward."""
        for observation, legal, action in steps:
            probabilities = self.probabilities(observation, legal)
            grad = -probabilities[:, None] * observation[None, :]
            grad[int(np.flatnonzero(legal == action)[0])] += observation
            self.weights[legal] += rate * reward * grad


def masked_random(rng: np.random.Generator) -> Policy:
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


def play(policies: Sequence[Policy], seed: int) -> tuple[list[float], list[list[Any]]]:
    """One game, seat ``i`` played by ``policies[i]``: the rewards and each seat's
    (observation, legal actions, action) decisions."""
    e = env(players=len(policies), observation="scaled")
    e.reset(seed=seed)
    decisions: list[list[Any]] = [[] for _ in policies]
    rewards = [0.0] * len(policies)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        seat = e.possible_agents.index(agent)
        rewards[seat] = float(reward)
        if terminated or truncated:
            e.step(None)
            continue
        vector = observation["observation"]  # scaled into [0, 1]: small steps for a linear policy
        action = policies[seat](vector, observation["action_mask"])
        decisions[seat].append((vector, np.flatnonzero(observation["action_mask"]), action))
        e.step(action)
    return rewards, decisions


def new_policy(players: int = 2, seed: int = 0) -> LinearPolicy:
    e = env(players=players)
    return LinearPolicy(e.layout.size, e.space.size, seed)


def train(
    policy: LinearPolicy, games: int, players: int = 2, rate: float = 0.01, seed: int = 0
) -> LinearPolicy:
    """Self-play: the policy in every seat, learning from every seat's game."""
    for game in range(games):
        rewards, decisions = play([policy] * players, seed=seed + game)
        for seat in range(players):
            policy.learn(decisions[seat], rewards[seat], rate)
    return policy


def win_rate(policy: Policy, other: Policy, games: int, seed: int = 10_000) -> float:
    """The share of 2-player games ``policy`` wins against ``other``, alternating seats."""
    wins = 0
    for game in range(games):
        seat = game % 2
        seats = [policy, other] if seat == 0 else [other, policy]
        rewards, _ = play(seats, seed=seed + game)
        wins += rewards[seat] > 0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    policy = train(new_policy(args.players), args.games // 2, args.players)
    earlier = copy.deepcopy(policy)  # a frozen copy, as a league keeps them
    train(policy, args.games - args.games // 2, args.players, seed=args.games)
    rng = np.random.default_rng(1)
    print(f"trained by self-play on {args.games} games")
    print(f"against masked random: wins {win_rate(policy, masked_random(rng), 10):.0%}")
    print(f"against its earlier copy: wins {win_rate(policy, earlier, 10):.0%}")


if __name__ == "__main__":
    main()
