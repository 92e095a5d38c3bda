"""Every table derived from a map, built once per map and freed with it.

The engine never walks :class:`~ttr_rules.GameMap` objects while generating or applying moves:
it reads the flat tuples of :class:`MapIndex` instead, and hands out action objects created once
here, so that ``legal_actions`` allocates almost nothing. Scoring reads the route and ticket ends
as city indices, and the notation the folded city names.

One cache policy for all of them: :func:`map_index` builds the index on first use and keeps it
on the map itself (a private attribute outside the map's value), so it lives exactly as long as
the map and a look-up costs one attribute read.
"""

from __future__ import annotations

import difflib
import unicodedata
import weakref
from typing import TYPE_CHECKING, Any

from ..actions import Action, BuildStation, ClaimRoute
from ..cards import CARD_COLORS, COLORS, LOCOMOTIVE_CODE, Color
from ..errors import InvalidActionError
from ..words import clipped, with_article
from .model import GameMap, Route, Ticket

__all__ = [
    "CLAIM_SPAN",
    "MapIndex",
    "MultiTicket",
    "Reach",
    "fold_name",
    "map_index",
    "payment_index",
    "payment_indices",
    "resolve_city",
    "resolve_place",
]

#: An edge between two cities given by index, with a weight: ``(city, city, length or points)``.
Edge = tuple[int, int, int]
#: Route ids by colour and by a count, and the gray ones by a count (``MapIndex.claim_reach``,
#: ``MapIndex.claim_spans``).
Reach = tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[int, ...], ...]]
#: The counts ``MapIndex.claim_spans`` is made for: locomotives held, and cards of a colour.
CLAIM_SPAN = 16

#: A ticket to several destinations by city index: ``(origin places, ((destination places,
#: points), ...), penalty)``; a country stands for its end-points (``MapIndex.ticket_multi``).
MultiTicket = tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], int], ...], int]

#: The codes of the eight card colours (every card kind but the locomotive).
_CARD_CODES = range(len(CARD_COLORS))
#: The smallest stride of the payment tables: Europe's longest route (8) and third station.
_MIN_STRIDE = 9


def payment_index(color_code: int, locomotives: int, stride: int) -> int:
    """Position of a ``(colour, locomotives)`` payment in a per-route or per-city action table
    whose rows (one per card kind) have ``stride`` entries (``MapIndex.stride``)."""
    return color_code * stride + locomotives


def payment_indices(
    counts: tuple[int, ...], total: int, color_code: int, ferry: int, stride: int
) -> list[int]:
    """The :func:`payment_index` of every payment of ``total`` cards that ``counts`` allows.

    ``color_code`` −1 means any one colour (gray); at least ``ferry`` locomotives are used
    (E35). Colour by colour, fewest locomotives first, the all-locomotive payment last.
    """
    locos = counts[LOCOMOTIVE_CODE]
    high = (locos if locos < total else total - 1) + 1
    out: list[int] = []
    if color_code >= 0:
        low = total - counts[color_code]
        base = color_code * stride
        out += range(base + (low if low > ferry else ferry), base + high)
    else:
        # Only colours held at least ``total - locos`` times (and once) give a payment. A
        # colour gives one or two payments as a rule: appending them costs less than a range
        # (``range`` and extending a list by it: about 1,000 instructions a colour).
        need = total - locos if total - locos > 1 else 1
        base = 0
        for n in counts[:LOCOMOTIVE_CODE]:
            if n >= need:
                k = total - n
                if k < ferry:
                    k = ferry
                while k < high:
                    out.append(base + k)
                    k += 1
            base += stride
    if locos >= total:
        out.append(LOCOMOTIVE_CODE * stride + total)
    return out


def _claim_table(route_id: int, length: int, stride: int) -> tuple[ClaimRoute | None, ...]:
    table: list[ClaimRoute | None] = [None] * (len(COLORS) * stride)
    for code, color in enumerate(COLORS):
        if color is Color.LOCOMOTIVE:
            table[payment_index(code, length, stride)] = ClaimRoute(route_id, color, length)
        else:
            for locos in range(length):
                table[payment_index(code, locos, stride)] = ClaimRoute(route_id, color, locos)
    return tuple(table)


def _station_table(city: str, stride: int) -> tuple[BuildStation | None, ...]:
    """Every station payment of up to ``stride − 1`` cards."""
    table: list[BuildStation | None] = [None] * (len(COLORS) * stride)
    for code, color in enumerate(COLORS):
        for locos in range(stride):
            if color is not Color.LOCOMOTIVE or locos:
                table[payment_index(code, locos, stride)] = BuildStation(city, color, locos)
    return tuple(table)


