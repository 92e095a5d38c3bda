"""The web API (the "Web" part of the public contract): seats, secrecy, validation, errors,
persistence, and a whole game through the API equal to the same game through the library."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ttr_rules import (
    CardDrawn,
    GameRecord,
    GameState,
    PlayerView,
    apply_action,
    final_scores,
    from_json,
    legal_actions,
    load_map,
    new_game,
    observe,
    parse_action,
    public_view,
    replay,
    to_json,
)
from ttr_rules.agents import make_agent
from ttr_rules.maps import map_from_dict
from ttr_rules.web import create_app
from ttr_rules.web.games import Game, GameStore
from ttr_rules.web.secrecy import seat_event


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def _store(client: TestClient) -> GameStore:
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    return store


def _game(client: TestClient, game_id: str) -> Game:
    return _store(client).get(game_id)


def _idle(client: TestClient) -> None:
    """Wait until the server's agents have made their moves."""
    assert client.portal is not None
    client.portal.call(_store(client).idle)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    response = client.post("/api/games", json={"map": "europe", "players": 2, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], {s["seat"]: s["token"] for s in data["seats"]}


def _act(client: TestClient, game_id: str, token: str, text: str) -> Any:
    return client.post(f"/api/games/{game_id}/actions", headers=_auth(token), json={"action": text})


# --------------------------------------------------------------------------- creating, viewing


def test_create_gives_a_token_per_human_seat(client: TestClient) -> None:
    game_id, tokens = _create(client, players=3, agents={"1": "greedy"}, seed=7)
    assert sorted(tokens) == [0, 2]
    assert len(set(tokens.values())) == 2 and all(len(t) >= 40 for t in tokens.values())
    info = client.get(f"/api/games/{game_id}/info").json()
    assert [s["agent"] for s in info["seats"]] == [None, "greedy", None]
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [game_id]
    assert "seed" not in json.dumps(listed) and tokens[0] not in json.dumps(listed)
    assert _game(client, game_id).state == new_game("europe", 3, 7)


def test_each_seat_sees_its_own_view(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=3)
    state = _game(client, game_id).state
    for seat, token in tokens.items():
        response = client.get(f"/api/games/{game_id}", headers=_auth(token))
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/json")
        assert response.text == to_json(observe(state, seat))
        view = from_json(response.text, PlayerView)
        assert view == observe(state, seat)
        assert view.seats[seat].hand is not None and view.seats[seat].offered is not None
        assert view.seats[1 - seat].hand is None and view.seats[1 - seat].offered is None


def test_spectator_sees_no_hands_or_tickets(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=3)
    game = _game(client, game_id)
    # keep every initial ticket for both seats so that kept tickets exist
    for seat in (0, 1):
        offered = game.state.players[seat].offered
        assert (
            _act(
                client, game_id, tokens[seat], "tickets keep " + ",".join(map(str, offered))
            ).status_code
            == 200
        )
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200
    view = from_json(response.text, PlayerView)
    assert view == public_view(game.state) and view.player is None
    for seen in view.seats:
        assert seen.hand is None and seen.tickets is None and seen.offered is None
        assert seen.ticket_count == 4
    data = json.loads(response.text)
    assert all(s["hand"] is None and s["tickets"] is None for s in data["seats"])
    assert client.get(f"/api/games/{game_id}/legal").status_code == 401
    assert client.get(f"/api/games/{game_id}/tickets").status_code == 401


# --------------------------------------------------------------------------- acting


def test_legal_action_gives_the_new_view(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=11)
    game = _game(client, game_id)
    before = game.state
    legal = client.get(f"/api/games/{game_id}/legal", headers=_auth(tokens[0])).json()
    assert [item["action"] for item in legal] == [
        str(a) for a in legal_actions(before)
    ]  # keep-ticket notation is the same either way
    assert all(item["label"] and item["type"] == "keep_tickets" for item in legal)
    assert client.get(f"/api/games/{game_id}/legal", headers=_auth(tokens[1])).json() == []
    response = _act(client, game_id, tokens[0], legal[0]["action"])
    assert response.status_code == 200
    expected = apply_action(before, parse_action(legal[0]["action"], before))
    assert game.state == expected
    assert response.text == to_json(observe(expected, 0))


def test_illegal_actions_are_refused_with_their_reason(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=11)
    game = _game(client, game_id)
    before = game.state
    not_yours = _act(
        client, game_id, tokens[1], "tickets keep " + ",".join(map(str, before.players[1].offered))
    )
    assert not_yours.status_code == 409
    assert not_yours.json()["error"] == "illegal_action"
    assert not_yours.json()["reason"] == "not your turn"
    wrong_phase = _act(client, game_id, tokens[0], "draw blind")
    assert wrong_phase.status_code == 409 and wrong_phase.json()["reason"] == "wrong phase"
    too_few = _act(client, game_id, tokens[0], f"tickets keep {before.players[0].offered[0]}")
    assert too_few.status_code == 409 and too_few.json()["reason"] == "must keep more tickets"
    gibberish = _act(client, game_id, tokens[0], "fly to the moon")
    assert gibberish.status_code == 400 and gibberish.json()["error"] == "invalid_action"
    assert "expected one of" in gibberish.json()["message"]
    assert game.state is before and game.seq == 0


def test_wrong_token_is_forbidden_and_changes_nothing(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=5)
    other_id, other_tokens = _create(client, seed=5)
    game = _game(client, game_id)
    before = game.state
    keep = "tickets keep " + ",".join(map(str, before.players[0].offered))
    for token in ("not-a-token", other_tokens[0], tokens[0] + "x", tokens[0][:-1]):
        assert client.get(f"/api/games/{game_id}", headers=_auth(token)).status_code == 403
        response = _act(client, game_id, token, keep)
        assert response.status_code == 403, token
        assert response.json()["error"] == "forbidden"
        assert tokens[0] not in response.text
    for header in ("Basic abc", "Bearer", "Bearer   ", tokens[0]):
        response = client.post(
            f"/api/games/{game_id}/actions",
            headers={"Authorization": header},
            json={"action": keep},
        )
        assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    missing = client.post(f"/api/games/{game_id}/actions", json={"action": keep})
    assert missing.status_code == 401 and missing.json()["error"] == "token_required"
    assert game.state is before and game.seq == 0 and game.texts == []
    assert _game(client, other_id).seq == 0


def test_unknown_game_is_404(client: TestClient) -> None:
    response = client.get("/api/games/nope")
    assert response.status_code == 404 and response.json()["error"] == "game_not_found"


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        (b"{", 400, "malformed_json"),
        (b'{"action": "draw blind",}', 400, "malformed_json"),
        (b"[]", 422, "invalid_request"),
        (b'"draw blind"', 422, "invalid_request"),
        (b'{"action": 3}', 422, "invalid_request"),
        (b'{"action": null}', 422, "invalid_request"),
        (b'{"action": ["draw blind"]}', 422, "invalid_request"),
        (b'{"action": "draw blind", "player": 1}', 422, "invalid_request"),
        (b"{}", 422, "invalid_request"),
        (b'{"action": "' + b"x" * 2000 + b'"}', 422, "invalid_request"),
    ],
)
def test_malformed_action_bodies_are_rejected(
    client: TestClient, body: bytes, status: int, error: str
) -> None:
    game_id, tokens = _create(client, seed=1)
    headers = {**_auth(tokens[0]), "Content-Type": "application/json"}
    response = client.post(f"/api/games/{game_id}/actions", content=body, headers=headers)
    assert response.status_code == status, response.text
    assert response.json()["error"] == error
    assert "Traceback" not in response.text
    assert _game(client, game_id).seq == 0


