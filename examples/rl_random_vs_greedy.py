"""Reinforcement learning interfaces, end to end: PettingZoo games between a masked random
policy and the library's greedy agent, stepped through the integer action space.

Every agent of the environment sees what an RL policy sees — an observation vector and an
action mask — and answers with an action index. The random policy picks a uniformly random
index among the mask's ones; the greedy agent of ``ttr_rules.agents`` acts on its view and its
action is translated with ``ActionSpace.index``.

    python examples/rl_random_vs_greedy.py [--games 4] [--players 2]
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

import numpy as np

from ttr_rules import Action, final_scores, observe
from ttr_rules.agents import make_agent
from ttr_rules.rl.pettingzoo import env


def masked_random(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """A uniformly random legal index: what an untrained policy with masking does."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def play(games: int = 4, players: int = 2, seed: int = 0) -> Counter[str]:
    """Play ``games`` games, greedy in seat 0 and masked random elsewhere; wins by policy."""
    e = env(players=players)
    greedy = make_agent("greedy", seed=seed)
    rng = np.random.default_rng(seed)
    wins: Counter[str] = Counter()
    for game in range(games):
        e.reset(seed=seed + game)
        for agent in e.agent_iter():
            observation, reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                if reward > 0:
                    wins["greedy" if agent == "player_0" else "random"] += 1
                e.step(None)
                continue
            if agent == "player_0":
                view = observe(e.state, 0)
                action: Action = greedy.act(view)
                index = e.space.index(action, view)
                assert observation["action_mask"][index]
            else:
                index = masked_random(observation, rng)
            e.step(index)
        totals = [s.total for s in final_scores(e.state)]
        print(f"game {game}: scores {totals}")
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    wins = play(args.games, args.players)
    print(f"wins: greedy {wins['greedy']}, masked random {wins['random']}")


if __name__ == "__main__":
    main()
