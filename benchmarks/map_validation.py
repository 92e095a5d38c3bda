"""Time of map validation (``map_problems``: what ``load_map_file`` and ``ttr validate-map``
run) as a map file grows (issue 44 T6): it should grow linearly, 50 times the tickets costing
at most about 50 times the time.

Boards are grids of cities joined to their neighbours (``tests/map_samples.grid_map_data``):
the tickets alone are multiplied on one board, then the whole board (cities, routes and
tickets) is. Each row prints the CPU seconds of one validation (``time.process_time``, the
best of ``--repeats``: on a shared machine CPU time is steadier than wall time), the file's
items (cities + routes + tickets), the time per item and the ratio to the first row.

    python benchmarks/map_validation.py
    python benchmarks/map_validation.py --repeats 1
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from map_samples import grid_map_data

from ttr_rules.maps import map_problems


def _seconds(data: dict[str, Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.process_time()
        map_problems(data)
        best = min(best, time.process_time() - began)
    return best


def _rows(title: str, shapes: list[tuple[int, int, int]], repeats: int) -> None:
    print(f"\n{title}")
    print(f"{'cities':>7} {'routes':>7} {'tickets':>8} {'seconds':>8} {'µs/item':>8} {'ratio':>6}")
    first = 0.0
    for width, height, tickets in shapes:
        data = grid_map_data(width, height, tickets)
        seconds = _seconds(data, repeats)
        first = first or seconds
        items = len(data["cities"]) + len(data["routes"]) + len(data["tickets"])
        print(
            f"{len(data['cities']):>7} {len(data['routes']):>7} {tickets:>8} {seconds:>8.2f} "
            f"{seconds * 1e6 / items:>8.0f} {seconds / first:>6.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    _rows(
        "More tickets on one board (12 x 12 cities)",
        [(12, 12, 40), (12, 12, 400), (12, 12, 2000)],
        args.repeats,
    )
    _rows(
        "A larger board (cities, routes and tickets alike)",
        [(10, 10, 40), (22, 22, 200), (50, 50, 1000), (70, 70, 2000)],
        args.repeats,
    )


if __name__ == "__main__":
    main()