class MapIndex:
    """The derived tables of one map, by route id and city index (see :func:`map_index`).

    Three groups of tables: the engine's (route attributes, the action tables), scoring's
    (route and ticket ends) and the notation's (city names). The last two are cheap and built
    with the index; the engine's are built when one of them is first read, so that a
    scoring-only or parsing-only user of a map never pays for the action tables.

    Until then the index is a :class:`_Unbuilt`, whose ``__getattr__`` builds the engine's
    tables and turns the index into a plain ``MapIndex`` (same slots): a class with a
    ``__getattr__`` makes every attribute read take the interpreter's slow generic path (about
    350 instructions instead of 30 on CPython 3.11), and the engine reads these tables on every
    move.
    """

    __slots__ = (
        "_map",
        "base_tickets",
        "card_sets",
        "city_index",
        "city_routes",
        "claim_memo",
        "claim_reach",
        "claim_spans",
        "claim_tables",
        "color",
        "double",
        "ferry",
        "length",
        "max_ferry",
        "max_length",
        "max_trains",
        "mountain",
        "mountains",
        "names",
        "place_names",
        "route_ends",
        "station_cache",
        "station_tables",
        "stride",
        "ticket_ends",
        "ticket_ids",
        "ticket_multi",
        "tunnel",
    )

    # The engine's tables, by route id (city_index and station_tables by city index).
    length: tuple[int, ...]
    #: Colour code of each route, -1 for gray.
    color: tuple[int, ...]
    ferry: tuple[int, ...]
    tunnel: tuple[bool, ...]
    #: The other track of a double route, -1 when none.
    double: tuple[int, ...]
    #: Whether any route takes substitute sets of cards (``Route.card_substitute``).
    card_sets: bool
    city_index: dict[str, int]
    claim_tables: tuple[tuple[ClaimRoute | None, ...], ...]
    station_tables: tuple[tuple[BuildStation | None, ...], ...]
    max_length: int
    #: X marks of each route (``Route.mountain``): trains a claim takes beyond its length.
    mountain: tuple[int, ...]
    #: Whether any route has X marks.
    mountains: bool
    #: The most trains a claim of the map takes (``max_length`` on a map without mountains).
    max_trains: int
    #: Entries per card kind in the payment tables: more than the longest route and than the
    #: costliest station the tables serve (``payment_index``).
    stride: int
    #: The most locomotives a ferry of the map needs.
    max_ferry: int
    #: The routes a hand can afford, whoever owns them: ``claim_reach[f]`` for a hand of ``f``
    #: locomotives (at most ``max_ferry``) is ``(by_colour, gray)``; ``by_colour[code][n]`` is
    #: the ids of the routes of that colour with a length of at most ``n`` and at most ``f``
    #: ferry locomotives, ascending, and ``gray[n]`` the same for the gray routes. ``n`` runs
    #: to ``max_length``.
    claim_reach: tuple[Reach, ...]
    #: The same tables read by the counts held, for a player with at least ``max_length``
    #: trains: ``claim_spans[k]`` for ``k`` locomotives is ``(by_colour, gray)`` with
    #: ``by_colour[code][n]`` the entry ``n + k`` (at most ``max_length``) of
    #: ``claim_reach[min(k, max_ferry)]``'s, for ``n`` and ``k`` below :data:`CLAIM_SPAN`;
    #: ``gray[n]`` the same for the gray routes.
    claim_spans: tuple[Reach, ...]
    #: The claim actions of each coloured route by (cards of its colour held, locomotives
    #: held), as one int (``moves.claim``): a bounded memo per route (None for a gray route).
    claim_memo: tuple[dict[int, tuple[ClaimRoute, ...]] | None, ...]
    #: Station actions by (stations of every player, payment indices): a bounded memo.
    station_cache: dict[object, tuple[Action, ...]]
    #: The ids of the regular tickets, of the long ones and of all of them, each ascending
    #: (determinization deals them).
    ticket_ids: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    # Scoring's tables, by city index.
    #: ``(a, b, length)`` of each route, by route id.
    route_ends: tuple[Edge, ...]
    #: The ids of the routes touching each city, ascending, by city index.
    city_routes: tuple[tuple[int, ...], ...]
    #: ``(a, b, points)`` of each ticket, by ticket id. For a ticket to several destinations:
    #: its first origin place, the first place of its best destination and its highest value,
    #: a stand-in for readers of two-city tickets only; :attr:`ticket_multi` holds the truth.
    ticket_ends: tuple[Edge, ...]
    #: By ticket id: None for a two-city ticket, the :data:`MultiTicket` of one to several
    #: destinations (Switzerland's country tickets).
    ticket_multi: tuple[MultiTicket | None, ...]
    # The notation's table.
    #: Folded city names and aliases -> city (a city's own name wins over an alias).
    names: dict[str, str]
    #: :attr:`names` and the folded country names and aliases -> country (a front end's place
    #: look-up; the notation names cities only).
    place_names: dict[str, str]

    def __init__(self, game_map: GameMap) -> None:
        # Weak: the map holds its index, not the other way round.
        self._map = weakref.ref(game_map)
        #: Views: the ticket count of the installed map this one extends with injected tickets
        #: (``scenario``), -1 when it extends none; None until first asked (views).
        self.base_tickets: int | None = None
        _scoring_tables(self, game_map)
        _name_table(self, game_map)

    def __reduce__(self) -> tuple[type[None], tuple[()]]:
        # A cache, not data: a pickled or deep-copied map carries no index and rebuilds its own.
        return type(None), ()


