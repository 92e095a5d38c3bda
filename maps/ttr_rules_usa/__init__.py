"""The original *Ticket to Ride* (USA) board as a ``ttr_rules.maps`` plugin.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``usa``; ``ttr_rules.load_map("usa")`` calls it. The data, ``usa.json``, is
in the project's map format and carries the USA rules as data (no stations, three regular
tickets dealt of which two are kept, unkept ones under the ticket deck, route scores up to
length 6, a 10-point longest-path bonus, ties broken by completed tickets then by the
longest path): the engine holds no line of USA-specific code.
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules.maps import GameMap, load_map_file

__all__ = ["load"]


def load() -> GameMap:
    """Read and validate the USA map (36 cities, 100 tracks, 30 tickets)."""
    return load_map_file(files(__name__).joinpath("usa.json"))
