"""The board picture's geometry for every installed map: nothing collides (no space over another
route's space or over a city other than its ends, no label over a space), and a bend given in a
map file bows the route without changing the map's digest."""

from __future__ import annotations

import json
import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import load_map, new_game
from ttr_rules.cli import main
from ttr_rules.maps import GameMap, available_maps, load_map_file, map_to_dict
from ttr_rules.render import svg
from ttr_rules.render.font import ASCENT, DESCENT, text_width
from ttr_rules.render.geometry import (
    LEADER_FROM,
    board_collisions,
    board_geometry,
)


@pytest.mark.parametrize("name", available_maps())
def test_no_shipped_map_collides_on_the_board(name: str) -> None:
    assert board_collisions(load_map(name)) == []


def test_a_collision_is_reported_in_words() -> None:
    usa = attrs.evolve(load_map("usa"), geometry=None)  # the computed layout
    line = "route #35 Denver–Phoenix overlaps route #46 El Paso–Los Angeles"
    assert line not in board_collisions(usa)
    assert line in board_collisions(attrs.evolve(usa, bends=((46, 0.5),)))


def test_every_route_keeps_its_spaces_and_its_hit_line() -> None:
    usa = load_map("usa")
    g = board_geometry(usa, 1000)
    assert [len(row) for row in g.spaces] == [r.length for r in usa.routes]
    assert all(len(path) >= 2 for path in g.paths)
    assert set(g.labels) == set(usa.cities)


def test_a_bend_is_read_written_and_left_out_of_the_digest(tmp_path: Path) -> None:
    europe = load_map("europe")
    data = map_to_dict(europe)
    assert data["routes"][81]["bend"] == 0.12
    data["routes"][81]["bend"] = -0.2
    path = tmp_path / "bent.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    bent = load_map_file(path)
    assert dict(bent.bends)[81] == -0.2
    assert bent.digest == europe.digest and bent == europe


@pytest.mark.parametrize("bad", [1, -0.7, "0.1", True, None])
def test_a_bend_out_of_range_is_refused(tmp_path: Path, bad: object) -> None:
    data = map_to_dict(load_map("europe"))
    data["routes"][3]["bend"] = bad
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(Exception, match=r"routes\[3\]\.bend"):
        load_map_file(path)


def test_validate_map_render_reports_collisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = map_to_dict(attrs.evolve(load_map("usa"), geometry=None))
    for route in data["routes"]:
        route.pop("bend", None)
    data["routes"][46]["bend"] = 0.5
    path = tmp_path / "bowed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate-map", str(path)]) == 0
    assert main(["validate-map", "--render", str(path)]) == 1
    out = capsys.readouterr().out
    assert "board: route #35 Denver–Phoenix overlaps route #46 El Paso–Los Angeles" in out
    assert main(["validate-map", "--render", "europe"]) == 0
    assert "draws without collisions" in capsys.readouterr().out


# ---------------------------------------------------------------------- the SVG document itself

_SVG = "{http://www.w3.org/2000/svg}"


def _space_polygon(rect: ET.Element, shrink: float) -> list[tuple[float, float]]:
    """A space's corners on the picture, read from its attributes (``shrink`` pixels taken off
    each side: the document rounds coordinates to a tenth of a pixel)."""
    x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
    w, h = float(rect.get("width", 0)) - 2 * shrink, float(rect.get("height", 0)) - 2 * shrink
    match = re.fullmatch(r"rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)", rect.get("transform", ""))
    assert match, rect.attrib
    angle, cx, cy = (float(v) for v in match.groups())
    a = math.radians(angle)
    corners = [(x + shrink, y + shrink), (x + shrink + w, y + shrink)]
    corners += [(x + shrink + w, y + shrink + h), (x + shrink, y + shrink + h)]
    return [
        (
            cx + (px - cx) * math.cos(a) - (py - cy) * math.sin(a),
            cy + (px - cx) * math.sin(a) + (py - cy) * math.cos(a),
        )
        for px, py in corners
    ]


def _separated(p: list[tuple[float, float]], q: list[tuple[float, float]]) -> bool:
    """Whether a line separates two convex polygons (the separating axis test)."""
    for poly in (p, q):
        for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True):
            nx, ny = y0 - y1, x1 - x0
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) or max(b) <= min(a):
                return True
    return False


