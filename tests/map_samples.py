"""A small valid map in the project's JSON map format, for map-loading and plugin tests."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

_SMALL_MAP: dict[str, Any] = {
    "format": "ttr-rules-map",
    "format_version": 1,
    "name": "toy",
    "version": "0.1",
    "title": "Toy board",
    "cities": [
        {"name": "Alpha", "lat": 50.0, "lon": 10.0, "aliases": ["A"]},
        {"name": "Beta", "lat": 51.0, "lon": 11.0, "aliases": []},
        {"name": "Gamma", "lat": 52.0, "lon": 12.0},
        {"name": "Delta", "lat": 53.0, "lon": 13.0},
    ],
    "routes": [
        {"a": "Alpha", "b": "Beta", "length": 2, "color": "red"},
        {"a": "Alpha", "b": "Beta", "length": 2, "color": "pink"},
        {"a": "Beta", "b": "Gamma", "length": 3, "tunnel": True},
        {"a": "Gamma", "b": "Delta", "length": 1, "ferry_locomotives": 1},
        {"a": "Alpha", "b": "Delta", "length": 4, "color": "green"},
    ],
    "tickets": [
        {"a": "Alpha", "b": "Beta", "points": 3},
        {"a": "Alpha", "b": "Gamma", "points": 5},
        {"a": "Alpha", "b": "Delta", "points": 4},
        {"a": "Beta", "b": "Gamma", "points": 3},
        {"a": "Beta", "b": "Delta", "points": 6},
        {"a": "Gamma", "b": "Delta", "points": 2},
        {"a": "Beta", "b": "Delta", "points": 9, "long": True},
    ],
    "rules": {"max_players": 2, "initial_long_tickets": 0},
}


def small_map_data(name: str = "toy") -> dict[str, Any]:
    """A fresh copy of a valid 4-city, 5-track, 7-ticket map called ``name``."""
    data = copy.deepcopy(_SMALL_MAP)
    data["name"] = name
    return data


def write_map(path: Path, data: Any) -> Path:
    """Write ``data`` as JSON to ``path`` and return the path."""
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def grid_map_data(width: int, height: int, tickets: int, seed: int = 1) -> dict[str, Any]:
    """A valid map of ``width`` × ``height`` cities joined to their grid neighbours by routes of
    length 1 to 4, and ``tickets`` tickets between random cities at most 6 apart: a board that
    grows with its arguments as a printed board would, for scaling measurements."""
    import random

    rnd = random.Random(seed)
    colours = ["red", "blue", "green", "white", "black", "yellow", "orange", "pink"]

    def name(x: int, y: int) -> str:
        return f"C{x}x{y}"

    cities = [
        {"name": name(x, y), "lat": 10.0 + y * 0.1, "lon": 10.0 + x * 0.1}
        for y in range(height)
        for x in range(width)
    ]
    routes = [
        {"a": name(x, y), "b": name(x + dx, y + dy), "length": rnd.randint(1, 4),
         "color": rnd.choice(colours)}
        for y in range(height)
        for x in range(width)
        for dx, dy in ((1, 0), (0, 1))
        if x + dx < width and y + dy < height
    ]  # fmt: skip
    listed = []
    for i in range(tickets):
        x, y = rnd.randrange(width), rnd.randrange(height)
        x2 = min(max(x + rnd.randint(-3, 3), 0), width - 1)
        y2 = min(max(y + rnd.randint(-3, 3), 0), height - 1)
        if (x2, y2) == (x, y):
            x2 = x + 1 if x + 1 < width else x - 1
        listed.append({"a": name(x, y), "b": name(x2, y2), "points": 1 + i})
    return {
        "format": "ttr-rules-map",
        "format_version": 1,
        "name": "grid",
        "version": "1",
        "cities": cities,
        "routes": routes,
        "tickets": listed,
        "rules": {"max_players": 2},
    }