def _engine_tables(index: MapIndex, game_map: GameMap) -> None:
    routes = game_map.routes
    max_length = max((r.length for r in routes), default=0)
    # A game may use other Rules than the map's (E53 variants): station payments beyond the
    # tables are built on demand (see moves.stations).
    stride = max(_MIN_STRIDE, max_length + 1, game_map.rules.stations_per_player + 1)
    index.length = tuple(r.length for r in routes)
    index.color = tuple(_color_code(r) for r in routes)
    index.ferry = tuple(r.ferry_locomotives for r in routes)
    index.tunnel = tuple(r.tunnel for r in routes)
    index.double = tuple(-1 if r.double_of is None else r.double_of for r in routes)
    index.card_sets = any(r.card_substitute for r in routes)
    index.city_index = {c: i for i, c in enumerate(game_map.cities)}
    index.claim_tables = tuple(_claim_table(r.id, r.length, stride) for r in routes)
    index.station_tables = tuple(_station_table(c, stride) for c in game_map.cities)
    index.max_length = max_length
    index.mountain = tuple(r.mountain for r in routes)
    index.mountains = any(index.mountain)
    index.max_trains = max((r.trains for r in routes), default=0)
    index.stride = stride
    index.max_ferry = max((r.ferry_locomotives for r in routes), default=0)
    index.claim_reach = _claim_reach(routes, index.max_ferry)
    index.claim_spans = _claim_spans(index.claim_reach, max_length)
    index.claim_memo = tuple(None if r.color is None else {} for r in routes)
    index.station_cache = {}


def _scoring_tables(index: MapIndex, game_map: GameMap) -> None:
    number = {c: i for i, c in enumerate(game_map.cities)}
    ends = tuple((number[r.a], number[r.b], r.length) for r in game_map.routes)
    touching: list[list[int]] = [[] for _ in game_map.cities]
    for rid, (a, b, _) in enumerate(ends):
        touching[a].append(rid)
        if b != a:
            touching[b].append(rid)
    index.route_ends = ends
    index.city_routes = tuple(tuple(t) for t in touching)
    index.ticket_multi = tuple(_multi_ticket(t, game_map, number) for t in game_map.tickets)
    index.ticket_ends = tuple(
        (number[t.a], number[t.b], t.points)
        if multi is None
        else (multi[0][0], max(multi[1], key=lambda d: d[1])[0][0], t.points)
        for t, multi in zip(game_map.tickets, index.ticket_multi, strict=True)
    )
    regular = tuple(t.id for t in game_map.tickets if not t.long)
    long = tuple(t.id for t in game_map.tickets if t.long)
    index.ticket_ids = (regular, long, tuple(sorted(regular + long)))


def _multi_ticket(ticket: Ticket, game_map: GameMap, number: dict[str, int]) -> MultiTicket | None:
    if not ticket.destinations:
        return None

    def places(name: str) -> tuple[int, ...]:
        return tuple(number[p] for p in game_map.countries.get(name, (name,)))

    targets = tuple((places(place), points) for place, points in ticket.destinations)
    return (places(ticket.a), targets, ticket.penalty)


def _name_table(index: MapIndex, game_map: GameMap) -> None:
    names: dict[str, str] = {}
    known = set(game_map.cities)
    for alias, city in (*((c, c) for c in game_map.cities), *game_map.aliases):
        if city in known:  # a country's aliases name no city
            names.setdefault(fold_name(alias), city)
    index.names = names
    places = dict(names)
    for alias, country in (*((c, c) for c in game_map.countries), *game_map.aliases):
        if country in game_map.countries:
            places.setdefault(fold_name(alias), country)
    index.place_names = places


class _Unbuilt(MapIndex):
    """A :class:`MapIndex` whose engine tables are not built yet (see there)."""

    __slots__ = ()

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise accept any attribute name

        def __getattr__(self, name: str) -> Any:
            if name not in _ENGINE:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            game_map = self._map()
            if game_map is None:
                raise ReferenceError("the map of this index was freed")
            _engine_tables(self, game_map)
            self.__class__ = MapIndex  # type: ignore[assignment]
            return getattr(self, name)


