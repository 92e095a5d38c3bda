"""Scoring benchmark (a script, not a test): the exact longest path on a dense network and
``final_scores`` at the end of random 4-player Europe games (issue 4; targets ≤ 2 ms and ≤ 1 ms).

The dense network: one player owns 22 routes of length 1 or 2 forming 5 independent cycles
(a connected graph of 18 cities, so 22 - 18 + 1 = 5), built as a custom map. Besides this
fixed network, the worst of many random networks of the same size is reported, and the whole
board (one player owning one track of every route: the branch and bound of the longest trail).

    python benchmarks/scoring.py [--games 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from ttr_rules import (
    GameMap,
    GameState,
    Rules,
    final_scores,
    load_map,
    longest_path,
    new_game,
    scenario,
)
from ttr_rules.scoring import longest_trail
from ttr_rules.testing import playout, random_chooser

#: 5 cycles sharing cities, with branches: 18 cities, 22 routes, lengths 1-2.
DENSE = [
    # a cube-like core (8 cities, 12 routes: 5 independent cycles)
    ("C0", "C1", 2),
    ("C1", "C2", 2),
    ("C2", "C3", 2),
    ("C3", "C0", 2),
    ("C4", "C5", 2),
    ("C5", "C6", 2),
    ("C6", "C7", 2),
    ("C7", "C4", 2),
    ("C0", "C4", 1),
    ("C1", "C5", 1),
    ("C2", "C6", 1),
    ("C3", "C7", 1),
    # ten branches hanging off it (10 more cities)
    ("C0", "T0", 2),
    ("C1", "T1", 1),
    ("C2", "T2", 2),
    ("C3", "T3", 1),
    ("C4", "T4", 2),
    ("C5", "T5", 1),
    ("C6", "T6", 2),
    ("C7", "T7", 1),
    ("T0", "T8", 1),
    ("T5", "T9", 2),
]


def dense_state() -> GameState:
    cities = sorted({c for a, b, _ in DENSE for c in (a, b)})
    game_map = GameMap.create("dense", cities, [(a, b, n, None) for a, b, n in DENSE], [])
    return scenario(game_map, players=2, routes={i: 0 for i in range(len(DENSE))}, trains=[9, 9])


def random_network(
    rnd: random.Random, cities: int = 18, routes: int = 22
) -> list[tuple[int, int, int]]:
    """A random connected network: a random spanning tree plus extra routes (5 cycles)."""
    edges = [(rnd.randrange(v), v, rnd.randint(1, 2)) for v in range(1, cities)]
    while len(edges) < routes:
        a, b = rnd.sample(range(cities), 2)
        edges.append((a, b, rnd.randint(1, 2)))
    return edges


def per_call_ms(func: Callable[[], object], repeat: int) -> float:
    """Best of 5 runs of ``repeat`` calls, in ms per call."""
    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        for _ in range(repeat):
            func()
        best = min(best, (time.perf_counter() - began) / repeat)
    return best * 1000


def end_states(games: int, seed: int) -> list[GameState]:
    finals = []
    for g in range(games):
        start = new_game(players=4, seed=seed + g)
        *_, last = playout(start, random_chooser(random.Random(seed + g)))
        finals.append(last.after)
    return finals


def _trail_ms(network: list[tuple[int, int, int]]) -> float:
    return per_call_ms(lambda: longest_trail(network), 3)


def _scores_ms(state: GameState) -> float:
    return per_call_ms(lambda: final_scores(state), 20)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    state = dense_state()
    length = longest_path(state, 0)
    dense_ms = per_call_ms(lambda: longest_path(state, 0), 50)
    print(f"longest_path, dense network (22 routes, 5 cycles): {length} spaces, {dense_ms:.3f} ms")

    rnd = random.Random(args.seed)
    times = [_trail_ms(random_network(rnd)) for _ in range(200)]
    mean = sum(times) / len(times)
    print(
        "longest_trail, 200 random networks (18 cities, 22 routes): "
        f"mean {mean:.3f} ms, worst {max(times):.3f} ms"
    )

    europe = load_map("europe")
    owners = {r.id: int(r.double_of is not None and r.double_of < r.id) for r in europe.routes}
    # scoring is defined on any board: rules under which one player may own all of this
    any_board = Rules(trains_per_player=1000, double_route_min_players=2)
    whole = scenario(europe, 3, routes=owners, trains=[45, 45, 45], rules=any_board)
    length = longest_path(whole, 0)
    whole_ms = per_call_ms(lambda: longest_path(whole, 0), 3)
    print(
        f"longest_path, one player owning one track of every route of Europe "
        f"({len(whole.routes_of(0))} routes, E20b): {length} spaces, {whole_ms:.3f} ms"
    )

    finals = end_states(args.games, args.seed)
    costs = [_scores_ms(s) for s in finals]
    stations = sum(len(p.stations) for s in finals for p in s.players) / (4 * len(finals))
    print(
        f"final_scores, end of {len(finals)} random 4-player games "
        f"(mean {stations:.1f} stations per player): mean {sum(costs) / len(costs):.3f} ms, "
        f"worst {max(costs):.3f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
