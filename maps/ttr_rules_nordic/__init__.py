"""The *Ticket to Ride: Nordic Countries* board as a ``ttr_rules.maps`` plugin.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``nordic``; ``ttr_rules.load_map("nordic")`` calls it. The data,
``nordic.json``, is in the project's map format and carries every Nordic rule as data:
locomotives wild only on ferries and tunnels, any 3 cards for a ferry's locomotive, any 4 cards
for a card of the colour on Lieksa–Murmansk, no stations, no face-up reset, a face-up
locomotive that counts as one card, returned tickets out of the game, and the Globetrotter
bonus instead of the longest path (docs/maps.md): the engine holds no Nordic-specific code.
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules.maps import GameMap, load_map_file

__all__ = ["load"]


def load() -> GameMap:
    """Read and validate the Nordic Countries map (39 cities, 81 tracks, 46 tickets)."""
    return load_map_file(files(__name__).joinpath("nordic.json"))
