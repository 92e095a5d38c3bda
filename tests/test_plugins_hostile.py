"""A hostile sweep of the plugins (issue 44 T2, T5): map and agent plugins that raise, return
garbage, call ``sys.exit()``, load slowly, cannot be built or fail in a game. Each is a broken
plugin, listed as such by ``ttr maps`` and ``/api/maps``; none takes a command or the server
down, and every failure names the plugin.

The plugins are the fake distribution of ``hostile_plugins.py``, one group per plugin kind;
:func:`test_the_sweep_covers_every_plugin_kind` fails when the library reads an entry-point
group that it does not hold, so a new plugin kind cannot be added unswept."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hostile_plugins import GROUPS, MAPS, install, module_names

from ttr_rules.cli import main
from ttr_rules.errors import AgentError
from ttr_rules.maps import broken_maps, clear_cache, load_map, playable_maps, registry
from ttr_rules.sim import GameSpec, play_spec

_SRC = Path(__file__).resolve().parent.parent / "src" / "ttr_rules"
_BROKEN_MAPS = set(MAPS) - {"calm"}
_UNBUILDABLE = {"unbuildable", "exit-on-build", "noimport", "slowbuild"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The hostile plugins installed (on ``sys.path``), with a plugin's load bounded to three
    seconds (the slow one waits for two minutes; the others load in milliseconds, even on a
    busy machine); every plugin is loaded once per module."""
    folder = install(tmp_path_factory.mktemp("hostile") / "site-packages")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(folder))
        patch.setattr(registry, "LOAD_SECONDS", 3.0)
        clear_cache()
        try:
            yield folder
        finally:
            for slow in ("hostile_slow_map", "hostile_slow_agent"):
                if slow in sys.modules:
                    sys.modules[slow].release.set()  # the thread left behind ends
            for name in module_names():
                sys.modules.pop(name, None)
            clear_cache()


