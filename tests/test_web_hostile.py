"""A hostile sweep of the web API (issue 29): every endpoint with wrong, missing and other
seats' tokens, wrong methods, absurd path ids and query parameters, bodies that are empty,
huge, not UTF-8, not JSON, nested deeply or of the wrong types, odd ``Host`` and
``Last-Event-ID`` headers, hypothesis-written bodies and action texts from every seat, racing
posts and posts after the end.

Every answer must be a documented one: never a 500, never a traceback in the server's log, an
error body ``{error, message, reason?, problems?, action?}`` whose code belongs to its status
(docs/web.md), a one-line message, and never a token of any seat.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.routing import APIRoute
    from fastapi.testclient import TestClient

from ttr_rules import format_action, view_legal_actions
from ttr_rules.notation import NUMBER_FIELDS, NumberField
from ttr_rules.web import create_app
from ttr_rules.web.games import Game, GameStore

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: The error codes each status may carry (docs/web.md, "Status codes").
DOCUMENTED = {
    400: {"malformed_json", "invalid_action", "ambiguous_action", "unknown_host"},
    401: {"token_required", "bad_authorization"},
    403: {"forbidden"},
    404: {"game_not_found", "map_not_found", "not_found"},
    405: {"method_not_allowed"},
    409: {"illegal_action", "game_not_over"},
    413: {"body_too_large"},
    422: {"invalid_request", "invalid_game"},
    429: {"too_many_games"},
    503: {"server_full", "save_failed"},
}
_ERROR_KEYS = {"error", "message", "reason", "problems", "action"}

#: Every route of the app: method, path, and whether it reads the seat of a token
#: (``seat``: optional, ``player``: required, ``None``: ignores tokens).
ROUTES: list[tuple[str, str, str | None]] = [
    ("GET", "/", None),
    ("GET", "/static/{name}", None),
    ("GET", "/api/docs", None),
    ("GET", "/api/docs/assets/{name}", None),
    ("GET", "/api/openapi.json", None),
    ("GET", "/api/maps", None),
    ("GET", "/api/maps/{name}", None),
    ("GET", "/api/map-groups", None),
    ("GET", "/api/agents", None),
    ("GET", "/api/games", None),
    ("POST", "/api/games", None),
    ("GET", "/api/games/{game_id}", "seat"),
    ("GET", "/api/games/{game_id}/info", None),
    ("POST", "/api/games/{game_id}/actions", "player"),
    ("GET", "/api/games/{game_id}/legal", "player"),
    ("GET", "/api/games/{game_id}/hint", "player"),
    ("GET", "/api/games/{game_id}/tickets", "player"),
    ("GET", "/api/games/{game_id}/log", "seat"),
    ("GET", "/api/games/{game_id}/panels", "seat"),
    ("GET", "/api/games/{game_id}/scores", None),
    ("GET", "/api/games/{game_id}/record", None),
    ("GET", "/api/games/{game_id}/board.svg", "seat"),
    ("GET", "/api/games/{game_id}/stream", "seat"),
]
_GAME_ROUTES = [r for r in ROUTES if "{game_id}" in r[1]]
_POSTS = [r for r in ROUTES if r[0] == "POST"]
_NAMES = {"{name}": "europe"}


class World:
    """A server with a live game (two human seats, tickets kept), a finished one (two human
    seats, played to the end through the API) and a third game whose tokens are strangers."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.live, self.live_tokens = self.create(seed=3)
        self.done, self.done_tokens = self.create(seed=4)
        self.other, self.other_tokens = self.create(seed=5)
        self.keep_tickets(self.live, self.live_tokens)
        self.play_to_the_end(self.done, self.done_tokens)

    @property
    def store(self) -> GameStore:
        store: GameStore = self.client.app.state.store  # type: ignore[attr-defined]
        return store

    def game(self, game_id: str) -> Game:
        return self.store.get(game_id)

    def create(self, **body: Any) -> tuple[str, list[str]]:
        answer = self.client.post("/api/games", json={"players": 2, **body})
        assert answer.status_code == 201, answer.text
        return answer.json()["id"], [s["token"] for s in answer.json()["seats"]]

    def post(self, game_id: str, token: str, text: str) -> httpx.Response:
        answer: httpx.Response = self.client.post(
            f"/api/games/{game_id}/actions", json={"action": text}, headers=_bearer(token)
        )
        return answer

    def keep_tickets(self, game_id: str, tokens: list[str]) -> None:
        for seat, token in enumerate(tokens):
            offered = self.game(game_id).state.players[seat].offered
            kept = self.post(game_id, token, "tickets keep " + ",".join(map(str, offered)))
            assert kept.status_code == 200, kept.text

    def play_to_the_end(self, game_id: str, tokens: list[str]) -> None:
        game = self.game(game_id)
        rng = random.Random(7)
        while not game.over:
            seat = game.state.current
            view = game.view(seat)
            text = format_action(rng.choice(view_legal_actions(view)), view.map)
            assert self.post(game_id, tokens[seat], text).status_code == 200

    @property
    def tokens(self) -> list[str]:
        return [*self.live_tokens, *self.done_tokens, *self.other_tokens]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    app = create_app(agent_workers=0, games_per_minute=0)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield World(client)