def _circle_polygon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A circle as a 16-gon inside it."""
    return [
        (cx + r * math.cos(i * math.pi / 8), cy + r * math.sin(i * math.pi / 8)) for i in range(16)
    ]


@pytest.mark.parametrize("name", available_maps())
def test_the_svg_document_draws_nothing_over_anything_else(name: str) -> None:
    """Read back from the document ``render.svg`` writes: no space overlaps another route's
    space or a city other than its ends, and no city label (its box estimated from the font
    size, as a browser's DejaVu Sans would draw it) covers a space."""
    game_map = load_map(name)
    root = ET.fromstring(svg(new_game(game_map, 2, seed=1), size=1000, legend=False))
    spaces = [
        (int(g.get("data-route", -1)), _space_polygon(rect, shrink=0.15))
        for g in root.iter(f"{_SVG}g")
        if "route" in g.get("class", "").split()
        for rect in g.iter(f"{_SVG}rect")
        if rect.get("class") == "space"
    ]
    assert len(spaces) == sum(r.length for r in game_map.routes)
    cities: dict[str | None, list[tuple[float, float]]] = {}
    labels = []
    for g in root.iter(f"{_SVG}g"):
        if g.get("class") != "city":
            continue
        circle = g.find(f"{_SVG}circle")
        assert circle is not None
        cities[g.get("data-city")] = _circle_polygon(
            float(circle.get("cx", 0)), float(circle.get("cy", 0)), float(circle.get("r", 0))
        )
        text = next(t for t in g.iter(f"{_SVG}text") if t.get("class") == "city-label")
        font, x, y = (float(text.get(k, 0)) for k in ("font-size", "x", "y"))
        width = text_width(text.text or "", font)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "")]
        top, bottom = y - font * ASCENT, y + font * DESCENT
        labels.append(
            (text.text, [(left, top), (left + width, top), (left + width, bottom), (left, bottom)])
        )
    problems = []
    for i, (route, polygon) in enumerate(spaces):
        ends = {game_map.routes[route].a, game_map.routes[route].b}
        for other, other_polygon in spaces[i + 1 :]:
            if other != route and not _separated(polygon, other_polygon):
                problems.append(f"a space of route {route} overlaps one of route {other}")
        for city, ring in cities.items():
            if city not in ends and not _separated(polygon, ring):
                problems.append(f"a space of route {route} covers {city}")
        for city, box in labels:
            if not _separated(polygon, box):
                problems.append(f"the label of {city} covers a space of route {route}")
    assert problems == []


@pytest.mark.parametrize("name", available_maps())
def test_every_label_sits_by_its_city_or_is_tied_to_it(name: str) -> None:
    """A label starts within a few city radii of its city; one further than LEADER_FROM radii
    has a leader line from the city's circle to the label."""
    g = board_geometry(load_map(name), 1000)
    for city, label in g.labels.items():
        x, y = g.points[city]
        x0, y0, x1, y1 = label.box
        gap = math.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1))
        # The farthest label place tried: 6.5 gaps of a radius and a bit of the board's font
        # (a crowded printed board, Legendary Asia's Calcutta, needs it).
        assert gap <= max(7 * g.city_radius, 6.5 * (g.city_radius + 0.15 * g.font)) + 1e-6, city
        assert (label.leader is not None) == (gap > LEADER_FROM * g.city_radius), city
        if label.leader:
            (ax, ay), _ = label.leader
            assert math.dist((ax, ay), (x, y)) == pytest.approx(g.city_radius)


# ---------------------------------------------------------------------- the computed layout


def _grid_map(seed: int) -> GameMap:
    """A board whose cities lie on a jittered grid, with routes (some double) between grid
    neighbours only: the kind of map a plugin author draws without printed geometry."""
    rnd = random.Random(seed)
    columns, rows = rnd.randint(2, 5), rnd.randint(2, 4)
    cities = [f"C{i}-{j}" for i in range(columns) for j in range(rows)]
    locations = [
        (50 + j * 2 + rnd.uniform(-0.5, 0.5), 5 + i * 3 + rnd.uniform(-0.7, 0.7))
        for i in range(columns)
        for j in range(rows)
    ]
    routes: list[tuple[str, str, int, None]] = []
    for i in range(columns):
        for j in range(rows):
            for di, dj in ((1, 0), (0, 1)):
                if i + di < columns and j + dj < rows and rnd.random() < 0.85:
                    route = (f"C{i}-{j}", f"C{i + di}-{j + dj}", rnd.randint(1, 4), None)
                    routes += [route] * (2 if rnd.random() < 0.25 else 1)
    return GameMap.create(
        f"grid{seed}", cities, routes, [(cities[0], cities[-1], 5)], locations=locations
    )


