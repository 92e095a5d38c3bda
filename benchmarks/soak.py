"""Soak run: many random games over 2–5 players, every invariant checked after every step
(a script, not a test).

    python benchmarks/soak.py [--games 1000] [--seed 0] [--map europe]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import ttr_rules
from ttr_rules import final_scores, new_game, winners
from ttr_rules.testing import check_invariants, playout, random_chooser


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--map", default="europe", help="an installed map's name")
    args = parser.parse_args()
    game_map = ttr_rules.load_map(args.map)
    began = time.perf_counter()
    steps = 0
    for seed in range(args.seed, args.seed + args.games):
        players = 2 + seed % 4
        state = new_game(game_map, players, seed=seed)
        check_invariants(state)
        for step in playout(state, random_chooser(random.Random(seed))):
            state = step.after
            check_invariants(state)
            steps += 1
        final_scores(state)
        winners(state)
    seconds = time.perf_counter() - began
    print(
        f"{args.games} games (2–5 players), {steps} steps, every invariant checked after "
        f"every step: no failure, {seconds:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
