"""The edits of the workbench: each changes a map document (the map-file JSON) in place or
raises :class:`~.workbench.EditError` in plain words.

Positions are fractions of the board's frame. Where the map's routes carry car spaces, a new
route gets spaces on the straight line between its cities, and a moved city takes its routes'
spaces along.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import attrs

from ...rules import Rules
from .workbench import MAX_CITIES, MAX_ROUTES, MAX_TICKETS, EditError, shortest_spaces

__all__ = [
    "add_city",
    "add_route",
    "add_ticket",
    "delete_city",
    "delete_route",
    "delete_ticket",
    "move_city",
    "rename_city",
    "rule_defaults",
    "set_details",
    "set_rule",
    "update_route",
    "update_ticket",
]


def _index_of_city(document: dict[str, Any], name: str) -> int:
    for index, city in enumerate(document["cities"]):
        if city.get("name") == name:
            return index
    raise EditError(f"there is no city named '{name}'")


def _free_name(document: dict[str, Any], name: str) -> None:
    if any(city.get("name") == name for city in document["cities"]):
        raise EditError(f"there is already a city named '{name}'")


def add_city(document: dict[str, Any], name: str, x: float, y: float) -> None:
    """A new city at ``(x, y)``; where the other cities have a latitude and longitude, the
    new one gets both, read off the board from theirs.

    >>> doc = {"cities": [], "routes": [], "tickets": []}
    >>> add_city(doc, "Alba", 0.5, 0.25); doc["cities"]
    [{'name': 'Alba', 'position': [0.5, 0.25], 'aliases': []}]
    """
    _free_name(document, name)
    _check_point(x, y)
    if len(document["cities"]) >= MAX_CITIES:
        raise EditError(f"a map holds at most {MAX_CITIES} cities")
    city: dict[str, Any] = {"name": name, "position": [x, y], "aliases": []}
    located = [c for c in document["cities"] if "lat" in c and "position" in c]
    if located and len(located) == len(document["cities"]):
        city["lat"] = _fit(located, 1, "lat", y, (-90.0, 90.0))
        city["lon"] = _fit(located, 0, "lon", x, (-180.0, 180.0))
    document["cities"].append(city)


def _fit(
    cities: list[dict[str, Any]], axis: int, key: str, at: float, bounds: tuple[float, float]
) -> float:
    """A least-squares line from the cities' positions on one axis to one coordinate."""
    xs = [float(c["position"][axis]) for c in cities]
    ys = [float(c[key]) for c in cities]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = (
        sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
        if spread
        else 0.0
    )
    return round(min(bounds[1], max(bounds[0], mean_y + slope * (at - mean_x))), 2)


def _check_point(x: float, y: float) -> None:
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        raise EditError("a city's x and y are fractions of the board, from 0 to 1")


def move_city(document: dict[str, Any], name: str, x: float, y: float) -> None:
    _check_point(x, y)
    document["cities"][_index_of_city(document, name)]["position"] = [x, y]
    for index, route in enumerate(document["routes"]):
        if name in (route.get("a"), route.get("b")) and "spaces" in route:
            route["spaces"] = _spaces(document, index)


def rename_city(document: dict[str, Any], name: str, to: str) -> None:
    """Rename a city, in its routes and tickets too."""
    if to == name:
        return
    index = _index_of_city(document, name)
    _free_name(document, to)
    document["cities"][index]["name"] = to
    for entry in (*document["routes"], *document["tickets"]):
        for key in ("a", "b"):
            if entry.get(key) == name:
                entry[key] = to
        for destination in entry.get("destinations", ()):
            if destination.get("to") == name:
                destination["to"] = to


def delete_city(document: dict[str, Any], name: str) -> None:
    """Delete a city with its routes and tickets."""
    del document["cities"][_index_of_city(document, name)]

    def touches(entry: dict[str, Any]) -> bool:
        places = {entry.get("a"), entry.get("b")}
        places.update(d.get("to") for d in entry.get("destinations", ()))
        return name in places

    document["routes"] = [r for r in document["routes"] if not touches(r)]
    document["tickets"] = [t for t in document["tickets"] if not touches(t)]


def add_route(document: dict[str, Any], a: str, b: str, fields: dict[str, Any]) -> None:
    """A route between two cities; with car spaces when the map's routes have them."""
    _index_of_city(document, a)
    _index_of_city(document, b)
    if a == b:
        raise EditError("a route joins two different cities")
    if len(document["routes"]) >= MAX_ROUTES:
        raise EditError(f"a map holds at most {MAX_ROUTES} routes")
    routes = document["routes"]
    if sum({r.get("a"), r.get("b")} == {a, b} for r in routes) >= 2:
        raise EditError(f"{a} and {b} are already joined by two routes")
    routes.append({"a": a, "b": b, **_route_fields(fields)})
    if routes and all("spaces" in r for r in routes[:-1]) and len(routes) > 1:
        routes[-1]["spaces"] = _spaces(document, len(routes) - 1)


def _route_fields(fields: dict[str, Any]) -> dict[str, Any]:
    out = {
        "length": fields.get("length", 1),
        "color": fields.get("color", "gray"),
        "tunnel": fields.get("tunnel", False),
        "ferry_locomotives": fields.get("ferry_locomotives", 0),
    }
    if fields.get("mountain"):
        out["mountain"] = fields["mountain"]
    return out