def test_huge_bodies_are_rejected(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=1)
    huge = json.dumps({"action": "draw blind " + "x" * 100_000}).encode()
    headers = {**_auth(tokens[0]), "Content-Type": "application/json"}
    response = client.post(f"/api/games/{game_id}/actions", content=huge, headers=headers)
    assert response.status_code == 413 and response.json()["error"] == "body_too_large"

    def chunks() -> Iterator[bytes]:  # streamed, without a Content-Length
        for _ in range(100):
            yield b" " * 1000

    streamed = client.post(f"/api/games/{game_id}/actions", content=chunks(), headers=headers)
    assert streamed.status_code == 413
    created = client.post("/api/games", content=b'{"map": "' + b"e" * 50_000 + b'"}')
    assert created.status_code == 413
    assert _game(client, game_id).seq == 0 and len(_store(client).games) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"map": "atlantis"},
        {"players": 1},
        {"players": 11},
        {"players": "2"},
        {"seed": "7"},
        {"seed": -1},
        {"seed": 2**64},
        {"seed": 1.5},
        {"agents": {"1": "nobody"}},
        {"agents": {"5": "greedy"}},
        {"agents": {"one": "greedy"}},
        {"agents": {"1": 3}},
        {"agents": ["greedy"]},
        {"colour": "red"},
    ],
)
def test_bad_game_requests_are_rejected(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/games", json={"players": 2, **body})
    assert response.status_code == 422, response.text
    assert response.json()["error"] in ("invalid_request", "invalid_game")
    assert response.json()["message"]
    assert _store(client).games == {}


def test_no_traceback_reaches_a_client(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, tokens = _create(client, seed=1)

    async def broken(*args: Any) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(_store(client), "act", broken)
    response = _act(client, game_id, tokens[0], "draw blind")
    assert response.status_code == 500
    assert response.json() == {
        "error": "internal_error",
        "message": "internal server error",
        "reason": None,
        "problems": ["internal server error"],
    }


def test_openapi_describes_the_api(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions"):
        assert path in paths


# --------------------------------------------------------------------------- secrecy of the log


def test_log_hides_other_seats_cards_and_tickets(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=2)
    game = _game(client, game_id)
    for seat in (0, 1):
        offered = game.state.players[seat].offered
        _act(client, game_id, tokens[seat], "tickets keep " + ",".join(map(str, offered[:2])))
    assert _act(client, game_id, tokens[0], "draw blind").status_code == 200
    own = client.get(f"/api/games/{game_id}/log", headers=_auth(tokens[0])).json()
    other = client.get(f"/api/games/{game_id}/log", headers=_auth(tokens[1])).json()
    spectator = client.get(f"/api/games/{game_id}/log").json()
    drawn = next(e for e in game.steps[2].events if isinstance(e, CardDrawn))
    assert drawn.color is not None and own[2]["events"][0]["color"] == drawn.color.value
    assert other[2]["events"][0]["color"] is None and spectator[2]["events"][0]["color"] is None
    assert own[0]["action"].startswith("tickets keep") and other[0]["action"] is None
    assert spectator[0]["action"] is None and spectator[1]["action"] is None
    assert other[1]["action"].startswith("tickets keep")
    assert [s["seq"] for s in own] == [1, 2, 3]
    assert client.get(f"/api/games/{game_id}/log?since=2").json() == spectator[2:]
    assert seat_event(drawn, None)["color"] is None


def test_stream_sends_the_seat_view_and_filtered_steps(client: TestClient) -> None:
    game_id, tokens = _create(client, players=2, agents={"0": "random", "1": "random"}, seed=4)
    _idle(client)
    game = _game(client, game_id)
    assert game.over and tokens == {}
    with client.stream("GET", f"/api/games/{game_id}/stream") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    data_lines = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    update = json.loads(data_lines[0])
    assert update["over"] is True and update["seq"] == game.seq == len(update["steps"])
    assert update["view"] == json.loads(to_json(public_view(game.state)))
    blind = [
        e
        for s in update["steps"]
        for e in s["events"]
        if e["type"] == "card_drawn" and e["slot"] is None
    ]
    assert blind and all(e["color"] is None for e in blind)


# --------------------------------------------------------------------------- whole games


def _play_through_api(client: TestClient, seed: int) -> tuple[str, GameState]:
    """Two human seats played by random choices from the API's views, and the same choices
    applied with the library; returns the game id and the library's final state."""
    game_id, tokens = _create(client, seed=seed)
    state = new_game("europe", 2, seed)
    rng = random.Random(seed)
    while True:
        probe = from_json(
            client.get(f"/api/games/{game_id}", headers=_auth(tokens[0])).text, PlayerView
        )
        if probe.is_terminal:
            break
        seat = probe.current
        legal = client.get(f"/api/games/{game_id}/legal", headers=_auth(tokens[seat])).json()
        choice = rng.choice(legal)["action"]
        response = _act(client, game_id, tokens[seat], choice)
        assert response.status_code == 200, response.text
        state = apply_action(state, parse_action(choice, state))
        assert response.text == to_json(observe(state, seat))
    for seat, token in tokens.items():
        final = client.get(f"/api/games/{game_id}", headers=_auth(token)).text
        assert final == to_json(observe(state, seat))
    return game_id, state


def test_a_game_through_the_api_equals_the_library(client: TestClient) -> None:
    game_id, state = _play_through_api(client, seed=21)
    scores = client.get(f"/api/games/{game_id}/scores").json()
    assert scores["scores"] == [json.loads(to_json(s)) for s in final_scores(state)]
    record_response = client.get(f"/api/games/{game_id}/record")
    assert record_response.status_code == 200
    record = from_json(record_response.text, GameRecord)
    assert replay(record) == state == _game(client, game_id).state
    assert _act(client, game_id, "x", "pass").status_code == 403


def test_scores_and_record_wait_for_the_end(client: TestClient) -> None:
    game_id, _ = _create(client, seed=1)
    assert client.get(f"/api/games/{game_id}/scores").status_code == 409
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 409 and response.json()["error"] == "game_not_over"


def test_server_agents_move_as_their_library_agents_would(client: TestClient) -> None:
    seed = 9
    game_id, tokens = _create(client, agents={"1": "greedy"}, seed=seed)
    rng = random.Random(1)
    game = _game(client, game_id)
    while not game.over:
        _idle(client)
        if game.over:
            break
        assert game.state.current == 0
        legal = client.get(f"/api/games/{game_id}/legal", headers=_auth(tokens[0])).json()
        assert _act(client, game_id, tokens[0], rng.choice(legal)["action"]).status_code == 200
    # replay: every seat-1 action is what a fresh greedy agent with the seat's seed chooses
    agent = make_agent("greedy", seed=seed + 1)
    state = new_game("europe", 2, seed)
    record = from_json(client.get(f"/api/games/{game_id}/record").text, GameRecord)
    for text in record.actions:
        action = parse_action(text, state)
        if state.current == 1:
            assert agent.act(observe(state, 1)) == action
        state = apply_action(state, action)
    assert state == game.state


def test_data_dir_keeps_games_across_restarts(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path))) as first:
        game_id, tokens = _create(first, agents={"1": "random"}, seed=6)
        game = _game(first, game_id)
        offered = game.state.players[0].offered
        assert (
            _act(
                first, game_id, tokens[0], "tickets keep " + ",".join(map(str, offered))
            ).status_code
            == 200
        )
        _idle(first)
        assert _act(first, game_id, tokens[0], "draw blind").status_code == 200
        state = game.state
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"{game_id}.record.json", f"{game_id}.seats.json"]
    assert tokens[0] not in (tmp_path / f"{game_id}.seats.json").read_text()
    with TestClient(create_app(str(tmp_path))) as second:
        again = _game(second, game_id)
        assert again.state == state
        view = second.get(f"/api/games/{game_id}", headers=_auth(tokens[0]))
        assert view.status_code == 200 and view.text == to_json(observe(state, 0))
        assert second.get(f"/api/games/{game_id}", headers=_auth("stolen")).status_code == 403
        assert _act(second, game_id, tokens[0], "draw blind").status_code == 200
        _idle(second)
        assert again.seq > len(state.players) + 1


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/static/app.js"' in page.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/static/../games.py").status_code == 404
    assert (
        client.get("/api/maps").json()[0] in ("europe", "usa")
        and "europe" in client.get("/api/maps").json()
    )
    agents = client.get("/api/agents").json()
    assert agents[:3] == ["easy", "medium", "hard"] and "greedy" in agents  # levels first
    europe = client.get("/api/maps/europe").json()  # the map file, as load_map_file reads it
    assert len(europe["routes"]) == 101 and map_from_dict(europe) == load_map("europe")