def _routes_problems(game_map: GameMap, width: float) -> list[str]:
    """What board_collisions finds about routes (labels aside): detached ends, overlaps."""
    return [line for line in board_collisions(game_map, width) if "label" not in line]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), width=st.sampled_from([660.0, 1000.0]))
def test_the_computed_layout_keeps_routes_attached_and_apart(seed: int, width: float) -> None:
    """Without printed geometry, every route ends within a car of each of its cities and no
    two routes' cars overlap (cities on a grid, routes between neighbours)."""
    assert _routes_problems(_grid_map(seed), width) == []


@pytest.mark.parametrize("width", [660.0, 1000.0])
def test_the_plugin_example_and_nordic_drawn_without_geometry_keep_routes_attached(
    width: float,
) -> None:
    example = Path(__file__).parents[1] / "examples" / "custom_map_plugin" / "src"
    alpine = load_map_file(example / "ttr_rules_alpine" / "alpine.json")
    nordic = attrs.evolve(load_map("nordic"), geometry=None)
    assert _routes_problems(alpine, width) == []
    assert _routes_problems(nordic, width) == []


def test_a_detached_route_is_reported_in_words() -> None:
    usa = load_map("usa")
    g = usa.geometry
    assert g is not None
    far = [*g.spaces]
    x, y, angle = far[0][0]
    far[0] = ((min(x + 0.08, 1.0), y, angle),)
    lines = board_collisions(attrs.evolve(usa, geometry=attrs.evolve(g, spaces=tuple(far))))
    assert any(line.startswith("route #0 Atlanta–Charleston ends ") for line in lines)


@pytest.mark.parametrize("width", [660.0, 1000.0])
def test_no_label_reads_as_another_citys(width: float) -> None:
    """A label without a leader line lies nearer its own city than any other city (Lisboa's
    label sat beside Madrid's circle)."""

    def distance(box: tuple[float, float, float, float], p: tuple[float, float]) -> float:
        return math.hypot(
            max(box[0] - p[0], 0, p[0] - box[2]), max(box[1] - p[1], 0, p[1] - box[3])
        )

    misread = []
    for name in ("europe", "usa", "nordic", "legendary-asia"):
        g = board_geometry(load_map(name), width)
        for city, label in g.labels.items():
            own = distance(label.box, g.points[city])
            others = [c for c, p in g.points.items() if c != city and distance(label.box, p) <= own]
            if label.leader is None and others:
                misread.append(f"{name}: {city} reads as {others[0]}")
    assert misread == []


@pytest.mark.parametrize("width", [660.0, 1000.0])
def test_no_label_overlaps_another_label_or_a_city(width: float) -> None:
    """On every installed board (a variant is drawn as its board), no two labels (cities' and
    countries') share an area, and no label covers a city's circle (Calcutta and Chittagong,
    Manmad and Poona on India)."""

    def apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]

    crowded = []
    boards = {load_map(name).board or name for name in available_maps()}
    for name in sorted(boards):
        g = board_geometry(load_map(name), width)
        boxes = [*g.labels.items(), *g.countries.items()]
        for i, (one, box) in enumerate(boxes):
            crowded += [
                f"{name}: {one} and {two}"
                for two, other in boxes[i + 1 :]
                if not apart(box.box, other.box)
            ]
            r = g.city_radius
            crowded += [
                f"{name}: {one} over the city {city}"
                for city, (x, y) in g.points.items()
                if not apart(box.box, (x - r, y - r, x + r, y + r))
                and math.hypot(
                    max(box.box[0] - x, 0, x - box.box[2]), max(box.box[1] - y, 0, y - box.box[3])
                )
                < r
            ]
    assert crowded == []


def test_a_swiss_border_end_point_is_labelled_by_its_number_beside_its_country() -> None:
    swiss = load_map("switzerland")
    g = board_geometry(swiss, 1000)
    assert list(g.countries) == ["France", "Deutschland", "Österreich", "Italia"]
    assert g.labels["Deutschland 3"].text == "3" and g.labels["Zürich"].text == "Zürich"
    root = ET.fromstring(svg(swiss, size=1000))
    names = [t.text for t in root.iter(f"{_SVG}text") if t.get("class") == "country-label"]
    assert names == ["France", "Deutschland", "Österreich", "Italia"]
    assert not board_geometry(load_map("india"), 1000).countries
