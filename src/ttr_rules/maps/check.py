"""Content checks of maps: what a map author can get wrong beyond the file's structure.

These checks work on a :class:`~ttr_rules.maps.GameMap`. :func:`validate_map` runs them on a map
built in memory; :mod:`ttr_rules.maps.file` runs them on every map file it reads (where each
problem's path is the JSON path in the file). This module depends on the model only: the file
format and the plugin registry import it, never the other way round. networkx is used here,
never in the game engine.
"""

from __future__ import annotations

import difflib
import heapq
import math
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from ..errors import MapLoadError
from ..rules import BONUSES, MAX_SUBSTITUTE, Rules, installed_bonuses
from ..words import counted
from .index import fold_name
from .model import GameMap, Geometry, Route, Ticket, compute_digest, tracks_by_pair

__all__ = [
    "HINTS_PER_CHECK",
    "MAX_ROUTE_LENGTH",
    "REACH_STEPS_FLOOR",
    "REACH_STEPS_PER_ITEM",
    "Problem",
    "alias_collisions",
    "checked_map",
    "content_problems",
    "deal_problems",
    "did_you_mean",
    "geometry_problems",
    "rules_problems",
    "validate_map",
]

#: The longest route a map may have.
MAX_ROUTE_LENGTH = 30
#: How far, in cars, a route's end space may lie from its city, and a space from the next one
#: (the printed boards stay under 1.6: a track stops short of a long city name).
MAX_END_CARS = 2.0


class Problem(NamedTuple):
    """One problem: where (a JSON path), what, and the other entries it involves."""

    path: str
    message: str
    involves: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def validate_map(game_map: GameMap) -> list[str]:
    """Every problem of a map built in memory, as ``"<path>: <message>"`` lines (empty if valid).

    Checks the ids, the cities, routes (ends, length, ferry locomotives, double routes), tickets,
    the rules, that every route length is scored, that the board is connected, the digest, and
    that the tickets suffice for the initial deal at every player count the rules allow
    (:func:`deal_problems`).

    >>> import attrs
    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> validate_map(europe)
    []
    >>> validate_map(attrs.evolve(europe, version="2.0"))
    ["digest: does not match the map's content"]
    """
    problems = _playable_problems(game_map)
    problems.extend(deal_problems(game_map))
    return [str(p) for p in problems]


def _playable_problems(game_map: GameMap) -> list[Problem]:
    """What makes a map unusable for any game, dealt or not: :func:`validate_map` less the
    deal (a position built by ``scenario`` deals nothing, so a toy board needs no tickets)."""
    problems = list(_id_problems(game_map))
    problems.extend(content_problems(game_map))
    problems.extend(_double_of_problems(game_map))
    problems.extend(_alias_problems(game_map))
    expected = compute_digest(
        game_map.name,
        game_map.version,
        game_map.cities,
        game_map.routes,
        game_map.tickets,
        game_map.rules,
        game_map.countries,
    )
    if game_map.digest != expected:
        problems.append(Problem("digest", "does not match the map's content"))
    return problems


#: Maps that passed :func:`validate_map`, by digest; held weakly, so that a map (a scenario's
#: copy with injected tickets, say) is freed with its last user and a server's memory stays flat.
_valid: weakref.WeakValueDictionary[str, GameMap] = weakref.WeakValueDictionary()
_valid_lock = threading.Lock()