@pytest.fixture(autouse=True)
def no_server_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test when the server logged an error (every 500 and traceback is logged)."""
    with caplog.at_level(logging.ERROR):
        yield
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not logged, [r.getMessage() for r in logged]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _path(template: str, game_id: str) -> str:
    path = template.replace("{game_id}", game_id)
    for name, value in _NAMES.items():
        path = path.replace(name, value)
    if path.startswith("/static/"):
        path = "/static/app.js"
    if path.startswith("/api/docs/assets/"):
        path = "/api/docs/assets/swagger-ui.css"
    return path


def _ask(world: World, method: str, path: str, body: Any = None, **options: Any) -> httpx.Response:
    """One request; a stream is read up to its first event (a live one never ends)."""
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
    if body is not None:
        options.setdefault("headers", {})
        options["headers"] = {"Content-Type": "application/json", **options["headers"]}
        options["content"] = body
    if path.split("?")[0].endswith("/stream") and method == "GET":
        with world.client.stream(method, path, **options) as answer:
            if answer.status_code != 200:
                answer.read()
                refused: httpx.Response = answer
                return refused
            first = next(line for line in answer.iter_lines() if line.startswith("data:"))
        return httpx.Response(
            200, headers=answer.headers, content=first.encode(), request=answer.request
        )
    plain: httpx.Response = world.client.request(method, path, **options)
    return plain


def _documented(world: World, answer: httpx.Response, *, created: bool = False) -> Any:
    """Check ``answer`` against the documented forms; returns its error body (None for a
    success)."""
    status = answer.status_code
    text = answer.text
    assert status < 500 or status == 503, (status, text[:300])
    assert "Traceback" not in text
    if not created:
        assert not any(token in text for token in world.tokens), "a token was answered"
    if status < 400:
        return None
    if answer.request.method == "HEAD":
        assert text == ""
        return None
    assert answer.headers["content-type"] == "application/json", text[:200]
    body = answer.json()
    assert set(body) <= _ERROR_KEYS and {"error", "message"} <= set(body), body
    assert body["error"] in DOCUMENTED[status], (status, body)
    assert isinstance(body["message"], str) and body["message"]
    assert "\n" not in body["message"] and len(body["message"]) <= 2000, body["message"][:200]
    if body.get("problems") is not None:
        assert all(isinstance(p, str) and "\n" not in p for p in body["problems"])
    return body


# --------------------------------------------------------------------------- coverage


def test_the_sweep_covers_every_route_of_the_app(world: World) -> None:
    served = {
        (method, route.path)
        for route in world.client.app.routes  # type: ignore[attr-defined]
        if hasattr(route, "methods") and route.path not in ("/api/docs/oauth2-redirect",)
        for method in route.methods or ()
        if method != "HEAD"
    }
    assert served == {(method, path) for method, path, _ in ROUTES}
    assert any(isinstance(r, APIRoute) for r in world.client.app.routes)  # type: ignore[attr-defined]


def _parameters(dependant: Any) -> Iterator[tuple[str, str]]:
    """Every (kind, name) a route reads from the request, its dependencies' included."""
    for kind in ("query", "header", "cookie"):
        for param in getattr(dependant, f"{kind}_params"):
            yield kind, str(param.alias or param.name).lower()
    for sub in dependant.dependencies:
        yield from _parameters(sub)


