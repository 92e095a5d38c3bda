"""The lobby's facts come from the server's games: a human seat is open until someone uses its
token or it moves, agents' seats never are, and a finished game has none."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr_rules import legal_actions
from ttr_rules.notation import format_action
from ttr_rules.web import create_app
from ttr_rules.web.games import GameStore


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def _lobby_entry(client: TestClient, game_id: str) -> dict[str, Any]:
    games = client.get("/api/games").json()
    return next(g for g in games if g["id"] == game_id)


def _create(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    response = client.post("/api/games", json={"map": "europe", **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], {s["seat"]: s["token"] for s in data["seats"]}


def test_a_human_seat_is_open_until_its_token_is_used(client: TestClient) -> None:
    game_id, tokens = _create(client, players=3, agents={"2": "random"})
    entry = _lobby_entry(client, game_id)
    assert entry["open_seats"] == 2  # the agent's seat is never open
    assert _lobby_entry(client, game_id)["id"] == game_id and "created" in entry
    client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert _lobby_entry(client, game_id)["open_seats"] == 1
    client.get(f"/api/games/{game_id}")  # a spectator takes no seat
    assert _lobby_entry(client, game_id)["open_seats"] == 1
    client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert _lobby_entry(client, game_id)["open_seats"] == 0


def test_a_seat_that_moved_is_taken_and_a_finished_game_has_no_open_seat(
    client: TestClient,
) -> None:
    game_id, _ = _create(client, players=2, seed=5)
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    game = store.get(game_id)
    state = game.state
    game.replay_texts([format_action(legal_actions(state)[0], state.map)])
    assert _lobby_entry(client, game_id)["open_seats"] == 1
    while not game.over:
        state = game.state
        game.replay_texts([format_action(legal_actions(state)[0], state.map)])
    assert _lobby_entry(client, game_id)["open_seats"] == 0
