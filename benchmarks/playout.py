"""Playout benchmark: random 4-player games on Europe (a script, not a test).

Every decision, the initial ticket choices included, is a uniformly random legal action.
Prints games per second, decisions per game, the mean cost of ``legal_actions`` and
``apply_action``, and the peak resident memory.

    python benchmarks/playout.py [--games 200] [--players 4] [--seed 0]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from random import Random

import ttr_rules
from ttr_rules import Action, GameState, apply_action, legal_actions, new_game
from ttr_rules.testing import playout, random_chooser


def timed_games(game_map: ttr_rules.GameMap, players: int, seeds: range) -> tuple[float, int]:
    """Wall time and decisions of plain playouts (no per-call timing)."""
    decisions = 0
    began = time.perf_counter()
    for seed in seeds:
        for _ in playout(new_game(game_map, players, seed=seed), random_chooser(Random(seed))):
            decisions += 1
    return time.perf_counter() - began, decisions


def per_call(game_map: ttr_rules.GameMap, players: int, seeds: range) -> tuple[float, float]:
    """Mean seconds per ``legal_actions`` and per ``apply_action`` call."""
    clock = time.perf_counter
    legal = apply = 0.0
    calls = 0

    def timed_legal(state: GameState) -> tuple[Action, ...]:
        nonlocal legal
        t0 = clock()
        options = legal_actions(state)
        legal += clock() - t0
        return options

    def timed_apply(state: GameState, action: Action) -> GameState:
        nonlocal apply
        t0 = clock()
        after = apply_action(state, action)
        apply += clock() - t0
        return after

    for seed in seeds:
        start = new_game(game_map, players, seed=seed)
        choose = random_chooser(Random(seed))
        for _ in playout(start, choose, legal_actions=timed_legal, apply_action=timed_apply):
            calls += 1
    return legal / calls, apply / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game_map = ttr_rules.load_map("europe")
    seeds = range(args.seed, args.seed + args.games)
    timed_games(game_map, args.players, range(args.seed, args.seed + 5))  # warm-up
    seconds, decisions = timed_games(game_map, args.players, seeds)
    legal, apply = per_call(game_map, args.players, seeds)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"python {sys.version.split()[0]}, {args.games} games of {args.players} players")
    print(f"games/s:              {args.games / seconds:8.1f}")
    print(f"decisions per game:   {decisions / args.games:8.1f}")
    print(f"legal_actions (mean): {legal * 1e6:8.2f} µs")
    print(f"apply_action (mean):  {apply * 1e6:8.2f} µs")
    print(f"peak memory (RSS):    {peak_kib / 1024:8.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
