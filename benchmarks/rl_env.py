"""PettingZoo environment cost against the engine's (a script, not a test; issue 13).

Plays games from the same seeds three ways (the environments pick among legal actions in
index order, the engine in ``legal_actions`` order, so the games differ in detail),
interleaved, in several rounds; each way's time is its best round (like ``timeit``) in CPU
time of this process, which discounts the moments other processes took the CPU:

* engine: ``legal_actions`` then ``apply_action`` of a uniformly random legal action;
* raw: ``ttr_rules.rl.pettingzoo.raw_env`` stepped the PettingZoo way (``last()``
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
    python benchmarks/rl_env.py --gymnasium --map nordic

``--breakdown`` instead splits the wall time of an env step (``env()``, 4 games unless
``--games``, ``--rounds`` rounds) into its parts, each timed with ``time.perf_counter_ns``
around the call: the engine's legal actions (``legal_actions``, or in the env the same list in
pieces, ``ttr_rules.game._legal_pieces``, as the mask reads them) and ``apply_action``, the
mask's bytes (``ActionSpace._state_bytes`` less the pieces' making), the observation (the
board's ``encode``: its update and the vector's pieces joined), the final rewards
(``terminal_rewards``), the rest of ``last()`` and of ``step()`` (the dict, ``np.frombuffer``,
the checks: by difference), the driver's pick, and the loop (``agent_iter``, ``reset``,
finished agents' steps: by difference from the whole game's time). The engine's own games are
timed the same way, interleaved, and a plain run of each (no timers) gives the untouched ratio.
Figures are medians over the rounds, in µs per step, with each part's share of the env step; a
timed call costs about 0.2 µs more than an untimed one (printed as the timer's cost), so the
timed total exceeds the plain step.

``--marginal`` instead measures what a part costs inside the step, its effect on the rest
included: env games with the part switched off, interleaved game by game (in shuffled order)
with unchanged env games and engine games, in CPU time; it prints each way's µs per step, its
ratio to the engine's decision and the time it saves. Switched off: the observation (a
stand-in for the encoder returns one stale vector: no update, no new array) and the
mask's bytes (``ActionSpace._state_bytes`` of the same games, recorded beforehand, handed
out again and wrapped as usual; the engine's pieces of the legal actions are still made),
and both ("neither"). A ceiling for what making a part cheaper can save; the parts' savings
need not add up (together they may take the step under a cache's capacity). "neither" bounds
the target: what it leaves over one engine decision is what the environment costs with a free
observation and a free mask.

``--gymnasium`` instead steps the Gymnasium environment (``--map``, against ``random``) the
way sb3-contrib's MaskablePPO does: ``action_masks()``, a uniformly random index among its
ones, ``step(index)`` (whose ``info`` carries the next mask too). It prints the CPU time per
step (best of ``--rounds``) and how many masks were computed per step (issue 48 measured two
where one does: each state's mask is now computed once).

``--regions engine,raw,env`` instead runs each named way once over the games, after a warm-up
game, inside a call of ``math.prod`` (and nothing else there), and prints its decisions:
``benchmarks/rl_env_instructions.sh`` counts the instructions of those calls alone with
callgrind's ``--toggle-collect=math_prod``.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ttr_rules import GameMap, apply_action, is_terminal, legal_actions, load_map, new_game
from ttr_rules.game import _legal_pieces
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


#: Stands for an attribute an owner did not have itself (see :func:`swapped`).
_MISSING = object()


@contextmanager
def swapped(switches: Iterable[tuple[Any, str, Any]]) -> Iterator[None]:
    """Each ``(owner, name, value)`` set for the block; afterwards what the owner had itself
    is set back, and an attribute it did not have (one over its class's method) removed."""
    switches = list(switches)
    saved = [(owner, name, vars(owner).get(name, _MISSING)) for owner, name, _ in switches]
    for owner, name, value in switches:
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner, name, before in saved:
            if before is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, before)


