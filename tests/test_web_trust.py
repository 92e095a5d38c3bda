"""Issue 29's reproducers against the web server: a hostile second seat, records that prove
their end, 4xx instead of 500, nothing acknowledged lost, bounded creation, idle games, the
``Host`` header. Each failed before its fix."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ttr_rules import (
    Action,
    BuildStation,
    GameRecord,
    format_action,
    from_json,
    legal_actions,
    observe,
    parse_action,
    replay,
)
from ttr_rules.records import state_digest
from ttr_rules.web import create_app
from ttr_rules.web.games import DataDirError, Game, GameStore

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _client(*args: Any, **options: Any) -> TestClient:
    options.setdefault("agent_workers", 0)
    return TestClient(create_app(*args, **options), raise_server_exceptions=False)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with _client() as c:
        yield c


def _store(client: TestClient) -> GameStore:
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    return store


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    response = client.post("/api/games", json={"players": 2, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], {s["seat"]: s["token"] for s in data["seats"]}


def _act(client: TestClient, game_id: str, token: str, text: str) -> Any:
    return client.post(f"/api/games/{game_id}/actions", headers=_auth(token), json={"action": text})


def _keep_all(client: TestClient, game_id: str, tokens: dict[int, str]) -> Game:
    """Both seats keep their first tickets; seat 0 is then to play."""
    game = _store(client).get(game_id)
    for seat in (0, 1):
        offered = game.state.players[seat].offered
        kept = _act(client, game_id, tokens[seat], "tickets keep " + ",".join(map(str, offered)))
        assert kept.status_code == 200, kept.text
    return game


def _idle(client: TestClient) -> None:
    assert client.portal is not None
    client.portal.call(_store(client).idle)


# --------------------------------------------------------------------------- R1 secrecy


def _stations_in_wien(game: Game) -> list[Action]:
    return [
        a for a in legal_actions(game.state) if isinstance(a, BuildStation) and a.city == "Wien"
    ]


def test_a_seat_not_to_act_is_refused_before_its_text_is_read(client: TestClient) -> None:
    for seed in range(40):
        game_id, tokens = _create(client, seed=seed)
        game = _keep_all(client, game_id, tokens)
        if game.state.current == 0 and len(_stations_in_wien(game)) >= 2:
            break
    else:
        pytest.fail("no deal lets seat 0 build in Wien in two ways")
    hand = game.state.players[0].hand
    for text in ("station Wien", "claim #57", "claim Madrid-Pamplona", "fly away"):
        answer = _act(client, game_id, tokens[1], text)
        assert answer.status_code == 409, text
        body = answer.json()
        assert body["error"] == "illegal_action" and body["reason"] == "not your turn"
        assert "ambiguous" not in body["message"] and "action" not in body
    assert game.state.players[0].hand == hand and game.seq == 2
    # the seat to act gets its own options
    own = _act(client, game_id, tokens[0], "station Wien")
    assert own.status_code == 400 and own.json()["error"] == "ambiguous_action"


def test_a_text_is_read_with_the_posters_view(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=3)
    game = _keep_all(client, game_id, tokens)
    seat = game.state.current
    for action in legal_actions(game.state)[:60]:
        text = format_action(action, game.state.map)
        assert parse_action(text, observe(game.state, seat)) == parse_action(text, game.state)


def test_agent_errors_never_carry_a_hand(client: TestClient) -> None:
    game_id, tokens = _create(client, agents={"1": "random"}, seed=5)
    game = _store(client).get(game_id)

    class Leaky:
        def act(self, view: Any) -> Action:
            raise ValueError(f"cannot decide with {view.seats[1].hand!r} and {view!r}")

    game.set_agent(1, Leaky())
    offered = game.state.players[0].offered
    _act(client, game_id, tokens[0], "tickets keep " + ",".join(map(str, offered)))
    _idle(client)
    error = game.agent_error
    assert error == "agent 'random' of seat 1 failed (ValueError); the game waits"
    info = client.get(f"/api/games/{game_id}/info").json()
    assert info["agent_error"] == error


# --------------------------------------------------------------------------- R2 records


def _finished_game(client: TestClient) -> tuple[str, Game]:
    game_id, _ = _create(client, agents={"0": "random", "1": "random"}, seed=8)
    _idle(client)
    game = _store(client).get(game_id)
    assert game.over
    return game_id, game


def test_the_record_of_a_finished_game_proves_its_end(tmp_path: Path) -> None:
    with _client(str(tmp_path)) as client:
        game_id, game = _finished_game(client)
        served = from_json(client.get(f"/api/games/{game_id}/record").text, GameRecord)
    saved = from_json((tmp_path / f"{game_id}.record.json").read_text(), GameRecord)
    for record in (served, saved):
        assert record.final_digest == state_digest(game.state)
        assert record.scores is not None and len(record.scores) == 2
        assert replay(record) == game.state


# --------------------------------------------------------------------------- R3 4xx, not 500


def test_a_seat_key_that_only_looks_like_a_digit_is_422(client: TestClient) -> None:
    for key in ("²", "٣", "1²"):
        answer = client.post("/api/games", json={"agents": {key: "random"}})
        assert answer.status_code == 422 and answer.json()["error"] == "invalid_request", key


@pytest.mark.parametrize("last", ["9" * 5000, "²", "１", "-1", "abc"])
def test_an_odd_last_event_id_is_ignored(client: TestClient, last: str) -> None:
    game_id, _ = _create(client, seed=1)
    headers = {"Last-Event-ID": last.encode("utf-8")}
    with client.stream("GET", f"/api/games/{game_id}/stream", headers=headers) as answer:
        assert answer.status_code == 200
        first = next(line for line in answer.iter_lines() if line.startswith("data:"))
    assert json.loads(first.removeprefix("data:"))["seq"] == 0


def test_a_body_that_is_not_utf8_is_malformed_json(client: TestClient) -> None:
    for body in (b'{"players": 2, "map": "\xff"}', b"\xfe\xff"):
        answer = client.post(
            "/api/games", content=body, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 400 and answer.json()["error"] == "malformed_json"


def _ttr(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from ttr_rules.cli import main; sys.exit(main())",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "99999"], "--port must be 0-65535, got 99999"),
        (["--port", "-1"], "--port must be 0-65535, got -1"),
        (["--agent-delay", "nan"], "--agent-delay must be a non-negative number, got nan"),
        (["--idle-timeout", "-5"], "--idle-timeout must be a non-negative number, got -5.0"),
        (["--agent-workers", "-1"], "--agent-workers must be 0-64, got -1"),
        (["--max-games", "0"], "--max-games must be at least 1, got 0"),
        (["--move-seconds", "0"], "--move-seconds must be more than 0"),
        (["--data", "/dev/null/games"], "cannot create the data directory '/dev/null/games'"),
    ],
)
def test_ttr_serve_refuses_bad_options_in_one_line(args: list[str], said: str) -> None:
    done = _ttr("serve", *args)
    assert done.returncode == 2 and done.stderr.startswith(f"ttr: error: {said}")
    assert done.stderr.count("\n") == 1 and not done.stdout


@pytest.mark.parametrize("host", ["no.such.host.invalid", "999.1.1.1", "bad\nhost"])
def test_ttr_serve_on_an_unknown_host_says_so_in_one_line(host: str) -> None:
    done = _ttr("serve", "--host", host, "--port", "0")
    assert done.returncode == 1 and done.stderr.startswith("ttr: error: cannot listen on ")
    assert done.stderr.count("\n") == 1 and not done.stdout


def test_ttr_serve_on_a_busy_port_says_so_in_one_line() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        done = _ttr("serve", "--port", str(busy.getsockname()[1]))
    assert done.returncode == 1 and done.stderr.startswith("ttr: error: cannot listen on ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


# --------------------------------------------------------------------------- R4 durability


def test_data_naming_a_file_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text("mine\n")
    with pytest.raises(DataDirError, match="is not a directory"):
        create_app(str(path))
    done = _ttr("serve", "--data", str(path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "is not a directory" in done.stderr and path.read_text() == "mine\n"


def test_a_second_server_on_a_data_folder_in_use_refuses_to_start(tmp_path: Path) -> None:
    """Issue 44 T3: one owner per data folder; the lock goes with the server (at its stop, or
    with its process however it ends), and nothing it acknowledged is lost."""
    with _client(str(tmp_path)) as first:
        game_id, tokens = _create(first, seed=4)
        offered = _store(first).get(game_id).state.players[0].offered
        kept = _act(first, game_id, tokens[0], "tickets keep " + ",".join(map(str, offered)))
        assert kept.status_code == 200
        with pytest.raises(DataDirError, match="is in use by another server"):
            create_app(str(tmp_path))
        done = _ttr("serve", "--data", str(tmp_path), "--port", "0")
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "is in use by another server" in done.stderr and not done.stdout
        state = _store(first).get(game_id).state
    with _client(str(tmp_path)) as second:  # released at the stop
        assert _store(second).get(game_id).state == state


def test_a_crashed_server_leaves_no_stale_lock(tmp_path: Path) -> None:
    crash = (
        "import os, sys\n"
        "from ttr_rules.web import create_app\n"
        "create_app(sys.argv[1])\n"
        "os._exit(9)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", crash, str(tmp_path)], capture_output=True, timeout=120
    )
    assert done.returncode == 9, done.stderr
    with _client(str(tmp_path)) as client:
        assert client.get("/api/games").json() == []


def test_an_action_that_cannot_be_saved_is_not_applied(tmp_path: Path) -> None:
    with _client(str(tmp_path)) as client:
        game_id, tokens = _create(client, seed=4)
        game = _store(client).get(game_id)
        record = tmp_path / f"{game_id}.record.json"
        before, saved = game.state, record.read_text()
        record.unlink()
        record.mkdir()  # a directory in the way
        text = "tickets keep " + ",".join(map(str, before.players[0].offered))
        refused = _act(client, game_id, tokens[0], text)
        assert refused.status_code == 503 and refused.json()["error"] == "save_failed"
        assert game.state is before and game.seq == 0
        record.rmdir()
        record.write_text(saved)
        assert _act(client, game_id, tokens[0], text).status_code == 200  # the retry works
        state = game.state
    with _client(str(tmp_path)) as again:
        assert _store(again).get(game_id).state == state  # nothing acknowledged is lost


def test_a_full_disk_refuses_and_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _client(str(tmp_path)) as client:
        game_id, tokens = _create(client, seed=4)
        game = _store(client).get(game_id)
        saved = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())

        def full(_: int) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        offered = game.state.players[0].offered
        monkeypatch.setattr("ttr_rules.web.games.os.fsync", full)
        refused = _act(client, game_id, tokens[0], "tickets keep " + ",".join(map(str, offered)))
        created = client.post("/api/games", json={})
        monkeypatch.undo()
        assert refused.status_code == 503 and refused.json()["error"] == "save_failed"
        assert "No space left on device" in refused.json()["message"] and game.seq == 0
        assert created.status_code == 503 and created.json()["error"] == "save_failed"
        assert len(_store(client).games) == 1
        assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == saved


def test_saves_are_owner_only_and_never_follow_a_symlink(tmp_path: Path) -> None:
    data = tmp_path / "data"
    outside = tmp_path / "precious.txt"
    outside.write_text("mine\n")
    with _client(str(data)) as client:
        game_id, tokens = _create(client, seed=4)
        record = data / f"{game_id}.record.json"
        record.unlink()
        record.symlink_to(outside)
        offered = _store(client).get(game_id).state.players[0].offered
        kept = _act(client, game_id, tokens[0], "tickets keep " + ",".join(map(str, offered)))
        assert kept.status_code == 200
    assert outside.read_text() == "mine\n" and not record.is_symlink()
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    for path in data.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    assert sorted(p.name for p in data.iterdir()) == [
        f"{game_id}.record.json",
        f"{game_id}.seats.json",
    ]


def test_an_agent_whose_move_cannot_be_saved_says_so_and_tries_again(tmp_path: Path) -> None:
    with _client(str(tmp_path), agent_delay=0.5) as client:
        game_id, tokens = _create(client, agents={"1": "random"}, seed=5)
        game = _store(client).get(game_id)
        record = tmp_path / f"{game_id}.record.json"
        offered = game.state.players[0].offered
        text = "tickets keep " + ",".join(map(str, offered))
        assert _act(client, game_id, tokens[0], text).status_code == 200
        saved = record.read_text()
        record.unlink()
        record.mkdir()  # seat 1's agent cannot save its move now
        deadline = time.monotonic() + 30
        while game.agent_error is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert game.agent_error is not None and "cannot save" in game.agent_error
        assert game.seq == 1 and game.state.current == 1
        record.rmdir()
        record.write_text(saved)
        while game.seq == 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert game.seq == 2 and game.agent_error is None


# --------------------------------------------------------------------------- R5 and the rest


def test_game_creation_is_limited_per_client() -> None:
    with _client(games_per_minute=60, games_burst=3) as client:
        for _ in range(3):
            assert client.post("/api/games", json={}).status_code == 201
        limited = client.post("/api/games", json={})
    assert limited.status_code == 429 and limited.json()["error"] == "too_many_games"
    assert limited.headers["Retry-After"] == "1"


def test_agents_think_in_worker_processes() -> None:
    with TestClient(create_app(agent_workers=1)) as client:
        game_id, _ = _create(client, agents={"0": "random", "1": "random"}, seed=2)
        _idle(client)
        game = _store(client).get(game_id)
        assert game.over
        pool = _store(client)._pool
        assert pool is not None


def test_an_agent_out_of_time_plays_a_random_legal_move() -> None:
    with _client(move_seconds=0.2) as client:
        game_id, tokens = _create(client, agents={"1": "random"}, seed=5)
        game = _store(client).get(game_id)

        class Slow:
            def act(self, view: Any) -> Action:
                time.sleep(1.0)
                raise AssertionError("too late to matter")

        game.set_agent(1, Slow())
        offered = game.state.players[0].offered
        _act(client, game_id, tokens[0], "tickets keep " + ",".join(map(str, offered)))
        _idle(client)
        assert game.seq == 2 and game.agent_error is None


class _Sleeper:
    """An agent that writes its process id to ``pid_file``, then thinks for a minute."""

    def __init__(self, pid_file: Path) -> None:
        self.pid_file = pid_file

    def act(self, view: Any) -> Action:
        self.pid_file.write_text(str(os.getpid()))
        time.sleep(60)
        raise AssertionError("too late to matter")


def _ended(pid: int, within: float) -> bool:
    """Whether process ``pid`` is gone, waiting up to ``within`` seconds for it."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_worker_past_its_move_budget_is_killed_and_replaced(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    with _client(agent_workers=1, move_seconds=1.0) as client:
        game_id, tokens = _create(client, agents={"1": "random"}, seed=5)
        game = _store(client).get(game_id)
        game.set_agent(1, _Sleeper(pid_file))
        offered = game.state.players[0].offered
        _act(client, game_id, tokens[0], "tickets keep " + ",".join(map(str, offered)))
        _idle(client)
        assert game.seq == 2 and game.agent_error is None  # a random move was played for it
        assert _ended(int(pid_file.read_text()), within=20)
        # the one worker thinks for the next game at once, not after the sleeper's minute
        other, _ = _create(client, agents={"0": "random", "1": "random"}, seed=2)
        _idle(client)
        assert _store(client).get(other).over