#: The headers the sweep sends odd values of (test_hypothesis_headers, the token tests).
_SWEPT_HEADERS = {"authorization", "last-event-id", "host", "content-type"}


def test_the_sweep_covers_every_parameter_of_every_route(world: World) -> None:
    """A new query parameter or header of any route must get odd values in _PARAMS or the
    header tests before it is served."""
    swept_queries = {query.partition("=")[0] for query in _PARAMS}
    read = {
        parameter
        for route in world.client.app.routes  # type: ignore[attr-defined]
        if isinstance(route, APIRoute)
        for parameter in _parameters(route.dependant)
    }
    assert {("query", "since"), ("query", "size"), ("header", "authorization")} <= read
    for route in world.client.app.routes:  # type: ignore[attr-defined]
        if not isinstance(route, APIRoute):
            continue
        for kind, name in _parameters(route.dependant):
            if kind == "query":
                assert name in swept_queries, f"{route.path}: query parameter {name!r} unswept"
            else:
                assert kind == "header" and name.replace("_", "-") in _SWEPT_HEADERS, (
                    f"{route.path}: {kind} {name!r} unswept"
                )


# --------------------------------------------------------------------------- tokens


_BAD_AUTHORIZATIONS: list[str | bytes] = [
    "",
    "Bearer",
    "Bearer ",
    "Basic dXNlcjpwYXNz",
    "Token abc",
    "Bearer " + "x" * 8000,
    "Bearer \t",
    b"Bearer \xff\xfe",
    "Bearer ü".encode(),
    "Bearer a b c",
]


@pytest.mark.parametrize(("method", "template", "reads"), ROUTES)
def test_every_route_with_every_kind_of_token(
    world: World, method: str, template: str, reads: str | None
) -> None:
    for game_id in (world.live, world.done):
        path = _path(template, game_id)
        body: dict[str, Any] | None = None
        if template.endswith("/actions"):
            body = {"action": "draw blind"}
        if template == "/api/games":
            body = {"players": 2}
        created = template == "/api/games" and method == "POST"
        tokens = world.live_tokens if game_id == world.live else world.done_tokens
        for authorization in _BAD_AUTHORIZATIONS:
            answer = _ask(world, method, path, body, headers={"Authorization": authorization})
            error = _documented(world, answer, created=created)
            if reads is not None:
                assert answer.status_code in (401, 403), (path, authorization, answer.text)
                assert error["error"] in ("bad_authorization", "forbidden")
        for stranger in (world.other_tokens[0], "not-a-token", world.tokens[-1][::-1]):
            answer = _ask(world, method, path, body, headers=_bearer(stranger))
            _documented(world, answer, created=created)
            if reads is not None:
                assert answer.status_code == 403, (path, answer.text)
        for token in tokens:  # each seat of the game, and none
            _documented(world, _ask(world, method, path, body, headers=_bearer(token)))
        answer = _ask(world, method, path, body)
        _documented(world, answer, created=created)
        if reads == "player":
            assert answer.status_code == 401 and answer.json()["error"] == "token_required"


@pytest.mark.parametrize(("method", "template", "reads"), ROUTES)
def test_every_route_refuses_other_methods(
    world: World, method: str, template: str, reads: str | None
) -> None:
    path = _path(template, world.live)
    allowed = {m for m, t, _ in ROUTES if t == template}
    for other in ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "HEAD", "BREW"):
        if other in allowed:
            continue
        answer = world.client.request(other, path, headers=_bearer(world.live_tokens[0]))
        _documented(world, answer)
        if other == "HEAD" and "GET" in allowed:
            continue  # answered like the GET, without a body
        assert answer.status_code == 405, (other, path, answer.status_code)


# --------------------------------------------------------------------------- path ids

