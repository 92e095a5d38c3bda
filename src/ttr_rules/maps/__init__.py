"""Maps: the model, the JSON map format, content checks and the plugin registry.

- :mod:`~ttr_rules.maps.model`: :class:`GameMap`, :class:`Route`, :class:`Ticket`,
  :class:`Geometry`, :class:`Countries` (plain immutable data);
- :mod:`~ttr_rules.maps.file`: the JSON map format (:func:`load_map_file`, :func:`map_schema`);
- :mod:`~ttr_rules.maps.check`: the content checks (:func:`validate_map`, and
  :func:`deal_problems`, whether the tickets suffice for a deal);
- :mod:`~ttr_rules.maps.registry`: installed map plugins (:func:`available_maps`,
  :func:`load_map`, :func:`resolve_map`, :func:`playable_maps`, :func:`broken_maps`);
- :mod:`~ttr_rules.maps.variant`: variant files, another deck and rules on an installed board
  (:func:`load_variant_file`);
- :mod:`~ttr_rules.maps.index`: the tables derived from a map for the engine, scoring and the
  notation, cached on the map (internal).

Each module imports only those listed before it.
"""

from __future__ import annotations

from .check import Problem, deal_problems, validate_map
from .file import (
    FORMAT,
    FORMAT_VERSION,
    MapSource,
    load_map_file,
    map_from_dict,
    map_problems,
    map_schema,
    map_to_dict,
    parse_map_text,
)
from .model import Countries, GameMap, Geometry, Route, Ticket, compute_digest
from .registry import (
    ENTRY_POINT_GROUP,
    LOAD_SECONDS,
    BrokenMap,
    MapPlugin,
    available_maps,
    broken_maps,
    clear_cache,
    discover,
    load_map,
    map_groups,
    playable_maps,
    resolve_map,
)
from .variant import VARIANT_FORMAT, load_variant_file, variant_from_dict

__all__ = [
    "ENTRY_POINT_GROUP",
    "FORMAT",
    "FORMAT_VERSION",
    "LOAD_SECONDS",
    "VARIANT_FORMAT",
    "BrokenMap",
    "Countries",
    "GameMap",
    "Geometry",
    "MapPlugin",
    "MapSource",
    "Problem",
    "Route",
    "Ticket",
    "available_maps",
    "broken_maps",
    "clear_cache",
    "compute_digest",
    "deal_problems",
    "discover",
    "load_map",
    "load_map_file",
    "load_variant_file",
    "map_from_dict",
    "map_groups",
    "map_problems",
    "map_schema",
    "map_to_dict",
    "parse_map_text",
    "playable_maps",
    "resolve_map",
    "validate_map",
    "variant_from_dict",
]
