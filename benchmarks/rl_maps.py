"""The table of docs/rl.md that lists every installed map's RL environments (issue 48): its
Gymnasium id, its PettingZoo name, the observation and action sizes per player count, and the
Gymnasium environment's steps per second. A script, so that the table stays true as maps come:

    python benchmarks/rl_maps.py            # measure and rewrite the table in docs/rl.md
    python benchmarks/rl_maps.py --check    # exit 1 if a row's ids or sizes are out of date

Steps per second: the Gymnasium environment at 2 players against ``random``, stepped the way
MaskablePPO steps it (``benchmarks/rl_env.py --gymnasium``), in CPU time of this process over
``--games`` games (default 4), best of ``--rounds`` rounds (default 2). The tests check the
other columns (:func:`rows` with ``speed=False``), never the speed.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from rl_env import gymnasium_games  # (run from benchmarks/, or with it on the path)

from ttr_rules import available_maps, load_map
from ttr_rules.rl import ActionSpace, observation_layout
from ttr_rules.rl.gymnasium import TicketToRideEnv
from ttr_rules.rl.pettingzoo import metadata_name
from ttr_rules.rl.registration import env_id

DOC = Path(__file__).resolve().parents[1] / "docs" / "rl.md"
BEGIN = "% rl-maps: begin (written by benchmarks/rl_maps.py, which measures the last column)"
END = "% rl-maps: end"
HEADER = (
    "| map | Gymnasium id | PettingZoo name | players | observation | actions | steps/s |",
    "|---|---|---|---|---:|---:|---:|",
)


def sizes(values: list[int]) -> str:
    """One size, or one per player count joined by slashes."""
    return str(values[0]) if len(set(values)) == 1 else " / ".join(map(str, values))


def steps_per_second(name: str, games: int, rounds: int) -> float:
    e = TicketToRideEnv(name, 2, opponents="random")
    best, steps = float("inf"), 0
    for _ in range(rounds):
        began = time.process_time()
        steps = gymnasium_games(e, range(games))
        best = min(best, time.process_time() - began)
    return steps / best


def row_key(line: str) -> list[str]:
    """A row's cells but the last (the measured one)."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")][:-1]


def rows(*, speed: bool = True, games: int = 4, rounds: int = 2) -> list[str]:
    """One table row per installed map (``steps/s`` left as ``—`` without ``speed``)."""
    lines = []
    for name in available_maps():
        game_map = load_map(name)
        counts = range(game_map.rules.min_players, game_map.rules.max_players + 1)
        observation = [observation_layout(game_map, n).size for n in counts]
        actions = [ActionSpace(game_map, n).size for n in counts]
        rate = f"{steps_per_second(name, games, rounds):,.0f}" if speed else "—"
        cells = [
            f"`{name}`",
            f"`{env_id(name)}`",
            f"`{metadata_name(name)}`",
            f"{counts.start}–{counts.stop - 1}",
            sizes(observation),
            sizes(actions),
            rate,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def written(text: str) -> list[str]:
    """The table's rows as docs/rl.md has them."""
    found = re.search(f"^{re.escape(BEGIN)}\n(.*?)^{re.escape(END)}$", text, re.M | re.S)
    if found is None:
        raise ValueError(f"docs/rl.md has no table between {BEGIN!r} and {END!r}")
    return [line for line in found.group(1).splitlines() if line.startswith("| `")]


def problems(text: str) -> list[str]:
    """What the table in ``text`` gets wrong, but for the speed: rows missing, extra or
    different."""
    want = {tuple(row_key(line)) for line in rows(speed=False)}
    have = {tuple(row_key(line)) for line in written(text)}
    return [f"missing: {' | '.join(r)}" for r in sorted(want - have)] + [
        f"out of date or not installed: {' | '.join(r)}" for r in sorted(have - want)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check the ids and sizes only")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    text = DOC.read_text(encoding="utf-8")
    if args.check:
        found = problems(text)
        print("\n".join(found) or "the table is up to date")
        return 1 if found else 0
    table = "\n".join([BEGIN, *HEADER, *rows(games=args.games, rounds=args.rounds), END])
    pattern = f"^{re.escape(BEGIN)}\n.*?^{re.escape(END)}$"
    DOC.write_text(re.sub(pattern, lambda _: table, text, flags=re.M | re.S), encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