_ABSURD_IDS = [
    "x" * 5000,
    "%00",
    "%ff",
    "%C3%BC",
    "%F0%9F%98%80",
    "..",
    "%2E%2E",
    "..%2F..%2Fetc%2Fpasswd",
    "a%2Fb",
    "%20",
    "%0A",
    "-1",
    "0",
    "1e9",
    "null",
    "%7B%7D",
]


@pytest.mark.parametrize("game_id", _ABSURD_IDS)
def test_absurd_game_ids_are_404(world: World, game_id: str) -> None:
    for method, template, _ in _GAME_ROUTES:
        body = {"action": "draw blind"} if method == "POST" else None
        answer = _ask(
            world, method, _path(template, game_id), body, headers=_bearer(world.live_tokens[0])
        )
        error = _documented(world, answer)
        assert answer.status_code == 404 and error["error"] in ("game_not_found", "not_found")


@pytest.mark.parametrize(
    "path",
    [
        "/api/maps/%ff",
        "/api/maps/" + "x" * 5000,
        "/api/maps/%00",
        "/api/maps/..%2F..%2Fetc%2Fpasswd",
        "/static/%ff",
        "/static/..%2F__init__.py",
        "/static/index.html%00.js",
        "/api/docs/assets/%ff",
        "/api/docs/assets/..%2F..%2F__init__.py",
        "/%ff",
        "//api//games",
        "/api/games/x/y/z",
    ],
)
def test_absurd_names_are_404(world: World, path: str) -> None:
    answer = world.client.get(path)
    _documented(world, answer)
    assert answer.status_code == 404


# --------------------------------------------------------------------------- query parameters

_PARAMS = [
    "since=-1",
    "since=abc",
    "since=" + "9" * 5000,
    "since=99999999999",
    "since=1.5",
    "since=%ff",
    "since=",
    "since=1&since=2",
    "size=1e9",
    "size=10",
    "size=99999",
    "size=%00",
    "legend=maybe",
    "symbols=2",
    "legend=",
    "%ff=%ff",
    "x" * 3000 + "=1",
]


@pytest.mark.parametrize("query", _PARAMS)
def test_odd_query_parameters(world: World, query: str) -> None:
    for _, template, _reads in _GAME_ROUTES:
        if template.endswith("/actions"):
            continue
        for game_id in (world.live, world.done):
            path = f"{_path(template, game_id)}?{query}"
            answer = _ask(world, "GET", path, headers=_bearer(world.live_tokens[0]))
            _documented(world, answer)


@given(name=st.text(max_size=30), value=st.text(max_size=30))
def test_hypothesis_query_parameters(world: World, name: str, value: str) -> None:
    for tail in ("/log", "/board.svg", "", "/info"):
        answer = world.client.get(
            f"/api/games/{world.done}{tail}",
            params={name: value, "since": value, "size": value},
            headers=_bearer(world.done_tokens[1]),
        )
        _documented(world, answer)


# --------------------------------------------------------------------------- bodies