def checked_map(game_map: GameMap, where: str = "the map") -> GameMap:
    """``game_map`` itself when :func:`validate_map` finds nothing wrong, else
    :class:`~ttr_rules.errors.MapLoadError` with every problem in ``problems``.

    Every door that takes a map calls this; a map equal to one already checked (same digest,
    same content) costs a dictionary look-up, so the check is paid once per map. The deal is
    left to the doors that deal (``new_game`` checks it for its player count with
    :func:`deal_problems`): ``scenario`` deals nothing and takes a board without tickets.

    >>> import attrs
    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> checked_map(europe) is europe
    True
    >>> route = attrs.evolve(europe.routes[0], length=0)
    >>> checked_map(attrs.evolve(europe, routes=(route, *europe.routes[1:])))
    Traceback (most recent call last):
    ...
    ttr_rules.errors.MapLoadError: the map 'europe' is invalid (3 problems):
      routes[0].length: must be >= 1
      routes[0].spaces: 1 spaces for a route of length 0
      digest: does not match the map's content
    """
    with _valid_lock:
        known = _valid.get(game_map.digest)
    if known is game_map or (known == game_map and known.aliases == game_map.aliases):
        return game_map
    problems = tuple(str(p) for p in _playable_problems(game_map))
    if problems:
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        lines = "".join(f"\n  {p}" for p in problems)
        raise MapLoadError(f"{where} {game_map.name!r} is invalid ({count}):{lines}", problems)
    with _valid_lock:
        _valid[game_map.digest] = game_map
    return game_map


def content_problems(game_map: GameMap) -> Iterator[Problem]:
    """Everything about the content that a map author can get wrong (shared by files and maps)."""
    yield from _city_problems(game_map)
    yield from _route_problems(game_map)
    yield from _pair_problems(game_map)
    yield from _country_problems(game_map)
    yield from _ticket_problems(game_map)
    yield from _bonus_title_problems(game_map)
    own = game_map.rules.problems()
    yield from (Problem(f"rules.{name}", message) for name, message in own)
    yield from _connectivity_problems(game_map)
    yield from geometry_problems(game_map)
    if not own:
        yield from _station_ticket_problems(game_map, game_map.rules)
        yield from _ticket_reach_problems(game_map, game_map.rules)


def geometry_problems(game_map: GameMap) -> Iterator[Problem]:
    """Problems of the board as printed (:class:`~ttr_rules.maps.Geometry`): a position for
    every city, for every route as many spaces as its length, all inside the frame, each
    route's ends within :data:`MAX_END_CARS` cars of its cities and no gap of more along it.

    >>> import attrs
    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> list(geometry_problems(europe))
    []
    >>> g = europe.geometry
    >>> moved = attrs.evolve(g, positions=((0.9, 0.9), *g.positions[1:]))
    >>> [str(p) for p in geometry_problems(attrs.evolve(europe, geometry=moved))][0]
    'routes[0].spaces[0]: 19.0 cars from Amsterdam, its city a (at most 2)'
    """
    g = game_map.geometry
    if g is None:
        return
    for key in ("width", "height", "car_length", "car_width"):
        value = getattr(g, key)
        if not (math.isfinite(value) and (value > 0 or (value == 0 and key.startswith("car")))):
            yield Problem(f"frame.{key}", "must be a positive number")
    if len(g.positions) != len(game_map.cities):
        yield Problem("cities", f"{len(g.positions)} positions for {len(game_map.cities)} cities")
        return
    for i, point in enumerate(g.positions):
        if not all(0 <= v <= 1 for v in point):
            yield Problem(f"cities[{i}].position", "must be [x, y], two numbers from 0 to 1")
    yield from _country_label_problems(game_map, g)
    if not g.spaces:
        return
    if len(g.spaces) != len(game_map.routes):
        yield Problem("routes", f"{len(g.spaces)} rows of spaces for {len(game_map.routes)} routes")
        return
    yield from _space_problems(game_map, g)


def _country_label_problems(game_map: GameMap, g: Geometry) -> Iterator[Problem]:
    """A label position (or None) for every country, or none at all; each inside the frame."""
    labels, countries = g.country_labels, game_map.countries
    if labels and len(labels) != len(countries):
        yield Problem(
            "countries", f"{counted(len(labels), 'label position')} for {len(countries)} countries"
        )
        return
    for i, point in enumerate(labels):
        if point is not None and not all(0 <= v <= 1 for v in point):
            yield Problem(
                f"countries[{i}].label_position", "must be [x, y], two numbers from 0 to 1"
            )


