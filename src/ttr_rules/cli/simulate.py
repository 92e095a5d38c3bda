"""``ttr simulate``: play games between random legal players and print their scores."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..game import new_game
from ..maps import GameMap, resolve_map
from ..simulate import GameResult, play_random_game

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play games between random legal players and print each game's final scores."
    )
    parser.add_argument("--map", default="europe", help="installed map name (default: europe)")
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--record", type=Path, metavar="DIR", help="write one game record (JSON) per game here"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only the summary, not each game's scores"
    )


def _play(job: tuple[str | GameMap, int, int]) -> GameResult:
    game_map, players, seed = job
    return play_random_game(resolve_map(game_map), players, seed)


def _results(args: argparse.Namespace, game_map: GameMap) -> Iterator[GameResult]:
    seeds = range(args.seed, args.seed + args.games)
    if args.jobs <= 1:
        for seed in seeds:
            yield play_random_game(game_map, args.players, seed)
        return
    # Workers load the map themselves (by name) rather than receive the pickled map.
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [(args.map, args.players, seed) for seed in seeds]
        yield from pool.map(_play, jobs, chunksize=max(1, args.games // (4 * args.jobs)))


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        width = 30
        filled = width * done // total
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if done == total else ""
        print(f"\r[{bar}] {done}/{total} games", end=end, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from ..scoring import final_scores, format_scores, winners

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    if args.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    game_map = resolve_map(args.map)
    new_game(game_map, args.players)  # reject a bad player count before any work
    if args.record is not None:
        args.record.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    decisions = turns = 0
    wins = [0.0] * args.players
    for done, result in enumerate(_results(args, game_map), start=1):
        end = result.end
        decisions += len(result.actions)
        turns += end.turn
        best = winners(end)
        for seat in best:
            wins[seat] += 1 / len(best)
        if not args.quiet:
            routes = " ".join(f"P{s.player}:{s.route_points}" for s in final_scores(end))
            leader = ", ".join(f"P{seat}" for seat in best)
            print(
                f"game {done} (seed {result.seed}): {end.turn} turns, "
                f"{len(result.actions)} decisions; route points {routes}; winner {leader}"
            )
            print(format_scores(end))
            tally = " ".join(f"P{seat}:{w:g}" for seat, w in enumerate(wins))
            print(f"wins so far: {tally}\n")
        if args.record is not None:
            _write_record(args.record, result)
        _progress(done, args.games)
    seconds = time.perf_counter() - began
    print(
        f"{args.games} games of {args.players} players on {game_map.name} in {seconds:.2f} s: "
        f"{args.games / seconds:.1f} games/s, mean {turns / args.games:.1f} turns and "
        f"{decisions / args.games:.1f} decisions per game"
    )
    return 0


def _write_record(directory: Path, result: GameResult) -> None:
    from ..records import record_game, write_record

    record = record_game(result.start, result.actions)
    write_record(directory / f"game-{result.seed:06d}.json", record)