def test_idle_games_expire_and_only_live_games_count() -> None:
    with _client(max_games=2, idle_seconds=3600) as client:
        first, _ = _create(client, seed=1)
        _create(client, seed=2)
        full = client.post("/api/games", json={})
        assert full.status_code == 503 and full.json()["error"] == "server_full"
        store = _store(client)
        store.get(first).touched -= 7200  # nobody touched it for two hours
        assert client.post("/api/games", json={}).status_code == 201
        assert client.get(f"/api/games/{first}").status_code == 404


def test_finished_games_do_not_count_against_max_games() -> None:
    with _client(max_games=1) as client:
        _finished_game(client)
        assert client.post("/api/games", json={}).status_code == 201


def test_expired_games_lose_their_files(tmp_path: Path) -> None:
    with _client(str(tmp_path), idle_seconds=60) as client:
        game_id, _ = _create(client, seed=1)
        store = _store(client)
        assert store.expire(now=time.monotonic() + 120) == [game_id]
    assert list(tmp_path.iterdir()) == []


def test_the_stream_of_an_expired_game_ends_with_a_last_event() -> None:
    """Issue 44 T4: a game dropped by the idle timeout ends its streams with a ``closed``
    event, and the server lets the stream go (it used to wait for the game for ever)."""
    import httpx
    from web_helpers import running_server

    app = create_app(agent_workers=0, idle_seconds=0.5)
    with running_server(app) as base, httpx.Client(base_url=base, timeout=8.0) as http:
        game = http.post("/api/games", json={"players": 2, "seed": 1}).json()
        store: GameStore = app.state.store
        events = []
        with http.stream("GET", f"/api/games/{game['id']}/stream") as stream:
            kind = ""
            for line in stream.iter_lines():
                if line.startswith("event:"):
                    kind = line.partition(":")[2].strip()
                elif line.startswith("data:"):
                    events.append((kind, json.loads(line.partition(":")[2])))
        assert [kind for kind, _ in events] == ["update", "closed"]
        assert events[1][1] == {
            "seq": 0,
            "reason": "nobody played for 0.5 seconds: the game expired",
        }
        assert game["id"] not in store.games
        assert http.get(f"/api/games/{game['id']}/stream").status_code == 404


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil", ""])
def test_a_foreign_host_header_is_refused(client: TestClient, host: str) -> None:
    answer = client.get("/api/maps", headers={"Host": host})
    assert answer.status_code == 400 and answer.json()["error"] == "unknown_host"


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:9", "[::1]:80"])
def test_local_host_headers_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/maps", headers={"Host": host}).status_code == 200


def test_allowed_hosts_can_be_added() -> None:
    with _client(allowed_hosts=("ttr.example",)) as client:
        assert client.get("/api/maps", headers={"Host": "ttr.example"}).status_code == 200
        assert client.get("/api/maps", headers={"Host": "evil.example"}).status_code == 400