def breakdown(game_map: GameMap, players: int, seeds: range, rounds: int) -> None:
    """Print where the wall time of an env step goes (see ``--breakdown`` above)."""
    from collections import Counter
    from statistics import median

    import ttr_rules.rl.pettingzoo as pz
    import ttr_rules.rl.space as space_module

    ns = time.perf_counter_ns
    acc: Counter[str] = Counter()

    def timed(fn: Callable[..., Any], part: str) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            began = ns()
            result = fn(*args)
            acc[part] += ns() - began
            return result

        return call

    e = env(game_map, players)
    this = sys.modules[__name__]  # engine_games calls the engine through this module
    # Private names: a part whose call is gone (renamed) reads 0 and counts in the rest.
    patches = [
        (owner, name, timed(getattr(owner, name), part))
        for owner, name, part in [
            (pz, "legal_actions", "legal_actions"),
            (pz, "apply_action", "apply_action"),
            (this, "legal_actions", "legal_actions"),
            (this, "apply_action", "apply_action"),
            (pz, "terminal_rewards", "rewards"),
            (space_module, "_legal_pieces", "legal_actions"),
            (e.space, "_state_bytes", "mask"),
            (pz, "encode_state_observation", "observation"),
        ]
        if hasattr(owner, name)
    ]

    def env_run(seeds: range) -> int:
        decisions = 0
        for seed in seeds:
            rnd = random.Random(seed)
            e.reset(seed=seed)
            for _agent in e.agent_iter():
                t0 = ns()
                obs, _reward, terminated, truncated, _info = e.last()
                t1 = ns()
                if terminated or truncated:
                    e.step(None)
                    continue
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                index = int(legal[int(rnd.random() * len(legal))])
                t2 = ns()
                e.step(index)
                acc["last()"] += t1 - t0
                acc["pick"] += t2 - t1
                acc["step()"] += ns() - t2
                decisions += 1
        return decisions

    plain_env = env(game_map, players)
    warm = range(seeds.start + 1000, seeds.start + 1001)
    engine_games(game_map, players, warm)
    env_games(plain_env, warm)

    rows: list[dict[str, float]] = []
    with swapped(patches):
        engine_games(game_map, players, warm)
        env_run(warm)
    gc.collect()
    gc.freeze()
    for _ in range(rounds):
        row: dict[str, float] = {}
        with swapped(patches):
            acc.clear()
            began = ns()
            steps = env_run(seeds)
            whole = ns() - began
            part = {name: acc[name] / steps / 1000 for name in acc}
            part.setdefault("rewards", 0.0)
            part["mask bytes"] = part.get("mask", 0.0) - part.get("legal_actions", 0.0)
            row["env step (timed)"] = whole / steps / 1000
            row["last()"] = part["last()"]
            for name in ("legal_actions", "mask bytes", "observation"):
                row[f"  {name}"] = part.get(name, 0.0)
            row["  rest of last()"] = part["last()"] - sum(
                part.get(name, 0.0) for name in ("legal_actions", "mask bytes", "observation")
            )
            row["pick (driver)"] = part["pick"]
            row["step()"] = part["step()"]
            row["  apply_action"] = part["apply_action"]
            row["  rewards"] = part["rewards"]
            row["  rest of step()"] = part["step()"] - part["apply_action"] - row["  rewards"]
            row["loop, reset"] = row["env step (timed)"] - part["last()"] - part["pick"]
            row["loop, reset"] -= part["step()"]
            acc.clear()
            began = ns()
            decisions = engine_games(game_map, players, seeds)
            whole = ns() - began
            row["engine decision (timed)"] = whole / decisions / 1000
            row["  legal_actions "] = acc["legal_actions"] / decisions / 1000
            row["  apply_action "] = acc["apply_action"] / decisions / 1000
        began = ns()
        decisions = engine_games(game_map, players, seeds)
        row["engine decision (plain)"] = (ns() - began) / decisions / 1000
        began = ns()
        steps = env_games(plain_env, seeds)
        row["env step (plain)"] = (ns() - began) / steps / 1000
        rows.append(row)

    def nothing() -> None:
        pass

    noop = timed(nothing, "noop")
    began = ns()
    for _ in range(10_000):
        noop()
    timer = (ns() - began) / 10_000 / 1000
    print(f"{players} players, {len(seeds)} games, medians of {rounds} rounds (µs per step)")
    env_step = median(row["env step (timed)"] for row in rows)
    for name in rows[0]:
        value = median(row[name] for row in rows)
        print(f"{name:26} {value:7.2f}  {100 * value / env_step:5.1f}%")
    ratios = [row["env step (plain)"] / row["engine decision (plain)"] for row in rows]
    print(f"plain env / engine: median {median(ratios):.2f} (each round: ", end="")
    print(", ".join(f"{r:.2f}" for r in ratios) + ")")
    print(f"a timed call's own cost: {timer:.2f} µs")


