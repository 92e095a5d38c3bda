"""The original *Ticket to Ride* (USA) board as a ``ttr_rules.maps`` plugin, with the USA 1910
decks.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``usa``; ``ttr_rules.load_map("usa")`` calls it. The data, ``usa.json``, is
in the project's map format and carries the USA rules as data (no stations, three regular
tickets dealt of which two are kept, unkept ones under the ticket deck, route scores up to
length 6, a 10-point longest-path bonus, ties broken by completed tickets then by the
longest path): the engine holds no line of USA-specific code.

The USA 1910 variants are maps of their own on this board (``GameMap.board == "usa"``):
``usa-1910``, ``usa-mega`` and ``usa-big-cities``. Each variant file names the board and brings
its deck and rules (docs/maps.md, policy U30).
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules.maps import GameMap, load_map_file, load_variant_file

__all__ = ["load", "load_1910", "load_big_cities", "load_mega"]


def load() -> GameMap:
    """Read and validate the USA map (36 cities, 100 tracks, 30 tickets)."""
    return load_map_file(files(__name__).joinpath("usa.json"))


def load_1910() -> GameMap:
    """USA 1910: the 35 new tickets, the Globetrotter (15) instead of the longest path."""
    return load_variant_file(files(__name__).joinpath("usa_1910.json"))


def load_mega() -> GameMap:
    """The Mega Game: all 69 tickets, 5 dealt, keep 3, draw 4; both bonuses."""
    return load_variant_file(files(__name__).joinpath("usa_mega.json"))


def load_big_cities() -> GameMap:
    """Big Cities: the 35 big-city tickets, 4 dealt, keep 2, draw 4; no bonus."""
    return load_variant_file(files(__name__).joinpath("usa_big_cities.json"))