_DEEP = 5000
_BODIES: list[bytes] = [
    b"",
    b"null",
    b"[]",
    b"1",
    b'"x"',
    b"{",
    b"{}}",
    b"\xff\xfe{}",
    b"\xef\xbb\xbf{}",
    '{"action": "draw blind"}'.encode("utf-16"),
    b"[" * _DEEP + b"]" * _DEEP,
    b'{"action":' + b"[" * _DEEP + b"]" * _DEEP + b"}",
    b'{"a":' * 2000 + b"1" + b"}" * 2000,
    b'{"players": ' + b"9" * 5000 + b"}",
    b'{"seed": NaN}',
    b'{"players": Infinity}',
    b'{"action": "\\ud800"}',
    b'{"map": "\\ud800"}',
    b'{"action": "\\u0000"}',
    b'{"action": "' + b"x" * 1001 + b'"}',
    b'{"action": "' + b"\\u00fc" * 1500 + b'"}',
    b'{"action": "draw blind", "action": 1}',
    b'{"action": null}',
    b'{"action": 1}',
    b'{"action": ["draw blind"]}',
    b'{"action": {"text": "draw blind"}}',
    b'{"action": true}',
    b'{"action": "draw blind", "seat": 1}',
    b'{"players": "2"}',
    b'{"players": 2.0}',
    b'{"players": true}',
    b'{"players": 0}',
    b'{"players": 1}',
    b'{"players": 6}',
    b'{"players": -1}',
    b'{"players": 1000000000}',
    b'{"seed": -1}',
    b'{"seed": 18446744073709551616}',
    b'{"seed": "1"}',
    b'{"map": 1}',
    b'{"map": ""}',
    b'{"map": "../../etc/passwd"}',
    b'{"map": "a\\nb"}',
    b'{"map": "' + b"x" * 150 + b'"}',
    b'{"agents": []}',
    b'{"agents": {"0": 1}}',
    b'{"agents": {"0": "' + b"x" * 10000 + b'"}}',
    b'{"agents": {"-1": "random"}}',
    b'{"agents": {"99": "random"}}',
    b'{"agents": {"\\u00b2": "random"}}',
    b'{"agents": {"\\n": "random"}}',
    b'{"agents": {"0": "random", "00": "greedy"}}',
    b'{"agents": {"0": "nonesuch"}}',
    b'{"agents": {"0": "random", "1": "random", "2": "random"}}',
    b'{"foo": 1}',
    b'{"a\\nb": 1, "\\u2028": 2}',
    b"x" * 20000,
]


@pytest.mark.parametrize("body", _BODIES, ids=range(len(_BODIES)))
def test_hostile_bodies(world: World, body: bytes) -> None:
    for _, template, _reads in _POSTS:
        for content_type in ("application/json", "text/plain", None):
            headers = _bearer(world.live_tokens[world.game(world.live).state.current])
            if content_type is not None:
                headers["Content-Type"] = content_type
            answer = world.client.post(_path(template, world.live), content=body, headers=headers)
            _documented(world, answer, created=True)
            if len(body) > 16 * 1024:
                assert answer.status_code == 413


@pytest.mark.parametrize("media", ["application/x-www-form-urlencoded", "text/plain", "x" * 500])
def test_a_json_body_sent_as_another_media_type_says_which_to_send(
    world: World, media: str
) -> None:
    answer = world.client.post(
        "/api/games", content=b'{"players": 2}', headers={"Content-Type": media}
    )
    error = _documented(world, answer)
    assert answer.status_code == 422 and "Content-Type: application/json" in error["message"]


def test_a_body_sent_in_chunks_past_the_limit_is_413(world: World) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b" " * 1024

    answer = world.client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    _documented(world, answer, created=True)
    assert answer.status_code == 413


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(
    body=st.one_of(
        _JSON_VALUES,
        st.fixed_dictionaries(
            {},
            optional={
                "map": _JSON_VALUES,
                "players": _JSON_VALUES,
                "agents": _JSON_VALUES,
                "seed": _JSON_VALUES,
                "action": _JSON_VALUES,
            },
        ),
    )
)
def test_hypothesis_json_bodies(world: World, body: Any) -> None:
    content = json.dumps(body).encode()
    for _, template, _reads in _POSTS:
        if template == "/api/games" and isinstance(body, dict) and body.get("players") == 2:
            continue  # a valid create is no hostile case (and would fill the store)
        headers = {"Content-Type": "application/json", **_bearer(world.done_tokens[0])}
        answer = world.client.post(_path(template, world.done), content=content, headers=headers)
        _documented(world, answer, created=True)


@given(content=st.binary(max_size=200))
def test_hypothesis_bytes_bodies(world: World, content: bytes) -> None:
    headers = {"Content-Type": "application/json", **_bearer(world.done_tokens[1])}
    answer = world.client.post(f"/api/games/{world.done}/actions", content=content, headers=headers)
    _documented(world, answer)


# --------------------------------------------------------------------------- action texts


