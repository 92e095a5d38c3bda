"""The edits of the workbench: each changes a map document (the map-file JSON) in place or
raises :class:`~.workbench.EditError` in plain words.

Positions are fractions of the board's frame. Where the map's routes carry car spaces (all of
them or none: :func:`lay_spaces`), a new route gets spaces along the line between its cities
(:mod:`.layout`), a bent route along its curve, and a moved city takes its routes' spaces
along.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs

from ...rules import Rules
from .layout import MAX_BEND, route_spaces
from .workbench import (
    BLANK_FRAME,
    MAX_CITIES,
    MAX_ROUTES,
    MAX_TICKETS,
    EditError,
    places_of,
    shortest_between,
)

__all__ = [
    "add_city",
    "add_route",
    "add_ticket",
    "bend_route",
    "delete_city",
    "delete_country",
    "delete_route",
    "delete_ticket",
    "lay_spaces",
    "move_city",
    "rename_city",
    "rule_defaults",
    "set_country",
    "set_details",
    "set_rule",
    "set_ticket",
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
    if any(country.get("name") == name for country in _countries(document)):
        raise EditError(f"there is already a country named '{name}'")


def _countries(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The map's countries (those that are objects: a map being edited may have problems)."""
    countries = document.get("countries")
    return [c for c in countries if isinstance(c, dict)] if isinstance(countries, list) else []


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
    """Move a city; the car spaces of its routes are laid again between their new ends (a
    bent route keeps its bend, relative to its ends)."""
    _check_point(x, y)
    document["cities"][_index_of_city(document, name)]["position"] = [x, y]
    _relay(document, lambda route: name in (route.get("a"), route.get("b")))


def _relay(document: dict[str, Any], which: Callable[[dict[str, Any]], bool]) -> None:
    """Lay again the car spaces of the routes ``which`` picks (those that have spaces)."""
    for index, route in enumerate(document["routes"]):
        if which(route) and "spaces" in route:
            route["spaces"] = route_spaces(document, index)


