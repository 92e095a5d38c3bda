"""The map model: cities, routes (tracks), tickets and the map's default rules.

A :class:`GameMap` is plain immutable data. Map files are read and validated by
:mod:`ttr_rules.maps.file`; installed map plugins are found by :mod:`ttr_rules.maps.registry`;
the per-map tables derived for the engine, scoring and notation live in
:mod:`ttr_rules.maps.index`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import statistics
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from attrs import asdict, evolve, field, frozen

from ..cards import Color
from ..rules import Rules
from ..words import counted, joined, minus

__all__ = [
    "Countries",
    "GameMap",
    "Geometry",
    "Route",
    "Ticket",
    "compute_digest",
    "pair_double_routes",
    "tracks_by_pair",
]


@frozen
class Route:
    """One track between two cities. The two tracks of a double route are two routes whose
    ``double_of`` names each other (E31, E34)."""

    id: int
    a: str
    b: str
    length: int
    #: The colour of the track; None for a gray route (any one colour, E24).
    color: Color | None = None
    tunnel: bool = False
    #: Locomotive symbols on a ferry (0 for a route that is not a ferry) (E35).
    ferry_locomotives: int = 0
    #: The id of the other track of a double route, or None.
    double_of: int | None = None
    #: Any this many cards may stand in for each missing card of the colour (0: none); only
    #: on a route that is neither a ferry nor a tunnel (docs/map-format.md).
    card_substitute: int = 0
    #: Spaces marked with an X (a mountain route): claiming it also takes this many trains
    #: from the player's supply, each scoring ``Rules.mountain_points`` (docs/map-format.md).
    mountain: int = 0

    @property
    def trains(self) -> int:
        """The trains a claim takes from the supply: one per space and one per X mark."""
        return self.length + self.mountain

    @property
    def is_ferry(self) -> bool:
        return self.ferry_locomotives > 0

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def __str__(self) -> str:
        color = self.color.value if self.color is not None else "gray"
        kind = " tunnel" if self.tunnel else ""
        ferry = f" ferry({self.ferry_locomotives}L)" if self.ferry_locomotives else ""
        sets = f" (any {self.card_substitute} for 1)" if self.card_substitute else ""
        marks = f" mountain({self.mountain}X)" if self.mountain else ""
        return f"{self.a}-{self.b} {color} {self.length}{kind}{ferry}{sets}{marks}"


def _destinations(items: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple((place, points) for place, points in items)


@frozen
class Ticket:
    """A destination ticket: connect ``a`` and ``b`` for ``points`` (lose them otherwise).

    A ticket to several destinations (Switzerland's country tickets) lists them in
    ``destinations`` as ``(place or country, points)`` pairs: it scores the highest value
    reached from ``a`` (a city or a country), or loses ``penalty`` when none is reached. Such a
    ticket has ``b == ""`` and ``points`` equal to its highest value (docs/map-format.md).

    >>> t = Ticket(0, "Bern", "", 11, destinations=(("France", 5), ("Italia", 11)), penalty=5)
    >>> print(t)
    Bern-France 5/Italia 11 (−5)
    >>> t.targets, t.loss
    ((('France', 5), ('Italia', 11)), 5)
    """

    id: int
    a: str
    b: str
    points: int
    #: True for the long (blue-backed) tickets dealt only at setup (E3).
    long: bool = False
    #: The destinations of a multi-destination ticket, ``(place or country, points)``; empty
    #: for a two-city ticket.
    destinations: tuple[tuple[str, int], ...] = field(default=(), converter=_destinations)
    #: The points lost when no destination is reached (a multi-destination ticket only).
    penalty: int = 0

    @property
    def targets(self) -> tuple[tuple[str, int], ...]:
        """Every ``(destination, points)`` of the ticket: ``((b, points),)`` for a two-city one."""
        return self.destinations or ((self.b, self.points),)

    @property
    def loss(self) -> int:
        """The points lost when the ticket is not completed."""
        return self.penalty if self.destinations else self.points

    @property
    def words(self) -> str:
        """The ticket for people to read.

        >>> Ticket(0, "Paris", "Wien", 8).words
        'Paris – Wien (8 points)'
        >>> Ticket(1, "Bern", "", 11, destinations=(("France", 5), ("Italia", 11)), penalty=5).words
        'Bern – France 5 or Italia 11 (5 points lost if none)'
        """
        if not self.destinations:
            return f"{self.a} – {self.b} ({counted(self.points, 'point')})"
        ends = joined((f"{place} {points}" for place, points in self.destinations), last="or")
        return f"{self.a} – {ends} ({counted(self.penalty, 'point')} lost if none)"

    def __str__(self) -> str:
        if self.destinations:
            ends = "/".join(f"{place} {points}" for place, points in self.destinations)
            return f"{self.a}-{ends} ({minus(self.penalty)})"
        return f"{self.a}-{self.b} ({self.points})"


class Countries(Mapping[str, tuple[str, ...]]):
    """The countries of a map and their border end-points: an immutable, hashable mapping.

    >>> c = Countries({"France": ["France 1", "France 2"]})
    >>> c["France"], len(c), Countries() == {}
    (('France 1', 'France 2'), 1, True)
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Iterable[str]] | None = None) -> None:
        self._items = {name: tuple(ends) for name, ends in (items or {}).items()}

    def __getitem__(self, name: str) -> tuple[str, ...]:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __repr__(self) -> str:
        return f"Countries({self._items!r})"

    def __reduce__(self) -> tuple[type[Countries], tuple[dict[str, tuple[str, ...]]]]:
        return type(self), (self._items,)


