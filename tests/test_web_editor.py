"""The map designer's workbench (``ttr edit``): opening maps, edits, undo and redo, the
problems of ``ttr validate-map`` located on the board, atomic saves with a recovery file, the
map file and plugin exports, and hostile requests answered in words."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tomllib
import warnings
import zipfile
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ttr_rules.cli import main
from ttr_rules.maps import load_map, map_from_dict, map_to_dict
from ttr_rules.web.editor import EditError, create_editor_app, open_workbench
from ttr_rules.web.editor.workbench import recovery_path


def client(argument: str | None, folder: Path) -> TestClient:
    return TestClient(create_editor_app(open_workbench(argument, folder)))


def edit(c: TestClient, **change: Any) -> dict[str, Any]:
    response = c.post("/api/edit", json={"edit": change})
    assert response.status_code == 200, response.json()
    body: dict[str, Any] = response.json()
    return body


def test_opening_europe_and_exporting_it_gives_europe(tmp_path: Path) -> None:
    c = client("europe", tmp_path)
    state = c.get("/api/state").json()
    assert state["problems"] == [] and not state["unsaved"] and state["file"] == "europe.json"
    exported = c.get("/api/export/map")
    assert exported.headers["content-disposition"] == 'attachment; filename="europe.json"'
    europe = load_map("europe")
    again = map_from_dict(exported.json())
    assert again.digest == europe.digest and again == europe
    assert list(tmp_path.iterdir()) == []  # nothing written before an edit or a save


def test_a_blank_board_becomes_a_map_by_edits(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    state = c.get("/api/state").json()
    assert state["file"] == "new-map.json" and state["map"]["cities"] == []
    for n, (x, y) in enumerate([(0.1, 0.1), (0.5, 0.1), (0.5, 0.6)]):
        state = edit(c, op="add_city", name=f"C{n}", x=x, y=y)
    assert any("not connected" in p["message"] for p in state["problems"])
    edit(c, op="add_route", a="C0", b="C1", length=3, color="red", tunnel=True)
    state = edit(c, op="add_route", a="C1", b="C2", length=2, ferry_locomotives=1, mountain=1)
    assert state["map"]["routes"][1] == {
        "a": "C1",
        "b": "C2",
        "length": 2,
        "color": "gray",
        "tunnel": False,
        "ferry_locomotives": 1,
        "mountain": 1,
    }
    state = edit(c, op="add_ticket", a="C0", b="C2")
    assert state["map"]["tickets"] == [{"a": "C0", "b": "C2", "points": 5, "long": False}]
    state = edit(c, op="update_ticket", index=0, points=7, long=True)
    assert state["tickets"] == [{"shortest": 5, "difference": 2}]
    state = edit(c, op="rename_city", name="C2", to="Zermatt")
    assert (
        state["map"]["routes"][1]["b"] == "Zermatt" and state["map"]["tickets"][0]["b"] == "Zermatt"
    )
    state = edit(c, op="move_city", name="Zermatt", x=0.9, y=0.9)
    assert state["map"]["cities"][2]["position"] == [0.9, 0.9]
    # Every problem is one ttr validate-map reports: here, the tickets are too few to deal.
    assert state["problems"] and all("tickets" in p["message"] for p in state["problems"])
    assert all(p["rule"] == "max_players" for p in state["problems"])  # a click opens it


def test_undo_and_redo_walk_the_history(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    edit(c, op="add_city", name="A", x=0.2, y=0.2)
    edit(c, op="add_city", name="B", x=0.4, y=0.2)
    state = c.post("/api/undo").json()
    assert [x["name"] for x in state["map"]["cities"]] == ["A"] and state["can_redo"]
    state = c.post("/api/redo").json()
    assert [x["name"] for x in state["map"]["cities"]] == ["A", "B"] and not state["can_redo"]
    c.post("/api/undo")
    c.post("/api/undo")
    refused = c.post("/api/undo")
    assert refused.status_code == 422 and refused.json()["message"] == "there is nothing to undo"


def test_a_problem_names_the_route_or_city_it_is_about(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    edit(c, op="add_city", name="A", x=0.2, y=0.2)
    edit(c, op="add_city", name="B", x=0.4, y=0.2)
    edit(c, op="add_route", a="A", b="B", length=2)
    state = edit(c, op="update_route", index=0, ferry_locomotives=5)
    (problem,) = [p for p in state["problems"] if p["message"].startswith("routes[0]")]
    assert problem["route"] == 0
    # A city no route reaches: the board in pieces is located on it.
    state = edit(c, op="add_city", name="C", x=0.6, y=0.6)
    (problem,) = [p for p in state["problems"] if "not connected" in p["message"]]
    assert problem["city"] == "C"


def test_saves_are_atomic_and_an_autosave_is_kept_until_then(tmp_path: Path) -> None:
    c = client("alps.json", tmp_path)
    edit(c, op="add_city", name="A", x=0.2, y=0.2)
    recovery = recovery_path(tmp_path / "alps.json")
    assert json.loads(recovery.read_text())["cities"][0]["name"] == "A"
    assert not (tmp_path / "alps.json").exists()
    state = c.post("/api/save").json()
    assert not state["unsaved"] and not recovery.exists()
    assert json.loads((tmp_path / "alps.json").read_text())["name"] == "alps"
    edit(c, op="add_city", name="B", x=0.3, y=0.2)
    # A second session after a crash finds the autosave and restores it.
    again = client("alps.json", tmp_path)
    assert again.get("/api/state").json()["recovery"]
    state = again.post("/api/recover").json()
    assert [x["name"] for x in state["map"]["cities"]] == ["A", "B"] and state["can_undo"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alps.autosave.json", "alps.json"]


def test_the_plugin_zip_is_a_project_registering_the_map(tmp_path: Path) -> None:
    c = client("europe", tmp_path)
    edit(c, op="set_details", name="my-europe", title="My Europe", version="2.0")
    response = c.get("/api/export/plugin")
    assert response.status_code == 200, response.json()
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    root = "ttr-rules-my-europe"
    package = f"{root}/src/ttr_rules_map_my_europe"
    assert sorted(archive.namelist()) == sorted(
        [
            f"{root}/README.md",
            f"{root}/pyproject.toml",
            f"{package}/__init__.py",
            f"{package}/my-europe.json",
            f"{root}/tests/test_map.py",
        ]
    )
    pyproject = tomllib.loads(archive.read(f"{root}/pyproject.toml").decode())
    entry = pyproject["project"]["entry-points"]["ttr_rules.maps"]
    assert entry == {"my-europe": "ttr_rules_map_my_europe:load"}
    assert "check_map" in archive.read(f"{root}/tests/test_map.py").decode()
    shipped = map_from_dict(json.loads(archive.read(f"{package}/my-europe.json")))
    assert (
        shipped.digest != load_map("europe").digest and shipped.routes == load_map("europe").routes
    )
    # Built offline and installed, ttr maps lists it and the kit's test passes on it.
    archive.extractall(tmp_path / "out")
    site = _built_and_installed(tmp_path / "out" / root, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(site)}
    listed = _run([sys.executable, "-m", "ttr_rules", "maps", "--json"], env, tmp_path)
    assert "my-europe" in [m["name"] for m in json.loads(listed)]
    played = _run(
        [sys.executable, "-m", "ttr_rules", "simulate", "--map", "my-europe", "--games", "1",
         "--players", "2", "--json"], env, tmp_path,
    )  # fmt: skip
    game = json.loads(played.splitlines()[0])
    assert game["map"] == "my-europe" and len(game["scores"]) == 2
    _run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        env,
        tmp_path / "out" / root,
    )


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> str:
    run = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def _built_and_installed(project: Path, tmp_path: Path) -> Path:
    """The project built into a wheel and installed in a folder of its own, offline (as
    tests/test_plugin_doc.py does: hatchling from the test extra, no index, no deps)."""
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    dist, site = tmp_path / "dist", tmp_path / "site"
    _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist),
          str(project)], dict(os.environ), tmp_path)  # fmt: skip
    (wheel,) = dist.glob("*.whl")
    _run([*pip, "install", "--no-deps", "--no-index", "--target", str(site), str(wheel)],
         dict(os.environ), tmp_path)  # fmt: skip
    return site


def test_a_map_with_problems_exports_no_plugin(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    refused = c.get("/api/export/plugin")
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("fix the map's")


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"{bad", 400, "not valid JSON"),
        (b"[" * 10_000, 400, "JSON"),
        (b'{"edit": {"op": "add_city", "name": "x", "x": 0.1}}', 422, "y"),
        (b'{"edit": {"op": "add_city", "name": "x", "x": 3, "y": 0}}', 422, "from 0 to 1"),
        (b'{"edit": {"op": "explode"}}', 422, "op"),
        (
            b'{"edit": {"op": "set_details", "name": "../../etc", "title": "", "version": "1"}}',
            422,
            "a map's name is 1 to 40 characters: lower-case letters, digits",
        ),
        (
            b'{"edit": {"op": "set_details", "name": "ok", "title": "", "version": "1 beta"}}',
            422,
            "a map's version is 1 to 20 letters, digits, '.', '+' or '-' (e.g. 1.0)",
        ),
        (
            b'{"edit": {"op": "add_city", "name": "a\\u0000b", "x": 0, "y": 0}}',
            422,
            "a city's name is 1 to 60 characters, on one line",
        ),
        (
            b'{"edit": {"op": "set_rule", "name": "max_players", "value": 2.5}}',
            422,
            "value must be a whole number from -1000000 to 1000000, true, false or null",
        ),
        (b'{"edit": {"op": "delete_route", "index": 5}}', 422, "there is no route number 5"),
        (b'{"edit": {"op": "add_route", "a": "A", "b": "A"}}', 422, "no city named"),
        (b"x" * 3_000_000, 413, "limited to"),
    ],
)
def test_hostile_requests_are_answered_in_words(
    tmp_path: Path, body: bytes, status: int, words: str
) -> None:
    c = client(None, tmp_path)
    response = c.post("/api/edit", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status, response.json()
    assert words in response.json()["message"]
    assert c.get("/api/state").json()["revision"] == 0
    assert list(tmp_path.iterdir()) == []


def test_a_foreign_host_and_unknown_files_are_refused(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    assert c.get("/api/state", headers={"Host": "evil.example"}).status_code == 400
    assert c.get("/static/..%2f..%2fetc%2fpasswd").status_code == 404
    assert c.get("/").headers["content-type"].startswith("text/html")


def test_open_refuses_in_words(tmp_path: Path) -> None:
    (tmp_path / "europe.json").write_text("{}")
    with pytest.raises(EditError, match=r"europe\.json is already here"):
        open_workbench("europe", tmp_path)
    with pytest.raises(EditError, match="not a map file"):
        open_workbench("europe.json", tmp_path)
    with pytest.raises(EditError, match="neither an installed map"):
        open_workbench("atlantis", tmp_path)
    with pytest.raises(EditError, match="no such folder"):
        open_workbench("nowhere/x.json", tmp_path)


def test_the_command_refuses_before_it_listens(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edit", "/dev/zero"]) == 1
    assert "not a regular file" in capsys.readouterr().err
    assert main(["edit", "--port", "70000"]) == 2


def test_a_play_test_gives_the_figures_of_ttr_stats(tmp_path: Path) -> None:
    import time

    from ttr_rules.sim import BalanceStats, game_specs, run_games

    c = client("europe", tmp_path)
    assert c.get("/api/playtest").json() == {"status": "none"}
    started = c.post("/api/playtest", json={"games": 4, "agents": ["greedy", "random"]})
    assert started.status_code == 200, started.json()
    deadline = time.monotonic() + 120
    while (summary := c.get("/api/playtest").json())["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert summary["status"] == "finished" and summary["done"] == 4
    europe = load_map("europe")
    specs = game_specs(4, map=europe, players=2, agents=["greedy", "random"])
    stats = BalanceStats.of(run_games(specs), len(europe.routes), len(europe.tickets))
    assert summary["route_claim_rates"] == stats.claim_rates()
    assert [t["completion_rate"] for t in summary["tickets"]] == stats.completion_rates()
    assert summary["mean_turns"] == stats.mean_turns()
    assert summary["first_player_advantage"] == stats.win_rates()[0][0] - 0.5


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"games": 0}, "games must be a whole number from 1 to 500"),
        ({"agents": ["nobody", "greedy"]}, "no agent named 'nobody' (there are easy, greedy"),
        ({"agents": ["greedy"] * 6}, "played by 2 to 5 players, not 6: name one agent for each"),
        ({"agents": ["../x", "greedy"]}, "no agent named '../x'"),
        ({"agents": ["a\nb", "greedy"]}, "no agent named 'a\\nb'"),
        ({"agents": ["greedy"]}, "name at least 2 agents, one for each seat"),
        ({"agents": []}, "name at least 2 agents"),
    ],
)
def test_a_play_test_refuses_in_words(tmp_path: Path, body: dict[str, Any], words: str) -> None:
    c = client("europe", tmp_path)
    response = c.post("/api/playtest", json=body)
    assert response.status_code == 422 and words in response.json()["message"], response.json()
    assert client(None, tmp_path).post("/api/playtest", json={}).json()["message"] == (
        "fix the map's problems before a play-test"
    )


def test_rules_are_set_to_other_values_and_back_to_their_defaults(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    defaults = c.get("/api/rules").json()
    assert defaults["trains_per_player"] == 45 and defaults["tunnel_reveal_uses_discard"] is True
    state = edit(c, op="set_rule", name="trains_per_player", value=30)
    assert state["map"]["rules"] == {"trains_per_player": 30}
    state = edit(c, op="set_rule", name="tunnel_reveal_uses_discard", value=False)
    state = edit(c, op="set_rule", name="trains_per_player", value=45)
    assert state["map"]["rules"] == {"tunnel_reveal_uses_discard": False}
    state = edit(c, op="set_rule", name="max_players", value=1)
    assert any(p.get("rule") == "min_players" for p in state["problems"]), state["problems"]
    for name, value, words in [
        ("nonsense", 1, "there is no rule 'nonsense'"),
        ("trains_per_player", True, "is a whole number"),
        ("tunnel_reveal_uses_discard", 3, "is true or false"),
    ]:
        refused = c.post(
            "/api/edit", json={"edit": {"op": "set_rule", "name": name, "value": value}}
        )
        assert refused.status_code == 422 and words in refused.json()["message"]


def test_routes_and_tickets_are_imported_from_csv(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    routes = "a,b,length,color,tunnel,ferry_locomotives\nBern,Basel,2,red,yes,\nBasel,Genf,3,,,1\n"
    state = c.post("/api/import/routes", content=routes.encode()).json()
    assert [x["name"] for x in state["map"]["cities"]] == ["Bern", "Basel", "Genf"]
    assert (
        state["map"]["routes"][0]["tunnel"] and state["map"]["routes"][1]["ferry_locomotives"] == 1
    )
    state = c.post("/api/import/tickets", content=b"a,b,points\nBern,Genf,\nBern,Basel,4\n").json()
    assert [t["points"] for t in state["map"]["tickets"]] == [5, 4]
    state = c.post("/api/undo").json()
    assert state["map"]["tickets"] == []  # one import, one edit
    for kind, body, words in [
        ("routes", "a,b\nX,Y\n", "the columns a, b, length"),
        ("routes", "a,b,length\nX,Y,99\n", "line 2: length must be a whole number from 1 to 20"),
        ("routes", "a,b,length,color\nX,Y,1,plaid\n", "'plaid' is no colour"),
        ("tickets", "a,b\nBern,Nowhere\n", "no routes join Bern and Nowhere"),
    ]:
        refused = c.post(f"/api/import/{kind}", content=body.encode())
        assert refused.status_code == 422 and words in refused.json()["message"], refused.json()
    assert c.post("/api/import/../../x", content=b"").status_code == 404
    refused = c.post(
        "/api/import/routes", content=b"\xff\xfe", headers={"Content-Type": "text/csv"}
    )
    assert refused.status_code == 400 and "not UTF-8 text: save it as UTF-8" in refused.text
    huge = b"a,b,length\n" + b"A" * 200_000 + b",B,2\n"  # past the csv module's field limit
    refused = c.post("/api/import/routes", content=huge, headers={"Content-Type": "text/csv"})
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("line 2: the CSV cannot be read (field larger")


def test_a_map_file_is_imported_and_undone(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    europe = c.get("/api/export/map").json()  # the blank map
    text = json.dumps(map_to_dict(load_map("europe")))
    state = c.post("/api/import/map", content=text.encode()).json()
    assert (
        map_from_dict(state["map"]).digest == load_map("europe").digest and state["problems"] == []
    )
    assert c.post("/api/undo").json()["map"] == europe
    refused = c.post("/api/import/map", content=b'{"name": "x"}')
    assert refused.status_code == 422 and "not a map file" in refused.json()["message"]
    refused = c.post("/api/import/map", content=b"[" * 100_000)
    assert refused.status_code == 422 and "nested too deeply" in refused.json()["message"]
    # Entries that are not objects are refused at the door: the page could not show them.
    odd = b'{"cities": [{"name": "A"}, 1], "routes": [], "tickets": []}'
    refused = c.post("/api/import/map", content=odd)
    assert refused.json()["message"] == "the file is not a map file (cities[1] is not an object)"
    assert c.get("/api/state").json()["map"] == europe
    big = {"cities": [{"name": f"C{n}"} for n in range(501)], "routes": [], "tickets": []}
    refused = c.post("/api/import/map", content=json.dumps(big).encode())
    assert refused.json()["message"] == (
        "the file is too big to edit (501 cities; a map holds at most 500)"
    )
    (tmp_path / "odd.json").write_bytes(odd)
    with pytest.raises(EditError, match=r"odd\.json: not a map file \(cities\[1\]"):
        open_workbench("odd.json", tmp_path)


def test_a_background_image_is_kept_beside_the_map_file(tmp_path: Path) -> None:
    import base64

    c = client("alps.json", tmp_path)
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    state = c.post("/api/background", json={"data": base64.b64encode(svg).decode()}).json()
    assert state["background"] and (tmp_path / "alps.background.svg").read_bytes() == svg
    served = c.get("/api/background")
    assert served.headers["content-type"].startswith("image/svg+xml")
    assert "default-src 'none'" in served.headers["content-security-policy"]
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 20
    c.post("/api/background", json={"data": base64.b64encode(png).decode()})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alps.background.png"]
    for data, words in [
        (base64.b64encode(b"#!/bin/sh\nrm -rf /").decode(), "PNG, JPEG or SVG"),
        ("not base64!", "not base64"),
    ]:
        refused = c.post("/api/background", json={"data": data})
        assert refused.status_code == 422 and words in refused.json()["message"]
    assert not c.delete("/api/background").json()["background"]
    assert list(tmp_path.iterdir()) == []
    assert c.get("/api/background").status_code == 404


def test_two_tabs_editing_at_once_lose_nothing(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    bench = open_workbench(None, tmp_path)
    app = create_editor_app(bench)

    def tab(n: int) -> None:
        c = TestClient(app)
        for i in range(15):
            edit(c, op="add_city", name=f"T{n}-{i}", x=0.1 + i / 30, y=0.1 + n / 5)

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(tab, [1, 2]))
    state = TestClient(app).get("/api/state").json()
    assert len(state["map"]["cities"]) == 30 and state["revision"] == 30
    saved = json.loads((tmp_path / "new-map.autosave.json").read_text())
    assert saved == state["map"]


def _space_problems(state: dict[str, Any]) -> list[str]:
    return [p["message"] for p in state["problems"] if ".spaces" in p["message"]]


def test_a_route_is_bent_and_its_car_spaces_follow(tmp_path: Path) -> None:
    c = client("europe", tmp_path)
    routes = c.get("/api/state").json()["map"]["routes"]
    double = next(
        i
        for i, r in enumerate(routes)
        if sum({s["a"], s["b"]} == {r["a"], r["b"]} for s in routes) == 2
    )
    twin = next(
        i
        for i, r in enumerate(routes)
        if i != double and {r["a"], r["b"]} == {routes[double]["a"], routes[double]["b"]}
    )
    state = edit(c, op="bend_route", index=double, bend=0.3)
    bent, other = state["map"]["routes"][double], state["map"]["routes"][twin]
    assert bent["bend"] == 0.3 and abs(other["bend"]) == 0.3
    assert len(bent["spaces"]) == bent["length"] and _space_problems(state) == []
    # The two tracks stay side by side: each space of one has the other's near it.
    apart = [
        min(((p[0] - q[0]) * 1744) ** 2 + ((p[1] - q[1]) * 1125) ** 2 for q in other["spaces"])
        ** 0.5
        for p in bent["spaces"]
    ]
    assert all(5 < d < 40 for d in apart), apart
    # A city moved: the bend holds relative to the ends, the spaces are laid again.
    city = bent["a"]
    x, y = next(k["position"] for k in state["map"]["cities"] if k["name"] == city)
    state = edit(c, op="move_city", name=city, x=x + 0.02, y=y + 0.02)
    moved = state["map"]["routes"][double]
    assert moved["bend"] == 0.3 and moved["spaces"] != bent["spaces"]
    assert _space_problems(state) == []
    state = c.post("/api/undo").json()
    assert state["map"]["routes"][double]["spaces"] == bent["spaces"]
    state = edit(c, op="bend_route", index=double, bend=0)
    assert "bend" not in state["map"]["routes"][double]
    assert _space_problems(state) == []
    # The map is Europe still: the bend and the spaces are drawing only.
    assert map_from_dict(state["map"]).digest == load_map("europe").digest


def test_car_spaces_are_laid_on_every_route_or_none(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    for n, (x, y) in enumerate([(0.1, 0.1), (0.5, 0.1), (0.5, 0.6)]):
        edit(c, op="add_city", name=f"C{n}", x=x, y=y)
    refused = c.post("/api/edit", json={"edit": {"op": "lay_spaces", "on": True}})
    assert refused.status_code == 422 and "no routes" in refused.json()["message"]
    edit(c, op="add_route", a="C0", b="C1", length=7)
    state = edit(c, op="lay_spaces", on=True)
    assert len(state["map"]["routes"][0]["spaces"]) == 7
    state = edit(c, op="add_route", a="C1", b="C2", length=8)
    assert len(state["map"]["routes"][1]["spaces"]) == 8 and _space_problems(state) == []
    state = edit(c, op="bend_route", index=1, bend=-0.25)
    assert _space_problems(state) == []
    assert map_from_dict(state["map"]).geometry is not None
    state = edit(c, op="lay_spaces", on=False)
    assert all("spaces" not in r for r in state["map"]["routes"])
    assert state["map"]["routes"][1]["bend"] == -0.25


def test_countries_and_tickets_to_them_are_made_and_changed(tmp_path: Path) -> None:
    c = client(None, tmp_path)
    for n, (x, y) in enumerate([(0.1, 0.5), (0.4, 0.5), (0.7, 0.3), (0.7, 0.7), (0.9, 0.5)]):
        edit(c, op="add_city", name=["Bern", "Zug", "Land 1", "Land 2", "Chur"][n], x=x, y=y)
    for a, b, length in [("Bern", "Zug", 2), ("Zug", "Land 1", 3), ("Zug", "Land 2", 1)]:
        edit(c, op="add_route", a=a, b=b, length=length)
    edit(c, op="add_route", a="Zug", b="Chur", length=4)
    state = edit(c, op="set_country", name="Land", places=["Land 1", "Land 2"])
    assert state["map"]["countries"] == [
        {"name": "Land", "end_points": ["Land 1", "Land 2"], "aliases": []}
    ]
    # A ticket to a country: the suggested value is the shortest path to its nearest border.
    state = edit(c, op="add_ticket", a="Bern", b="Land")
    assert state["map"]["tickets"][-1] == {
        "a": "Bern",
        "destinations": [{"to": "Land", "points": 3}],
        "penalty": 3,
        "long": False,
    }
    destinations = [{"to": "Land", "points": 5}, {"to": "Chur"}]
    state = edit(c, op="set_ticket", index=0, a="Bern", destinations=destinations)
    assert state["map"]["tickets"][0]["destinations"] == [
        {"to": "Land", "points": 5},
        {"to": "Chur", "points": 6},
    ]
    assert state["map"]["tickets"][0]["penalty"] == 5
    assert state["tickets"][0]["destinations"] == [
        {"to": "Land", "shortest": 3, "difference": 2},
        {"to": "Chur", "shortest": 6, "difference": 0},
    ]
    state = edit(c, op="update_ticket", index=0, points=9, long=True)
    assert {d["points"] for d in state["map"]["tickets"][0]["destinations"]} == {9}
    # Back to a ticket between two cities, then one from a country.
    state = edit(c, op="set_ticket", index=0, a="Chur", destinations=[{"to": "Bern", "points": 4}])
    assert state["map"]["tickets"][0] == {"a": "Chur", "b": "Bern", "points": 4, "long": False}
    state = edit(c, op="add_ticket", a="Land", b="Chur", points=2)
    assert state["map"]["tickets"][1]["a"] == "Land"
    # Renamed: the tickets follow; a border city renamed: the country follows.
    state = edit(c, op="set_country", name="Land", to="Austria", places=["Land 1", "Land 2"])
    assert state["map"]["tickets"][1]["a"] == "Austria"
    state = edit(c, op="rename_city", name="Land 2", to="Austria 2")
    assert state["map"]["countries"][0]["end_points"] == ["Land 1", "Austria 2"]
    problems = " ".join(p["message"] for p in state["problems"])
    assert "stations_per_player" in problems  # the loader's own rule for such tickets
    state = edit(c, op="delete_country", name="Austria")
    assert "countries" not in state["map"] and len(state["map"]["tickets"]) == 1


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"op": "set_country", "name": "Bern", "places": ["Zug"]}, "already a city named"),
        ({"op": "set_country", "name": "X", "places": ["Nowhere"]}, "no city named"),
        ({"op": "set_country", "name": "X", "places": ["Zug", "Zug"]}, "listed twice"),
        ({"op": "set_country", "name": "X", "places": []}, "a list of 1 to 50 city names"),
        ({"op": "set_country", "name": "X", "places": ["Zug"] * 51}, "1 to 50 city names"),
        ({"op": "set_country", "name": "X", "places": "Zug"}, "1 to 50 city names"),
        ({"op": "delete_country", "name": "X"}, "no country named"),
        ({"op": "set_country", "name": "X" * 61, "places": ["Zug"]}, "a country's name is 1 to 60"),
        ({"op": "add_ticket", "a": "Bern", "b": "Atlantis"}, "no city or country"),
        (
            {"op": "set_ticket", "index": 0, "a": "Bern", "destinations": [{"to": "Bern"}]},
            "not to Bern itself",
        ),
        (
            {"op": "set_ticket", "index": 0, "a": "Bern", "destinations": [{"to": "Zug"}] * 2},
            "listed twice",
        ),
        (
            {"op": "set_ticket", "index": 0, "a": "Bern", "destinations": []},
            "a list of 1 to 20",
        ),
        (
            {"op": "set_ticket", "index": 0, "a": "Bern", "destinations": [{"to": "Zug"}] * 21},
            "destinations",
        ),
        (
            {"op": "set_ticket", "index": 9, "a": "Bern", "destinations": [{"to": "Zug"}]},
            "no ticket number 9",
        ),
        (
            {"op": "set_ticket", "index": 0, "a": "Bern", "destinations": [{"to": 5}]},
            "to",
        ),
        ({"op": "bend_route", "index": 0, "bend": 0.9}, "0.5"),
        ({"op": "bend_route", "index": 0, "bend": "0.1"}, "bend"),
        ({"op": "bend_route", "index": 7, "bend": 0.1}, "no route number 7"),
        ({"op": "lay_spaces", "on": "yes"}, "on"),
    ],
)
def test_hostile_country_ticket_and_bend_edits_are_refused_in_words(
    tmp_path: Path, change: dict[str, Any], words: str
) -> None:
    c = client(None, tmp_path)
    edit(c, op="add_city", name="Bern", x=0.1, y=0.1)
    edit(c, op="add_city", name="Zug", x=0.3, y=0.1)
    edit(c, op="add_route", a="Bern", b="Zug", length=2)
    edit(c, op="add_ticket", a="Bern", b="Zug")
    before = c.get("/api/state").json()
    refused = c.post("/api/edit", json={"edit": change})
    assert refused.status_code == 422, refused.json()
    assert words in refused.json()["message"]
    assert c.get("/api/state").json()["revision"] == before["revision"]


def test_a_bend_that_is_not_a_finite_number_is_refused(tmp_path: Path) -> None:
    c = client("europe", tmp_path)
    for text in (b"NaN", b"Infinity", b"1e400"):
        body = b'{"edit": {"op": "bend_route", "index": 0, "bend": ' + text + b"}}"
        refused = c.post("/api/edit", content=body, headers={"Content-Type": "application/json"})
        assert refused.status_code == 422 and "bend" in refused.json()["message"]
    assert c.get("/api/state").json()["revision"] == 0


def test_the_background_is_moved_scaled_and_locked_beside_the_map_file(tmp_path: Path) -> None:
    import base64

    c = client("alps.json", tmp_path)
    refused = c.put("/api/background/place", json={"x": 0.1})
    assert refused.status_code == 422 and "no background" in refused.json()["message"]
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 20
    state = c.post("/api/background", json={"data": base64.b64encode(png).decode()}).json()
    assert state["background_place"] == {"x": 0.0, "y": 0.0, "scale": 1.0, "locked": False}
    state = c.put("/api/background/place", json={"x": -0.05, "y": 0.1, "scale": 1.2}).json()
    state = c.put("/api/background/place", json={"locked": True}).json()
    place = {"x": -0.05, "y": 0.1, "scale": 1.2, "locked": True}
    assert state["background_place"] == place and not state["unsaved"]
    assert json.loads((tmp_path / "alps.background.json").read_text()) == place
    # Saved and opened again: the placing holds, and the map file knows nothing of it.
    c.post("/api/save")
    again = client("alps.json", tmp_path).get("/api/state").json()
    assert again["background_place"] == place and "background" not in again["map"]
    for body, words in [
        ({"x": 2}, "x"),
        ({"scale": 0}, "scale"),
        ({"scale": 1e308}, "scale"),
        ({"locked": "yes"}, "locked"),
        ({"opacity": 1}, "opacity"),
        ([1, 2], "object"),
    ]:
        refused = c.put("/api/background/place", json=body)
        assert refused.status_code == 422 and words in refused.json()["message"], body
    for text in (b"NaN", b"-Infinity"):
        refused = c.put(
            "/api/background/place",
            content=b'{"x": ' + text + b"}",
            headers={"Content-Type": "application/json"},
        )
        assert refused.status_code == 422 and "x" in refused.json()["message"]
    # A hand-spoilt placing file reads as the default, and removing the image removes it.
    (tmp_path / "alps.background.json").write_text('{"x": "far", "scale": 99}')
    assert c.get("/api/state").json()["background_place"]["scale"] == 1.0
    c.delete("/api/background")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alps.json"]


@pytest.mark.parametrize(
    "name", ["europe", "usa", "nordic", "switzerland", "india", "legendary-asia"]
)
def test_every_route_of_a_printed_board_bent_keeps_its_spaces_valid(name: str) -> None:
    from ttr_rules.maps import map_problems
    from ttr_rules.web.editor import edits

    document = map_to_dict(load_map(name))
    assert all("spaces" in route for route in document["routes"])
    for index in range(len(document["routes"])):
        edits.bend_route(document, index, 0.4 if index % 2 else -0.4)
    assert [p for p in map_problems(document) if "spaces" in p] == []
