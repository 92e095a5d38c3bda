"""The Ticket to Ride Europe board as a ``ttr_rules.maps`` plugin, with the Europa 1912 decks.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``europe``; ``ttr_rules.load_map("europe")`` calls it. The data,
``europe.json``, is in the project's map format and is read through :mod:`importlib.resources`.

The Europa 1912 variants are maps of their own on this board (``GameMap.board == "europe"``):
``europe-1912`` (Europe Expanded), ``europe-1912-mega`` and ``europe-1912-big-cities``. Each
variant file names the board and brings its deck and rules (docs/maps.md, policy U30).
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules import GameMap, load_map_file
from ttr_rules.maps import load_variant_file

__all__ = ["load", "load_1912", "load_1912_big_cities", "load_1912_mega"]


def load() -> GameMap:
    """Read and validate the Europe map (47 cities, 101 tracks, 46 tickets)."""
    return load_map_file(files(__name__).joinpath("europe.json"))


def load_1912() -> GameMap:
    """Europe Expanded: the 46 original tickets and the 19 new regular ones (65)."""
    return load_variant_file(files(__name__).joinpath("europe_1912.json"))


def load_1912_mega() -> GameMap:
    """Mega Europe: all 101 tickets, 2 long and 5 regular dealt, keep 3."""
    return load_variant_file(files(__name__).joinpath("europe_1912_mega.json"))


def load_1912_big_cities() -> GameMap:
    """Big Cities of Europe: the 45 big-city tickets, 5 dealt, keep 2, draw 4."""
    return load_variant_file(files(__name__).joinpath("europe_1912_big_cities.json"))