def _countries(value: Mapping[str, Iterable[str]] | None) -> Countries:
    return value if isinstance(value, Countries) else Countries(value)


#: One car space as printed: the centre ``(x, y)`` as fractions of the frame's width and height
#: (``y`` down) and the direction of the car's long axis in degrees, clockwise from ``+x``.
SpaceAt = tuple[float, float, float]


@frozen
class Geometry:
    """Where a board's cities and car spaces are printed (drawing only: never part of a map's
    value nor of its digest, so a record replays whatever the geometry).

    Positions are fractions of the frame (the board's artwork, ``width`` by ``height`` of its
    own pixels): ``x`` across from the left, ``y`` down from the top, both from 0 to 1.
    ``spaces`` is empty when only the cities are placed (the routes are then laid out between
    them), else one row per route (aligned with ``GameMap.routes``), its ``length`` spaces from
    city ``a`` to city ``b``. ``car_length`` and ``car_width`` (frame pixels, 0: derived from
    the spacing of the spaces) size each car as printed. ``country_labels`` is empty or, aligned
    with ``GameMap.countries``, where each country's name is printed (the centre of the text;
    None for a country whose name is not placed).
    See docs/map-format.md.

    >>> from ttr_rules import load_map
    >>> g = load_map("europe").geometry
    >>> (g.width, g.height), len(g.positions), sum(len(row) for row in g.spaces)
    ((1744.0, 1125.0), 47, 300)
    """

    width: float
    height: float
    #: Each city's centre, aligned with ``GameMap.cities``.
    positions: tuple[tuple[float, float], ...]
    #: Each route's car spaces from ``a`` to ``b``, aligned with ``GameMap.routes`` (or empty).
    spaces: tuple[tuple[SpaceAt, ...], ...] = ()
    car_length: float = 0.0
    car_width: float = 0.0
    #: The centre of each country's printed name (None where not placed), aligned with
    #: ``GameMap.countries`` (or empty).
    country_labels: tuple[tuple[float, float] | None, ...] = ()

    def pitch(self) -> float:
        """The distance from one car to the next along a route, in frame pixels: the median
        over consecutive spaces (``car_length`` when no route has two spaces, else 0).

        >>> from ttr_rules import load_map
        >>> round(load_map("europe").geometry.pitch(), 1)
        65.0
        """
        steps = [
            math.hypot((p[0] - q[0]) * self.width, (p[1] - q[1]) * self.height)
            for row in self.spaces
            for p, q in itertools.pairwise(row)
        ]
        return statistics.median(steps) if steps else self.car_length


#: Fields added after maps were published, with their defaults: left out of the digest while
#: they hold them, so that a map's digest (and a record's) does not change when a field is added.
_ROUTE_DEFAULTS = {"card_substitute": 0, "mountain": 0}
_TICKET_DEFAULTS = {"destinations": (), "penalty": 0}
_RULES_DEFAULTS = {
    "wild_locomotives": ("plain", "tunnel", "ferry"),
    "locomotive_substitute": 0,
    "face_up_locomotive_ends_draw": True,
    "bonuses": ("express",),
    "globetrotter_bonus": 10,
    "returned_ticket_discard": "bottom",
    "mountain_points": 2,
    "asian_explorer_bonus": 10,
}