def update_route(document: dict[str, Any], index: int, fields: dict[str, Any]) -> None:
    route = _item(document, "routes", index)
    merged = _route_fields({**route, **fields})
    route.pop("mountain", None)
    route.update(merged)
    if "spaces" in route:
        route["spaces"] = _spaces(document, index)


def delete_route(document: dict[str, Any], index: int) -> None:
    _item(document, "routes", index)
    del document["routes"][index]


def add_ticket(document: dict[str, Any], a: str, b: str, points: int | None) -> None:
    """A ticket between two cities worth ``points`` (by default: the fewest car spaces
    between them)."""
    _index_of_city(document, a)
    _index_of_city(document, b)
    if a == b:
        raise EditError("a ticket joins two different cities")
    if len(document["tickets"]) >= MAX_TICKETS:
        raise EditError(f"a map holds at most {MAX_TICKETS} tickets")
    if points is None:
        points = shortest_spaces(document["routes"], a, b)
        if points is None:
            raise EditError(f"no routes join {a} and {b} yet: give the ticket's points")
    document["tickets"].append({"a": a, "b": b, "points": points, "long": False})


def update_ticket(document: dict[str, Any], index: int, points: int, long: bool) -> None:
    ticket = _item(document, "tickets", index)
    if "destinations" in ticket:
        raise EditError("a ticket to several destinations is changed in the map file")
    ticket["points"] = points
    ticket["long"] = long


def delete_ticket(document: dict[str, Any], index: int) -> None:
    _item(document, "tickets", index)
    del document["tickets"][index]


def set_details(document: dict[str, Any], name: str, title: str, version: str) -> None:
    document.update(name=name, title=title, version=version)


@functools.cache
def rule_defaults() -> dict[str, int | bool]:
    """The rule fields a map may set by a number or a yes/no, with their defaults.

    >>> rule_defaults()["trains_per_player"], rule_defaults()["tunnel_reveal_uses_discard"]
    (45, True)
    """
    defaults: dict[str, int | bool] = {}
    for field in attrs.fields(Rules):
        default = field.default
        if isinstance(default, int | bool) and not field.name.startswith("_"):
            defaults[field.name] = default
    return defaults


def set_rule(document: dict[str, Any], name: str, value: int | bool | None) -> None:
    """Set a rule of the map (None or its default: back to the default, left out of the
    file)."""
    defaults = rule_defaults()
    if name not in defaults:
        raise EditError(f"there is no rule '{name}' set by a number or a yes/no")
    default = defaults[name]
    if value is not None and type(value) is not type(default):
        kind = "true or false" if isinstance(default, bool) else "a whole number"
        raise EditError(f"the rule {name} is {kind}")
    rules = document.setdefault("rules", {})
    if not isinstance(rules, dict):
        raise EditError("the map's rules are not an object: fix them in the map file")
    if value is None or value == default:
        rules.pop(name, None)
    else:
        rules[name] = value


def _item(document: dict[str, Any], kind: str, index: int) -> dict[str, Any]:
    items = document[kind]
    if not 0 <= index < len(items):
        raise EditError(f"there is no {kind[:-1]} number {index} (the map has {len(items)})")
    item: dict[str, Any] = items[index]
    return item


def _spaces(document: dict[str, Any], index: int) -> list[list[float]]:
    """The car spaces of route ``index`` on the straight line between its cities (a double
    track beside its twin), in the frame's fractions and pixel angles."""
    route = document["routes"][index]
    where = {c.get("name"): c.get("position") for c in document["cities"]}
    start, end = where.get(route["a"]), where.get(route["b"])
    frame = document.get("frame") or {}
    width, height = float(frame.get("width", 1000.0)), float(frame.get("height", 700.0))
    if not start or not end:
        return []
    ax, ay, bx, by = start[0] * width, start[1] * height, end[0] * width, end[1] * height
    distance = math.hypot(bx - ax, by - ay) or 1.0
    car = float(frame.get("car_length") or _default_car(width))
    twins = [
        i
        for i, r in enumerate(document["routes"])
        if {r.get("a"), r.get("b")} == {route["a"], route["b"]}
    ]
    shift = 0.0 if len(twins) < 2 else (-0.6 if twins[0] == index else 0.6)
    shift *= float(frame.get("car_width") or car / 3)
    nx, ny = -(by - ay) / distance, (bx - ax) / distance
    angle = round(math.degrees(math.atan2(by - ay, bx - ax)), 1)
    length = max(1, int(route.get("length", 1)))
    step = min(car * 1.05, distance / (length + 1))
    first = (distance - step * (length - 1)) / 2
    spaces = []
    for n in range(length):
        along = (first + n * step) / distance
        x = ax + (bx - ax) * along + nx * shift
        y = ay + (by - ay) * along + ny * shift
        spaces.append([_fraction(x / width), _fraction(y / height), angle])
    return spaces


def _default_car(width: float) -> float:
    return width * 0.035


def _fraction(value: float) -> float:
    return round(min(1.0, max(0.0, value)), 5)