def _entry_point_groups() -> set[str]:
    """The entry-point groups the library reads plugins from."""
    pattern = re.compile(r'(?:ENTRY_POINT_GROUP\s*=\s*|entry_points\(group=)"([^"]+)"')
    found = set()
    for path in _SRC.rglob("*.py"):
        found.update(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_the_sweep_covers_every_plugin_kind() -> None:
    groups = _entry_point_groups()
    assert {"ttr_rules.maps", "ttr_rules.agents"} <= groups
    assert groups == set(GROUPS), f"plugin kinds without hostile plugins: {groups - set(GROUPS)}"


# --------------------------------------------------------------------------- map plugins


def test_every_hostile_map_plugin_is_broken_and_named(site: Path) -> None:
    began = time.monotonic()
    broken = {b.name: b for b in broken_maps()}
    assert set(broken) >= _BROKEN_MAPS
    assert "calm" in playable_maps() and not _BROKEN_MAPS & set(playable_maps())
    for name in _BROKEN_MAPS:
        reason = broken[name].reason
        assert "\n" not in reason and len(reason) < 600, reason
        assert str(site) not in reason and broken[name].distribution == "hostile-plugins"
    assert "did not load within 3 seconds" in broken["slow"].reason
    assert "SystemExit: 3" in broken["exiting"].reason
    assert "KeyboardInterrupt" in broken["interrupt"].reason
    assert (
        "is not a GameMap" in broken["garbage"].reason or "gave object" in broken["garbage"].reason
    )
    assert time.monotonic() - began < 60  # the slow plugin is waited for once, not for ever


def test_a_broken_map_plugin_raises_a_map_load_error_every_time(site: Path) -> None:
    for name in sorted(_BROKEN_MAPS):
        for _ in range(2):
            with pytest.raises(Exception) as info:
                load_map(name)
            assert type(info.value).__name__ == "MapLoadError", (name, info.value)
            assert f"map plugin {name!r}" in str(info.value)


def test_ttr_maps_lists_the_broken_plugins(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps"]) == 1
    out = capsys.readouterr().out
    listed, _, broken = out.partition("broken map plugin")
    assert "calm" in listed
    assert "\x1b" not in out  # a plugin's name is shown escaped, never sent to the terminal
    for name in _BROKEN_MAPS:
        shown = name.replace("\x1b", "\\x1b")
        assert re.search(rf"^{re.escape(shown)}\s+hostile-plugins\s", broken, re.M), name
    assert main(["maps", "--json"]) == 1
    captured = capsys.readouterr()
    assert "calm" in {m["name"] for m in json.loads(captured.out)}
    assert len(captured.err.splitlines()) >= len(_BROKEN_MAPS)


def test_the_web_server_lists_maps_and_agents_without_the_broken_ones(site: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from ttr_rules.web import create_app

    with TestClient(create_app(agent_workers=0), raise_server_exceptions=False) as client:
        maps = client.get("/api/maps")
        assert maps.status_code == 200 and "calm" in maps.json()
        assert not _BROKEN_MAPS & set(maps.json())
        agents = client.get("/api/agents").json()
        assert not _UNBUILDABLE & set(agents)
        assert {"crashing", "illegal", "exiting"} <= set(agents)
        for name in sorted(_BROKEN_MAPS):
            assert client.get(f"/api/maps/{quote(name)}").status_code == 404
            made = client.post("/api/games", json={"map": name, "players": 2})
            assert made.status_code == 422 and made.json()["error"] == "invalid_game", made.text
        for name in sorted(_UNBUILDABLE):
            made = client.post("/api/games", json={"players": 2, "agents": {"1": name}})
            assert made.status_code == 422 and made.json()["error"] == "invalid_game", made.text
            assert name in made.json()["message"]
        made = client.post("/api/games", json={"map": "calm", "players": 2})
        assert made.status_code == 201


# --------------------------------------------------------------------------- agent plugins


@pytest.mark.parametrize("agent", ["crashing", "illegal", "exiting", "unpicklable"])
def test_an_agent_failing_in_a_game_is_named_with_its_seat(site: Path, agent: str) -> None:
    with pytest.raises(AgentError) as info:
        play_spec(GameSpec(seed=4, players=2, agents=["random", agent]))
    error = info.value
    assert (error.agent, error.seat, error.seed) == (agent, 1, 4)
    assert str(error).startswith(f"agent {agent!r} in seat 1 failed in the game seeded 4: ")


@pytest.mark.parametrize("agent", sorted(_UNBUILDABLE - {"slowbuild"}))
def test_ttr_tournament_names_an_agent_that_cannot_be_built(
    site: Path, agent: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--agents", f"random,{agent}", "--games", "1", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ttr: error: ") and agent in err, err


def _ttr(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    return subprocess.run(
        [sys.executable, "-m", "ttr_rules", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("command", "agent"),
    [("simulate", "unpicklable"), ("tournament", "exiting")],
)
def test_an_agent_failing_in_a_worker_ends_the_run_with_one_line(
    site: Path, command: str, agent: str
) -> None:
    agents = f"random,{agent}" if command == "simulate" else f"greedy,{agent}"
    games = ["--games", "3"] if command == "simulate" else ["--games", "1"]
    run = _ttr(
        site, command, "--players", "2", "--agents", agents, *games, "--workers", "2", "--quiet"
    )
    assert run.returncode == 1, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    assert re.match(
        rf"ttr: error: agent '{agent}' in seat 1 failed in the game seeded \d+: ", lines[0]
    )


def test_an_agent_that_ends_its_worker_process_ends_the_run_with_one_line(site: Path) -> None:
    """``os._exit`` in a worker: the pool would wait for ever for its games."""
    run = _ttr(site, "simulate", "--players", "2", "--agents", "aborting,random", "--games", "2",
               "--workers", "2", "--quiet")  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith("ttr: error: a worker process exited with status 1 while ")
    assert "(agents: aborting, random)" in run.stderr


def test_a_failing_agent_stops_only_its_own_game_on_ttr_serve(tmp_path: Path) -> None:
    """``ttr serve`` with its agents in one worker process: agents that raise, exit, answer
    what does not pickle or end the worker each stop their own game with a short
    ``agent_error``; a game of two agents beside them plays on."""
    import httpx

    site = install(tmp_path / "site-packages", slow=False)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    server = subprocess.Popen(
        [sys.executable, "-m", "ttr_rules", "serve", "--port", "0", "--agent-delay", "0",
         "--agent-workers", "1"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        base = server.stdout.readline().split()[2].rstrip("/")
        http = httpx.Client(base_url=base, timeout=60)
        failing = {}
        for agent in ("crashing", "exiting", "unpicklable", "aborting", "illegal"):
            made = http.post("/api/games", json={"players": 2, "agents": {"0": agent}})
            assert made.status_code == 201, made.text
            failing[agent] = made.json()["id"]
        both = {"0": "random", "1": "random"}
        other = http.post("/api/games", json={"players": 2, "agents": both}).json()["id"]
        deadline = time.monotonic() + 120
        while http.get(f"/api/games/{other}/info").json()["seq"] < 40:
            assert time.monotonic() < deadline, "the other game stalled"
            time.sleep(0.2)
        for agent, game_id in failing.items():
            info = http.get(f"/api/games/{game_id}/info").json()
            while info["agent_error"] is None and time.monotonic() < deadline:
                time.sleep(0.2)
                info = http.get(f"/api/games/{game_id}/info").json()
            assert info["seq"] == 0 and not info["over"]
            assert re.fullmatch(
                rf"agent '{agent}' of seat 0 failed \(\w+\); the game waits", info["agent_error"]
            ), info["agent_error"]
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_the_server_finds_its_plugins_at_start_off_its_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The offer (every plugin imported) is made once, when the app starts, in a thread where
    no event loop runs; requests then read it."""
    pytest.importorskip("fastapi")
    import asyncio

    from fastapi.testclient import TestClient

    from ttr_rules.web import create_app, games

    calls: list[bool] = []
    real = games.find_offer

    def recording() -> games.Offer:
        try:
            asyncio.get_running_loop()
            calls.append(True)  # on an event loop
        except RuntimeError:
            calls.append(False)
        return real()

    monkeypatch.setattr(games, "find_offer", recording)
    with TestClient(create_app(agent_workers=0), raise_server_exceptions=False) as client:
        assert calls == [False]
        assert client.get("/api/maps").status_code == 200
        assert client.post("/api/games", json={"players": 2}).status_code == 201
        assert client.get("/api/agents").status_code == 200
    assert calls == [False]
