"""Tour the installed maps: what `available_maps`, `load_map` and a map's data look like.

Run with ``python examples/map_tour.py``.
"""

from __future__ import annotations

from collections import Counter

from ttr_rules import available_maps, load_map


def main() -> None:
    """Print each installed map with its longest routes and its most valuable tickets."""
    for name in available_maps():
        game_map = load_map(name)
        print(game_map)
        longest = sorted(game_map.routes, key=lambda r: r.length, reverse=True)[:3]
        print("  longest routes:", "; ".join(str(r) for r in longest))
        best = sorted(game_map.tickets, key=lambda t: t.points, reverse=True)[:3]
        print("  best tickets:", "; ".join(str(t) for t in best))
        lengths = Counter(r.length for r in game_map.routes)
        print("  tracks by length:", dict(sorted(lengths.items())))


if __name__ == "__main__":
    main()
