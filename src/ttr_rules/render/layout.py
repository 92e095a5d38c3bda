"""Where each city goes on the picture: a projection of the map's locations, or a fixed-seed
force layout for maps that have none.

Both give positions scaled to a width of 1 (``y`` growing downwards) together with the aspect
ratio (height / width) of the drawing, so that the SVG writer only scales.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from attrs import frozen

from ..maps import GameMap, Geometry

__all__ = ["Layout", "city_layout"]

#: The seed of the force layout used for maps without locations.
LAYOUT_SEED = 7


@frozen
class Layout:
    """City positions: ``0 <= x <= 1`` across, ``0 <= y <= aspect`` down (height / width)."""

    positions: Mapping[str, tuple[float, float]]
    aspect: float


def city_layout(game_map: GameMap) -> Layout:
    """Positions for every city of ``game_map``.

    A map with its board as printed (``GameMap.geometry``) has its cities where the board
    prints them. With a location for every city (``GameMap.locations``, latitude and
    longitude) the cities are placed by an equirectangular projection centred on the map
    (longitudes shrunk by the cosine of the mean latitude), which keeps a continent's familiar
    shape. Without them a deterministic force-directed layout of the route graph is used, so
    plugin maps render too.

    >>> from ttr_rules import load_map
    >>> layout = city_layout(load_map("europe"))
    >>> x, y = layout.positions["Lisboa"]
    >>> x < 0.05 and y > 0.8 * layout.aspect  # the south-west corner
    True
    """
    # Maps compare without their drawing data, so it is part of the cache key.
    return _cached_layout(game_map, game_map.locations, game_map.geometry)


@functools.lru_cache(maxsize=32)
def _cached_layout(
    game_map: GameMap, locations: tuple[tuple[float, float], ...], printed: Geometry | None
) -> Layout:
    cities = game_map.cities
    if printed is not None:
        points = [(x * printed.width, y * printed.height) for x, y in printed.positions]
    elif cities and len(locations) == len(cities):
        points = _relax(game_map, _project(locations))
    else:
        points = _force_layout(game_map)
    return _normalise(cities, points)


def _project(locations: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    mean_lat = sum(lat for lat, _ in locations) / len(locations)
    shrink = math.cos(math.radians(mean_lat))
    return [(lon * shrink, -lat) for lat, lon in locations]


def _relax(
    game_map: GameMap, points: list[tuple[float, float]], iterations: int = 400
) -> list[tuple[float, float]]:
    """Nudge projected cities so that each route's length on the picture is closer to its
    number of spaces, as on a printed board, and no two cities crowd each other, while every
    city stays near its geographic place (a small stress majorisation anchored to the map)."""
    index = {c: i for i, c in enumerate(game_map.cities)}
    edges = sorted({(index[r.a], index[r.b], r.length) for r in game_map.routes})
    if not edges:
        return points
    ratios = sorted(math.dist(points[i], points[j]) / n for i, j, n in edges)
    unit = ratios[len(ratios) // 2]
    anchor = list(points)
    pos = [list(p) for p in points]
    n = len(pos)
    for _ in range(iterations):
        move = [[0.0, 0.0] for _ in range(n)]
        for i, j, length in edges:
            dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
            d = max(math.hypot(dx, dy), 1e-9)
            pull = 0.5 * (d - length * unit) / d
            move[i][0] += dx * pull
            move[i][1] += dy * pull
            move[j][0] -= dx * pull
            move[j][1] -= dy * pull
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                d = max(math.hypot(dx, dy), 1e-9)
                if d < 1.8 * unit:
                    push = 0.5 * (d - 1.8 * unit) / d
                    move[i][0] += dx * push
                    move[i][1] += dy * push
                    move[j][0] -= dx * push
                    move[j][1] -= dy * push
        for i in range(n):
            move[i][0] += 0.2 * (anchor[i][0] - pos[i][0])
            move[i][1] += 0.2 * (anchor[i][1] - pos[i][1])
            pos[i][0] += 0.1 * move[i][0]
            pos[i][1] += 0.1 * move[i][1]
    return [(x, y) for x, y in pos]


def _force_layout(game_map: GameMap, iterations: int = 300) -> list[tuple[float, float]]:
    """A Fruchterman–Reingold layout with a fixed seed, in pure Python (networkx's needs
    numpy, which the core does not depend on). Routes pull their cities to a distance
    proportional to their length; all cities repel."""
    cities = game_map.cities
    index = {c: i for i, c in enumerate(cities)}
    n = len(cities)
    rnd = random.Random(LAYOUT_SEED)
    pos = [[rnd.random(), rnd.random()] for _ in range(n)]
    edges = {
        (min(index[r.a], index[r.b]), max(index[r.a], index[r.b])): r.length
        for r in game_map.routes
    }
    k = 1.0 / math.sqrt(max(n, 1))
    temperature = 0.1
    for _ in range(iterations):
        disp = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                d2 = max(dx * dx + dy * dy, 1e-9)
                f = k * k / d2
                disp[i][0] += dx * f
                disp[i][1] += dy * f
                disp[j][0] -= dx * f
                disp[j][1] -= dy * f
        for (i, j), length in edges.items():
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = max(math.hypot(dx, dy), 1e-9)
            f = d / (k * (1 + length) / 2)
            disp[i][0] -= dx * f
            disp[i][1] -= dy * f
            disp[j][0] += dx * f
            disp[j][1] += dy * f
        for i in range(n):
            dx, dy = disp[i]
            d = max(math.hypot(dx, dy), 1e-9)
            step = min(d, temperature)
            pos[i][0] += dx / d * step
            pos[i][1] += dy / d * step
        temperature *= 0.985
    return [(x, y) for x, y in pos]


def _normalise(cities: Sequence[str], points: Sequence[tuple[float, float]]) -> Layout:
    if not points:
        return Layout(MappingProxyType({}), 1.0)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    width = max(max(xs) - min(xs), 1e-9)
    height = max(max(ys) - min(ys), 1e-9)
    positions = {
        city: ((x - min(xs)) / width, (y - min(ys)) / width)
        for city, (x, y) in zip(cities, points, strict=True)
    }
    return Layout(MappingProxyType(positions), height / width if len(points) > 1 else 1.0)