def _space_problems(game_map: GameMap, g: Geometry) -> Iterator[Problem]:
    where = dict(zip(game_map.cities, g.positions, strict=True))
    number = {city: i for i, city in reversed(list(enumerate(game_map.cities)))}
    car = g.pitch()
    for route, row in zip(game_map.routes, g.spaces, strict=True):
        path = f"routes[{route.id}]"
        if len(row) != route.length:
            yield Problem(
                f"{path}.spaces",
                f"{len(row)} spaces for a route of length {route.length}",
                (f"{path}.length",),
            )
            continue
        bad = [i for i, s in enumerate(row) if not (0 <= s[0] <= 1 and 0 <= s[1] <= 1)]
        bad += [i for i, s in enumerate(row) if not math.isfinite(s[2])]
        if bad:
            yield Problem(f"{path}.spaces[{bad[0]}]", "must lie inside the frame")
            continue
        if not car or route.a not in where or route.b not in where:
            continue
        ends = ((0, route.a, "a"), (len(row) - 1, route.b, "b"))
        for i, city, side in ends:
            cars = _pixels(g, row[i], where[city]) / car
            if cars > MAX_END_CARS:
                yield Problem(
                    f"{path}.spaces[{i}]",
                    f"{cars:.1f} cars from {city}, its city {side} (at most {MAX_END_CARS:g})",
                    (f"cities[{number[city]}]",),
                )
        for i in range(1, len(row)):
            cars = _pixels(g, row[i - 1], row[i]) / car
            if cars > MAX_END_CARS:
                yield Problem(
                    f"{path}.spaces[{i}]",
                    f"{cars:.1f} cars from the space before it (at most {MAX_END_CARS:g})",
                )


def _pixels(g: Geometry, p: Sequence[float], q: Sequence[float]) -> float:
    """The distance between two points of the frame, in its pixels."""
    return math.hypot((p[0] - q[0]) * g.width, (p[1] - q[1]) * g.height)


def _id_problems(game_map: GameMap) -> Iterator[Problem]:
    for i, r in enumerate(game_map.routes):
        if r.id != i:
            yield Problem(f"routes[{i}].id", f"is {r.id}; must equal its position {i}")
    for i, t in enumerate(game_map.tickets):
        if t.id != i:
            yield Problem(f"tickets[{i}].id", f"is {t.id}; must equal its position {i}")


def _city_problems(game_map: GameMap) -> Iterator[Problem]:
    if len(game_map.cities) < 2:
        yield Problem("cities", "must list at least two cities")
    first: dict[str, int] = {}
    folded: dict[str, int] = {}
    for i, city in enumerate(game_map.cities):
        if not fold_name(city):
            yield Problem(f"cities[{i}]", "the name must not be empty")
        elif city in first:
            yield Problem(f"cities[{i}]", f"duplicate city {city!r} (also cities[{first[city]}])")
        elif fold_name(city) in folded:
            other = folded[fold_name(city)]
            yield Problem(
                f"cities[{i}]",
                f"{city!r} reads as {game_map.cities[other]!r} (cities[{other}]) in the notation, "
                "which ignores case, accents and spacing",
                (f"cities[{other}]",),
            )
        else:
            first[city] = i
            folded[fold_name(city)] = i


def rules_problems(rules: Rules, game_map: GameMap) -> Iterator[Problem]:
    """Problems of ``rules`` played on ``game_map``: their own (:meth:`Rules.problems`) and a
    route longer than ``route_scores`` covers (the deal: :func:`deal_problems`)."""
    own = rules.problems()
    yield from (Problem(f"rules.{name}", message) for name, message in own)
    if own:
        return
    longest = max((r.length for r in game_map.routes), default=0)
    if longest >= len(rules.route_scores):
        yield Problem(
            "rules.route_scores",
            f"scores lengths up to {len(rules.route_scores) - 1}; the map's longest route has "
            f"{longest} spaces",
        )
    yield from _station_ticket_problems(game_map, rules)


