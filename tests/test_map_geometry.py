"""The board as printed in map files (docs/map-format.md "The board as printed"): the shipped
boards carry it, it round-trips, it stays out of the digest, and the loader refuses what
would draw a route away from its cities."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from typing import Any

import pytest

from ttr_rules import load_map
from ttr_rules.errors import MapLoadError
from ttr_rules.maps import map_from_dict, map_problems, map_schema, map_to_dict, validate_map

#: The digests of the shipped boards before they carried their geometry: drawing data must
#: never change them (records written before still replay).
DIGESTS = {
    "europe": "da289ae913b8eab91287bfd179f9b362a3c38cb195a352ba5f93962e575c5729",
    "usa": "f49190be25a589ce7e250ef283d02b32ed2e18e4f60a3c5e55daf69fd0a83355",
    "nordic": "a59fe4f63cd3cd9fb2743a51aa3d224c4b283ccffdaea87a62ab40e58f0b19a1",
}


def _file(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        files(f"ttr_rules_{name}").joinpath(f"{name}.json").read_text("utf-8")
    )
    return data


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_shipped_boards_carry_their_geometry_outside_the_digest(name: str) -> None:
    game_map = load_map(name)
    g = game_map.geometry
    assert g is not None and g.width > 0 and g.height > 0
    assert len(g.positions) == len(game_map.cities)
    assert [len(row) for row in g.spaces] == [r.length for r in game_map.routes]
    assert game_map.digest == DIGESTS[name]
    bare = _file(name)
    del bare["frame"]
    for entry in (*bare["cities"], *bare["routes"]):
        entry.pop("position", None)
        entry.pop("spaces", None)
    assert map_from_dict(bare).digest == DIGESTS[name]
    assert validate_map(game_map) == []


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_shipped_files_match_the_schema(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(map_schema()).validate(_file(name))


def test_geometry_round_trips() -> None:
    europe = load_map("europe")
    again = map_from_dict(map_to_dict(europe))
    assert again.geometry == europe.geometry
    assert map_to_dict(again) == map_to_dict(europe)


def _europe() -> dict[str, Any]:
    return copy.deepcopy(_file("europe"))


def test_a_space_count_differing_from_the_length_is_refused() -> None:
    data = _europe()
    data["routes"][2]["spaces"].append([0.5, 0.5, 0])
    assert map_problems(data) == ["routes[2].spaces: 3 spaces for a route of length 2"]


def test_a_route_end_far_from_its_city_is_refused() -> None:
    data = _europe()
    paris = next(i for i, c in enumerate(data["cities"]) if c["name"] == "Paris")
    x, y = data["cities"][paris]["position"]
    data["cities"][paris]["position"] = [x, y + 0.3]
    problems = map_problems(data)
    assert problems and all("from Paris, its city" in p for p in problems)
    assert any(p.startswith("routes[") and ".spaces[0]: " in p for p in problems)


def test_partial_geometry_is_refused() -> None:
    data = _europe()
    del data["cities"][3]["position"]
    del data["routes"][5]["spaces"]
    assert map_problems(data) == [
        "cities: give a position for every city or for none",
        "routes: give spaces for every route or for none",
    ]
    data = _europe()
    del data["frame"]
    assert map_problems(data) == [
        "frame: is required with positions or spaces (the board's width and height)"
    ]


@pytest.mark.parametrize(
    ("where", "value", "problem"),
    [
        ("frame", [1, 2], "frame: must be an object"),
        ("frame", {"width": 0, "height": 5}, "frame.width: must be a positive number"),
        (
            "frame",
            {"width": 9, "height": 5, "depth": 1},
            "frame.depth: unknown field (did you mean 'width'?)",
        ),
        ("position", [0.5, 1.5], "cities[0].position: must be [x, y], two numbers from 0 to 1"),
        ("position", "here", "cities[0].position: must be [x, y], two numbers from 0 to 1"),
        ("spaces", {"x": 1}, "routes[0].spaces: must be a list of [x, y, angle]"),
        (
            "spaces",
            [[0.3, 0.3, "up"]],
            "routes[0].spaces[0]: must be [x, y, angle]: x and y from 0 to 1, the angle from "
            "-360 to 360 degrees",
        ),
    ],
)
def test_malformed_geometry_is_named(where: str, value: Any, problem: str) -> None:
    data = _europe()
    if where == "frame":
        data["frame"] = value
    elif where == "position":
        data["cities"][0]["position"] = value
    else:
        data["routes"][0]["spaces"] = value
    problems = map_problems(data)
    assert problem in problems
    with pytest.raises(MapLoadError):
        map_from_dict(data)


def test_positions_without_spaces_are_a_map() -> None:
    data = _europe()
    for route in data["routes"]:
        del route["spaces"]
    game_map = map_from_dict(data)
    assert game_map.geometry is not None and game_map.geometry.spaces == ()
    assert game_map.digest == DIGESTS["europe"]


def test_country_labels_are_read_round_trip_and_stay_out_of_the_digest() -> None:
    swiss = load_map("switzerland")
    g = swiss.geometry
    assert g is not None and len(g.country_labels) == len(swiss.countries) == 4
    assert g.country_labels[0] == (0.1433, 0.1333)  # France, as shared/reference gives it
    assert map_from_dict(map_to_dict(swiss)).geometry == g
    bare = _file("switzerland")
    for country in bare["countries"]:
        del country["label_position"]
    unlabelled = map_from_dict(bare)
    assert unlabelled.digest == swiss.digest
    assert unlabelled.geometry is not None and unlabelled.geometry.country_labels == ()
    partly = _file("switzerland")
    del partly["countries"][2]["label_position"]
    placed = map_from_dict(partly)
    assert placed.geometry is not None and placed.geometry.country_labels[2] is None
    assert "label_position" not in map_to_dict(placed)["countries"][2]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda d: d["countries"][1].update(label_position=[0.5, 2]),
            "countries[1].label_position: must be [x, y], two numbers from 0 to 1",
        ),
        (
            lambda d: (
                [d.pop("frame"), *(c.pop("position") for c in d["cities"])]
                and [r.pop("spaces") for r in d["routes"]]
            ),
            "countries: label_position needs the frame and the cities' positions",
        ),
    ],
)
def test_a_bad_country_label_is_named(change: Any, problem: str) -> None:
    data = copy.deepcopy(_file("switzerland"))
    change(data)
    assert map_problems(data) == [problem]
