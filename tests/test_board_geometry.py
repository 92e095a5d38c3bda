"""The board picture's geometry for every installed map: nothing collides (no space over another
route's space or over a city other than its ends, no label over a space), and a bend given in a
map file bows the route without changing the map's digest."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from ttr_rules import load_map
from ttr_rules.cli import main
from ttr_rules.maps import available_maps, load_map_file, map_to_dict
from ttr_rules.render.geometry import board_collisions, board_geometry


@pytest.mark.parametrize("name", available_maps())
def test_no_shipped_map_collides_on_the_board(name: str) -> None:
    assert board_collisions(load_map(name)) == []


def test_a_collision_is_reported_in_words() -> None:
    usa = load_map("usa")
    assert board_collisions(attrs.evolve(usa, bends=())) == [
        "the label of Oklahoma City covers route #33 Denver–Oklahoma City",
        "the label of Salt Lake City covers route #94 Salt Lake City–San Francisco",
    ]
    bowed = board_collisions(attrs.evolve(usa, bends=((46, 0.3),)))
    assert "route #35 Denver–Phoenix overlaps route #46 El Paso–Los Angeles" in bowed


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
    data = map_to_dict(load_map("usa"))
    data["routes"][46]["bend"] = 0.3
    path = tmp_path / "bowed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate-map", str(path)]) == 0
    assert main(["validate-map", "--render", str(path)]) == 1
    out = capsys.readouterr().out
    assert "board: route #35 Denver–Phoenix overlaps route #46 El Paso–Los Angeles" in out
    assert main(["validate-map", "--render", "europe"]) == 0
    assert "draws without collisions" in capsys.readouterr().out
