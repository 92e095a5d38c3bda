"""The board as a standalone SVG document (python-chess's ``chess.svg`` for Ticket to Ride).

:func:`svg` draws the map (cities, every route as its row of spaces, tunnels outlined, ferry
locomotive spaces marked, the two tracks of a double route side by side), the claimed routes as
trains in their owner's colour, the stations, optional highlights, and a legend with the
players, the face-up row, the piles and, for a player's view, that player's hand and tickets.

Every route is a ``<g id="route-12" class="route route-12 color-red tunnel ...">`` holding one
``<rect id="route-12-space-0" class="space">`` per space, every city a ``<g id="city-3"
class="city" data-city="Berlin">``: front ends style them with CSS and find the clicked route or
city from the element's id. The output depends only on its input (no clock, no randomness).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator, Sequence
from typing import cast

from ..actions import ACTION_TYPES, Action, BuildStation, ClaimRoute
from ..cards import COLORS, Color, Hand
from ..maps import GameMap, Route, Ticket
from ..state import GameState, Phase
from ..views import PlayerView, SeatView
from ..words import counted, minus, route_with_number, seat_name
from .geometry import (
    COUNTRY_SPACING,
    STATION_SIZE,
    BoardGeometry,
    Space,
    board_geometry,
    drawing_key,
)
from .scene import as_view, bare_view, end_scores, is_omniscient

__all__ = ["CARD_FILLS", "CARD_SYMBOLS", "PLAYER_COLORS", "svg"]

#: Fill colours of the train-card colours (``None``: a gray route).
CARD_FILLS: dict[Color | None, str] = {
    Color.PURPLE: "#c46fc0",
    Color.WHITE: "#f7f7f2",
    Color.BLUE: "#2f74d0",
    Color.YELLOW: "#f4d03f",
    Color.ORANGE: "#ee8a25",
    Color.BLACK: "#30302e",
    Color.RED: "#d6332f",
    Color.GREEN: "#3c9f48",
    Color.LOCOMOTIVE: "url(#locomotive)",
    None: "#b4b4ae",
}

#: The players' colours, by seat: none of them is a card colour (nor gray), so a claimed route
#: never reads as an open one; each claimed route also carries its owner's number on a disc.
PLAYER_COLORS: tuple[str, ...] = (
    "#00b3c7",
    "#8b4513",
    "#ff4fa0",
    "#9acd32",
    "#4b4f9e",
    "#7a0f2e",
    "#006064",
    "#d4a373",
)

#: A symbol per card colour, as the printed cards carry, for the colour-blind mode.
CARD_SYMBOLS: dict[Color, str] = {
    Color.PURPLE: "◆",
    Color.WHITE: "○",
    Color.BLUE: "▲",
    Color.YELLOW: "★",
    Color.ORANGE: "●",
    Color.BLACK: "■",
    Color.RED: "♥",
    Color.GREEN: "♣",
    Color.LOCOMOTIVE: "✦",
}

#: Marks drawn over the board that must never catch a click (the route or city under them
#: does): labels, highlights, ticket lines, stations, owner marks, symbols.
_INERT = {"pointer-events": "none"}

#: The radius of the disc under a claimed route's owner number, in label font sizes.
OWNER_DISC = 0.72

_INK = "#3b3026"
_PAPER = "#fbf7ee"
_SEA = "#dde9ee"
_HIGHLIGHT = "#ff2fb4"
_TICKET = "#6a1b9a"
_COUNTRY = "#5b4a3a"
_FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

Highlight = Action | int | str | Iterable[Action | int | str] | None

#: A placeholder element for a fixed part of the board, replaced by its serialised text.
_STATIC = "ttr-static"
_MARKER = re.compile(r'<ttr-static ref="([^"]+)" />')


def svg(
    state_or_view: GameState | PlayerView | GameMap,
    *,
    size: int = 800,
    highlight: Highlight = None,
    tickets_of: int | None = None,
    legend: bool = True,
    title: str | None = None,
    symbols: bool = False,
) -> str:
    """A standalone SVG document of the board, ``size`` pixels wide.

    ``state_or_view`` is a full :class:`~ttr_rules.GameState` (everything is shown, every
    player's hand included), a :class:`~ttr_rules.PlayerView`, of which only what the viewer
    knows is drawn (the opponents' hands and tickets never are), or a
    :class:`~ttr_rules.GameMap`: the bare board (no legend).

    ``highlight`` marks routes and cities: an action (the route it claims, the city of a
    station), a route id, a city name, or an iterable of them. ``tickets_of`` marks the cities
    of that player's kept tickets (in a view, only seats whose tickets the view shows — the
    viewer's own, or everyone's once the game is over; ValueError otherwise). ``legend=False``
    draws the map alone. ``title`` replaces the map's title in the legend. ``symbols=True``
    (the colour-blind mode) draws each card colour's symbol (:data:`CARD_SYMBOLS`) on the
    route spaces and cards.

    Every route is a ``<g id="route-N" data-route="N">`` whose hit area (``class="hit"``)
    covers all its spaces, every city a ``<g id="city-N" data-city="...">``; labels and other
    marks take no pointer events (docs/frontend.md).

    >>> from ttr_rules import new_game
    >>> doc = svg(new_game("europe", 2, seed=1), size=600)
    >>> doc.startswith("<svg") and doc.count('class="space"') == 300
    True
    >>> from ttr_rules import load_map
    >>> svg(load_map("usa")).count('class="train')
    0
    """
    if size < 100:
        raise ValueError(f"size must be at least 100 pixels, got {size}")
    if isinstance(state_or_view, GameMap):
        if tickets_of is not None:
            raise ValueError("a bare board has no tickets to mark: give a game's state or view")
        view = bare_view(state_or_view)
        return _Drawing(view, size, highlight, None, False, title, symbols, bare=True).document()
    view = as_view(state_or_view)
    return _Drawing(view, size, highlight, tickets_of, legend, title, symbols).document()


class _Board:
    """What a drawing of ``game_map`` at one size holds whatever the position: each route's
    hit line, spaces and ferry marks, and the cities with their labels. They are serialised
    once per map and size (:func:`_static_parts`) and spliced into every document."""

    def __init__(self, game_map: GameMap, geometry: BoardGeometry) -> None:
        self.map = game_map
        self.geometry = g = geometry
        self.width = g.width
        self.unit = g.unit
        self.pad = g.pad
        self.map_height = g.map_height
        self.points = g.points
        self.track = g.track
        self.city_radius = g.city_radius
        self.font = g.font

    def static_parts(self) -> dict[str, str]:
        """The serialised fixed parts: by ``route-N`` the children a route's group starts
        with, and ``cities`` the city layer's children, indented for their place."""
        parts: dict[str, str] = {}
        for route in self.map.routes:
            tags = (_tag(name, attrs) for name, attrs in self._route_body(route))
            parts[f"route-{route.id}"] = "\n   ".join(tags)  # at depth 3, as ET.indent puts it
        layer = ET.Element("g")
        self._cities(layer)
        parts["cities"] = _serialised(layer, depth=2)
        return parts

    def _route_body(self, route: Route) -> Iterator[tuple[str, dict[str, str]]]:
        """A route's hit line, spaces and ferry locomotive marks, as tags and attributes
        (written as text directly: thousands of them, all numbers)."""
        yield self._hit_area(route.id)
        spaces = self.geometry.spaces[route.id]
        stroke = self._space_stroke(route)
        fill = CARD_FILLS[route.color]
        for i, space in enumerate(spaces):
            yield (
                "rect",
                {
                    "id": f"route-{route.id}-space-{i}",
                    "class": "space",
                    **_box(space, 1.5 * self.unit),
                    "fill": fill,
                    **stroke,
                },
            )
        for space in spaces[: route.ferry_locomotives]:
            yield (
                "circle",
                {
                    "class": "ferry-locomotive",
                    "cx": _n(space.cx),
                    "cy": _n(space.cy),
                    "r": _n(self.track * 0.42),
                    "fill": "url(#locomotive)",
                    "stroke": "#111111",
                    "stroke-width": _n(0.8 * self.unit),
                    **_INERT,
                },
            )
        # A mountain route's X marks (U27), on the spaces at its b end (the data say how many
        # X marks a track has, not which of its spaces carry them).
        ink = "#ffffff" if route.color is Color.BLACK else "#111111"
        for space in spaces[len(spaces) - route.mountain :] if route.mountain else ():
            yield (
                "path",
                {
                    "class": "mountain-mark",
                    "d": _cross(space),
                    "fill": "none",
                    "stroke": ink,
                    "stroke-width": _n(1.6 * self.unit),
                    "stroke-linecap": "round",
                    **_INERT,
                },
            )

    def _hit_area(self, rid: int) -> tuple[str, dict[str, str]]:
        """An invisible line along the route, as wide as its spaces and covering the gaps
        between them, so that a click anywhere on the route finds it."""
        return (
            "polyline",
            {
                "class": "hit",
                "points": _points(self.geometry.paths[rid]),
                "fill": "none",
                "stroke": "#000000",
                "stroke-opacity": "0",
                "stroke-width": _n(self.track),
                "pointer-events": "stroke",
            },
        )

    def _space_stroke(self, route: Route) -> dict[str, str]:
        """Tunnels have a heavy dashed black border, like the board's jagged tunnel outline."""
        if route.tunnel:
            return {
                "stroke": "#111111",
                "stroke-width": _n(1.8 * self.unit),
                "stroke-dasharray": f"{_n(2.5 * self.unit)} {_n(1.5 * self.unit)}",
            }
        return {"stroke": "#6b6259", "stroke-width": _n(0.8 * self.unit)}

    def _cities(self, layer: ET.Element) -> None:
        for i, city in enumerate(self.map.cities):
            x, y = self.points[city]
            group = ET.SubElement(
                layer, "g", {"id": f"city-{i}", "class": "city", "data-city": city}
            )
            ET.SubElement(group, "title").text = city
            ET.SubElement(
                group,
                "circle",
                {
                    "cx": _n(x),
                    "cy": _n(y),
                    "r": _n(self.city_radius),
                    "fill": "#fff4d6",
                    "stroke": _INK,
                    "stroke-width": _n(1.6 * self.unit),
                },
            )
            place = self.geometry.labels[city]
            if place.leader is not None:
                ET.SubElement(
                    group,
                    "line",
                    {
                        "class": "city-leader",
                        **_line(*place.leader),
                        "stroke": _INK,
                        "stroke-width": _n(max(0.9 * self.unit, 1.0)),  # a pixel at least
                        **_INERT,
                    },
                )
            label = {
                "x": _n(place.x),
                "y": _n(place.y),
                "font-size": _n(place.font),
                "text-anchor": place.anchor,
                **_INERT,
            }
            halo = ET.SubElement(
                group,
                "text",
                {
                    **label,
                    "class": "city-label-halo",
                    "fill": "none",
                    "stroke": _PAPER,
                    "stroke-width": _n(3 * self.unit),
                    "stroke-linejoin": "round",
                    "stroke-opacity": "0.9",
                },
            )
            halo.text = place.text or city
            ET.SubElement(group, "text", {**label, "class": "city-label", "fill": _INK}).text = (
                place.text or city
            )


class _Drawing(_Board):
    """One SVG document in the making (its geometry is derived from ``size``)."""

    def __init__(
        self,
        view: PlayerView,
        size: int,
        highlight: Highlight,
        tickets_of: int | None,
        legend: bool,
        title: str | None,
        symbols: bool,
        *,
        bare: bool = False,
    ) -> None:
        game_map = view.map
        self.bare = bare
        super().__init__(game_map, board_geometry(game_map, float(size)))
        self.view = view
        self.static = _static_parts(game_map, drawing_key(game_map), float(size))
        self.symbols = symbols
        self.routes, self.cities = _highlighted(highlight, self.map)
        self.ticket_seat = tickets_of
        #: The owner discs drawn so far (their boxes).
        self.discs: list[tuple[float, float, float, float]] = []
        self.legend = legend
        self.title = title

    # ------------------------------------------------------------------ document

    def document(self) -> str:
        legend = ET.Element("g", {"id": "legend", "class": "legend"})
        legend_height = self._legend(legend) if self.legend else 0.0
        height = self.map_height + legend_height
        root = ET.Element(
            "svg",
            {
                "xmlns": "http://www.w3.org/2000/svg",
                "version": "1.1",
                "width": _n(self.width),
                "height": _n(height),
                "viewBox": f"0 0 {_n(self.width)} {_n(height)}",
                "class": "ttr-board",
                "font-family": _FONT,
            },
        )
        ET.SubElement(root, "title").text = self._caption()
        self._defs(root)
        ET.SubElement(
            root, "rect", {"width": "100%", "height": "100%", "fill": _PAPER, "class": "paper"}
        )
        ET.SubElement(
            root,
            "rect",
            {
                "x": _n(self.pad / 3),
                "y": _n(self.pad / 3),
                "width": _n(self.width - 2 * self.pad / 3),
                "height": _n(self.map_height - 2 * self.pad / 3),
                "rx": _n(10 * self.unit),
                "fill": _SEA,
                "stroke": "#c7d6dc",
                "class": "board",
            },
        )
        self._countries(ET.SubElement(root, "g", {"id": "countries"}))
        self._highlights(ET.SubElement(root, "g", {"id": "highlights"}))
        self._routes(ET.SubElement(root, "g", {"id": "routes"}))
        self._tickets(ET.SubElement(root, "g", {"id": "tickets"}))
        ET.SubElement(ET.SubElement(root, "g", {"id": "cities"}), _STATIC, {"ref": "cities"})
        self._stations(ET.SubElement(root, "g", {"id": "stations"}))
        if self.legend:
            root.append(legend)
        ET.indent(root, space=" ")
        text = ET.tostring(root, encoding="unicode")
        return _MARKER.sub(lambda m: self.static[m.group(1)], text) + "\n"

    def _caption(self) -> str:
        v = self.view
        if self.bare:
            return f"{self.title or self.map.title or self.map.name}: the board"
        who = (
            "all players"
            if is_omniscient(v)
            else "a spectator"
            if v.player is None
            else seat_name(v.player)
        )
        return f"{self.map.title or self.map.name}: turn {v.turn}, {_situation(v)} (seen by {who})"

    def _defs(self, root: ET.Element) -> None:
        defs = ET.SubElement(root, "defs")
        gradient = ET.SubElement(
            defs, "linearGradient", {"id": "locomotive", "x1": "0", "y1": "0", "x2": "1", "y2": "1"}
        )
        stops = ("#d6332f", "#f4d03f", "#3c9f48", "#2f74d0", "#c46fc0")
        for i, colour in enumerate(stops):
            ET.SubElement(
                gradient, "stop", {"offset": _n(i / (len(stops) - 1)), "stop-color": colour}
            )

    # ------------------------------------------------------------------ board layers

    def _countries(self, layer: ET.Element) -> None:
        """The countries' names where the board prints them, on the land under the routes."""
        for country, place in self.geometry.countries.items():
            ET.SubElement(
                layer,
                "text",
                {
                    "class": "country-label",
                    "data-country": country,
                    "x": _n(place.x),
                    "y": _n(place.y),
                    "font-size": _n(place.font),
                    "font-style": "italic",
                    "letter-spacing": _n(COUNTRY_SPACING * place.font),
                    "text-anchor": "middle",
                    "fill": _COUNTRY,
                    **_INERT,
                },
            ).text = country

    def _highlights(self, layer: ET.Element) -> None:
        for rid in sorted(self.routes):
            ET.SubElement(
                layer,
                "polyline",
                {
                    "id": f"highlight-route-{rid}",
                    "class": f"highlight highlight-route route-{rid}",
                    "points": _points(self.geometry.paths[rid]),
                    "fill": "none",
                    "stroke": _HIGHLIGHT,
                    "stroke-opacity": "0.7",
                    "stroke-width": _n(self.track + 12 * self.unit),
                    "stroke-linecap": "round",
                    "stroke-linejoin": "round",
                    **_INERT,
                },
            )
        for city in sorted(self.cities, key=self.map.cities.index):
            x, y = self.points[city]
            ET.SubElement(
                layer,
                "circle",
                {
                    "id": f"highlight-city-{self.map.cities.index(city)}",
                    "class": "highlight highlight-city",
                    "cx": _n(x),
                    "cy": _n(y),
                    "r": _n(self.city_radius + 8 * self.unit),
                    "fill": _HIGHLIGHT,
                    "fill-opacity": "0.7",
                    **_INERT,
                },
            )

    def _routes(self, layer: ET.Element) -> None:
        for route in self.map.routes:
            owner = self.view.route_owner[route.id]
            colour = "gray" if route.color is None else route.color.value
            classes = ["route", f"route-{route.id}", f"color-{colour}"]
            classes += ["tunnel"] * route.tunnel + ["ferry"] * route.is_ferry
            classes += ["mountain"] * (route.mountain > 0)
            classes += ["double"] * (route.double_of is not None)
            classes += ["claimed", f"owner-{owner}"] if owner is not None else ["open"]
            group = ET.SubElement(
                layer,
                "g",
                {
                    "id": f"route-{route.id}",
                    "class": " ".join(classes),
                    "data-route": str(route.id),
                },
            )
            ET.SubElement(group, "title").text = _route_title(self.map, route, owner)
            ET.SubElement(group, _STATIC, {"ref": f"route-{route.id}"})
            spaces = self.geometry.spaces[route.id]
            if owner is not None:
                self._trains(group, spaces, owner)
            elif self.symbols and route.color is not None:
                for space in spaces[route.ferry_locomotives :]:
                    self._symbol(group, space, CARD_SYMBOLS[route.color], route.color)

    def _trains(self, group: ET.Element, spaces: Sequence[Space], owner: int) -> None:
        """The owner's train pieces on a claimed route, and the owner's number on a disc in the
        middle of the route, as large as the city labels (legible at the picture's own size,
        whatever the colours)."""
        colour = _player_colour(owner)
        for space in spaces:
            piece = Space(
                space.cx,
                space.cy,
                space.length - 0.6 * self.unit,
                space.thickness + 2.4 * self.unit,
                space.angle,
            )
            ET.SubElement(
                group,
                "rect",
                {
                    "class": f"train owner-{owner}",
                    **_box(piece, 2.5 * self.unit),
                    "fill": colour,
                    "stroke": "#111111",
                    "stroke-width": _n(1.3 * self.unit),
                },
            )
        font = self.font
        x, y = self._disc_place(spaces, font * OWNER_DISC)
        ET.SubElement(
            group,
            "circle",
            {
                "class": f"owner-disc owner-{owner}",
                "cx": _n(x),
                "cy": _n(y),
                "r": _n(font * OWNER_DISC),
                "fill": colour,
                "stroke": "#111111",
                "stroke-width": _n(max(1.2, 1.4 * self.unit)),
                **_INERT,
            },
        )
        ET.SubElement(
            group,
            "text",
            {
                "class": f"owner-mark owner-{owner}",
                "x": _n(x),
                "y": _n(y + font * 0.36),
                "font-size": _n(font),
                "font-weight": "bold",
                "text-anchor": "middle",
                "fill": "#ffffff" if _is_dark(colour) else "#111111",
                **_INERT,
            },
        ).text = str(owner + 1)  # as the page names players: "Player 1" is seat 0

    def _disc_place(self, spaces: Sequence[Space], radius: float) -> tuple[float, float]:
        """Where a claimed route's owner disc goes: on the car (or between two cars) nearest
        the route's middle whose disc covers no label and no disc drawn before (the other
        track of a double), else in the middle."""
        places = [(s.cx, s.cy) for s in spaces]
        places += [((a.cx + b.cx) / 2, (a.cy + b.cy) / 2) for a, b in itertools.pairwise(spaces)]
        n = len(spaces)
        middle = places[n // 2] if n % 2 else places[n + n // 2 - 1]  # a car, or a gap
        places.sort(key=lambda p: math.dist(p, middle))
        g = self.geometry
        taken = [label.box for label in (*g.labels.values(), *g.countries.values())]
        taken += self.discs
        x, y = next(
            (
                (x, y)
                for x, y in places
                if not any(
                    _boxes_meet((x - radius, y - radius, x + radius, y + radius), box)
                    for box in taken
                )
            ),
            middle,
        )
        self.discs.append((x - radius, y - radius, x + radius, y + radius))
        return x, y

    def _symbol(self, group: ET.Element, space: Space, symbol: str, colour: Color) -> None:
        dark = colour in (Color.BLACK, Color.BLUE, Color.RED, Color.GREEN, Color.PURPLE)
        ET.SubElement(
            group,
            "text",
            {
                "class": "symbol",
                "x": _n(space.cx),
                "y": _n(space.cy + self.track * 0.32),
                "font-size": _n(self.track * 0.85),
                "text-anchor": "middle",
                "fill": "#ffffff" if dark else "#111111",
                **_INERT,
            },
        ).text = symbol

    def _tickets(self, layer: ET.Element) -> None:
        tickets = self._shown_tickets()
        lines = self._ticket_ends(tickets)
        for tid, (a, b) in zip(tickets, lines, strict=True):
            ET.SubElement(
                layer,
                "line",
                {
                    "id": f"ticket-{tid}",
                    "class": "ticket",
                    **_line(self.points[a], self.points[b]),
                    "stroke": _TICKET,
                    "stroke-opacity": "0.6",
                    "stroke-width": _n(2 * self.unit),
                    "stroke-dasharray": f"{_n(6 * self.unit)} {_n(4 * self.unit)}",
                    **_INERT,
                },
            )
        ends = sorted({c for line in lines for c in line}, key=self.map.cities.index)
        for city in ends:
            x, y = self.points[city]
            ET.SubElement(
                layer,
                "circle",
                {
                    "class": "ticket-city",
                    "cx": _n(x),
                    "cy": _n(y),
                    "r": _n(self.city_radius + 4 * self.unit),
                    "fill": "none",
                    "stroke": _TICKET,
                    "stroke-width": _n(2.5 * self.unit),
                    **_INERT,
                },
            )

    def _ticket_ends(self, tickets: Sequence[int]) -> list[tuple[str, str]]:
        """The two places each ticket's line joins: its cities, or for a ticket to several
        destinations the way to the best one reached, else to the nearest (U31)."""
        lines = [(self.map.tickets[t].a, self.map.tickets[t].b) for t in tickets]
        if not any(self.map.tickets[t].destinations for t in tickets):
            return lines
        from ..frontend import ticket_status  # the seat's progress: networkx, only when needed

        statuses = ticket_status(self.view, self.ticket_seat)
        by_ticket = {s.ticket.id: s.line for s in statuses}
        return [by_ticket.get(t, line) for t, line in zip(tickets, lines, strict=True)]

    def _shown_tickets(self) -> tuple[int, ...]:
        seat = self.ticket_seat
        if seat is None:
            return ()
        if not 0 <= seat < len(self.view.seats):
            raise ValueError(f"tickets_of must be a seat from 0 to {len(self.view.seats) - 1}")
        tickets = self.view.seats[seat].tickets
        if tickets is None:
            raise ValueError(f"{seat_name(seat)}'s tickets are hidden in this view")
        return tickets

    def _stations(self, layer: ET.Element) -> None:
        r = self.city_radius * STATION_SIZE
        for seat, s in enumerate(self.view.seats):
            for city in s.stations:
                x, y = self.points[city]
                house = [
                    (x, y - r * 1.1),
                    (x + r, y - r * 0.2),
                    (x + r, y + r * 0.9),
                    (x - r, y + r * 0.9),
                    (x - r, y - r * 0.2),
                ]
                ET.SubElement(
                    layer,
                    "polygon",
                    {
                        "id": f"station-{self.map.cities.index(city)}",
                        "class": f"station owner-{seat}",
                        "data-city": city,
                        "points": " ".join(f"{_n(px)},{_n(py)}" for px, py in house),
                        "fill": _player_colour(seat),
                        "stroke": "#111111",
                        "stroke-width": _n(1.4 * self.unit),
                        **_INERT,
                    },
                )

    # ------------------------------------------------------------------ legend

    def _legend(self, g: ET.Element) -> float:
        """Fill the legend group; return its height."""
        v = self.view
        line = 19 * self.unit
        font = 12.5 * self.unit
        x0 = self.pad
        y = self.map_height + line * 0.4
        heading = f"{self.title or self.map.title or self.map.name}: turn {v.turn}, {_situation(v)}"
        if v.final_turns is not None and v.phase is not Phase.GAME_OVER:
            heading += f" (final round: {v.final_turns} turn(s) left)"
        self._text(g, x0, y, heading, font * 1.1, bold=True)
        y += line * 1.15
        scores = end_scores(v)
        totals = {s.player: s.total for s in scores[0]} if scores else {}
        winners = set(scores[1]) if scores else set()
        for seat, s in enumerate(v.seats):
            self._seat_row(g, x0, y, seat, s, font, totals.get(seat), seat in winners)
            y += line
            if s.hand is not None:
                self._hand_row(g, x0 + 22 * self.unit, y, s.hand, font)
                y += line
        y += line * 0.2
        self._text(g, x0, y, "face-up", font)
        for i, card in enumerate(v.face_up):
            self._card(g, x0 + (62 + 30 * i) * self.unit, y, card, f"face-up-{i}")
        piles = (
            f"deck {counted(v.deck_size, 'card')} · discard {counted(len(v.discard), 'card')} · "
            f"tickets {v.ticket_deck_size} in the deck"
        )
        self._text(g, x0 + 225 * self.unit, y, piles, font)
        y += line
        if v.tunnel is not None:
            t = v.tunnel
            route = self.map.routes[t.route]
            revealed = ", ".join(c.value for c in t.revealed) or "nothing"
            self._text(
                g,
                x0,
                y,
                f"tunnel {route.a}–{route.b}: revealed {revealed};"
                f" {counted(t.owed, 'extra card')} owed",
                font,
            )
            y += line
        for seat in self._ticket_rows():
            y = self._ticket_lines(g, x0, y, seat, font, line)
        return y - self.map_height + line * 0.3

    def _ticket_rows(self) -> list[int]:
        seats = [] if self.view.player is None else [self.view.player]
        if self.ticket_seat is not None and self.ticket_seat not in seats:
            seats.append(self.ticket_seat)
        return seats

    def _ticket_lines(
        self, g: ET.Element, x0: float, y: float, seat: int, font: float, line: float
    ) -> float:
        s = self.view.seats[seat]
        parts = [_ticket_short(self.map.tickets[i]) for i in s.tickets or ()]
        offered = [_ticket_short(self.map.tickets[i]) for i in s.offered or ()]
        owner = "your" if seat == self.view.player else f"{seat_name(seat)}'s"
        rows = _wrap(f"{owner} tickets: ", parts or ["none"], int(self.width / (6.6 * self.unit)))
        if offered:
            rows += _wrap("offered: ", offered, int(self.width / (6.6 * self.unit)))
        for row in rows:
            self._text(g, x0, y, row, font, cls="tickets")
            y += line
        return y

    def _seat_row(
        self,
        g: ET.Element,
        x: float,
        y: float,
        seat: int,
        s: SeatView,
        font: float,
        total: int | None,
        winner: bool,
    ) -> None:
        box = 13 * self.unit
        ET.SubElement(
            g,
            "rect",
            {
                "class": f"player-swatch owner-{seat}",
                "x": _n(x),
                "y": _n(y - box * 0.85),
                "width": _n(box),
                "height": _n(box),
                "rx": _n(2 * self.unit),
                "fill": _player_colour(seat),
                "stroke": "#111111",
                "stroke-width": _n(self.unit),
            },
        )
        marks = []
        if seat == self.view.player:
            marks.append("you")
        if seat == self.view.current and self.view.phase is not Phase.GAME_OVER:
            marks.append("to act")
        name = seat_name(seat) + (f" ({', '.join(marks)})" if marks else "")
        stations_left = self.view.rules.stations_per_player - len(s.stations)
        tickets = counted(s.ticket_count, "ticket") + (
            f" (+{s.offered_count} offered)" if s.offered_count else ""
        )
        stations = (
            f" · {counted(stations_left, 'station')} left"
            if self.view.rules.stations_per_player
            else ""
        )
        facts = (
            f"{counted(s.trains, 'train')}{stations} · {counted(s.route_points, 'route point')}"
            f" · {counted(s.hand_size, 'card')} · {tickets}"
        )
        if total is not None:
            facts += f" · score {total}" + (" — winner" if winner else "")
        self._text(g, x + box + 6 * self.unit, y, name, font, bold=True, cls=f"player owner-{seat}")
        self._text(g, x + box + 170 * self.unit, y, facts, font, cls=f"player-facts owner-{seat}")

    def _hand_row(self, g: ET.Element, x: float, y: float, hand: Hand, font: float) -> None:
        self._text(g, x, y, "hand", font)
        x += 40 * self.unit
        shown = [(c, hand[c]) for c in COLORS if hand[c]]
        if not shown:
            self._text(g, x, y, "empty", font)
        for colour, count in shown:
            self._card(g, x, y, colour, None)
            self._text(g, x + 26 * self.unit, y, f"×{count}", font)
            x += 58 * self.unit

    def _card(
        self, g: ET.Element, x: float, y: float, card: Color | None, ident: str | None
    ) -> None:
        w, h = 22 * self.unit, 14 * self.unit
        attrs = {"id": ident} if ident else {}
        ET.SubElement(
            g,
            "rect",
            {
                **attrs,
                "class": "card " + ("empty" if card is None else f"color-{card.value}"),
                "x": _n(x),
                "y": _n(y - h * 0.85),
                "width": _n(w),
                "height": _n(h),
                "rx": _n(2.5 * self.unit),
                "fill": "none" if card is None else CARD_FILLS[card],
                "stroke": "#555555",
                "stroke-width": _n(self.unit),
                "stroke-dasharray": "3 2" if card is None else "none",
            },
        )
        if self.symbols and card is not None:
            self._text(g, x + w / 2, y - h * 0.1, CARD_SYMBOLS[card], h * 0.75, cls="symbol")

    def _text(
        self,
        g: ET.Element,
        x: float,
        y: float,
        content: str,
        font: float,
        *,
        bold: bool = False,
        cls: str | None = None,
    ) -> None:
        attrs = {"x": _n(x), "y": _n(y), "font-size": _n(font), "fill": _INK}
        if bold:
            attrs["font-weight"] = "bold"
        if cls:
            attrs["class"] = cls
        ET.SubElement(g, "text", attrs).text = content


# ---------------------------------------------------------------------- helpers


@functools.lru_cache(maxsize=16)
def _static_parts(game_map: GameMap, _: tuple[object, ...], width: float) -> dict[str, str]:
    """The fixed parts of ``game_map``'s board ``width`` pixels wide, serialised (the map's
    drawing data is part of the key, as maps compare without it)."""
    return _Board(game_map, board_geometry(game_map, width)).static_parts()


def _tag(name: str, attrs: dict[str, str]) -> str:
    """An empty element as :func:`ET.tostring` writes it.

    >>> _tag("rect", {"x": "1", "class": 'a"b'})
    '<rect x="1" class="a&quot;b" />'
    """
    if _ESCAPES.search("".join(attrs.values())):  # rare: most values are numbers
        attrs = {key: _ESCAPES.sub(_escape, value) for key, value in attrs.items()}
    text = "".join([f' {key}="{value}"' for key, value in attrs.items()])
    return f"<{name}{text} />"


_ESCAPES = re.compile(r'[&<>"\n]')
_ESCAPED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;"}


def _escape(match: re.Match[str]) -> str:
    return _ESCAPED[match.group()]


def _serialised(group: ET.Element, depth: int) -> str:
    """The children of ``group`` as XML text, indented as :func:`ET.indent` would at
    ``depth`` (serialised in one go, then the group's own tags are cut off)."""
    if not len(group):
        return ""
    ET.indent(group, space=" ", level=depth - 1)
    text = ET.tostring(group, encoding="unicode")
    start = text.index(">") + 1 + len(group.text or "")
    end = text.rindex("<") - len(group[-1].tail or "")
    return text[start:end]


def _n(value: float) -> str:
    """A coordinate with at most one decimal ("12", "12.5")."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _line(a: tuple[float, float], b: tuple[float, float]) -> dict[str, str]:
    return {"x1": _n(a[0]), "y1": _n(a[1]), "x2": _n(b[0]), "y2": _n(b[1])}


def _points(line: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in line)


def _is_dark(colour: str) -> bool:
    """Whether white reads better than black on ``colour`` (``#rrggbb``)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def _cross(space: Space) -> str:
    """The path of an X drawn over ``space``: two diagonals of a square as wide as the space
    is thick, centred on it and turned with it."""
    a = math.radians(space.angle)
    h = space.thickness * 0.42
    ux, uy = math.cos(a) * h, math.sin(a) * h
    vx, vy = -math.sin(a) * h, math.cos(a) * h
    cx, cy = space.cx, space.cy
    first = f"M{_n(cx - ux - vx)} {_n(cy - uy - vy)}L{_n(cx + ux + vx)} {_n(cy + uy + vy)}"
    return first + f"M{_n(cx - ux + vx)} {_n(cy - uy + vy)}L{_n(cx + ux - vx)} {_n(cy + uy - vy)}"


def _box(space: Space, radius: float) -> dict[str, str]:
    cx, cy, length, thickness, angle = (
        space.cx,
        space.cy,
        space.length,
        space.thickness,
        space.angle,
    )
    return {
        "x": _n(cx - length / 2),
        "y": _n(cy - thickness / 2),
        "width": _n(max(length, 0.5)),
        "height": _n(thickness),
        "rx": _n(min(radius, length / 3)),
        "transform": f"rotate({_n(angle)} {_n(cx)} {_n(cy)})",
    }


def _boxes_meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _player_colour(seat: int) -> str:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def _situation(view: PlayerView) -> str:
    if view.phase is Phase.GAME_OVER:
        return "game over"
    return f"{seat_name(view.current)} to act ({view.phase.value})"


def _route_title(game_map: GameMap, route: Route, owner: int | None) -> str:
    """A route's tooltip: its cities and number, then its colour, length and kind as the
    notation writes them (``Cadiz – Lisboa (route 40): blue 2``)."""
    kind = str(route).removeprefix(f"{route.a}-{route.b}").strip()
    text = f"{route_with_number(game_map, route.id)}: {kind}"
    return text + ("" if owner is None else f", claimed by {seat_name(owner)}")


def _highlighted(highlight: Highlight, game_map: GameMap) -> tuple[set[int], set[str]]:
    """The route ids and city names a ``highlight`` argument names."""
    routes: set[int] = set()
    cities: set[str] = set()
    items: Sequence[object]
    if highlight is None:
        items = ()
    elif isinstance(highlight, (str, int, *ACTION_TYPES)):
        items = (highlight,)
    else:
        items = tuple(cast(Iterable[object], highlight))
    for item in items:
        if isinstance(item, ClaimRoute):
            routes.add(item.route)
        elif isinstance(item, BuildStation):
            cities.add(item.city)
        elif isinstance(item, ACTION_TYPES):
            continue  # draws, tickets and passes touch nothing on the board
        elif isinstance(item, bool) or not isinstance(item, int | str):
            raise TypeError(f"cannot highlight {item!r}: give route ids, city names or actions")
        elif isinstance(item, int):
            if not 0 <= item < len(game_map.routes):
                raise ValueError(f"no route {item} on the map {game_map.name!r}")
            routes.add(item)
        else:
            if item not in game_map.cities:
                raise ValueError(f"no city {item!r} on the map {game_map.name!r}")
            cities.add(item)
    return routes, cities


def _wrap(prefix: str, parts: Sequence[str], width: int) -> list[str]:
    """``prefix`` and the comma-separated parts in lines of at most ``width`` characters."""
    rows: list[str] = []
    current = prefix
    for i, part in enumerate(parts):
        piece = part + ("," if i < len(parts) - 1 else "")
        if len(current) + len(piece) + 1 > width and current.strip():
            rows.append(current.rstrip())
            current = " " * 4
        current += piece + " "
    rows.append(current.rstrip())
    return rows


def _ticket_short(ticket: Ticket) -> str:
    """``Paris–Wien 8``; ``Bern–France 5/Italia 11 (−5)`` for a ticket to several
    destinations, with the points it loses when none is reached."""
    if not ticket.destinations:
        return f"{ticket.a}–{ticket.b} {ticket.points}"
    ends = "/".join(f"{place} {points}" for place, points in ticket.destinations)
    return f"{ticket.a}–{ends} ({minus(ticket.penalty)})"
