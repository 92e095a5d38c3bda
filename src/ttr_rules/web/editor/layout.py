"""The car spaces the workbench lays along a route: on the straight line between its cities, or
on the quadratic curve of the route's ``bend`` (the same curve ``ttr render`` draws a bent route
on), one space per unit of length, the two tracks of a double side by side.

Positions are fractions of the board's frame; the curve is drawn in the frame's pixels, so a
bend keeps its shape relative to the route's ends when a city moves.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

__all__ = ["MAX_BEND", "route_spaces"]

#: The largest bend, as in the map format: the curve's middle lies at most half the
#: distance between the cities off the straight line.
MAX_BEND = 0.5
#: The points a curve is measured by (enough that 20 spaces sit on it to a pixel).
_SAMPLES = 64

Point = tuple[float, float]


def route_spaces(document: dict[str, Any], index: int) -> list[list[float]]:
    """The car spaces ``[x, y, angle]`` of route ``index``, from its ``a`` to its ``b``: along
    its bend's curve (straight without one), beside its twin on a double route, spread so that
    its first and last spaces lie near its cities. ``[]`` when a city has no position.

    >>> doc = {"frame": {"width": 1000.0, "height": 700.0},
    ...        "cities": [{"name": "A", "position": [0.1, 0.5]},
    ...                   {"name": "B", "position": [0.3, 0.5]}],
    ...        "routes": [{"a": "A", "b": "B", "length": 2}]}
    >>> route_spaces(doc, 0)
    [[0.175, 0.5, 0.0], [0.225, 0.5, 0.0]]
    >>> doc["routes"][0]["bend"] = 0.25
    >>> [round(s[1], 3) for s in route_spaces(doc, 0)]
    [0.566, 0.566]
    """
    routes = document["routes"]
    route = routes[index]
    twins = [
        i for i, r in enumerate(routes) if {r.get("a"), r.get("b")} == {route["a"], route["b"]}
    ]
    lead = routes[twins[0]]
    where = {c.get("name"): c.get("position") for c in document["cities"]}
    start: Any = where.get(lead["a"])
    end: Any = where.get(lead["b"])
    if not _is_point(start) or not _is_point(end):
        return []
    frame = document.get("frame") or {}
    width, height = float(frame.get("width", 1000.0)), float(frame.get("height", 700.0))
    car = float(frame.get("car_length") or width * 0.035)
    a, b = (start[0] * width, start[1] * height), (end[0] * width, end[1] * height)
    line = _curve(a, b, _bend(lead))
    if len(twins) > 1:
        shift = 0.6 * float(frame.get("car_width") or car / 3)
        line = _offset(line, shift if twins[0] == index else -shift)
    if route["a"] != lead["a"]:
        line.reverse()
    length = route.get("length")
    count = length if isinstance(length, int) and 1 <= length <= 100 else 1
    return [
        [_fraction(x / width), _fraction(y / height), angle]
        for x, y, angle in _along(line, count, car * 1.05)
    ]


def _is_point(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and math.isfinite(v) for v in value)
    )


def _bend(route: dict[str, Any]) -> float:
    bend = route.get("bend", 0.0)
    if not isinstance(bend, int | float) or not math.isfinite(bend):
        return 0.0
    return max(-MAX_BEND, min(MAX_BEND, float(bend)))


def _curve(a: Point, b: Point, bend: float) -> list[Point]:
    """Points along the quadratic curve from ``a`` to ``b`` whose middle lies ``bend`` times
    their distance off the straight line (positive: to the right going from a to b, y down)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    cx, cy = (a[0] + b[0]) / 2 - dy * bend * 2, (a[1] + b[1]) / 2 + dx * bend * 2
    out = []
    for i in range(_SAMPLES + 1):
        t = i / _SAMPLES
        s = 1 - t
        out.append(
            (
                s * s * a[0] + 2 * s * t * cx + t * t * b[0],
                s * s * a[1] + 2 * s * t * cy + t * t * b[1],
            )
        )
    return out


def _offset(line: list[Point], shift: float) -> list[Point]:
    """``line`` moved ``shift`` along its normal at each point (to the left going forward)."""
    out = []
    for i, (x, y) in enumerate(line):
        px, py = line[max(0, i - 1)]
        nx, ny = line[min(len(line) - 1, i + 1)]
        dx, dy = nx - px, ny - py
        size = math.hypot(dx, dy) or 1.0
        out.append((x + dy / size * shift, y - dx / size * shift))
    return out


def _along(line: list[Point], count: int, car: float) -> list[tuple[float, float, float]]:
    """``count`` points spread along ``line`` with their direction in degrees: a car's length
    apart where the line is long enough, closer where it is short, and never more than one and
    a half steps from an end (so a long route's ends stay near its cities)."""
    steps = [math.dist(p, q) for p, q in itertools.pairwise(line)]
    total = sum(steps) or 1.0
    step = max(min(car, total / (count + 1)), total / (count + 2))
    first = (total - step * (count - 1)) / 2
    out = []
    walked, segment = 0.0, 0
    for n in range(count):
        target = first + n * step
        while segment < len(steps) - 1 and walked + steps[segment] < target:
            walked += steps[segment]
            segment += 1
        (x0, y0), (x1, y1) = line[segment], line[segment + 1]
        part = (target - walked) / (steps[segment] or 1.0)
        angle = round(math.degrees(math.atan2(y1 - y0, x1 - x0)), 1)
        out.append((x0 + (x1 - x0) * part, y0 + (y1 - y0) * part, angle))
    return out


def _fraction(value: float) -> float:
    return round(min(1.0, max(0.0, value)), 5)
