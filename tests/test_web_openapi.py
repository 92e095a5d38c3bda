"""The OpenAPI description tells the truth: a whole game played through the API, and the
errors a hostile client provokes, each answer (status, media type, body) validated by
openapi-core against the document the server serves at ``/api/openapi.json``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

pytest.importorskip("fastapi")  # the web extra (always there in the test extra)

from fastapi.testclient import TestClient
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

from ttr_rules import PlayerView, from_json
from ttr_rules.web import create_app


class CheckedClient:
    """A test client whose every answer is validated against the served OpenAPI document."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.openapi = OpenAPI.from_dict(client.get("/api/openapi.json").json())
        self.checked: dict[tuple[str, int], int] = {}

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        response: httpx.Response = self.client.request(method, url, **kwargs)
        parts = urlsplit(str(response.request.url))
        request = MockRequest(
            "http://testserver",
            method,
            parts.path,
            args=dict(httpx.QueryParams(parts.query)),
            headers=dict(response.request.headers),
            data=response.request.content,
            content_type=response.request.headers.get("content-type", "application/json"),
        )
        media_type = response.headers.get("content-type", "").split(";")[0]
        self.openapi.validate_response(
            request,
            MockResponse(
                response.content, response.status_code, dict(response.headers), media_type
            ),
        )
        key = (f"{method} {_route(parts.path)}", response.status_code)
        self.checked[key] = self.checked.get(key, 0) + 1
        return response

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)


def _route(path: str) -> str:
    """The path with the game id as ``{id}``, to count what was checked."""
    parts = path.split("/")
    if len(parts) > 3 and parts[2] == "games":
        parts[3] = "{id}"
    return "/".join(parts)


@pytest.fixture
def api() -> Iterator[CheckedClient]:
    with TestClient(create_app(agent_workers=0), raise_server_exceptions=False) as client:
        yield CheckedClient(client)


def test_the_document_declares_the_server_s_error_body(api: CheckedClient) -> None:
    document = api.client.get("/api/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas  # FastAPI's {detail}: never sent
    assert set(schemas["ErrorBody"]["required"]) == {"error", "message", "reason", "problems"}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            for status in ("400", "404", "422", "500"):
                ref = responses[status]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorBody"), (method, path, status)
            ok = next(r for s, r in responses.items() if s.startswith("2"))
            for media_type, content in ok["content"].items():
                if media_type == "application/json":
                    assert content.get("schema"), (method, path)


def test_a_whole_game_and_its_errors_match_the_document(api: CheckedClient) -> None:
    rnd = random.Random(7)
    assert api.get("/api/maps").json()[0] == "europe"
    api.get("/api/agents")
    created = api.post("/api/games", json={"players": 2, "seed": 11}).json()
    game = f"/api/games/{created['id']}"
    auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}

    _hostile_requests(api, game, auth)
    moves = tunnels = 0
    view = from_json(api.get(game, headers=auth[0]).text, PlayerView)
    while not view.is_terminal:
        seat = view.current
        legal = api.get(f"{game}/legal", headers=auth[seat]).json()
        if view.tunnel is not None:
            panels = api.get(f"{game}/panels", headers=auth[seat]).json()
            assert panels["tunnel"].startswith("Tunnel ") and panels["payment"] is None
            api.get(f"{game}/panels")  # the spectator
            tunnels += 1
        if moves % 20 == 0:
            api.get(f"{game}/tickets", headers=auth[seat])
            api.get(f"{game}/hint", headers=auth[seat])
            api.get(f"{game}/log", headers=auth[1 - seat], params={"since": max(0, moves - 5)})
            api.get(f"{game}/info")
            api.get(game)  # the spectator
            api.get("/api/games")
        claims = [a for a in legal if a["kind"] == "claim"]
        chosen = rnd.choice(claims if claims and rnd.random() < 0.6 else legal)
        played = api.post(f"{game}/actions", headers=auth[seat], json={"action": chosen["action"]})
        view = from_json(played.text, PlayerView)
        moves += 1
        assert moves < 2000
    assert api.get(f"{game}/info").json()["over"]
    assert tunnels > 0
    api.get(f"{game}/scores")
    api.get(f"{game}/record")
    api.get(f"{game}/board.svg", headers=auth[0])
    api.get(f"{game}/legal", headers=auth[0])  # over: nothing
    api.post(f"{game}/actions", headers=auth[0], json={"action": "draw blind"})  # 409
    api.get("/api/maps/europe")

    statuses = {status for _, status in api.checked}
    assert {200, 201, 400, 401, 403, 404, 409, 413, 422} <= statuses, sorted(api.checked)


def _hostile_requests(api: CheckedClient, game: str, auth: dict[int, dict[str, str]]) -> None:
    """The errors a second seat or a stranger provokes before the game starts."""
    assert api.get("/api/games/nope").status_code == 404
    assert api.get("/api/maps/atlantis").status_code == 404
    assert api.get(f"{game}/legal").status_code == 401
    assert api.get(f"{game}/legal", headers={"Authorization": "Bearer x"}).status_code == 403
    assert api.get(f"{game}/legal", headers={"Authorization": "Basic x"}).status_code == 401
    assert api.get(f"{game}/scores").status_code == 409
    assert api.get(f"{game}/record").status_code == 409
    assert api.get(f"{game}/log", params={"since": -1}).status_code == 422
    turn = api.post(f"{game}/actions", headers=auth[1], json={"action": "draw blind"})
    assert turn.status_code == 409 and turn.json()["reason"] == "not your turn"
    typo = api.post(f"{game}/actions", headers=auth[0], json={"action": "fly to the moon"})
    assert typo.status_code == 400 and typo.json()["problems"]
    now = api.post(f"{game}/actions", headers=auth[0], json={"action": "draw blind"})
    assert now.status_code == 409 and now.json()["action"] == "draw blind"
    assert api.post(f"{game}/actions", headers=auth[0], json={"act": 1}).status_code == 422
    broken = api.post("/api/games", content=b"{", headers={"content-type": "application/json"})
    assert broken.status_code == 400
    big = api.post("/api/games", content=json.dumps({"map": "x" * 20_000}))
    assert big.status_code == 413
    assert api.post("/api/games", json={"players": 9, "map": "atlantis"}).status_code == 422
    assert api.get("/api/maps", headers={"Host": "evil.example"}).status_code == 400