def _same_pair(route: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    pair = {route.get("a"), route.get("b")}
    return lambda other: {other.get("a"), other.get("b")} == pair


def bend_route(document: dict[str, Any], index: int, bend: float) -> None:
    """Bow route ``index`` (and its twin, side by side) into a curve whose middle lies
    ``bend`` times the distance between its cities off the straight line (positive: to the
    right going from its ``a`` to its ``b``; 0: straight), and lay its car spaces along it.

    >>> doc = {"cities": [{"name": "A", "position": [0.1, 0.5]},
    ...                   {"name": "B", "position": [0.5, 0.5]}],
    ...        "routes": [{"a": "A", "b": "B", "length": 3, "spaces": []},
    ...                   {"a": "B", "b": "A", "length": 3, "spaces": []}]}
    >>> bend_route(doc, 0, 0.2); [r["bend"] for r in doc["routes"]]
    [0.2, -0.2]
    >>> [round(s[1], 2) for s in doc["routes"][0]["spaces"]]
    [0.58, 0.6, 0.58]
    """
    if not -MAX_BEND <= bend <= MAX_BEND:
        raise EditError(f"a bend is a number from -{MAX_BEND} to {MAX_BEND}")
    route = _item(document, "routes", index)
    for other in filter(_same_pair(route), document["routes"]):
        same_way = other.get("a") == route.get("a")
        value = round(bend if same_way else -bend, 3)
        if value:
            other["bend"] = value
        else:
            other.pop("bend", None)
    _relay(document, _same_pair(route))


def rename_city(document: dict[str, Any], name: str, to: str) -> None:
    """Rename a city, in its routes and tickets too."""
    if to == name:
        return
    index = _index_of_city(document, name)
    _free_name(document, to)
    document["cities"][index]["name"] = to
    _rename_place(document, name, to)
    for country in _countries(document):
        ends = country.get("end_points")
        if isinstance(ends, list):
            country["end_points"] = [to if end == name else end for end in ends]


def _rename_place(document: dict[str, Any], name: str, to: str) -> None:
    """Rename a city or country in the routes and tickets."""
    for entry in (*document["routes"], *document["tickets"]):
        for key in ("a", "b"):
            if entry.get(key) == name:
                entry[key] = to
        for destination in _destinations(entry):
            if destination.get("to") == name:
                destination["to"] = to


def _destinations(ticket: dict[str, Any]) -> list[dict[str, Any]]:
    found = ticket.get("destinations")
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []


def delete_city(document: dict[str, Any], name: str) -> None:
    """Delete a city with its routes and tickets (and from the countries it borders)."""
    del document["cities"][_index_of_city(document, name)]
    _drop_place(document, name)
    for country in _countries(document):
        ends = country.get("end_points")
        if isinstance(ends, list):
            country["end_points"] = [end for end in ends if end != name]


def _drop_place(document: dict[str, Any], name: str) -> None:
    """Delete the routes and tickets that name a city or country."""

    def touches(entry: dict[str, Any]) -> bool:
        places = {entry.get("a"), entry.get("b")}
        places.update(d.get("to") for d in _destinations(entry))
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
    laid = _lays_spaces(document)
    routes.append({"a": a, "b": b, **_route_fields(fields)})
    if laid:
        routes[-1]["spaces"] = []
        _relay(document, _same_pair(routes[-1]))


def _lays_spaces(document: dict[str, Any]) -> bool:
    """Whether the map's routes carry car spaces (it has routes, and all of them do)."""
    routes = document["routes"]
    return bool(routes) and all("spaces" in r for r in routes)


def lay_spaces(document: dict[str, Any], on: bool) -> None:
    """Give every route its car spaces, laid along it (``on``), or take them all away: a map
    carries its board as printed for every route or for none.

    >>> doc = {"cities": [{"name": "A", "position": [0.1, 0.5]},
    ...                   {"name": "B", "position": [0.5, 0.5]}],
    ...        "routes": [{"a": "A", "b": "B", "length": 3}]}
    >>> lay_spaces(doc, True); len(doc["routes"][0]["spaces"])
    3
    """
    if not on:
        for route in document["routes"]:
            route.pop("spaces", None)
        return
    if not document["routes"]:
        raise EditError("there are no routes to lay car spaces along yet")
    if not all(_has_position(c) for c in document["cities"]):
        raise EditError("every city needs a position on the board before car spaces are laid")
    document.setdefault("frame", dict(BLANK_FRAME))
    for route in document["routes"]:
        route.setdefault("spaces", [])
    _relay(document, lambda route: True)


def _has_position(city: dict[str, Any]) -> bool:
    position = city.get("position")
    return isinstance(position, list) and len(position) == 2


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
    _relay(document, _same_pair(route))


def delete_route(document: dict[str, Any], index: int) -> None:
    """Delete a route (its twin, left alone, goes back to the middle of the track)."""
    route = _item(document, "routes", index)
    del document["routes"][index]
    _relay(document, _same_pair(route))


def add_ticket(document: dict[str, Any], a: str, b: str, points: int | None) -> None:
    """A ticket from ``a`` to ``b`` (cities or countries) worth ``points`` (by default: the
    fewest car spaces between them). A ticket that names a country is written as a ticket to
    several destinations, with one.

    >>> doc = {"cities": [{"name": "A"}, {"name": "B"}], "routes": [], "tickets": [],
    ...        "countries": [{"name": "Land", "end_points": ["B"]}]}
    >>> add_ticket(doc, "A", "Land", 4); doc["tickets"]
    [{'a': 'A', 'destinations': [{'to': 'Land', 'points': 4}], 'penalty': 4, 'long': False}]
    """
    if len(document["tickets"]) >= MAX_TICKETS:
        raise EditError(f"a map holds at most {MAX_TICKETS} tickets")
    document["tickets"].append({})
    set_ticket(document, len(document["tickets"]) - 1, a, [(b, points)], False)


def set_ticket(
    document: dict[str, Any],
    index: int,
    a: str,
    destinations: list[tuple[str, int | None]],
    long: bool,
) -> None:
    """Make ticket ``index`` go from ``a`` to each destination (a city or country, and its
    points; None: the shortest path). A ticket between two cities is written with ``b`` and
    ``points``; one that names a country or several destinations with ``destinations`` and a
    ``penalty``, its lowest value (as the map format requires).

    >>> doc = {"cities": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
    ...        "routes": [{"a": "A", "b": "B", "length": 2}], "tickets": [{}]}
    >>> set_ticket(doc, 0, "A", [("B", None)], True); doc["tickets"][0]
    {'a': 'A', 'b': 'B', 'points': 2, 'long': True}
    >>> set_ticket(doc, 0, "A", [("B", 3), ("C", 9)], False); doc["tickets"][0]["penalty"]
    3
    """
    ticket = _item(document, "tickets", index)
    kinds = _place_kinds(document)
    _known_place(kinds, a)
    if not destinations:
        raise EditError("a ticket needs at least one destination")
    seen: set[str] = set()
    valued: list[tuple[str, int]] = []
    for to, points in destinations:
        _known_place(kinds, to)
        if to == a:
            raise EditError(f"a ticket from {a} goes somewhere else, not to {a} itself")
        if to in seen:
            raise EditError(f"{to} is listed twice on the ticket")
        seen.add(to)
        valued.append((to, _points_or_shortest(document, a, to, points)))
    ticket.clear()
    if len(valued) == 1 and kinds[a] == kinds[valued[0][0]] == "city":
        ticket.update(a=a, b=valued[0][0], points=valued[0][1], long=long)
        return
    ticket.update(
        a=a,
        destinations=[{"to": to, "points": points} for to, points in valued],
        penalty=min(points for _, points in valued),
        long=long,
    )


def _place_kinds(document: dict[str, Any]) -> dict[str, str]:
    kinds = {c["name"]: "country" for c in _countries(document) if isinstance(c.get("name"), str)}
    kinds.update((c["name"], "city") for c in document["cities"] if isinstance(c.get("name"), str))
    return kinds


def _known_place(kinds: dict[str, str], name: str) -> None:
    if name not in kinds:
        raise EditError(f"there is no city or country named '{name}'")


def _points_or_shortest(document: dict[str, Any], a: str, to: str, points: int | None) -> int:
    if points is not None:
        return points
    shortest = shortest_between(document["routes"], places_of(document, a), places_of(document, to))
    if shortest is None:
        raise EditError(f"no routes join {a} and {to} yet: give the ticket's points")
    return shortest


def update_ticket(document: dict[str, Any], index: int, points: int, long: bool) -> None:
    """Set a ticket's points (every destination's, on a ticket to several) and whether it
    is a long one."""
    ticket = _item(document, "tickets", index)
    if "destinations" in ticket:
        ends: list[tuple[str, int | None]] = [
            (str(d.get("to")), points) for d in _destinations(ticket)
        ]
        set_ticket(document, index, ticket.get("a", ""), ends, long)
        return
    ticket["points"] = points
    ticket["long"] = long


def delete_ticket(document: dict[str, Any], index: int) -> None:
    _item(document, "tickets", index)
    del document["tickets"][index]


def set_country(document: dict[str, Any], name: str, to: str, places: list[str]) -> None:
    """Make (or change) the country ``name``: called ``to`` (its routes' and tickets' names
    change with it), reached at the cities ``places`` (its border end-points, each a city
    of the map in no other country).

    >>> doc = {"cities": [{"name": "F1"}, {"name": "F2"}], "routes": [], "tickets": []}
    >>> set_country(doc, "France", "France", ["F1", "F2"]); doc["countries"]
    [{'name': 'France', 'end_points': ['F1', 'F2'], 'aliases': []}]
    """
    countries = document.setdefault("countries", [])
    if not isinstance(countries, list):
        raise EditError("the map's countries are not a list: fix them in the map file")
    found = [c for c in _countries(document) if c.get("name") == name]
    if to != name or not found:
        _free_name(document, to)
    if not places:
        raise EditError(f"a country is reached at one city at least: pick {to}'s border cities")
    if len(set(places)) != len(places):
        raise EditError("a city is listed twice among the country's places")
    for place in places:
        _index_of_city(document, place)
        for other in _countries(document):
            ends = other.get("end_points")
            if other.get("name") != name and isinstance(ends, list) and place in ends:
                raise EditError(f"{place} already borders {other.get('name')}")
    if found:
        found[0].update(name=to, end_points=list(places))
        _rename_place(document, name, to)
    else:
        countries.append({"name": to, "end_points": list(places), "aliases": []})


def delete_country(document: dict[str, Any], name: str) -> None:
    """Delete a country with the tickets that name it (its border cities stay)."""
    countries = _countries(document)
    if not any(c.get("name") == name for c in countries):
        raise EditError(f"there is no country named '{name}'")
    document["countries"] = [c for c in countries if c.get("name") != name]
    if not document["countries"]:
        del document["countries"]
    _drop_place(document, name)


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
