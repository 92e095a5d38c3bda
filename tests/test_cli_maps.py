"""The map commands of the ``ttr`` command line: maps, map-info, validate-map."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from map_samples import small_map_data, write_map

from ttr_rules import cli, load_map
from ttr_rules.cli.maps import map_info_lines


def test_maps_lists_europe(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["maps"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["name", "board", "version", "cities", "routes", "tickets", "title"]
    europe = next(line for line in out if line.startswith("europe "))
    assert europe.split()[:6] == ["europe", "europe", "1.0", "47", "101", "46"]
    # Variants follow their board.
    names = [line.split()[0] for line in out[1:]]
    assert names[names.index("usa") : names.index("usa") + 4] == [
        "usa",
        "usa-1910",
        "usa-big-cities",
        "usa-mega",
    ]


def test_map_info_europe(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["map-info", "Europe"]) == 0
    out = capsys.readouterr().out
    assert "cities: 47" in out
    assert "routes: 101 tracks, 300 spaces" in out
    assert "by length: 1×4, 2×35, 3×30, 4×29, 6×2, 8×1" in out
    assert "purple 8, white 8, blue 8, yellow 8, orange 8, black 8, red 8, green 8, gray 37" in out
    assert "tunnels: 18" in out
    assert "ferries: 13 (17 locomotives)" in out
    assert "double routes: 11" in out
    assert "tickets: 46 (6 long, 40 regular), 444 points" in out
    assert "20×3, 21×3" in out


def test_maps_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["maps", "--json"]) == 0
    maps = {m["name"]: m for m in json.loads(capsys.readouterr().out)}
    europe = load_map("europe")
    assert maps["europe"] == {
        "name": "europe",
        "version": "1.0",
        "title": europe.title,
        "board": "europe",
        "cities": 47,
        "routes": 101,
        "tickets": 46,
        "digest": europe.digest,
    }
    assert maps["europe-1912-mega"]["board"] == "europe"


def test_map_info_json_holds_what_the_text_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["map-info", "--json", "usa"]) == 0
    info = json.loads(capsys.readouterr().out)
    lines = map_info_lines(load_map("usa"))
    assert info["digest"] in lines[1] and f"cities: {info['cities']}" == lines[2]
    assert f"routes: {info['routes']} tracks, {info['spaces']} spaces" == lines[3]
    assert sum(info["routes_by_length"].values()) == info["routes"]
    assert sum(info["routes_by_colour"].values()) == info["routes"]
    assert sum(info["tickets_by_value"].values()) == info["tickets"]
    assert info["long_tickets"] + info["regular_tickets"] == info["tickets"]


def test_map_info_of_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = write_map(tmp_path / "toy.json", small_map_data())
    assert cli.main(["map-info", str(file)]) == 0
    assert "double routes: 1" in capsys.readouterr().out


def test_map_info_unknown_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["map-info", "atlantis"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("ttr: error: no map named 'atlantis'; available maps: ")
    assert "Traceback" not in captured.err


def test_validate_map_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = write_map(tmp_path / "toy.json", small_map_data())
    assert cli.main(["validate-map", str(file)]) == 0
    assert capsys.readouterr().out.startswith("ok")


def test_validate_map_prints_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = small_map_data()
    data["routes"][1]["length"] = 5
    data["tickets"][0]["a"] = "Nowhere"
    file = write_map(tmp_path / "bad.json", data)
    assert cli.main(["validate-map", str(file)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"{file}: routes[1].length: 5 differs from 2, the length of routes[0], "
        "the other track of the double route Alpha–Beta",
        f"{file}: tickets[0].a: unknown city 'Nowhere'",
    ]


def test_validate_map_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["validate-map", str(tmp_path / "none.json")]) == 1
    assert "cannot read the map file" in capsys.readouterr().out


def test_usage_errors_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert cli.main(["no-such-command"]) == 2
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "maps" in out and "map-info" in out and "validate-map" in out


def test_python_dash_m() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ttr_rules", "maps"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "europe" in result.stdout