#: The engine's tables (built on first read, see :class:`MapIndex`).
_ENGINE = frozenset(
    {
        *("length", "color", "ferry", "tunnel", "double", "max_length", "max_ferry", "stride"),
        *("mountain", "mountains", "max_trains"),
        *("city_index", "claim_tables", "station_tables", "claim_reach", "claim_memo"),
        "claim_spans",
        "card_sets",
        "station_cache",
    }
)


def map_index(game_map: GameMap) -> MapIndex:
    """The tables of ``game_map``, built on its first use and kept until the map is freed."""
    index: MapIndex | None = game_map._index
    if index is None:
        index = _Unbuilt(game_map)
        object.__setattr__(game_map, "_index", index)
    return index


def _color_code(route: Route) -> int:
    return -1 if route.color is None else route.color.code


def _claim_reach(routes: tuple[Route, ...], max_ferry: int) -> tuple[Reach, ...]:
    """``MapIndex.claim_reach``: route ids by ferry locomotives held, colour and reach."""
    longest = max((r.length for r in routes), default=0)

    def table(code: int, locos: int) -> tuple[tuple[int, ...], ...]:
        fit = [r for r in routes if _color_code(r) == code and r.ferry_locomotives <= locos]
        return tuple(tuple(r.id for r in fit if r.length <= n) for n in range(longest + 1))

    return tuple(
        (tuple(table(code, locos) for code in _CARD_CODES), table(-1, locos))
        for locos in range(max_ferry + 1)
    )


def _claim_spans(reach: tuple[Reach, ...], max_length: int) -> tuple[Reach, ...]:
    """``MapIndex.claim_spans``: ``claim_reach`` read by the counts held, by locomotives."""

    def shifted(table: tuple[tuple[int, ...], ...], locos: int) -> tuple[tuple[int, ...], ...]:
        return tuple(table[min(n + locos, max_length)] for n in range(CLAIM_SPAN))

    spans: list[Reach] = []
    for locos in range(CLAIM_SPAN):
        by_colour, gray = reach[min(locos, len(reach) - 1)]
        spans.append((tuple(shifted(table, locos) for table in by_colour), shifted(gray, locos)))
    return tuple(spans)


_SPECIAL_LETTERS = str.maketrans(
    {"ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ı": "i", "þ": "th"}
)


def fold_name(name: str) -> str:
    """A city name folded for lenient matching: lowercase ASCII, single spaces.

    >>> fold_name("  København"), fold_name("İzmir"), fold_name("Rostov  on Don")
    ('kobenhavn', 'izmir', 'rostov on don')
    """
    text = unicodedata.normalize("NFKD", name.lower()).translate(_SPECIAL_LETTERS)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.split())


def resolve_city(name: str, game_map: GameMap) -> str:
    """The city called ``name`` (any case, an alias, with or without diacritics): the one
    resolver of city names for the notation, ``scenario`` and every front end.

    Raises :class:`InvalidActionError` naming the closest cities for an unknown name.

    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> resolve_city("munich", europe), resolve_city("Kiev", europe), resolve_city("zurich", europe)
    ('München', 'Kyiv', 'Zürich')
    """
    return _resolve(name, map_index(game_map).names, "city")


def resolve_place(name: str, game_map: GameMap) -> str:
    """The city or country called ``name``, read as :func:`resolve_city` reads a city (a
    country's own aliases too); a city's name wins over a country's alias.

    Raises :class:`InvalidActionError` naming the closest places for an unknown name.

    >>> from ttr_rules import GameMap
    >>> board = GameMap.create(
    ...     "alps", ["Zürich", "Chur", "Österreich-1"], [("Zürich", "Chur", 3, None),
    ...     ("Chur", "Österreich-1", 2, None)], [], countries={"Österreich": ["Österreich-1"]},
    ...     aliases=[("Austria", "Österreich"), ("Zurich", "Zürich")])
    >>> resolve_place("zurich", board), resolve_place("AUSTRIA", board)
    ('Zürich', 'Österreich')
    >>> resolve_place("osterreich", board)
    'Österreich'
    """
    index = map_index(game_map)
    noun = "place" if game_map.countries else "city"
    return _resolve(name, index.place_names, noun)


def _resolve(name: str, table: dict[str, str], noun: str) -> str:
    if not isinstance(name, str):
        raise InvalidActionError(f"expected {with_article(noun)} name, got {type(name).__name__}")
    found = table.get(fold_name(name))
    if found is None:
        close = difflib.get_close_matches(fold_name(name[:160]), list(table), n=3)
        hint = f"; did you mean {', '.join(sorted({table[c] for c in close}))}?" if close else ""
        raise InvalidActionError(f"unknown {noun} {clipped(repr(name.strip()))}{hint}")
    return found