def test_head_answers_like_get_without_a_body(client: TestClient) -> None:
    game_id, tokens = _create(client, seed=3)
    for path in ("/", "/static/app.js", "/api/maps", f"/api/games/{game_id}", "/api/nothing"):
        got, head = client.get(path, headers=_auth(tokens[0])), client.head(path)
        assert head.status_code == got.status_code, path
        assert head.content == b"", path
        assert head.headers["content-type"] == got.headers["content-type"], path
    refused = client.put("/api/maps")
    assert refused.status_code == 405 and refused.headers["allow"] == "GET"
    assert refused.json()["error"] == "method_not_allowed"


def test_head_of_a_stream_ends_after_its_headers(client: TestClient) -> None:
    """The test client returns only once the app has finished its answer: a stream that went on
    after its headers would never return (its GET does not), hence the thread and its limit."""
    import threading

    game_id, tokens = _create(client, seed=3)
    answers: list[Any] = []
    asking = threading.Thread(
        target=lambda: answers.append(
            client.head(f"/api/games/{game_id}/stream", headers=_auth(tokens[0]))
        ),
        daemon=True,
    )
    asking.start()
    asking.join(timeout=30)
    assert answers, "the stream went on after the headers of a HEAD"
    (head,) = answers
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"].startswith("text/event-stream")


@pytest.mark.parametrize(
    ("players", "map_name", "shown"),
    [
        (0, "europe", "0"),
        (1, "europe", "1"),
        (-1, "europe", "-1"),
        (6, "europe", "6"),
        (4, "nordic", "4"),
        (10**40, "europe", "a number of over 15 digits"),
    ],
)
def test_a_player_count_out_of_the_maps_range_is_refused_in_one_wording(
    client: TestClient, players: int, map_name: str, shown: str
) -> None:
    most = 3 if map_name == "nordic" else 5
    answer = client.post("/api/games", json={"players": players, "map": map_name})
    assert answer.status_code == 422
    assert answer.json()["message"] == f"players must be between 2 and {most}, got {shown}"