def _station_ticket_problems(game_map: GameMap, rules: Rules) -> Iterator[Problem]:
    """Stations are not scored on tickets to several destinations: a map with such tickets
    is played without stations (U31, docs/map-format.md)."""
    if rules.stations_per_player and any(t.destinations for t in game_map.tickets):
        yield Problem(
            "rules.stations_per_player",
            f"is {rules.stations_per_player}; must be 0 on a map with tickets to several "
            "destinations (stations are not scored on them)",
        )


#: The ticket reach check (:func:`_ticket_reach_problems`) takes at most this many steps (a
#: track followed, a place looked up) per city, route, ticket and country end-point of the
#: map, and :data:`REACH_STEPS_FLOOR` on any map, so that it stays linear in the file; past
#: that, the tickets left are not checked for reach. The boards played take under a third of
#: it (Europe 130 per item, Europe 1912 145).
REACH_STEPS_PER_ITEM = 500
#: The steps the reach check may always take (a few seconds at most).
REACH_STEPS_FLOOR = 2_000_000


class _OutOfSteps(Exception):
    """The reach check has spent its steps."""


class _Steps:
    """A budget of steps, spent one at a time (tests count them through this class)."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.spent = 0

    def spend(self, steps: int = 1) -> None:
        self.spent += steps
        if self.spent > self.allowed:
            raise _OutOfSteps


def _ticket_reach_problems(game_map: GameMap, rules: Rules) -> Iterator[Problem]:
    """Tickets that no player can complete: even borrowing a route with each station, the
    cheapest path between the two cities (to the nearest destination of a ticket with several)
    needs more trains than a player has.

    Each search stops at a player's trains (a ticket beyond them needs "at least" one more),
    and all of them together at :data:`REACH_STEPS_PER_ITEM` steps per item of the map."""
    items = len(game_map.cities) + len(game_map.routes) + len(game_map.tickets)
    items += sum(len(ends) for ends in game_map.countries.values())
    steps = _Steps(max(REACH_STEPS_PER_ITEM * items, REACH_STEPS_FLOOR))
    cap = rules.trains_per_player
    reach = _Reach(game_map, max(rules.stations_per_player, 0), cap, steps)
    for t in game_map.tickets:
        try:
            need = reach.need(t.a, [place for place, _ in t.targets])
        except _OutOfSteps:
            return
        if need is not None and need > cap:
            yield Problem(
                f"tickets[{t.id}]",
                f"{t.a}–{t.targets[0][0]} needs at least {need} trains, more than the "
                f"{cap} a player has (rules.trains_per_player): no player can complete it",
                ("rules.trains_per_player",),
            )


class _Reach:
    """The fewest trains from a place to another when ``free`` routes on the way cost nothing
    (stations), searched up to ``cap`` trains: one search per origin, every step counted."""

    def __init__(self, game_map: GameMap, free: int, cap: int, steps: _Steps) -> None:
        self.countries = game_map.countries
        self.free, self.cap, self.steps = free, cap, steps
        known = set(game_map.cities)
        self.neighbours: dict[str, list[tuple[str, int]]] = {c: [] for c in game_map.cities}
        self.component = _Components(game_map.cities)
        for r in game_map.routes:
            if r.a in known and r.b in known and r.length >= 1:
                trains = r.length + max(r.mountain, 0)  # a mountain's X marks take trains too
                self.neighbours[r.a].append((r.b, trains))
                self.neighbours[r.b].append((r.a, trains))
                self.component.join(r.a, r.b)
        self.searched: dict[str, dict[str, int]] = {}

    def _places(self, name: str) -> tuple[str, ...]:
        """The cities of a ticket's end: a country's end-points, or the place itself."""
        ends = self.countries.get(name, (name,))
        self.steps.spend(len(ends))
        return tuple(city for city in ends if city in self.neighbours)

    def need(self, origin: str, targets: Sequence[str]) -> int | None:
        """The fewest trains from ``origin`` to the nearest of ``targets``; ``cap + 1`` when
        more than ``cap`` (at least that many), None when they are not joined at all."""
        if origin not in self.searched and len(targets) == 1 and targets[0] in self.searched:
            origin, targets = targets[0], [origin]  # the same trains either way: search once
        starts = self._places(origin)
        if not starts:
            return None
        costs = self.searched.get(origin)
        if costs is None:
            costs = self.searched[origin] = self._search(starts)
        found: list[int] = []
        joined = False
        groups = {self.component.find(city) for city in starts}
        for target in targets:
            for city in self._places(target):
                if city in costs:
                    found.append(costs[city])
                joined = joined or self.component.find(city) in groups
        if found:
            return min(found)
        return self.cap + 1 if joined else None

    def _search(self, starts: tuple[str, ...]) -> dict[str, int]:
        """A layered Dijkstra from ``starts`` (layer: routes borrowed), cut at ``cap``."""
        cap, free, spend = self.cap, self.free, self.steps.spend
        best: dict[tuple[str, int], int] = {(city, 0): 0 for city in starts}
        queue = [(0, city, 0) for city in starts]
        heapq.heapify(queue)
        costs: dict[str, int] = {}
        while queue:
            cost, city, used = heapq.heappop(queue)
            if cost > best[(city, used)]:
                continue
            if cost < costs.get(city, cap + 1):
                costs[city] = cost
            tracks = self.neighbours[city]
            spend(len(tracks))
            for other, trains in tracks:
                paid = cost + trains
                if paid <= cap and paid < best.get((other, used), cap + 1):
                    best[(other, used)] = paid
                    heapq.heappush(queue, (paid, other, used))
                if used < free and cost < best.get((other, used + 1), cap + 1):
                    best[(other, used + 1)] = cost
                    heapq.heappush(queue, (cost, other, used + 1))
        return costs


class _Components:
    """Union-find over the cities: which are joined by tracks at all."""

    def __init__(self, cities: Iterable[str]) -> None:
        self.parent = {city: city for city in cities}

    def find(self, city: str) -> str:
        root = city
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[city] != root:  # path compression
            self.parent[city], city = root, self.parent[city]
        return root

    def join(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


def _endpoint_problems(
    path: str, a: str, b: str, known: set[str], hint: Callable[[str], str]
) -> Iterator[Problem]:
    """A route or ticket joins two different cities of the map."""
    for end, city in (("a", a), ("b", b)):
        if city not in known:
            yield Problem(f"{path}.{end}", f"unknown city {city!r}{hint(city)}", ("cities",))
    if a == b:
        yield Problem(path, f"joins {a!r} to itself")


def _route_problems(game_map: GameMap) -> Iterator[Problem]:
    known = set(game_map.cities)
    scored = len(game_map.rules.route_scores) - 1
    if not game_map.routes:
        yield Problem("routes", "must list at least one route")
    hint = _hints(known)
    for r in game_map.routes:
        path = f"routes[{r.id}]"
        yield from _endpoint_problems(path, r.a, r.b, known, hint)
        if r.length < 1:
            yield Problem(f"{path}.length", "must be >= 1")
        elif r.length > MAX_ROUTE_LENGTH:
            yield Problem(
                f"{path}.length",
                f"{r.length} is longer than {MAX_ROUTE_LENGTH} (a player's payments are tabled "
                "per length)",
            )
        elif r.length > scored:
            yield Problem(
                f"{path}.length",
                f"{r.length} is longer than rules.route_scores covers (up to {scored})",
                ("rules.route_scores",),
            )
        yield from _substitute_problems(r, path)
        yield from _mountain_problems(r, path)
        if r.ferry_locomotives < 0:
            yield Problem(f"{path}.ferry_locomotives", "must be >= 0")
        elif r.ferry_locomotives > r.length:
            yield Problem(
                f"{path}.ferry_locomotives",
                f"{r.ferry_locomotives} locomotives exceed the length {r.length}",
            )


def _substitute_problems(route: Route, path: str) -> Iterator[Problem]:
    """A route's "any K cards for one card of its colour" (docs/map-format.md): 0 (none) or 2
    to MAX_SUBSTITUTE, and only on a route that is neither a ferry nor a tunnel (whose own
    payments would make a set of K ambiguous)."""
    k = route.card_substitute
    where = f"{path}.card_substitute"
    if not 0 <= k <= MAX_SUBSTITUTE or k == 1:
        yield Problem(where, f"must be 0 (none) or from 2 to {MAX_SUBSTITUTE}")
    elif k and (route.tunnel or route.ferry_locomotives):
        yield Problem(where, "is only for a route that is neither a tunnel nor a ferry")


def _mountain_problems(route: Route, path: str) -> Iterator[Problem]:
    """A route's X marks (``Route.mountain``): from 0 to its length, each being one of its
    spaces."""
    if not 0 <= route.mountain <= route.length:
        yield Problem(
            f"{path}.mountain",
            f"must be from 0 to the route's length ({route.length}): each X marks one space",
        )


def _pair_problems(game_map: GameMap) -> Iterator[Problem]:
    """At most two tracks between two cities, and the two tracks of a double route equally long
    unless they are of different kinds (a tunnel beside a ferry: the Nordic Countries board has
    two such pairs)."""
    for tracks in tracks_by_pair(game_map.routes).values():
        first = tracks[0]
        for extra in tracks[2:]:
            yield Problem(
                f"routes[{extra.id}]",
                f"a third track between {first.a} and {first.b} (routes[{first.id}], "
                f"routes[{tracks[1].id}]); at most two tracks may join two cities",
                tuple(f"routes[{t.id}]" for t in tracks[:2]),
            )
        if (
            len(tracks) == 2
            and tracks[0].length != tracks[1].length
            and _kind(tracks[0]) == _kind(tracks[1])
        ):
            second = tracks[1]
            yield Problem(
                f"routes[{second.id}].length",
                f"{second.length} differs from {first.length}, the length of routes[{first.id}], "
                f"the other track of the double route {first.a}–{first.b}",
                (f"routes[{first.id}]",),
            )


def _kind(route: Route) -> tuple[bool, bool]:
    return (route.tunnel, route.ferry_locomotives > 0)


def _double_of_problems(game_map: GameMap) -> Iterator[Problem]:
    """``double_of`` links of an in-memory map: symmetric, and exactly the same-pair tracks."""
    routes = game_map.routes
    by_pair = tracks_by_pair(routes)
    for r in routes:
        path = f"routes[{r.id}].double_of"
        others = [t.id for t in by_pair[frozenset((r.a, r.b))] if t.id != r.id]
        if r.double_of is None:
            if len(others) == 1:
                yield Problem(
                    path, f"must be {others[0]}: routes[{others[0]}] joins the same cities"
                )
        elif r.double_of not in others:
            yield Problem(
                path,
                f"routes[{r.double_of}] does not join {r.a}–{r.b}"
                if 0 <= r.double_of < len(routes)
                else "is not a route id",
            )
        elif routes[r.double_of].double_of != r.id:
            yield Problem(path, f"routes[{r.double_of}].double_of does not name this route")


def _ticket_problems(game_map: GameMap) -> Iterator[Problem]:
    known = set(game_map.cities)
    places = _Places(game_map)
    seen: dict[tuple[frozenset[str], int], int] = {}
    hint = _hints(known)
    for t in game_map.tickets:
        path = f"tickets[{t.id}]"
        if t.destinations:
            yield from _multi_ticket_problems(places, t, path)
            continue
        yield from _endpoint_problems(path, t.a, t.b, known, hint)
        if t.points < 1:
            yield Problem(f"{path}.points", "must be >= 1")
        key = (frozenset((t.a, t.b)), t.points)
        if key in seen:
            yield Problem(
                path,
                f"duplicate ticket {t.a}–{t.b} ({t.points} points), also tickets[{seen[key]}]",
                (f"tickets[{seen[key]}]",),
            )
        else:
            seen[key] = t.id


class _Places:
    """The places of a map (cities and countries), each end-point's country, and hints for
    unknown names: built once for all its tickets."""

    def __init__(self, game_map: GameMap) -> None:
        self.names = {*game_map.cities, *game_map.countries}
        self.country: dict[str, str] = {}
        for country, ends in game_map.countries.items():
            for end in ends:
                self.country.setdefault(end, country)
        self.hint = _hints(self.names)


def _multi_ticket_problems(places: _Places, ticket: Ticket, path: str) -> Iterator[Problem]:
    """A ticket to several destinations: its origin and each destination a place or a country,
    no destination twice nor equal to the origin, values >= 1, the penalty the lowest value, and
    ``b``/``points`` as derived (empty, the highest value). Identical cards may be printed
    more than once (Switzerland prints each country-to-country card twice)."""
    if ticket.a not in places.names:
        yield Problem(
            f"{path}.a",
            f"unknown city or country {ticket.a!r}{places.hint(ticket.a)}",
            ("cities", "countries"),
        )
    seen: set[str] = set()
    for k, (place, points) in enumerate(ticket.destinations):
        where = f"{path}.destinations[{k}]"
        if place not in places.names:
            yield Problem(
                f"{where}.to",
                f"unknown city or country {place!r}{places.hint(place)}",
                ("cities", "countries"),
            )
        elif place == ticket.a or places.country.get(place) == ticket.a:
            yield Problem(f"{where}.to", f"{place!r} is the ticket's own origin")
        elif place in seen:
            yield Problem(f"{where}.to", f"{place!r} is listed twice")
        seen.add(place)
        if points < 1:
            yield Problem(f"{where}.points", "must be >= 1")
    values = [points for _, points in ticket.destinations]
    if ticket.penalty != min(values):
        yield Problem(
            f"{path}.penalty",
            f"is {ticket.penalty}; must be the lowest value of the ticket, {min(values)}",
        )
    if ticket.b or ticket.points != max(values):
        yield Problem(
            path,
            f"a ticket with destinations has no b and its points are its highest value "
            f"({max(values)}), got b {ticket.b!r} and points {ticket.points}",
        )


def _bonus_title_problems(game_map: GameMap) -> Iterator[Problem]:
    known = installed_bonuses() | set(BONUSES)
    for bonus, _ in game_map.bonus_titles:
        if bonus not in known:
            yield Problem(
                f"bonus_titles.{bonus}",
                f"no bonus scorer named {bonus!r} is installed{did_you_mean(bonus, known)}",
            )


def _country_problems(game_map: GameMap) -> Iterator[Problem]:
    """Countries: names that are not places, at least one end-point each, end-points that are
    places of the map and of one country only, each ending the tracks of one neighbour (one
    track or a double): no path runs through a country (U32)."""
    known = set(game_map.cities)
    neighbours: dict[str, set[str]] = {}
    for r in game_map.routes:
        neighbours.setdefault(r.a, set()).add(r.b)
        neighbours.setdefault(r.b, set()).add(r.a)
    owner: dict[str, str] = {}
    hint = _hints(known)
    for k, (country, ends) in enumerate(game_map.countries.items()):
        path = f"countries[{k}]"
        if not fold_name(country):
            yield Problem(f"{path}.name", "the name must not be empty")
        elif country in known:
            yield Problem(f"{path}.name", f"{country!r} is also the name of a city")
        if not ends:
            yield Problem(f"{path}.end_points", "must list at least one end-point")
        for n, end in enumerate(ends):
            where = f"{path}.end_points[{n}]"
            if end not in known:
                yield Problem(where, f"unknown city {end!r}{hint(end)}", ("cities",))
            elif end in owner:
                yield Problem(where, f"{end!r} is already an end-point of {owner[end]}")
            elif len(neighbours.get(end, ())) > 1:
                others = ", ".join(sorted(neighbours[end]))
                yield Problem(
                    where,
                    f"{end!r} has tracks to {others}; an end-point ends the track of one city, "
                    "so that no path runs through a country",
                )
            owner.setdefault(end, country)


def deal_problems(
    game_map: GameMap, rules: Rules | None = None, players: int | None = None
) -> Iterator[Problem]:
    """Too few long or regular tickets for the initial deal of ``players`` (by default the
    largest count ``rules`` allow, ``rules.max_players``) under ``rules`` (by default the
    map's): what ``new_game`` and ``ttr validate-map`` check, and no other door.

    >>> from ttr_rules import GameMap, Rules
    >>> toy = GameMap.create("toy", ["A", "B"], [("A", "B", 2, None)], [])
    >>> [str(p) for p in deal_problems(toy, players=2)]
    ['tickets: 0 long tickets are too few to deal 2 at setup (1 to each of 2 players)', \
'tickets: 0 regular tickets are too few to deal 6 at setup (3 to each of 2 players)']
    >>> list(deal_problems(toy, Rules(initial_long_tickets=0, initial_regular_tickets=0)))
    []
    """
    rules = game_map.rules if rules is None else rules
    if players is None:
        players = rules.max_players
    long_count = sum(t.long for t in game_map.tickets)
    regular_count = len(game_map.tickets) - long_count
    needs = (
        ("long", long_count, rules.initial_long_tickets),
        ("regular", regular_count, rules.initial_regular_tickets),
    )
    for kind, have, each in needs:
        if isinstance(each, int) and have < each * players:
            yield Problem(
                "tickets",
                f"{counted(have, kind + ' ticket')} {'is' if have == 1 else 'are'} too few to "
                f"deal {each * players} at setup "
                f"({each} to each of {players} players)",
                ("rules.max_players", f"rules.initial_{kind}_tickets"),
            )


def _connectivity_problems(game_map: GameMap) -> Iterator[Problem]:
    if not game_map.cities:
        return
    import networkx as nx  # only when a map is validated: it takes a while to import

    graph = nx.Graph()
    graph.add_nodes_from(game_map.cities)
    graph.add_edges_from((r.a, r.b) for r in game_map.routes if r.a in graph and r.b in graph)
    if nx.is_connected(graph):
        return
    start = game_map.cities[0]
    reached = nx.node_connected_component(graph, start)
    cut_off = [c for c in game_map.cities if c not in reached]
    yield Problem(
        "routes",
        f"the board is not connected: {', '.join(cut_off)} cannot be reached from {start}",
        ("cities",),
    )


def _alias_problems(game_map: GameMap) -> Iterator[Problem]:
    known = {*game_map.cities, *game_map.countries}
    for k, (alias, city) in enumerate(game_map.aliases):
        if city not in known:
            yield Problem(f"aliases[{k}]", f"alias {alias!r} of unknown city {city!r}")
    places = [*game_map.cities, *game_map.countries]
    yield from alias_collisions(places, list(game_map.aliases))


def alias_collisions(cities: list[str], aliases: list[tuple[str, str]]) -> Iterator[Problem]:
    """Aliases that are ambiguous: the name of another city, or an alias of two cities."""
    owner = {c.casefold(): c for c in cities}
    where = {city: i for i, city in reversed(list(enumerate(cities)))}  # a name's first place
    positions = Counter[str]()
    for alias, city in aliases:
        index = positions[city]
        positions[city] += 1
        key = alias.casefold()
        if owner.setdefault(key, city) != city:
            yield Problem(
                f"cities[{where.get(city, -1)}].aliases[{index}]",
                f"alias {alias!r} of {city} already names {owner[key]}",
            )


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: How many unknown names of one check get a "did you mean" hint: each hint compares the name
#: with every choice, so hints for every name of a file full of them would cost the square.
HINTS_PER_CHECK = 20


def _hints(choices: Iterable[str]) -> Callable[[str], str]:
    """:func:`did_you_mean` over ``choices`` for the first :data:`HINTS_PER_CHECK` names
    asked, then nothing."""
    listed = list(choices)
    left = [HINTS_PER_CHECK]

    def hint(word: str) -> str:
        if left[0] <= 0:
            return ""
        left[0] -= 1
        return did_you_mean(word, listed)

    return hint
