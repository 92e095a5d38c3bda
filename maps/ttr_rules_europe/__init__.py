"""The Ticket to Ride Europe board as a ``ttr_rules.maps`` plugin.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``europe``; ``ttr_rules.load_map("europe")`` calls it. The data,
``europe.json``, is in the project's map format and is read through :mod:`importlib.resources`.
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules import GameMap, load_map_file

__all__ = ["load"]


def load() -> GameMap:
    """Read and validate the Europe map (47 cities, 101 tracks, 46 tickets)."""
    return load_map_file(files(__name__).joinpath("europe.json"))
