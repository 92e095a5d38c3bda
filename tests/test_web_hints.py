"""The web page's hint endpoint: the seat's token, legal suggestions, nothing for others."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ttr_rules.web import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def test_hints_for_the_seat_to_act_are_legal_and_playable(client: TestClient) -> None:
    created = client.post("/api/games", json={"map": "europe", "players": 2, "seed": 4})
    assert created.status_code == 201, created.text
    data = created.json()
    game = data["id"]
    tokens = {s["seat"]: s["token"] for s in data["seats"]}
    mine = {"Authorization": f"Bearer {tokens[0]}"}
    hints = client.get(f"/api/games/{game}/hint", headers=mine).json()
    legal = {a["action"] for a in client.get(f"/api/games/{game}/legal", headers=mine).json()}
    assert hints and all(h["action"] in legal for h in hints)
    assert [h["score"] for h in hints] == sorted((h["score"] for h in hints), reverse=True)
    assert all(h["reason"] for h in hints)
    other = {"Authorization": f"Bearer {tokens[1]}"}
    assert client.get(f"/api/games/{game}/hint", headers=other).json() == []
    assert client.get(f"/api/games/{game}/hint").status_code in (401, 403)
    played = client.post(
        f"/api/games/{game}/actions", headers=mine, json={"action": hints[0]["action"]}
    )
    assert played.status_code == 200, played.text
