"""Alpine Express: an example ``ttr_rules.maps`` plugin with a bonus scorer of its own.

The distribution's ``pyproject.toml`` registers :func:`load` under the entry-point group
``ttr_rules.maps`` as ``alpine``, so ``ttr_rules.load_map("alpine")`` calls it, and
:func:`~ttr_rules_alpine.bonus.summit` under ``ttr_rules.bonuses`` as ``summit``. The board is
the JSON file next to this module, read through :mod:`importlib.resources` so that it works
from a wheel, a zip or an editable install.
"""

from __future__ import annotations

import json
from importlib.resources import files

from ttr_rules import GameMap
from ttr_rules.maps import map_from_dict

__all__ = ["BONUSES", "load"]

#: The end-of-game bonuses of the installed map: the longest path, then this plugin's own.
BONUSES = ("express", "summit")


def load() -> GameMap:
    """Read and validate the Alpine Express board (12 cities, 22 tracks, 10 tickets), scored
    with :data:`BONUSES`.

    ``alpine.json`` itself keeps the library's bonuses, so that the file stays a plain map file
    that loads where this distribution is not installed; a map whose file names a plugin's
    bonus (``"bonuses": ["express", "summit"]``) needs the plugin wherever it is loaded.
    """
    source = files(__name__).joinpath("alpine.json")
    data = json.loads(source.read_text(encoding="utf-8"))
    data["rules"]["bonuses"] = list(BONUSES)
    return map_from_dict(data, str(source))
