"""Throughput of the three backends of ``ttr_rules.sim.run_games`` and the driver's memory.

Plays the same random-agent 4-player games on Europe serially, on ``process`` with 2 workers
and on a local ``ray`` instance with 2 CPUs — in interleaved rounds, so that a change of load
on a shared machine hits the three alike — checks that the three give identical rows, and
prints the games per second and the speed-ups over serial (targets on a 2-core machine:
process >= 1.7x, ray >= 1.5x). Then runs 1,000 and 10,000 games on ``process`` in fresh
interpreters, aggregating as ``ttr stats`` does, and prints the driver's peak RSS for each
(it should not grow with the number of games).

    python benchmarks/scale.py                  # 2,000 games per backend, RSS at 1k and 10k
    python benchmarks/scale.py --games 500 --rss 1000 3000
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

from ttr_rules import load_map
from ttr_rules.sim import BalanceStats, GameResult, game_specs, run_games


def _timed(
    games: int, seed: int, **options: object
) -> tuple[float, list[tuple[int, tuple[int, ...]]]]:
    began = time.perf_counter()
    specs = game_specs(games, seed=seed, players=4)
    rows = [(r.seed, r.totals) for r in run_games(specs, **options)]  # type: ignore[arg-type]
    return time.perf_counter() - began, rows


def _peak_rss_run(games: int, workers: int) -> None:
    """Child mode: play ``games`` games on ``process``, aggregate them, print the peak RSS."""
    europe = load_map("europe")
    stats: BalanceStats | None = None
    result: GameResult
    for result in run_games(game_specs(games, players=4), backend="process", workers=workers):
        if stats is None:
            stats = BalanceStats.for_result(result, len(europe.routes), len(europe.tickets))
        stats.add(result)
    assert stats is not None and stats.games == games
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)  # KiB on Linux


def _throughput(games: int, workers: int, rounds: int) -> None:
    """Serial, process and ray in interleaved rounds (the machine is shared: load changes
    during a run, and interleaving spreads it evenly over the three backends)."""
    import ray

    began = time.perf_counter()
    ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False)
    start_up = time.perf_counter() - began
    seconds = {"serial": 0.0, "process": 0.0, "ray": 0.0}
    rows: dict[str, list[tuple[int, tuple[int, ...]]]] = {k: [] for k in seconds}
    per_round = games // rounds
    try:
        for r in range(rounds):
            seed = r * per_round
            for backend in seconds:
                options: dict[str, object] = {"backend": backend}
                if backend == "process":
                    options["workers"] = workers
                t, got = _timed(per_round, seed, **options)
                seconds[backend] += t
                rows[backend] += got
            print(
                f"round {r + 1}/{rounds}: "
                + ", ".join(
                    f"{k} {per_round * (r + 1) / v:.1f} games/s" for k, v in seconds.items()
                ),
                flush=True,
            )
    finally:
        ray.shutdown()
    assert rows["serial"] == rows["process"] == rows["ray"], "the backends disagree"
    n = per_round * rounds
    base = seconds["serial"]
    print(f"{n} random-agent 4-player games on Europe per backend, identical rows on the three")
    print(f"serial:            {n / base:6.1f} games/s")
    print(
        f"process ({workers} workers): {n / seconds['process']:6.1f} games/s, "
        f"{base / seconds['process']:.2f}x serial"
    )
    print(
        f"ray local ({workers} CPUs): {n / seconds['ray']:6.1f} games/s, "
        f"{base / seconds['ray']:.2f}x serial (Ray took {start_up:.1f} s to start, not counted; "
        f"{base / (seconds['ray'] + start_up):.2f}x with it)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=10, help="interleaved rounds")
    parser.add_argument("--rss", type=int, nargs="*", default=[1000, 10000])
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--peak-rss-run", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peak_rss_run:
        _peak_rss_run(args.peak_rss_run, args.workers)
        return
    if not args.skip_throughput:
        _throughput(args.games, args.workers, args.rounds)
    for games in args.rss:
        began = time.perf_counter()
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--peak-rss-run",
                str(games),
                "--workers",
                str(args.workers),
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        seconds = time.perf_counter() - began
        print(
            f"driver peak RSS after {games} games on process ({args.workers}): "
            f"{int(out.split()[-1]) / 1024:.1f} MiB ({seconds:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
