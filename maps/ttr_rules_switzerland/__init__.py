"""The *Ticket to Ride: Switzerland* board as a ``ttr_rules.maps`` plugin.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``switzerland``. The data, ``switzerland.json``, is in the project's map
format and carries every Swiss rule as data: the countries France, Deutschland, Österreich
and Italia with their 17 border end-points, city-to-country and country-to-country tickets
(the best destination reached scores, none loses the lowest value), 40 trains and no
stations, locomotives wild only on tunnels, a face-up locomotive that counts as one card, 5
tickets dealt and 2 kept, returned tickets out of the game, doubles open to both tracks at 3
players, the longest path worth 10 (docs/maps.md): the engine holds no Swiss-specific code.
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules.maps import GameMap, load_map_file

__all__ = ["load"]


def load() -> GameMap:
    """Read and validate the Swiss map (34 cities, 4 countries, 88 tracks, 46 tickets)."""
    return load_map_file(files(__name__).joinpath("switzerland.json"))
