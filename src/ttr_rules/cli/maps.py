"""``ttr maps``, ``ttr map-info NAME|FILE`` and ``ttr validate-map FILE``: the map commands."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from ..cards import CARD_COLORS
from ..errors import MapError, MapLoadError
from ..maps import GameMap, available_maps, load_map, load_map_file
from .common import error, table

__all__ = [
    "configure_map_info",
    "configure_maps",
    "configure_validate_map",
    "map_info_lines",
    "map_named",
    "run_map_info",
    "run_maps",
    "run_validate_map",
]


# --------------------------------------------------------------------------- ttr maps


def configure_maps(parser: argparse.ArgumentParser) -> None:
    parser.description = "List the installed maps."


def run_maps(args: argparse.Namespace) -> int:
    rows = [("name", "version", "cities", "routes", "tickets", "title")]
    status = 0
    for name in available_maps():
        try:
            m = load_map(name)
        except MapError as exc:
            error(str(exc))
            status = 1
            continue
        rows.append(
            (
                m.name,
                m.version,
                str(len(m.cities)),
                str(len(m.routes)),
                str(len(m.tickets)),
                m.title,
            )
        )
    print(table(rows, numeric=(2, 3, 4)))
    return status


# --------------------------------------------------------------------------- ttr map-info


def configure_map_info(parser: argparse.ArgumentParser) -> None:
    parser.description = "Show a map's statistics: routes by length and colour, tickets by value."
    parser.add_argument("name", metavar="NAME", help="an installed map's name, or a map file")


def run_map_info(args: argparse.Namespace) -> int:
    print("\n".join(map_info_lines(map_named(args.name))))
    return 0


def map_named(name: str) -> GameMap:
    """An installed map, or the map file at ``name`` when it names an existing file."""
    if name.endswith(".json") or Path(name).is_file():
        return load_map_file(name)
    return load_map(name)


def map_info_lines(game_map: GameMap) -> list[str]:
    """The text of ``ttr map-info``: counts by length, colour, tunnels, ferries, tickets."""
    m = game_map
    routes = m.routes
    ferries = [r for r in routes if r.ferry_locomotives]
    colours = Counter(r.color.value if r.color is not None else "gray" for r in routes)
    long_tickets = sum(t.long for t in m.tickets)
    title = f" - {m.title}" if m.title else ""
    return [
        f"{m.name} {m.version}{title}",
        f"digest: {m.digest}",
        f"cities: {len(m.cities)}",
        f"routes: {len(routes)} tracks, {sum(r.length for r in routes)} spaces",
        "  by length: " + _counts(Counter(r.length for r in routes)),
        "  by colour: " + ", ".join(f"{c} {colours[c]}" for c in _COLOUR_ORDER if colours[c]),
        f"  tunnels: {sum(r.tunnel for r in routes)}",
        f"  ferries: {len(ferries)} ({sum(r.ferry_locomotives for r in ferries)} locomotives)",
        f"  double routes: {sum(r.double_of is not None for r in routes) // 2}",
        f"tickets: {len(m.tickets)} ({long_tickets} long, {len(m.tickets) - long_tickets} "
        f"regular), {sum(t.points for t in m.tickets)} points",
        "  by value: " + _counts(Counter(t.points for t in m.tickets)),
    ]


_COLOUR_ORDER = (*(c.value for c in CARD_COLORS), "gray")


def _counts(counter: Counter[int]) -> str:
    """``1×4, 2×35`` for a counter of integers, in increasing order."""
    return ", ".join(f"{value}×{n}" for value, n in sorted(counter.items()))


# --------------------------------------------------------------------------- ttr validate-map


def configure_validate_map(parser: argparse.ArgumentParser) -> None:
    parser.description = "Check a map file; print every problem (exit status 1 if any)."
    parser.add_argument("file", metavar="FILE", help="a map file in the ttr-rules JSON format")


def run_validate_map(args: argparse.Namespace) -> int:
    try:
        game_map = load_map_file(args.file)
    except MapLoadError as exc:
        for line in exc.problems or (str(exc),):
            print(line)
        return 1
    print(f"ok: {args.file}: {game_map}")
    return 0
