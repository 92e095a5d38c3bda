"""PettingZoo environment cost against the engine's (a script, not a test; issue 13).

Plays games from the same seeds three ways (the environments pick among legal actions in
index order, the engine in ``legal_actions`` order, so the games differ in detail),
interleaved, in several rounds; each way's time is its best round (like ``timeit``) in CPU
time of this process, which discounts the moments other processes took the CPU:

* engine: ``legal_actions`` then ``apply_action`` of a uniformly random legal action;
* raw env: ``ttr_rules.rl.pettingzoo.raw_env`` stepped the PettingZoo way (``last()``
  observes the agent to act — observation vector and action mask — then ``step(index)`` of a
  uniformly random index among the mask's ones, found with ``mask.view(bool).nonzero()``:
  ``np.flatnonzero`` of the int8 mask costs a dozen times more, and gymnasium's
  ``action_space.sample(mask)`` more still);
* env: the same through ``env()``, with PettingZoo's classic wrappers;
* pick: the driver's share of an env step alone, the masked random pick above replayed over
  the masks the env gave in the same games (recorded beforehand, outside any measurement), so
  that ``env - pick`` is what the environment itself costs per step: ``last()`` and ``step()``.

Prints decisions per second of each and the cost of an environment step relative to an
engine decision (the target is at most 2).

    python benchmarks/rl_env.py [--players 2] [--games 10] [--rounds 5] [--seed 0]

``--regions engine,raw,env`` instead runs each named way once over the games, after a warm-up
game, inside a call of ``math.prod`` (and nothing else there), and prints its decisions:
``benchmarks/rl_env_instructions.sh`` counts the instructions of those calls alone with
callgrind's ``--toggle-collect=math_prod``.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ttr_rules import GameMap, apply_action, is_terminal, legal_actions, load_map, new_game
from ttr_rules.rl.pettingzoo import env, raw_env


def engine_games(game_map: GameMap, players: int, seeds: range) -> int:
    """Decisions played."""
    decisions = 0
    for seed in seeds:
        rnd = random.Random(seed)
        state = new_game(game_map, players, seed=seed)
        while not is_terminal(state):
            options = legal_actions(state)
            state = apply_action(state, options[int(rnd.random() * len(options))])
            decisions += 1
    return decisions


def env_games(e: Any, seeds: range, masks: list[Any] | None = None) -> int:
    """Steps of live agents played (the final no-op steps of finished agents excluded); with
    ``masks``, each step's action mask is appended to it."""
    decisions = 0
    for seed in seeds:
        rnd = random.Random(seed)
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            if masks is not None:
                masks.append(obs["action_mask"])
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            e.step(int(legal[int(rnd.random() * len(legal))]))
            decisions += 1
    return decisions


def picks(masks: list[Any], seed: int) -> int:
    """The pick of :func:`env_games` alone, over recorded masks: picks made."""
    rnd = random.Random(seed)
    for mask in masks:
        legal = mask.view(np.bool_).nonzero()[0]
        int(legal[int(rnd.random() * len(legal))])
    return len(masks)


def run_regions(
    runs: dict[str, Callable[[range], int]],
    names: list[str],
    seeds: range,
    before_pick: Callable[[], object],
) -> None:
    """Each named run inside ``math.prod`` (callgrind's measured region), with its decisions;
    ``before_pick`` is called, unmeasured, just before the pick run."""

    class Region:
        def __init__(self, name: str) -> None:
            self.name = name

        def __mul__(self, _other: object) -> int:
            return runs[self.name](seeds)

    for name in names:
        if name == "pick":
            before_pick()
        decisions = math.prod([0], start=Region(name))
        print(f"{name} {decisions}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10, help="games per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--regions", help="comma-separated runs, once each, for callgrind")
    args = parser.parse_args()
    players = args.players
    game_map = load_map("europe")
    raw, wrapped = raw_env(game_map, players), env(game_map, players)
    runs: dict[str, Callable[[range], int]] = {
        "engine": lambda seeds: engine_games(game_map, players, seeds),
        "raw env": lambda seeds: env_games(raw, seeds),
        "env": lambda seeds: env_games(wrapped, seeds),
    }
    for run in runs.values():  # warm up: per-map tables, caches
        run(range(args.seed + 1000, args.seed + 1001))
    # What is alive now (modules, maps, tables) stays: out of the garbage collector's way, so
    # that its full collections cost the measured runs the same whatever else is loaded.
    gc.collect()
    gc.freeze()
    seeds = range(args.seed, args.seed + args.games)
    if args.regions:
        masks: list[Any] = []
        # Recorded only when pick's turn comes, outside the measured call: a game played
        # before the other regions would warm the engine's memos for them.
        runs["pick"] = lambda _seeds: picks(masks, args.seed)
        run_regions(
            runs,
            args.regions.split(","),
            seeds,
            before_pick=lambda: env_games(wrapped, seeds, masks),
        )
        return 0
    best = dict.fromkeys(runs, float("inf"))
    decisions = dict.fromkeys(runs, 0)
    for _ in range(args.rounds):
        for name, run in runs.items():
            began = time.process_time()
            decisions[name] = run(seeds)
            best[name] = min(best[name], time.process_time() - began)
    per_step = {name: best[name] / decisions[name] for name in runs}
    print(f"{players} players, {args.games} games, best of {args.rounds} rounds")
    for name in runs:
        ratio = per_step[name] / per_step["engine"]
        print(
            f"{name:8} {decisions[name]:6} decisions {1 / per_step[name]:10,.0f}/s  "
            f"{per_step[name] * 1e6:6.1f} µs/step  {ratio:4.2f}× engine"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
