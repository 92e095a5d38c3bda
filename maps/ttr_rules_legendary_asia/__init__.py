"""The *Ticket to Ride: Legendary Asia* board as a ``ttr_rules.maps`` plugin.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``legendary-asia``; ``ttr_rules.load_map("legendary-asia")`` calls it.
The data, ``legendary_asia.json``, is in the project's map format and carries every rule of the
board as data: mountain routes (a route's ``mountain``, the X marks, and ``mountain_points``),
no stations, and the Asian Explorer bonus (``"bonuses": ["asian_explorer"]``) instead of the
longest path (docs/maps.md): the engine holds no code of its own for this board.
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules.maps import GameMap, load_map_file

__all__ = ["load"]


def load() -> GameMap:
    """Read and validate the Legendary Asia map (39 cities, 100 tracks, 36 tickets)."""
    return load_map_file(files(__name__).joinpath("legendary_asia.json"))
