"""Random 4-player playouts through the public API only (the driver of ``compare.sh``).

It uses nothing but ``new_game``, ``legal_actions`` and ``apply_action`` (and ``observe``,
``determinize``, ``view_legal_actions`` with ``--views``), so that the same script measures any
revision of the library: ``compare.sh`` runs it with ``PYTHONPATH`` pointing at each tree.

    python benchmarks/games.py [--games 20] [--players 4] [--seed 0] [--views]

Prints one line: ``games/s <float> decisions <int> lib <path of ttr_rules> map <path of the
map module>``; with ``--views`` also the mean µs of ``apply_action`` and of ``observe``,
``determinize`` and ``view_legal_actions`` on the same states.
"""

from __future__ import annotations

import argparse
import sys
import time
from random import Random

import ttr_rules
from ttr_rules import apply_action, legal_actions, new_game


def play(game_map: ttr_rules.GameMap, players: int, seed: int) -> int:
    """One uniformly random game; the number of decisions."""
    rnd = Random(seed)
    state = new_game(game_map, players, seed=seed)
    decisions = 0
    while not state.is_terminal:
        options = legal_actions(state)
        state = apply_action(state, options[rnd.randrange(len(options))])
        decisions += 1
    return decisions


def views(game_map: ttr_rules.GameMap, players: int, seeds: range) -> dict[str, float]:
    """Mean µs per call of apply_action and of the three view functions, on the same states."""
    from ttr_rules import determinize, observe, view_legal_actions

    clock = time.perf_counter
    totals = dict.fromkeys(("apply_action", "observe", "determinize", "view_legal_actions"), 0.0)
    calls = 0
    for seed in seeds:
        rnd = Random(seed)
        state = new_game(game_map, players, seed=seed)
        while not state.is_terminal:
            seat = state.current
            t0 = clock()
            view = observe(state, seat)
            t1 = clock()
            determinize(view, seed * 1000 + calls)
            t2 = clock()
            view_legal_actions(view)
            t3 = clock()
            options = legal_actions(state)
            action = options[rnd.randrange(len(options))]
            t4 = clock()
            state = apply_action(state, action)
            t5 = clock()
            totals["observe"] += t1 - t0
            totals["determinize"] += t2 - t1
            totals["view_legal_actions"] += t3 - t2
            totals["apply_action"] += t5 - t4
            calls += 1
    return {name: total / calls * 1e6 for name, total in totals.items()}


#: The functions ``--part`` replays. Two are baselines to subtract: ``none`` (the recording
#: alone) and ``views`` (the recording and one ``observe`` per decision, the views that
#: ``determinize`` and ``view_legal_actions`` are called on).
PARTS = (
    "none",
    "views",
    "legal_actions",
    "apply_action",
    "observe",
    "determinize",
    "view_legal_actions",
)
#: The parts measured on views made beforehand: ``parts.sh`` subtracts ``views`` from them.
ON_VIEWS = ("views", "determinize", "view_legal_actions")


def decisions_of(
    game_map: ttr_rules.GameMap, players: int, seeds: range
) -> list[tuple[ttr_rules.GameState, ttr_rules.Action]]:
    """Every (state, uniformly random legal action) of one random game per seed."""
    pairs = []
    for seed in seeds:
        rnd = Random(seed)
        state = new_game(game_map, players, seed=seed)
        while not state.is_terminal:
            options = legal_actions(state)
            action = options[rnd.randrange(len(options))]
            pairs.append((state, action))
            state = apply_action(state, action)
    return pairs


def replay(game_map: ttr_rules.GameMap, players: int, seeds: range, part: str) -> None:
    """Record the decisions of the games, then call ``part`` once per decision; prints the
    number of decisions (``parts.sh`` counts the instructions of each part under callgrind)."""
    from ttr_rules import determinize, observe, view_legal_actions

    pairs = decisions_of(game_map, players, seeds)
    views = [observe(state, state.current) for state, _ in pairs] if part in ON_VIEWS else []
    if part == "legal_actions":
        for state, _ in pairs:
            legal_actions(state)
    elif part == "apply_action":
        for state, action in pairs:
            apply_action(state, action)
    elif part == "observe":
        for state, _ in pairs:
            observe(state, state.current)
    elif part == "determinize":
        for i, view in enumerate(views):
            determinize(view, i)
    elif part == "view_legal_actions":
        for view in views:
            view_legal_actions(view)
    print(f"decisions {len(pairs)}")


def mcts_speed(game_map: ttr_rules.GameMap, players: int, seed: int, decisions: int) -> float:
    """Decisions per second of the ``mcts`` agent at its default budget, on the states of a
    random game (every ``players``-th decision, so that the positions vary)."""
    from ttr_rules import observe
    from ttr_rules.agents import make_agent

    rnd = Random(seed)
    state = new_game(game_map, players, seed=seed)
    agent = make_agent("mcts", seed=seed)
    seconds = 0.0
    done = 0
    while done < decisions:
        if state.is_terminal:
            state = new_game(game_map, players, seed=seed + done)
        view = observe(state, state.current)
        t0 = time.perf_counter()
        agent.act(view)
        seconds += time.perf_counter() - t0
        done += 1
        for _ in range(players):
            if state.is_terminal:
                break
            options = legal_actions(state)
            state = apply_action(state, options[rnd.randrange(len(options))])
    return decisions / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--views", action="store_true")
    parser.add_argument(
        "--mcts", type=int, metavar="N", help="mcts decisions per second over N decisions"
    )
    parser.add_argument(
        "--part",
        choices=PARTS,
        help="record the games, then call only this function on every decision once more",
    )
    args = parser.parse_args()
    game_map = ttr_rules.load_map("europe")
    seeds = range(args.seed, args.seed + args.games)
    if args.mcts:
        print(f"decisions/s {mcts_speed(game_map, args.players, args.seed, args.mcts):.3f}")
        return 0
    if args.part:
        replay(game_map, args.players, seeds, args.part)
        return 0
    if args.views:
        means = views(game_map, args.players, seeds)
        print(" ".join(f"{name} {us:.2f}" for name, us in means.items()))
        return 0
    play(game_map, args.players, args.seed + 10_000)  # warm-up: map index, caches
    began = time.perf_counter()
    decisions = sum(play(game_map, args.players, seed) for seed in seeds)
    seconds = time.perf_counter() - began
    map_module = sys.modules.get("ttr_rules_europe")
    print(
        f"games/s {args.games / seconds:.3f} decisions {decisions}"
        f" lib {ttr_rules.__file__} map {getattr(map_module, '__file__', '?')}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
