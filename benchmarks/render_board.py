"""The cost of drawing the Europe board (issue 30: within 2x of the straight-line board's ~7 ms).

Run it for two trees in one interleaved run, so both suffer the same load::

    python benchmarks/render_board.py --other /path/to/other/tree

Each round times ``svg()`` of the same mid-game position in this process's tree and, with
``--other``, in a subprocess on the other tree's ``src/`` and ``maps/``; it prints milliseconds
per drawing (median of the rounds) and their ratio. "cold" drawings start without the cached
board geometry and fixed parts (the first drawing of a map at a size in a process), "warm"
ones are what a server pays on every refresh. Times are the process's CPU time
(``time.process_time``), which a busy machine disturbs far less than wall time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

PROBE = r"""
import random, sys, time
from ttr_rules import apply_action, legal_actions, new_game
from ttr_rules.render import svg
from ttr_rules.render import layout
state = new_game("europe", 3, seed=1)
rnd = random.Random(1)
for _ in range(120):
    state = apply_action(state, rnd.choice(legal_actions(state)))
import importlib
svg_module = importlib.import_module("ttr_rules.render.svg")  # the module, not the function
def forget():
    # every render cache but the city layout (which the old tree had too)
    try:
        from ttr_rules.render import geometry
        geometry._cached_geometry.cache_clear()
    except ImportError:
        pass
    if hasattr(svg_module, "_static_parts"):
        svg_module._static_parts.cache_clear()
def cold():
    forget()
    start = time.process_time()
    svg(state, size=900)
    return time.process_time() - start
def warm(n=20):
    svg(state, size=900)
    start = time.process_time()
    for _ in range(n):
        svg(state, size=900)
    return (time.process_time() - start) / n
layout.city_layout(state.map)
print(min(cold() for _ in range(3)) * 1e3, warm() * 1e3)
"""


def _probe(tree: str | None) -> tuple[float, float]:
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = os.pathsep.join((f"{tree}/src", f"{tree}/maps"))
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", help="another tree (a checkout) to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mine: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        mine.append(_probe(here))
        if args.other:
            theirs.append(_probe(args.other))
        time.sleep(0.1)
    for name, rows in (("this tree", mine), ("other tree", theirs)):
        if rows:
            cold = statistics.median(r[0] for r in rows)
            warm = statistics.median(r[1] for r in rows)
            print(f"{name}: cold {cold:.1f} ms, warm {warm:.1f} ms per Europe board")
    if theirs:
        cold_ratio = statistics.median(a[0] / b[0] for a, b in zip(mine, theirs, strict=True))
        warm_ratio = statistics.median(a[1] / b[1] for a, b in zip(mine, theirs, strict=True))
        print(f"ratio this/other: cold {cold_ratio:.2f}x, warm {warm_ratio:.2f}x")


if __name__ == "__main__":
    main()
