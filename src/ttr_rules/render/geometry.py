"""Where everything sits on the board picture, and what collides.

:func:`board_geometry` turns a map into the shapes the SVG draws: each route's centre line and
its row of spaces, each city's circle and where its label goes. A map with its board as printed
(``GameMap.geometry``) is drawn so, car by car; otherwise the routes run between the city
layout's places (straight, or bowed by the map's optional ``bend``). The label of a city is put
at the first place around the city that covers no space, no city and no earlier label.

:func:`board_collisions` checks those shapes the way a player's eye and finger would: no space
overlaps a space of another route (the two tracks of a double included), no route runs over a
city other than its two ends, and no label covers a space. Map authors see its findings in
``ttr validate-map --render``.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence

import attrs
from attrs import frozen

from ..maps import GameMap, Geometry, Route
from .font import ASCENT, DESCENT, text_width
from .layout import city_layout

__all__ = [
    "MIN_LABEL",
    "BoardGeometry",
    "Label",
    "Space",
    "board_collisions",
    "board_geometry",
    "drawing_key",
    "label_text",
]

Point = tuple[float, float]
Box = tuple[float, float, float, float]

#: A station's house is this many city radii wide either side of the city (and about as high).
STATION_SIZE = 1.25
#: Points sampled along a bowed route's curve.
_CURVE_SAMPLES = 24
#: The smallest city label, in pixels of the picture: legible where the picture is shown at
#: its own size (the web page asks for the board at the width it shows it).
MIN_LABEL = 11.0
#: A printed board's city dot, and its default car, in car pitches (the distance from one car
#: to the next): the dot is large enough that every printed route ends within a car of it.
_DOT = 0.3
_CAR = (0.9, 0.28)


@frozen
class Space:
    """One space of a route: a ``length`` by ``thickness`` box centred on ``(cx, cy)``,
    turned by ``angle`` degrees."""

    cx: float
    cy: float
    length: float
    thickness: float
    angle: float

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """The four corners, in order around the box."""
        a = math.radians(self.angle)
        ux, uy = math.cos(a) * self.length / 2, math.sin(a) * self.length / 2
        vx, vy = -math.sin(a) * self.thickness / 2, math.cos(a) * self.thickness / 2
        c = (self.cx, self.cy)
        return (
            (c[0] - ux - vx, c[1] - uy - vy),
            (c[0] + ux - vx, c[1] + uy - vy),
            (c[0] + ux + vx, c[1] + uy + vy),
            (c[0] - ux + vx, c[1] - uy + vy),
        )


@frozen
class Label:
    """A city's name: drawn from ``(x, y)`` (the text's baseline, ``anchor`` as in SVG) and
    covering the box ``(x0, y0, x1, y1)``."""

    x: float
    y: float
    anchor: str
    box: tuple[float, float, float, float]
    font: float
    #: A thin line from the city's circle to the label, for a label pushed far from its city
    #: (``None`` when the label sits close by).
    leader: tuple[Point, Point] | None = None
    #: The words drawn (empty: the city's name).
    text: str = ""


@frozen
class BoardGeometry:
    """The shapes of one map drawn ``width`` pixels wide (see :func:`board_geometry`)."""

    width: float
    unit: float
    pad: float
    map_height: float
    track: float
    city_radius: float
    font: float
    points: dict[str, Point]
    #: Each route's centre line beside its double, from end to end, by route id.
    paths: tuple[tuple[Point, ...], ...]
    #: Each route's spaces, by route id.
    spaces: tuple[tuple[Space, ...], ...]
    labels: dict[str, Label]
    #: The countries' names where the board prints them (``Label.anchor`` "middle"; a board
    #: without their positions has none).
    countries: dict[str, Label] = attrs.field(factory=dict)


#: A country's name is this many times the size of a city's, and spaced out by this many ems
#: between letters, as printed boards set them.
COUNTRY_FONT = 1.45
COUNTRY_SPACING = 0.12


def label_text(game_map: GameMap, city: str) -> str:
    """What a city's label says: its name, or for a country's border end-point named after the
    country ("Deutschland 3") only what follows the country's name, which the board prints
    once nearby (the printed board marks the end-points with flags alone).

    >>> from ttr_rules import load_map
    >>> swiss = load_map("switzerland")
    >>> label_text(swiss, "Deutschland 3"), label_text(swiss, "Zürich")
    ('3', 'Zürich')
    """
    for country, ends in game_map.countries.items():
        if city in ends and city.startswith(country + " ") and city[len(country) :].strip():
            return city[len(country) :].strip()
    return city


def board_geometry(game_map: GameMap, width: float = 800.0) -> BoardGeometry:
    """The shapes of ``game_map`` on a picture ``width`` pixels wide (cached).

    >>> from ttr_rules import load_map
    >>> g = board_geometry(load_map("europe"))
    >>> len(g.spaces), sum(len(s) for s in g.spaces)
    (101, 300)
    """
    return _cached_geometry(game_map, drawing_key(game_map), float(width))


def drawing_key(game_map: GameMap) -> tuple[object, ...]:
    """What the picture of ``game_map`` depends on beyond the map's value (maps compare
    without their drawing data): a cache key part."""
    return (game_map.locations, game_map.bends, game_map.geometry)


@functools.lru_cache(maxsize=16)
def _cached_geometry(game_map: GameMap, _: tuple[object, ...], width: float) -> BoardGeometry:
    printed = game_map.geometry
    if printed is not None and printed.spaces:
        return _printed(game_map, printed, width)
    unit = width / 800
    pad = 28 * unit
    layout = city_layout(game_map)
    inner = width - 2 * pad
    points = {c: (pad + x * inner, pad + y * inner) for c, (x, y) in layout.positions.items()}
    track, radius = 8.5 * unit, 6.5 * unit
    spacing = track + 2.5 * unit
    bundles: dict[tuple[str, str], list[int]] = {}
    for route in game_map.routes:
        bundles.setdefault(_pair(route), []).append(route.id)
    least = radius + 1.5 * unit
    fans = _Fans(game_map, points, bundles, track, spacing, least)
    curves = fans.curves(dict(game_map.bends))
    margins = _end_margins(bundles, points, curves, track, spacing, least, fans.car)
    paths: list[tuple[Point, ...]] = []
    rows: list[list[Space]] = []
    for route in game_map.routes:
        path = _track_path(bundles, route, curves, spacing)
        trimmed = _trim(path, margins[route.a, _pair(route)], margins[route.b, _pair(route)])
        paths.append(tuple(trimmed))
        rows.append(list(_spaces_along(trimmed, route.length, track, unit)))
    height = max(inner * layout.aspect, 120 * unit) + 2 * pad
    shapes = (points, tuple(paths), _apart(rows))
    return _assembled(game_map, (width, height, pad), track, radius, shapes)


def _assembled(
    game_map: GameMap,
    size: tuple[float, float, float],
    track: float,
    radius: float,
    shapes: tuple[dict[str, Point], tuple[tuple[Point, ...], ...], tuple[tuple[Space, ...], ...]],
    *,
    printed: bool = False,
) -> BoardGeometry:
    """The board's geometry from its city points, route paths and spaces, with the labels
    placed (``size``: the picture's width, the map's height and the pad)."""
    width, height, pad = size
    points, paths, spaces = shapes
    font = max(11 * width / 800, MIN_LABEL)
    countries = _country_labels(game_map, size, font, (points, spaces, radius)) if printed else {}
    fixed = [label.box for label in countries.values()]
    frame = _margin(width, height, pad)
    labels = _place_labels(game_map, points, spaces, radius, font, frame, fixed)
    return BoardGeometry(
        width=width,
        unit=width / 800,
        pad=pad,
        map_height=height,
        track=track,
        city_radius=radius,
        font=font,
        points=points,
        paths=paths,
        spaces=spaces,
        labels=labels,
        countries=countries,
    )


def _country_labels(
    game_map: GameMap,
    size: tuple[float, float, float],
    font: float,
    obstacles: tuple[dict[str, Point], Sequence[Sequence[Space]], float],
) -> dict[str, Label]:
    """Each country's name centred where the board as printed puts it (none without), or
    moved the least that keeps it off every car and city (the picture's labels are larger
    than the print's)."""
    printed = game_map.geometry
    if printed is None or len(printed.country_labels) != len(game_map.countries):
        return {}  # none placed (or not aligned with the countries: a problem of the map)
    width, height, pad = size
    points, spaces, radius = obstacles
    grid = _Grid([(_bounds(s.corners()), _frame(s)) for row in spaces for s in row], 4 * font)
    cities = [(x - radius, y - radius, x + radius, y + radius) for x, y in points.values()]
    h = font * COUNTRY_FONT
    out: dict[str, Label] = {}
    for country, place in zip(game_map.countries, printed.country_labels, strict=True):
        if place is None:
            continue
        fx, fy = place
        x, y = pad + fx * (width - 2 * pad), pad + fy * (height - 2 * pad)
        w = text_width(country, h) + COUNTRY_SPACING * h * len(country)
        tall = h * (ASCENT + DESCENT)
        boxes = [
            (x + dx * h - w / 2, y + dy * h - tall / 2, x + dx * h + w / 2, y + dy * h + tall / 2)
            for dx, dy in _COUNTRY_MOVES
        ]
        taken = [label.box for label in out.values()]
        box = next((b for b in boxes if not _covers(b, grid, [*cities, *taken])), boxes[0])
        baseline = box[3] - h * DESCENT
        out[country] = Label((box[0] + box[2]) / 2, baseline, "middle", box, h, text=country)
    return out


#: Where a country's name may move from its printed place, nearest first, in its font sizes.
_COUNTRY_MOVES = sorted(
    ((dx / 2, dy / 2) for dx in range(-8, 9) for dy in range(-6, 7)),
    key=lambda m: (math.hypot(m[0] * 0.6, m[1]), m),
)


def _printed(game_map: GameMap, printed: Geometry, width: float) -> BoardGeometry:
    """The board as printed, scaled to ``width``: every car where the map file puts it."""
    unit = width / 800
    pad = 12 * unit
    scale = (width - 2 * pad) / printed.width
    pitch = printed.pitch() or printed.width / 40
    length = (printed.car_length or _CAR[0] * pitch) * scale
    thickness = (printed.car_width or _CAR[1] * pitch) * scale

    def place(x: float, y: float) -> Point:
        return (pad + x * printed.width * scale, pad + y * printed.height * scale)

    points = {c: place(*p) for c, p in zip(game_map.cities, printed.positions, strict=True)}
    spaces = _apart(
        [
            [Space(*place(x, y), length, thickness, angle) for x, y, angle in row]
            for row in printed.spaces
        ]
    )
    height = printed.height * scale + 2 * pad
    shapes = (points, tuple(_through(row) for row in spaces), spaces)
    radius = _DOT * pitch * scale
    return _assembled(game_map, (width, height, pad), thickness, radius, shapes, printed=True)


def _apart(rows: list[list[Space]]) -> tuple[tuple[Space, ...], ...]:
    """The rows of cars with every two cars of different routes apart: where two touch, both
    are shortened, a tenth at a time (to half their length at most), keeping their angles and
    the end that faces along the route (a route's end car gives way at its city's side, where
    routes crowd; a printed board may draw two cars closer than this picture's car size)."""
    for _ in range(7):
        touching = _touching(rows)
        if not touching:
            break
        for (r, i), other in touching.items():
            rows[r][i] = _shortened(rows[r][i], other)
    return tuple(tuple(row) for row in rows)


def _shortened(car: Space, other: Point) -> Space:
    """``car`` a tenth shorter, keeping its end away from the car it touches (centred at
    ``other``) when that car lies off towards one end, else its centre."""
    cut = car.length * 0.1
    a = math.radians(car.angle)
    along = (other[0] - car.cx) * math.cos(a) + (other[1] - car.cy) * math.sin(a)
    side = 0 if abs(along) < car.length / 4 else (-1 if along > 0 else 1)
    shift = side * cut / 2
    return attrs.evolve(
        car,
        cx=car.cx + math.cos(a) * shift,
        cy=car.cy + math.sin(a) * shift,
        length=car.length - cut,
    )


def _touching(rows: Sequence[Sequence[Space]]) -> dict[tuple[int, int], Point]:
    """The cars (route, index) that share an area with a car of another route, each with the
    centre of one such car."""
    cars = [(r, i, car) for r, row in enumerate(rows) for i, car in enumerate(row)]
    cell = max((car.length for _, _, car in cars), default=1.0)
    grid: dict[tuple[int, int], list[tuple[int, int, Space]]] = {}
    for item in cars:
        key = (math.floor(item[2].cx / cell), math.floor(item[2].cy / cell))
        grid.setdefault(key, []).append(item)
    found: dict[tuple[int, int], Point] = {}
    for r, i, car in cars:
        kx, ky = math.floor(car.cx / cell), math.floor(car.cy / cell)
        for dx, dy in itertools.product((-1, 0, 1), repeat=2):
            for r2, i2, other in grid.get((kx + dx, ky + dy), ()):
                if r2 > r and _frames_overlap(_grown(car), _grown(other)):
                    found[r, i] = (other.cx, other.cy)
                    found[r2, i2] = (car.cx, car.cy)
    return found


#: How far apart two cars of different routes are kept, in pixels (the document rounds every
#: coordinate to a tenth of a pixel).
_CLEARANCE = 0.4


def _grown(car: Space) -> tuple[float, float, float, float, float, float]:
    """A car's frame (:func:`_frame`) grown by half the clearance all round."""
    cx, cy, ux, uy, half_length, half_width = _frame(car)
    grow = _CLEARANCE / 2
    return (cx, cy, ux, uy, half_length + grow, half_width + grow)


def _margin(width: float, height: float, pad: float) -> Box:
    """Where labels may go: the board drawn on the paper (a third of the pad inside)."""
    return (pad / 3, pad / 3, width - pad / 3, height - pad / 3)


def _through(row: Sequence[Space]) -> tuple[Point, ...]:
    """A line through a row of cars, from the outer end of the first to that of the last."""

    def end(space: Space, sign: int) -> Point:
        a = math.radians(space.angle)
        half = sign * space.length / 2
        return (space.cx + math.cos(a) * half, space.cy + math.sin(a) * half)

    return (end(row[0], -1), *((s.cx, s.cy) for s in row), end(row[-1], 1))


# ---------------------------------------------------------------------- route lines


def _pair(route: Route) -> tuple[str, str]:
    """The two cities of a route in alphabetical order: the key of its bundle of tracks."""
    a, b = sorted((route.a, route.b))
    return a, b


#: How far a bundle's end may turn off its line to leave room beside the others at its city.
_MAX_TURN = math.radians(50)


class _Fans:
    """The bundles of tracks leaving each city, turned apart where they leave too close to one
    another for their first cars to stand side by side (each end by at most :data:`_MAX_TURN`),
    so that every route starts at its city's circle and no two routes' cars overlap."""

    def __init__(
        self,
        game_map: GameMap,
        points: dict[str, Point],
        bundles: dict[tuple[str, str], list[int]],
        track: float,
        spacing: float,
        least: float,
    ) -> None:
        self.points = points
        self.least = least
        self.half = {p: (track + (len(ids) - 1) * spacing) / 2 for p, ids in bundles.items()}
        longest = {p: max(game_map.routes[i].length for i in ids) for p, ids in bundles.items()}
        #: A car's length, roughly, on each bundle.
        self.car = {p: math.dist(points[p[0]], points[p[1]]) / longest[p] for p in bundles}
        self.map = game_map

    def curves(self, bend_of: dict[int, float]) -> dict[tuple[str, str], list[Point]]:
        """The centre line of each bundle, from its alphabetically first city: a cubic curve
        leaving each end at its turned angle (straight, or bowed by the first track's
        ``bend``, given from that route's ``a`` to its ``b``, where nothing is turned)."""
        bends: dict[tuple[str, str], float] = {}
        for route in self.map.routes:
            pair = _pair(route)
            if pair not in bends or (not bends[pair] and route.id in bend_of):
                bend = bend_of.get(route.id, 0.0)
                bends[pair] = bend if route.a == pair[0] else -bend
        handles: dict[tuple[tuple[str, str], int], tuple[float, float]] = {}
        for pair, bend in bends.items():
            a, b = self.points[pair[0]], self.points[pair[1]]
            middle = _curve(a, b, bend)[len(_curve(a, b, bend)) // 2] if bend else None
            control = _control(a, b, bend) if middle is not None else None
            for side, (start, end) in enumerate(((a, b), (b, a))):
                toward = control or end
                angle = math.atan2(toward[1] - start[1], toward[0] - start[0])
                reach = (2 / 3 if control else 1 / 3) * math.dist(start, toward)
                handles[pair, side] = (angle, reach)
        angles = self._spread({key: angle for key, (angle, _) in handles.items()})
        out = {}
        for pair in bends:
            a, b = self.points[pair[0]], self.points[pair[1]]
            (ra, rb) = handles[pair, 0][1], handles[pair, 1][1]
            ua, ub = angles[pair, 0], angles[pair, 1]
            out[pair] = _cubic(
                a,
                (a[0] + math.cos(ua) * ra, a[1] + math.sin(ua) * ra),
                (b[0] + math.cos(ub) * rb, b[1] + math.sin(ub) * rb),
                b,
            )
        return out

    def _spread(
        self, base: dict[tuple[tuple[str, str], int], float]
    ) -> dict[tuple[tuple[str, str], int], float]:
        """Each end's angle, pushed away from its neighbours at its city until their first
        cars have room side by side (a few relaxation rounds)."""
        angles = dict(base)
        at: dict[str, list[tuple[tuple[str, str], int]]] = {}
        for pair, side in base:
            at.setdefault(pair[side], []).append((pair, side))
        for _ in range(40):
            moved = False
            for ends in at.values():
                if len(ends) < 2:
                    continue
                ends.sort(key=lambda e: angles[e])
                for i, one in enumerate(ends):
                    other = ends[(i + 1) % len(ends)]
                    gap = (angles[other] - angles[one]) % (2 * math.pi)
                    # where the first cars start: at most a quarter car past ``least``
                    room = self.least + 0.25 * min(self.car[one[0]], self.car[other[0]])
                    need = 2.6 * math.atan((self.half[one[0]] + self.half[other[0]]) / (2 * room))
                    if gap < need:
                        push = (need - gap) / 4
                        angles[one] = _turned(angles[one] - push, base[one])
                        angles[other] = _turned(angles[other] + push, base[other])
                        moved = True
            if not moved:
                break
        return angles


def _turned(angle: float, base: float) -> float:
    """``angle``, at most :data:`_MAX_TURN` off ``base``."""
    off = (angle - base + math.pi) % (2 * math.pi) - math.pi
    return base + max(-_MAX_TURN, min(_MAX_TURN, off))


def _control(a: Point, b: Point, bend: float) -> Point:
    """The control point of the quadratic curve of :func:`_curve`."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return ((a[0] + b[0]) / 2 - dy * bend * 2, (a[1] + b[1]) / 2 + dx * bend * 2)


def _cubic(a: Point, c1: Point, c2: Point, b: Point) -> list[Point]:
    """Points along the cubic Bézier curve from ``a`` to ``b`` with controls ``c1``, ``c2``."""
    out = []
    for i in range(_CURVE_SAMPLES + 1):
        t = i / _CURVE_SAMPLES
        s = 1 - t
        w = (s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t)
        out.append(
            (
                w[0] * a[0] + w[1] * c1[0] + w[2] * c2[0] + w[3] * b[0],
                w[0] * a[1] + w[1] * c1[1] + w[2] * c2[1] + w[3] * b[1],
            )
        )
    return out


def _end_margins(
    bundles: dict[tuple[str, str], list[int]],
    points: dict[str, Point],
    curves: dict[tuple[str, str], list[Point]],
    track: float,
    spacing: float,
    least: float,
    car: dict[tuple[str, str], float],
) -> dict[tuple[str, tuple[str, str]], float]:
    """How far from each city each bundle's spaces start: clear of the city's circle, and far
    enough out that bundles leaving the city at a narrow angle have fanned apart, but never
    more than a quarter of a car past the circle (a route stays attached to its city)."""
    tracks = {pair: len(bundles[pair]) for pair in curves}
    leaving: dict[str, list[tuple[tuple[str, str], float, float]]] = {}
    for pair, line in curves.items():
        half = (track + (tracks[pair] - 1) * spacing) / 2
        for city, near in ((pair[0], line[1]), (pair[1], line[-2])):
            x, y = points[city]
            leaving.setdefault(city, []).append((pair, math.atan2(near[1] - y, near[0] - x), half))
    margins: dict[tuple[str, tuple[str, str]], float] = {}
    for city, ends in leaving.items():
        for pair, angle, half in ends:
            need = least
            for other, other_angle, other_half in ends:
                if other == pair:
                    continue
                theta = abs((angle - other_angle + math.pi) % (2 * math.pi) - math.pi)
                if theta < math.pi / 2:
                    fan = (half + other_half) / 2 / math.tan(max(theta, 1e-3) / 2) * 1.15
                    need = max(need, fan)
            length = math.dist(points[pair[0]], points[pair[1]])
            # at most a quarter of the route's own car past ``least``: m = least + (d - 2m) / n / 4
            count = length / car[pair]
            margins[city, pair] = min(need, (least + length / count / 4) / (1 + 0.5 / count))
    return margins


def _track_path(
    bundles: dict[tuple[str, str], list[int]],
    route: Route,
    curves: dict[tuple[str, str], list[Point]],
    spacing: float,
) -> list[Point]:
    """The centre line of ``route`` from its ``a`` to its ``b``, shifted beside its double
    (the tracks of a double are pushed to opposite sides of their bundle's line)."""
    pair = _pair(route)
    siblings = bundles[pair]  # route ids, ascending
    rank = siblings.index(route.id) - (len(siblings) - 1) / 2
    line = curves[pair]
    shifted = _offset(line, rank * spacing) if rank else line
    return shifted if route.a == pair[0] else shifted[::-1]


def _curve(a: Point, b: Point, bend: float) -> list[Point]:
    """A straight line from ``a`` to ``b``, or with ``bend`` a quadratic curve whose middle
    lies ``bend`` times the distance off the line (positive: to the right going from a to b,
    on the picture)."""
    if not bend:
        return [a, b]
    dx, dy = b[0] - a[0], b[1] - a[1]
    # right of the direction of travel, with y growing downwards: (-dy, dx)
    cx = (a[0] + b[0]) / 2 - dy * bend * 2
    cy = (a[1] + b[1]) / 2 + dx * bend * 2
    out = []
    for i in range(_CURVE_SAMPLES + 1):
        t = i / _CURVE_SAMPLES
        s = 1 - t
        out.append(
            (
                s * s * a[0] + 2 * s * t * cx + t * t * b[0],
                s * s * a[1] + 2 * s * t * cy + t * t * b[1],
            )
        )
    return out


def _offset(line: list[Point], shift: float) -> list[Point]:
    """``line`` moved ``shift`` to the left of its direction (each point along its normal)."""
    out = []
    for i, (x, y) in enumerate(line):
        (px, py), (qx, qy) = line[max(i - 1, 0)], line[min(i + 1, len(line) - 1)]
        d = max(math.hypot(qx - px, qy - py), 1e-9)
        out.append((x + (qy - py) / d * shift, y - (qx - px) / d * shift))
    return out


def _lengths(line: Sequence[Point]) -> list[float]:
    """The distance along ``line`` of each of its points."""
    out = [0.0]
    for p, q in itertools.pairwise(line):
        out.append(out[-1] + math.dist(p, q))
    return out


def _at(line: Sequence[Point], along: Sequence[float], s: float) -> tuple[Point, float]:
    """The point ``s`` along ``line`` and the line's direction there (degrees)."""
    i = 1
    while i < len(line) - 1 and along[i] < s:
        i += 1
    (px, py), (qx, qy) = line[i - 1], line[i]
    seg = max(along[i] - along[i - 1], 1e-9)
    t = min(max((s - along[i - 1]) / seg, 0.0), 1.0)
    return (px + (qx - px) * t, py + (qy - py) * t), math.degrees(math.atan2(qy - py, qx - px))


def _trim(line: list[Point], first: float, last: float) -> list[Point]:
    """``line`` without the length ``first`` at its start and ``last`` at its end."""
    along = _lengths(line)
    total = along[-1]
    start, _ = _at(line, along, first)
    end, _ = _at(line, along, total - last)
    inner = [p for p, s in zip(line, along, strict=True) if first < s < total - last]
    return [start, *inner, end]


def _spaces_along(line: list[Point], count: int, track: float, unit: float) -> Iterator[Space]:
    along = _lengths(line)
    space = max(along[-1], 2.0) / count
    gap = min(2.0 * unit, space * 0.25)
    for i in range(count):
        (cx, cy), angle = _at(line, along, (i + 0.5) * space)
        yield Space(cx, cy, space - gap, track, angle)


# ---------------------------------------------------------------------- labels


def _place_labels(
    game_map: GameMap,
    points: dict[str, Point],
    spaces: Sequence[Sequence[Space]],
    radius: float,
    font: float,
    frame: Box,
    fixed: Sequence[Box] = (),
) -> dict[str, Label]:
    """Each city's label at the nearest candidate place that is inside the board and covers no
    space, city or earlier label (a slightly smaller label close by is preferred to a full-size
    one far away); where none is free, the one covering the least. The busiest cities are
    labelled first, as they have the fewest free places."""
    grid = _Grid([(_bounds(s.corners()), _frame(s)) for row in spaces for s in row], 4 * font)
    house = radius * STATION_SIZE  # a station built later must not hide a label either
    city_boxes = [
        (x - house, y - house * 1.1, x + house, y + house * 0.9) for x, y in points.values()
    ]
    degree = {c: 0 for c in game_map.cities}
    for route in game_map.routes:
        degree[route.a] += 1
        degree[route.b] += 1
    placed: list[Box] = list(fixed)
    labels: dict[str, Label] = {}
    for city in sorted(game_map.cities, key=lambda c: -degree[c]):
        x, y = points[city]
        text = label_text(game_map, city)
        reach = text_width(text, font) + (radius + font) * 6
        near = grid.near((x - reach, y - reach, x + reach, y + reach))
        # nearest first: a candidate close to the city is most often refused by those
        shapes = sorted(
            {id(shape): shape for shape in near}.values(),
            key=lambda sh: abs(sh[1][0] - x) + abs(sh[1][1] - y),
        )
        boxes = [b for b in (*city_boxes, *placed) if _near(b, x, y, reach)]
        others = [p for c, p in points.items() if c != city and _near((*p, *p), x, y, reach)]
        free = (
            _label(*c)
            for c in _candidates(x, y, radius, font, text)
            if _inside(_box_of(c), frame)
            and _nearest_is(_box_of(c), (x, y), others)
            and not _covers(_box_of(c), shapes, boxes)
        )
        best = next(
            (c for c in (_with_leader(c, x, y, radius) for c in free) if _leader_free(c, shapes)),
            None,
        ) or min(
            (_with_leader(_label(*c), x, y, radius) for c in _candidates(x, y, radius, font, text)),
            key=lambda c: (
                not _inside(c.box, frame),
                _covers(c.box, (), boxes),  # a label over a label or a city is never read
                c.leader is None and not _nearest_is(c.box, (x, y), others),
                _covered_area(c.box, shapes, boxes),
            ),
        )
        labels[city] = attrs.evolve(best, text=text)
        placed.append(best.box)
    return {city: labels[city] for city in game_map.cities}


def _nearest_is(box: Box, own: Point, others: Sequence[Point]) -> bool:
    """Whether the city at ``own`` is nearer to ``box`` than every city of ``others`` (a
    label must not read as another city's)."""
    mine = _box_distance(box, own)
    return all(_box_distance(box, p) > mine for p in others)


def _box_distance(box: Box, p: Point) -> float:
    return math.hypot(max(box[0] - p[0], 0, p[0] - box[2]), max(box[1] - p[1], 0, p[1] - box[3]))


def _inside(box: Box, frame: Box) -> bool:
    return frame[0] <= box[0] and frame[1] <= box[1] and box[2] <= frame[2] and box[3] <= frame[3]


class _Grid:
    """The spaces in square cells of ``cell`` pixels, to find those near a box quickly."""

    def __init__(self, shapes: Sequence[Shape], cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[Shape]] = {}
        for shape in shapes:
            for key in self._keys(shape[0]):
                self.cells.setdefault(key, []).append(shape)

    def _keys(self, box: Box) -> Iterator[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def near(self, box: Box) -> list[Shape]:
        """The spaces in the cells ``box`` touches (some more than once)."""
        cells = self.cells
        return [shape for key in self._keys(box) for shape in cells.get(key, ())]


#: A label whose box is further than this many city radii from its city gets a leader line.
LEADER_FROM = 2.5


def _with_leader(label: Label, x: float, y: float, radius: float) -> Label:
    """``label`` with a leader line from the city at ``(x, y)`` if it sits far away."""
    x0, y0, x1, y1 = label.box
    nx, ny = min(max(x, x0), x1), min(max(y, y0), y1)
    gap = math.hypot(nx - x, ny - y)
    if gap <= LEADER_FROM * radius:
        return label
    start = (x + (nx - x) / gap * radius, y + (ny - y) / gap * radius)
    return attrs.evolve(label, leader=(start, (nx, ny)))


def _leader_free(label: Label, shapes: Sequence[Shape]) -> bool:
    """Whether ``label``'s leader line (if any) crosses no space."""
    if label.leader is None:
        return True
    (ax, ay), (bx, by) = label.leader
    length = max(math.hypot(bx - ax, by - ay), 1e-9)
    line = Space(
        (ax + bx) / 2, (ay + by) / 2, length, 1.0, math.degrees(math.atan2(by - ay, bx - ax))
    )
    frame = _frame(line)
    bounds = _bounds(line.corners())
    return not any(_box_overlap(bounds, b) and _frames_overlap(frame, f) for b, f in shapes)


#: A space seen by label placement: its bounds and its frame (see :func:`_frame`).
Shape = tuple[Box, tuple[float, float, float, float, float, float]]


def _frame(space: Space) -> tuple[float, float, float, float, float, float]:
    """A space as its centre, unit direction and half length and thickness."""
    a = math.radians(space.angle)
    return (space.cx, space.cy, math.cos(a), math.sin(a), space.length / 2, space.thickness / 2)


def _frames_overlap(
    f: tuple[float, float, float, float, float, float],
    g: tuple[float, float, float, float, float, float],
) -> bool:
    """Whether two turned rectangles share an area (the separating axis test, written out)."""
    dx, dy = g[0] - f[0], g[1] - f[1]
    for ux, uy in ((f[2], f[3]), (-f[3], f[2]), (g[2], g[3]), (-g[3], g[2])):
        reach = 0.0
        for cx, cy, hl, ht in ((f[2], f[3], f[4], f[5]), (g[2], g[3], g[4], g[5])):
            reach += hl * abs(ux * cx + uy * cy) + ht * abs(-ux * cy + uy * cx)
        if abs(dx * ux + dy * uy) >= reach - 1e-9:
            return False
    return True


def _covers(box: Box, spaces: _Grid | Sequence[Shape], boxes: Sequence[Box]) -> bool:
    """Whether ``box`` shares an area with a space (of ``spaces``) or one of ``boxes`` (the hot
    loop of label placement, hence written out)."""
    x0, y0, x1, y1 = box
    for b in boxes:
        if b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0:
            return True
    shapes = spaces.near(box) if isinstance(spaces, _Grid) else spaces
    hw, hh = (x1 - x0) / 2, (y1 - y0) / 2
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    for b, f in shapes:
        if b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0:
            # the box's own axes are the bounds test: only the space's two remain
            dx, dy = f[0] - mx, f[1] - my
            ux, uy = f[2], f[3]
            if abs(dx * ux + dy * uy) < f[4] + hw * abs(ux) + hh * abs(uy) and abs(
                -dx * uy + dy * ux
            ) < f[5] + hw * abs(uy) + hh * abs(ux):
                return True
    return False


def _covered_area(box: Box, shapes: Sequence[Shape], boxes: Sequence[Box]) -> float:
    """Roughly how much of what ``box`` must not cover it covers."""
    hit = [shape[0] for shape in shapes if _covers(box, [shape], ())]
    return sum(_box_overlap(box, b) for b in (*hit, *boxes))


#: Label places to try, nearest first: a distance (in gaps from the city's centre) and a size
#: (in the board's font size); a smaller label close by beats a full-size one far away, but only
#: by so much (a size's distance counts as ``reach / scale ** 3``).
_PLACES = sorted(
    (
        (reach, scale)
        for reach in (1.0, 1.35, 1.8, 2.4, 3.1, 4.0, 5.2, 6.5)
        for scale in (1.0, 0.85, 0.72, 0.62)
    ),
    key=lambda place: place[0] / place[1] ** 3,
)


#: The directions of label places around a city after the four usual ones: unit offsets.
_DIAGONALS = tuple(
    (math.cos(i * math.pi / 16), math.sin(i * math.pi / 16))
    for i in (2, 6, 10, 14, 4, 12, 20, 28, 18, 22, 26, 30, 1, 3, 5, 7, 9, 11, 13, 15)
    + (17, 19, 21, 23, 25, 27, 29, 31)
)


#: A label place: its left edge, baseline, anchor (as in SVG), width and height.
Place = tuple[float, float, str, float, float]


def _candidates(x: float, y: float, radius: float, font: float, text: str) -> Iterator[Place]:
    """Label places around a city, nearest first (:data:`_PLACES`): at each distance and size
    the usual places (below, above, right, left), then twelve more directions."""
    for reach, scale in _PLACES:
        if font * scale < MIN_LABEL - 1e-9:
            continue
        h = font * scale
        w = text_width(text, h)
        g = (radius + font * 0.15) * reach
        middle = (ASCENT - DESCENT) / 2  # from the box's middle down to the baseline
        yield (x - w / 2, y + g + h * ASCENT, "middle", w, h)
        yield (x - w / 2, y - g - h * DESCENT, "middle", w, h)
        yield (x + g, y + h * middle, "start", w, h)
        yield (x - g - w, y + h * middle, "end", w, h)
        for ux, uy in _DIAGONALS:
            dx, dy = ux * g, uy * g
            left = x + dx if dx > 0 else x + dx - w
            below = ASCENT if dy > 0 else -DESCENT
            yield (left, y + dy + h * below, "start" if dx > 0 else "end", w, h)


#: How much the document's rounding (a tenth of a pixel, the font size included) may grow a
#: label's box, in pixels either side: kept free too.
_ROUNDING = 0.4


def _box_of(place: Place) -> Box:
    left, baseline, _, width, height = place
    top, bottom = baseline - height * ASCENT, baseline + height * DESCENT
    return (left - _ROUNDING, top - _ROUNDING, left + width + _ROUNDING, bottom + _ROUNDING)


def _label(left: float, baseline: float, anchor: str, width: float, height: float) -> Label:
    x = left + width / 2 if anchor == "middle" else left if anchor == "start" else left + width
    return Label(x, baseline, anchor, _box_of((left, baseline, anchor, width, height)), height)


# ---------------------------------------------------------------------- collisions


def board_collisions(game_map: GameMap, width: float = 1000.0) -> list[str]:
    """What collides on the picture of ``game_map``, in words (empty when nothing does).

    >>> from ttr_rules import load_map
    >>> board_collisions(load_map("europe"))
    []
    """
    g = board_geometry(game_map, width)
    problems: list[str] = list(_detached(game_map, g))
    polygons = [[(s, s.corners(), _bounds(s.corners())) for s in row] for row in g.spaces]
    routes = game_map.routes
    for r in routes:
        for other in routes[r.id + 1 :]:
            if _rows_overlap(polygons[r.id], polygons[other.id]):
                problems.append(f"route {_name(r)} overlaps route {_name(other)}")
        for city, (x, y) in g.points.items():
            if city in (r.a, r.b):
                continue
            if any(_circle_hits(x, y, g.city_radius, c) for _, c, _ in polygons[r.id]):
                problems.append(f"route {_name(r)} passes over the city {city}")
    for city, label in g.labels.items():
        hit = sorted(
            {
                r.id
                for r in routes
                for _, c, b in polygons[r.id]
                if _convex_overlap(_rect(label.box), c)
            }
        )
        for rid in hit:
            problems.append(f"the label of {city} covers route {_name(routes[rid])}")
    return problems


def _detached(game_map: GameMap, g: BoardGeometry) -> Iterator[str]:
    """The route ends further than one car from their city: from the outer end of the car
    nearest the city to the edge of its circle."""
    for route, row in zip(game_map.routes, g.spaces, strict=True):
        car = max(s.length for s in row)
        for city in (route.a, route.b):
            x, y = g.points[city]
            gap = min(math.dist(end, (x, y)) for s in row for end in _car_ends(s)) - g.city_radius
            if gap > car + 0.05:
                yield (
                    f"route {_name(route)} ends {gap:.1f} px from {city} "
                    f"(more than a car, {car:.1f} px)"
                )


def _car_ends(space: Space) -> tuple[Point, Point]:
    """The middles of a car's two short sides."""
    a = math.radians(space.angle)
    dx, dy = math.cos(a) * space.length / 2, math.sin(a) * space.length / 2
    return (space.cx - dx, space.cy - dy), (space.cx + dx, space.cy + dy)


def _name(route: Route) -> str:
    return f"#{route.id} {route.a}–{route.b}"


def _rows_overlap(
    one: Sequence[tuple[Space, Sequence[Point], Box]],
    two: Sequence[tuple[Space, Sequence[Point], Box]],
) -> bool:
    return any(
        _box_overlap(b1, b2) > 0 and _convex_overlap(c1, c2)
        for _, c1, b1 in one
        for _, c2, b2 in two
    )


def _bounds(corners: Sequence[Point]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def _rect(box: tuple[float, float, float, float]) -> tuple[Point, ...]:
    x0, y0, x1, y1 = box
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _near(box: tuple[float, float, float, float], x: float, y: float, reach: float) -> bool:
    return box[0] < x + reach and box[2] > x - reach and box[1] < y + reach and box[3] > y - reach


def _box_overlap(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> float:
    """The area two axis-aligned boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _convex_overlap(p: Sequence[Point], q: Sequence[Point]) -> bool:
    """Whether two convex polygons share an area (separating axis test)."""
    for poly in (p, q):
        for i, (x0, y0) in enumerate(poly):
            x1, y1 = poly[(i + 1) % len(poly)]
            nx, ny = y0 - y1, x1 - x0
            pa = [nx * x + ny * y for x, y in p]
            qa = [nx * x + ny * y for x, y in q]
            if max(pa) <= min(qa) + 1e-9 or max(qa) <= min(pa) + 1e-9:
                return False
    return True


def _circle_hits(x: float, y: float, r: float, poly: Sequence[Point]) -> bool:
    """Whether a circle and a convex polygon share an area."""
    inside = all(
        (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0
        for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]], strict=True)
    ) or all(
        (bx - ax) * (y - ay) - (by - ay) * (x - ax) <= 0
        for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]], strict=True)
    )
    if inside:
        return True
    return any(
        _segment_distance((x, y), a, b) < r for a, b in zip(poly, [*poly[1:], poly[0]], strict=True)
    )


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / d2))
    return math.dist(p, (a[0] + dx * t, a[1] + dy * t))