def marginal(game_map: GameMap, players: int, seeds: range, rounds: int) -> None:
    """Print what each part saves when switched off (see ``--marginal`` above)."""
    import ttr_rules.rl.pettingzoo as pz

    e = env(game_map, players)
    recorded: dict[int, list[Any]] = {}
    replay: list[Any] = []
    own_bytes = e.space._state_bytes

    def record(state: Any) -> Any:
        legal = own_bytes(state)
        replay.append(legal)
        return legal

    def replayed(state: Any) -> Any:
        _legal_pieces(state)
        return replay.pop()

    stale = np.zeros(e.layout.size, np.float32)

    with swapped([(e.space, "_state_bytes", record)]):
        for seed in seeds:
            replay.clear()
            env_games(e, range(seed, seed + 1))
            recorded[seed] = replay[::-1]
    no_observation = (pz, "encode_state_observation", lambda _state, _viewer: stale)
    masks_replayed = (e.space, "_state_bytes", replayed)
    ways: dict[str, tuple[tuple[Any, str, Callable[..., Any]], ...]] = {
        "engine": (),
        "env as is": (),
        "no observation": (no_observation,),
        "masks replayed": (masks_replayed,),
        "neither": (no_observation, masks_replayed),
    }
    warm = range(seeds.start + 1000, seeds.start + 1001)
    engine_games(game_map, players, warm)
    env_games(e, warm)
    gc.collect()
    gc.freeze()
    spent = dict.fromkeys(ways, 0.0)
    played = dict.fromkeys(ways, 0)
    order = list(ways)
    for round_ in range(rounds):
        for seed in seeds:
            random.Random(round_ * len(seeds) + seed).shuffle(order)
            for name in order:
                games = range(seed, seed + 1)
                replay[:] = recorded[seed]
                with swapped(ways[name]):
                    began = time.process_time()
                    if name == "engine":
                        played[name] += engine_games(game_map, players, games)
                    else:
                        played[name] += env_games(e, games)
                    spent[name] += time.process_time() - began
    per_step = {name: spent[name] / played[name] * 1e6 for name in ways}
    print(f"{players} players, {len(seeds)} games, {rounds} rounds, game by game")
    for name in ways:
        saved = per_step["env as is"] - per_step[name]
        print(
            f"{name:16} {per_step[name]:7.1f} µs/step  {per_step[name] / per_step['engine']:4.2f}× "
            f"engine" + (f"  saves {saved:5.1f} µs" if name not in ("engine", "env as is") else "")
        )


def gymnasium_games(e: Any, seeds: range) -> int:
    """Learner steps played, MaskablePPO's way (see ``--gymnasium`` above)."""
    steps = 0
    for seed in seeds:
        rnd = random.Random(seed)
        e.reset(seed=seed)
        terminated = False
        while not terminated:
            legal = e.action_masks().nonzero()[0]
            _, _, terminated, _, _ = e.step(int(legal[int(rnd.random() * len(legal))]))
            steps += 1
    return steps


def gymnasium_steps(map_name: str, players: int, seeds: range, rounds: int) -> None:
    """Print the Gymnasium environment's CPU time per step and masks per step."""
    from ttr_rules.rl.gymnasium import TicketToRideEnv

    e = TicketToRideEnv(map_name, players, opponents="random")
    masks = 0
    real_mask = e.space.mask

    def counted(state: Any) -> Any:
        nonlocal masks
        masks += 1
        return real_mask(state)

    gymnasium_games(e, range(seeds.start + 1000, seeds.start + 1001))  # warm up
    with swapped([(e.space, "mask", counted)]):
        steps = gymnasium_games(e, seeds)
    gc.collect()
    gc.freeze()
    best = float("inf")
    for _ in range(rounds):
        began = time.process_time()
        gymnasium_games(e, seeds)
        best = min(best, time.process_time() - began)
    print(f"{map_name}, {players} players, {len(seeds)} games, best of {rounds} rounds")
    print(
        f"gymnasium {steps:6} steps {steps / best:10,.0f}/s  {best / steps * 1e6:6.1f} µs/step"
        f"  {masks / steps:4.2f} masks/step"
    )


def run_regions(
    runs: dict[str, Callable[[range], int]],
    names: list[str],
    seeds: range,
    before_pick: Callable[[], object],
) -> None:
    """Each named run inside ``math.prod`` (callgrind's measured region, see
    ``callgrind/region.py``), with its decisions; ``before_pick`` is called, unmeasured, just
    before the pick run."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "callgrind"))
    from region import measured

    for name in names:
        if name == "pick":
            before_pick()
        decisions = measured(partial(runs[name], seeds))
        print(f"{name} {decisions}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10, help="games per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--regions", help="comma-separated runs, once each, for callgrind")
    parser.add_argument("--breakdown", action="store_true", help="wall time of a step's parts")
    parser.add_argument("--marginal", action="store_true", help="what each part costs in situ")
    parser.add_argument("--gymnasium", action="store_true", help="the Gymnasium env's steps")
    parser.add_argument("--map", default="europe", help="the map of --gymnasium")
    args = parser.parse_args()
    players = args.players
    if args.gymnasium:
        seeds = range(args.seed, args.seed + args.games)
        gymnasium_steps(args.map, players, seeds, args.rounds)
        return 0
    game_map = load_map("europe")
    if args.breakdown or args.marginal:
        games = args.games if "--games" in sys.argv else 4
        study = breakdown if args.breakdown else marginal
        study(game_map, players, range(args.seed, args.seed + games), args.rounds)
        return 0
    raw, wrapped = raw_env(game_map, players), env(game_map, players)
    runs: dict[str, Callable[[range], int]] = {
        "engine": lambda seeds: engine_games(game_map, players, seeds),
        "raw": lambda seeds: env_games(raw, seeds),
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
