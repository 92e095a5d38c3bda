"""The *Ticket to Ride: India* board as a ``ttr_rules.maps`` plugin.

The library's own ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``india``. The data, ``india.json``, is in the project's map format and
carries every India rule as data: 45 trains and no stations, ferries, 4 tickets dealt and 2
kept, doubles open to both tracks at 4 players, the Indian Express (longest path) and the
Grand Tour (the registered ``grand_tour`` scorer) (docs/maps.md): the engine holds no
India-specific code.
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules.maps import GameMap, load_map_file

__all__ = ["load"]


def load() -> GameMap:
    """Read and validate the India map (39 cities, 108 tracks, 58 tickets)."""
    return load_map_file(files(__name__).joinpath("india.json"))