def _without_new_defaults(fields: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    def default(key: str, value: Any) -> bool:
        value = tuple(value) if isinstance(value, list) else value
        return key == "general_payments" or (key in defaults and value == defaults[key])

    return {k: v for k, v in fields.items() if not default(k, v)}


def compute_digest(
    name: str,
    version: str,
    cities: Iterable[str],
    routes: Iterable[Route],
    tickets: Iterable[Ticket],
    rules: Rules,
    countries: Mapping[str, Iterable[str]] | None = None,
) -> str:
    """The sha256 of the canonical JSON of everything that affects play.

    City coordinates, aliases and the title are presentation and do not enter the digest.

    >>> from ttr_rules import load_map
    >>> m = load_map("europe")
    >>> args = (m.name, m.version, m.cities, m.routes, m.tickets, m.rules, m.countries)
    >>> compute_digest(*args) == m.digest
    True
    """
    content = {
        "name": name,
        "version": version,
        "cities": list(cities),
        "routes": [_without_new_defaults(asdict(r), _ROUTE_DEFAULTS) for r in routes],
        "tickets": [_without_new_defaults(asdict(t), _TICKET_DEFAULTS) for t in tickets],
        "rules": _without_new_defaults(asdict(rules), _RULES_DEFAULTS),
    }
    if countries:  # a new field: out of the digest while empty
        content["countries"] = {name: list(ends) for name, ends in countries.items()}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@frozen(cache_hash=True)
class GameMap:
    """A board: ``routes[i].id == i`` and ``tickets[i].id == i``.

    Build one with :meth:`GameMap.create` (which numbers routes and tickets and computes the
    digest) or load one with :func:`ttr_rules.load_map` / :func:`ttr_rules.load_map_file`.
    """

    name: str
    version: str
    cities: tuple[str, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    rules: Rules = Rules()
    digest: str = ""
    title: str = ""
    #: (latitude, longitude) of each city, aligned with ``cities``; empty when unknown.
    locations: tuple[tuple[float, float], ...] = field(default=(), eq=False)
    #: Alternative names accepted when parsing text: ``(alias, city)`` pairs.
    aliases: tuple[tuple[str, str], ...] = field(default=(), eq=False)
    #: How the picture bows routes: ``(route id, bend)`` pairs, a bend being the offset of the
    #: route's middle from the straight line, as a fraction of the distance between its cities
    #: (positive: to the right going from ``a`` to ``b``). Drawing only: not part of the map's
    #: value nor of its digest, so bending a route never changes a game.
    bends: tuple[tuple[int, float], ...] = field(default=(), eq=False)
    #: The countries of tickets to several destinations: each country's border end-points,
    #: which are places of ``cities`` (each ends one track: no path runs through a country).
    countries: Mapping[str, tuple[str, ...]] = field(factory=Countries, converter=_countries)
    #: The board as printed (city positions and car spaces), or None: drawing only, like
    #: ``bends`` (see :class:`Geometry`).
    geometry: Geometry | None = field(default=None, eq=False)
    #: The names people read for the map's bonuses, ``(bonus, title)`` pairs (the longest path
    #: is "the European Express" on Europe); presentation only, out of the map's value and
    #: digest. :meth:`bonus_title` gives a default for the others.
    bonus_titles: tuple[tuple[str, str], ...] = field(default=(), eq=False)
    #: The name of the board a variant is played on (``"usa"`` for ``usa-1910``: the board's
    #: cities and routes, another ticket deck and rules); empty for a board of its own. Menus
    #: group variants under their board; not part of the digest (the content is).
    board: str = field(default="", eq=False)
    #: The derived tables of this map (a :class:`ttr_rules.maps.index.MapIndex`), built on first
    #: use by :func:`ttr_rules.maps.index.map_index` and freed with the map; not part of the
    #: map's value. (Typed Any: converters resolve the field types at run time.)
    _index: Any = field(default=None, init=False, eq=False, repr=False)

    @classmethod
    def create(
        cls,
        name: str,
        cities: Iterable[str],
        routes: Iterable[tuple[str, str, int, Color | None] | dict[str, Any] | Route],
        tickets: Iterable[tuple[str, str, int] | tuple[str, str, int, bool] | Ticket],
        *,
        version: str = "1",
        rules: Rules | None = None,
        title: str = "",
        locations: Iterable[tuple[float, float]] = (),
        aliases: Iterable[tuple[str, str]] = (),
        bends: Iterable[tuple[int, float]] = (),
        countries: Mapping[str, Iterable[str]] | None = None,
        geometry: Geometry | None = None,
        bonus_titles: Iterable[tuple[str, str]] = (),
        board: str = "",
    ) -> GameMap:
        """Build a map, numbering routes and tickets in the given order.

        ``routes`` items are :class:`Route` objects (their ``id`` is replaced), keyword dicts of
        Route fields without ``id`` (``double_of`` then refers to the index in this list), or
        ``(a, b, length, color)`` tuples. Tracks joining the same two cities become double
        routes of each other unless ``double_of`` is given explicitly.
        No validation happens here: see :func:`ttr_rules.maps.validate_map`.
        """
        built: list[Route] = []
        for i, item in enumerate(routes):
            if isinstance(item, Route):
                built.append(evolve(item, id=i))
            elif isinstance(item, dict):
                built.append(Route(id=i, **item))
            else:
                a, b, length, color = item
                built.append(Route(i, a, b, length, color))
        if all(r.double_of is None for r in built):
            built = pair_double_routes(built)
        ticket_list: list[Ticket] = []
        for i, t in enumerate(tickets):
            if isinstance(t, Ticket):
                ticket_list.append(evolve(t, id=i))
            else:
                ticket_list.append(Ticket(i, t[0], t[1], t[2], bool(t[3]) if len(t) > 3 else False))
        rules = rules or Rules()
        city_tuple = tuple(cities)
        route_tuple = tuple(built)
        ticket_tuple = tuple(ticket_list)
        country_map = Countries(countries)
        digest = compute_digest(
            name, version, city_tuple, route_tuple, ticket_tuple, rules, country_map
        )
        return cls(
            name=name,
            version=version,
            cities=city_tuple,
            routes=route_tuple,
            tickets=ticket_tuple,
            rules=rules,
            digest=digest,
            title=title,
            locations=tuple(locations),
            aliases=tuple(aliases),
            bends=tuple(bends),
            countries=country_map,
            geometry=geometry,
            bonus_titles=tuple(bonus_titles),
            board=board,
        )

    def with_tickets(self, tickets: Iterable[Ticket]) -> GameMap:
        """This map with ``tickets`` instead of its own (``tickets[i].id == i``), every other
        field kept (countries, geometry, names...) and the digest computed again: a scenario's
        injected tickets, a view's blanked ones.

        >>> from ttr_rules import load_map
        >>> swiss = load_map("switzerland")
        >>> fewer = swiss.with_tickets(swiss.tickets[:3])
        >>> len(fewer.tickets), fewer.countries == swiss.countries, fewer.digest != swiss.digest
        (3, True, True)
        """
        listed = tuple(tickets)
        digest = compute_digest(
            self.name, self.version, self.cities, self.routes, listed, self.rules, self.countries
        )
        return evolve(self, tickets=listed, digest=digest)

    def bonus_title(self, bonus: str) -> str:
        """The name people read for ``bonus`` on this map: the map's own (``bonus_titles``), or
        a general one.

        >>> from ttr_rules import load_map
        >>> load_map("europe").bonus_title("express"), load_map("usa").bonus_title("express")
        ('the European Express', 'the longest-path bonus')
        >>> load_map("nordic").bonus_title("globetrotter")
        'the Globetrotter'
        """
        own = dict(self.bonus_titles)
        if bonus in own:
            return own[bonus]
        return _BONUS_TITLES.get(bonus, f"the {bonus.replace('_', ' ')} bonus")

    def route_between(self, a: str, b: str) -> tuple[Route, ...]:
        """The tracks joining cities ``a`` and ``b`` (either order)."""
        pair = {a, b}
        return tuple(r for r in self.routes if {r.a, r.b} == pair)

    def __str__(self) -> str:
        return (
            f"GameMap({self.name!r} v{self.version}: {len(self.cities)} cities, "
            f"{len(self.routes)} routes, {len(self.tickets)} tickets)"
        )


#: The general names of the built-in bonuses (a map may name them its own way).
_BONUS_TITLES = {
    "express": "the longest-path bonus",
    "globetrotter": "the Globetrotter",
    "grand_tour": "the Grand Tour",
    "asian_explorer": "the Asian Explorer",
}


def tracks_by_pair(routes: Iterable[Route]) -> dict[frozenset[str], list[Route]]:
    """The routes grouped by the two cities they join (either order), in the given order."""
    by_pair: dict[frozenset[str], list[Route]] = {}
    for r in routes:
        by_pair.setdefault(frozenset((r.a, r.b)), []).append(r)
    return by_pair


def pair_double_routes(routes: Iterable[Route]) -> list[Route]:
    """The routes (``routes[i].id == i``) with ``double_of`` set on the two tracks of every pair
    of cities joined exactly twice and cleared everywhere else (E34)."""
    out = [r if r.double_of is None else evolve(r, double_of=None) for r in routes]
    for tracks in tracks_by_pair(out).values():
        if len(tracks) == 2:
            first, second = tracks
            out[first.id] = evolve(first, double_of=second.id)
            out[second.id] = evolve(second, double_of=first.id)
    return out
