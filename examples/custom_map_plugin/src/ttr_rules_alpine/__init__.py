"""Alpine Express: an example ``ttr_rules.maps`` plugin.

The distribution's ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``alpine``, so ``ttr_rules.load_map("alpine")`` calls it. The board is
the JSON file next to this module, read through :mod:`importlib.resources` so that it works
from a wheel, a zip or an editable install.
"""

from __future__ import annotations

from importlib.resources import files

from ttr_rules import GameMap, load_map_file

__all__ = ["load"]


def load() -> GameMap:
    """Read and validate the Alpine Express board (12 cities, 22 tracks, 10 tickets)."""
    return load_map_file(files(__name__).joinpath("alpine.json"))