@given(text=st.text(max_size=60) | st.sampled_from(["draw blind", "draw 0", "station Wien"]))
def test_hypothesis_action_texts_from_every_seat(world: World, text: str) -> None:
    game = world.game(world.live)
    if game.over:
        return
    to_act = game.state.current
    for seat, token in enumerate(world.live_tokens):
        answer = world.post(world.live, token, text)
        error = _documented(world, answer)
        if seat != to_act:
            assert answer.status_code == 409 and error["reason"] == "not your turn"
        elif answer.status_code == 200:
            return  # the text was an action: the other seat may be to act now


def test_posting_after_the_end(world: World) -> None:
    assert world.game(world.done).over
    for token in world.done_tokens:
        for text in ("draw blind", "pass", "tickets keep 0", "x" * 1000, ""):
            answer = world.post(world.done, token, text)
            error = _documented(world, answer)
            assert answer.status_code in (400, 409), answer.text
            if answer.status_code == 409:
                assert error["error"] == "illegal_action"
    for tail in ("/scores", "/record", "/legal", "/hint"):
        answer = world.client.get(
            f"/api/games/{world.done}{tail}", headers=_bearer(world.done_tokens[0])
        )
        assert answer.status_code == 200


# --------------------------------------------------------------------------- headers


@pytest.mark.parametrize(
    "host",
    [b"\xff", "a" * 10000, ":", "[", "[::1", "::1", "127.0.0.1:abc", "localhost.", "127.1", ""],
)
def test_odd_host_headers_are_unknown_hosts(world: World, host: str | bytes) -> None:
    for method, template, _ in ROUTES:
        answer = world.client.request(method, _path(template, world.live), headers={"Host": host})
        error = _documented(world, answer)
        assert answer.status_code == 400 and error["error"] == "unknown_host"


@pytest.mark.parametrize(
    "last",
    ["9" * 5000, "²", "-1", "abc", "", " 1", "1e3", "0x10", "99999999999999999999", "\t"],
)
def test_odd_last_event_ids(world: World, last: str) -> None:
    for game_id in (world.live, world.done):
        answer = _ask(
            world, "GET", f"/api/games/{game_id}/stream", headers={"Last-Event-ID": last.encode()}
        )
        _documented(world, answer)
        assert answer.status_code == 200


@given(
    headers=st.dictionaries(
        st.sampled_from(
            [
                "Authorization",
                "Last-Event-ID",
                "Content-Type",
                "Accept",
                "Cookie",
                "X-Forwarded-For",
            ]
        ),
        st.binary(max_size=40).filter(lambda b: b"\r" not in b and b"\n" not in b),
        max_size=3,
    )
)
def test_hypothesis_headers(world: World, headers: dict[str, bytes]) -> None:
    for path in (f"/api/games/{world.done}", f"/api/games/{world.done}/stream", "/api/maps"):
        _documented(world, _ask(world, "GET", path, headers=dict(headers)))


# --------------------------------------------------------------------------- races


def test_racing_posts_apply_each_action_at_most_once() -> None:
    async def race() -> None:
        app = create_app(agent_workers=0, games_per_minute=0)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            created = (await client.post("/api/games", json={"players": 2, "seed": 9})).json()
            game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
            game = app.state.store.get(game_id)
            texts = [
                "tickets keep " + ",".join(map(str, game.state.players[seat].offered))
                for seat in (0, 1)
            ]

            async def post(seat: int, text: str) -> httpx.Response:
                return await client.post(
                    f"/api/games/{game_id}/actions",
                    json={"action": text},
                    headers=_bearer(tokens[seat]),
                )

            answers = await asyncio.gather(*(post(s % 2, texts[s % 2]) for s in range(20)))
            assert sum(a.status_code == 200 for a in answers) == 2 == game.seq
            answers = await asyncio.gather(
                *(post(seat, text) for seat in (0, 1) for text in ["draw blind"] * 10)
            )
            ok = sum(a.status_code == 200 for a in answers)
            assert ok == game.seq - 2 >= 1  # every success is one step, and one only
            for answer in answers:
                assert answer.status_code in (200, 409), answer.text
                if answer.status_code == 409:
                    assert answer.json()["error"] == "illegal_action"

    asyncio.run(race())


# --------------------------------------------------------------------------- notation numbers


