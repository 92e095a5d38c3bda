"""Plugin maps on the web server: a broken plugin is never offered and its errors show no
install path; a working one is served in the map-file format, so that a remote client without
the plugin loads the map and reads its views."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from map_samples import small_map_data, write_map
from web_helpers import running_server

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from ttr_rules.maps import clear_cache
from ttr_rules.web import create_app

#: The plugins' modules: ``ring`` works; ``shaky`` has a route of length 0; ``gone`` names a
#: file that is not there; ``nomod`` imports a module that does not exist.
_PLUGINS = {
    "ring": "ring_maps_plugin:load",
    "shaky": "shaky_maps_plugin:load",
    "gone": "gone_maps_plugin:load",
    "nomod": "nomod_maps_plugin:load",
}
_LOADER = "from pathlib import Path\ndef load():\n    return str(Path(__file__).with_name({!r}))\n"


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Installs the four plugins of one fake distribution into ``tmp_path`` (on sys.path)."""
    site = tmp_path / "site-packages"
    info = site / "fake_maps-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-maps\nVersion: 1.0\n")
    lines = "".join(f"{name} = {value}\n" for name, value in _PLUGINS.items())
    (info / "entry_points.txt").write_text(f"[ttr_rules.maps]\n{lines}")
    write_map(site / "ring.json", small_map_data("ring"))
    shaky = small_map_data("shaky")
    shaky["routes"][0]["length"] = 0
    write_map(site / "shaky.json", shaky)
    (site / "ring_maps_plugin.py").write_text(_LOADER.format("ring.json"))
    (site / "shaky_maps_plugin.py").write_text(_LOADER.format("shaky.json"))
    (site / "gone_maps_plugin.py").write_text(
        "def load():\n    return open(__file__ + '.missing.json').read()\n"
    )
    (site / "nomod_maps_plugin.py").write_text("import no_such_module_xyz\n")
    monkeypatch.syspath_prepend(str(site))
    clear_cache()
    yield site
    for name in _PLUGINS.values():
        sys.modules.pop(name.partition(":")[0], None)
    clear_cache()


def test_broken_plugins_are_never_offered_and_show_no_path(plugins: Path) -> None:
    with TestClient(create_app(agent_workers=0), raise_server_exceptions=False) as client:
        offered = client.get("/api/maps").json()
        assert "ring" in offered
        assert not {"shaky", "gone", "nomod"} & set(offered)
        for name in ("shaky", "gone", "nomod"):
            created = client.post("/api/games", json={"map": name, "players": 2})
            assert created.status_code == 422, created.text
            assert created.json()["error"] == "invalid_game"
            assert client.get(f"/api/maps/{name}").status_code == 404
        for body in (created.text, client.get("/api/maps/shaky").text):
            assert str(plugins) not in body and str(plugins.parent) not in body
        assert client.post("/api/games", json={"map": "ring", "players": 2}).status_code == 201


_CLIENT = """
import importlib.util, json, sys
import httpx
from ttr_rules import PlayerView, from_json, available_maps, format_action
from ttr_rules.frontend import group_actions
from ttr_rules.maps import parse_map_text

assert "ring" not in available_maps() and importlib.util.find_spec("ring_maps_plugin") is None
http = httpx.Client(base_url=sys.argv[1])
served = http.get("/api/maps/ring")
ring = parse_map_text(served.text, "GET /api/maps/ring")
assert served.headers["etag"] == f'"{ring.digest}"'
game = http.post("/api/games", json={"map": "ring", "players": 2, "seed": 4}).json()
tokens = {s["seat"]: {"Authorization": "Bearer " + s["token"]} for s in game["seats"]}
url = "/api/games/" + game["id"]
view = from_json(http.get(url, headers=tokens[0]).text, PlayerView, map=ring)
for _ in range(6):
    seat = view.current
    mine = from_json(http.get(url, headers=tokens[seat]).text, PlayerView, map=ring)
    choice = group_actions(mine)[0].targets[0].choices[0]
    reply = http.post(url + "/actions", headers=tokens[seat], json={"action": choice.notation})
    assert reply.status_code == 200, reply.text
    view = from_json(reply.text, PlayerView, map=ring)
print(json.dumps({"map": view.map.name, "digest": view.map.digest == ring.digest,
                  "turn": view.turn, "cities": len(ring.cities)}))
"""


def test_a_remote_client_without_the_plugin_reads_a_plugin_map(plugins: Path) -> None:
    with running_server(create_app(agent_workers=0)) as base:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        run = subprocess.run(
            [sys.executable, "-c", _CLIENT, base],
            cwd=plugins.parent,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr
    played = json.loads(run.stdout.strip().splitlines()[-1])
    assert played == {"map": "ring", "digest": True, "turn": played["turn"], "cities": 4}