@pytest.mark.parametrize("field", NUMBER_FIELDS, ids=lambda f: f.name)
def test_every_notation_number_past_its_bound_is_a_400(world: World, field: NumberField) -> None:
    """Issue 44 T1: the seat to act posts each number of the notation (the one table, so a
    new field is swept too) past its bound: one 400 naming the field, nothing built first."""
    game_id, tokens = world.create(map="nordic", seed=8)
    game = world.game(game_id)
    seat = game.state.current
    view, before = game.view(seat), game.state
    for number in (field.bound(view) + 1, 999_999_999):
        for text in field.written(number, view.map):
            answer = world.post(game_id, tokens[seat], text)
            error = _documented(world, answer)
            assert answer.status_code == 400 and error["error"] == "invalid_action", answer.text
            assert field.name in error["message"] and f"got {number}" in error["message"]
    assert game.state is before


def test_a_saved_game_with_a_huge_count_is_not_reloaded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A record in the data folder whose action holds a count of nine digits is skipped and
    logged in one line, at once (it used to build the cards, then fail with MemoryError)."""
    with TestClient(create_app(str(tmp_path), agent_workers=0)) as first:
        game_id = first.post("/api/games", json={"players": 2, "map": "nordic"}).json()["id"]
    record_path = tmp_path / f"{game_id}.record.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    record["actions"] = ["claim #3 red any:99999999blue"]
    record_path.write_text(json.dumps(record), encoding="utf-8")
    store = GameStore(tmp_path, agent_workers=0)
    with caplog.at_level(logging.ERROR):
        assert store.load() == [game_id]
    (logged,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert "substitute cards must be at most 36 on map nordic, got 99999999" in logged
    caplog.clear()  # the error was expected


# --------------------------------------------------------------------------- number fields


class NumberInRequest(NamedTuple):
    """A number field of a request: where it goes and what its OpenAPI schema declares."""

    app: str
    method: str
    path: str
    where: str  # "query", or "body"
    body: dict[str, Any]  # the body around it, with its place left as None
    place: tuple[str, ...]
    type: str  # "integer" or "number"
    low: float | None
    high: float | None

    @property
    def name(self) -> str:
        return self.place[-1]

    def said_in(self, problems: list[str]) -> bool:
        """Whether one of ``problems`` refuses this field with its kind and range as the
        schema declares them (compared as numbers: the OpenAPI document writes an integer's
        bounds as floats)."""
        kind = "a whole number" if self.type == "integer" else "a number"
        number = r"(-?[0-9.]+)"
        if self.low is not None and self.high is not None:
            pattern, bounds = f"{kind} from {number} to {number}", [self.low, self.high]
        elif self.low is not None:
            pattern, bounds = f"{kind} of at least {number}", [self.low]
        elif self.high is not None:
            pattern, bounds = f"{kind} of at most {number}", [self.high]
        else:
            pattern, bounds = kind, []
        for problem in problems:
            match = re.fullmatch(f"{re.escape(self.name)} must be {pattern}", problem)
            if match and [float(g) for g in match.groups()] == [float(b) for b in bounds]:
                return True
        return False

    def bad_values(self) -> list[Any]:
        """Values of the wrong kind (a query's are text) and values just out of range."""
        step = 1 if self.type == "integer" else 0.5
        values: list[Any] = ["x"] if self.where == "query" else ["7", True, [1]]
        values += [self.low - step] if self.low is not None else []
        values += [self.high + step] if self.high is not None else []
        return [*values, 2.5] if self.type == "integer" else values


def _apps(folder: Path) -> dict[str, Any]:
    from ttr_rules.web.editor import create_editor_app, open_workbench

    return {"game": create_app(), "editor": create_editor_app(open_workbench(None, folder))}


def _numbers_of(
    schema: dict[str, Any], defs: dict[str, Any], body: dict[str, Any], place: tuple[str, ...]
) -> Iterator[tuple[dict[str, Any], tuple[str, ...], dict[str, Any]]]:
    """``(body, place, schema)`` of each number field below an object schema; a union told
    apart by a discriminator is walked in each of its forms, the discriminator set."""
    schema = defs[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema
    for name, field in schema.get("properties", {}).items():
        kinds = [k for k in field.get("anyOf", [field]) if k.get("type") != "null"]
        if len(kinds) != 1:
            continue  # a union of kinds (a rule's value) has its own test
        (kind,) = kinds
        if kind.get("type") in ("integer", "number"):
            yield body, (*place, name), kind
        for form in kind.get("oneOf", [kind] if "$ref" in kind else []):
            nested = defs[form["$ref"].rsplit("/", 1)[1]]
            tag = kind.get("discriminator", {}).get("propertyName")
            inner = {tag: nested["properties"][tag]["const"]} if tag else {}
            yield from _numbers_of(nested, defs, {**body, name: inner}, (*place, name))


def _number_fields(folder: Path) -> list[NumberInRequest]:
    found = []
    for app_name, app in _apps(folder).items():
        document = app.openapi()
        defs = document["components"]["schemas"]
        for path, operations in document["paths"].items():
            for method, operation in operations.items():
                for parameter in operation.get("parameters", []):
                    kind = parameter["schema"]
                    if kind.get("type") in ("integer", "number"):
                        found.append(
                            NumberInRequest(
                                app_name,
                                method,
                                path,
                                "query",
                                {},
                                (parameter["name"],),
                                kind["type"],
                                kind.get("minimum"),
                                kind.get("maximum"),
                            )
                        )
                content = operation.get("requestBody", {}).get("content", {})
                schema = content.get("application/json", {}).get("schema")
                if schema is None:
                    continue
                for body, place, kind in _numbers_of(schema, defs, {}, ()):
                    found.append(
                        NumberInRequest(
                            app_name,
                            method,
                            path,
                            "body",
                            body,
                            place,
                            kind["type"],
                            kind.get("minimum"),
                            kind.get("maximum"),
                        )
                    )
    return found


def _with(body: dict[str, Any], place: tuple[str, ...], value: Any) -> dict[str, Any]:
    if len(place) == 1:
        return {**body, place[0]: value}
    return {**body, place[0]: _with(body.get(place[0], {}), place[1:], value)}


def test_every_number_field_is_refused_with_its_kind_and_range(tmp_path: Path) -> None:
    """Each number field of a request (body or query, game API and editor), given a value of
    the wrong kind or out of its range, is refused naming the field, its kind (a whole
    number, or a number for a decimal field) and its range, as its schema declares them."""
    fields = _number_fields(tmp_path)
    decimal = {f.place for f in fields if f.type == "number"}
    assert {("edit", "x"), ("edit", "y")} <= decimal
    assert {("seed",), ("size",), ("since",), ("edit", "length")} <= {f.place for f in fields}
    apps = _apps(tmp_path / "editor")
    with TestClient(apps["game"]) as game_client, TestClient(apps["editor"]) as editor_client:
        clients = {"game": game_client, "editor": editor_client}
        game_id = game_client.post("/api/games", json={"players": 2}).json()["id"]
        for field in fields:
            path = field.path.replace("{game_id}", game_id)
            for value in field.bad_values():
                if field.where == "query":
                    answer = clients[field.app].request(
                        field.method, path, params={field.name: value}
                    )
                else:
                    answer = clients[field.app].request(
                        field.method, path, json=_with(field.body, field.place, value)
                    )
                assert answer.status_code == 422, (field, value, answer.text)
                problems = answer.json()["problems"]
                assert field.said_in(problems), (field, value, problems)
                assert field.type == "integer" or not any("whole" in p for p in problems)


@pytest.mark.parametrize("value", ["7", 1.5, 10**7, [True]])
def test_a_rule_value_says_every_kind_it_takes(tmp_path: Path, value: Any) -> None:
    from ttr_rules.web.editor import create_editor_app, open_workbench

    client = TestClient(create_editor_app(open_workbench(None, tmp_path)))
    edit = {"op": "set_rule", "name": "trains_per_player", "value": value}
    answer = client.post("/api/edit", json={"edit": edit})
    assert answer.status_code == 422
    assert answer.json()["problems"] == [
        "value must be a whole number from -1000000 to 1000000, true, false or null"
    ]
