"""The ASGI application: the JSON game API, the live stream and the page.

Built with FastAPI (the OpenAPI description is served at ``/api/openapi.json`` and browsable at
``/api/docs``). See ``docs/web.md`` for the endpoints, curl examples and the secrecy model.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    Reason,
    load_map,
    to_json,
)
from ..maps import map_groups, map_to_dict
from ..words import counted
from .games import (
    MAX_SEED,
    Game,
    GameNotFoundError,
    GameSetupError,
    GameStore,
    NotYourTurnError,
    SaveError,
    StoreFullError,
    map_unavailable,
)
from .hints import seat_hints
from .labels import describe_legal_actions, panel_words
from .schemas import (
    ERROR_RESPONSES,
    Created,
    GameSummary,
    Hint,
    LegalAction,
    LogStep,
    Number,
    Panels,
    Scores,
    TicketInfo,
    View,
    document_schemas,
    errors,
)

__all__ = [
    "LOCAL_HOSTS",
    "MAX_BODY_BYTES",
    "ApiError",
    "BodyLimit",
    "HostCheck",
    "SecurityHeaders",
    "create_app",
    "install_error_handlers",
]

log = logging.getLogger("ttr_rules.web")

#: The largest request body accepted (bytes); larger ones get 413.
MAX_BODY_BYTES = 16 * 1024

#: The host names always accepted in the ``Host`` header: this machine's, and ``testserver``,
#: the name Starlette's test client sends (no browser page can: it is no site's name).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "testserver")

_JSON = "application/json"
_STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class ApiError(Exception):
    """An error answered as ``{"error": code, "message": text, "reason": ...}``."""

    def __init__(
        self, status: int, code: str, message: str, reason: str | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason
        self.extra = extra

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its fields (``extra`` comes back with the instance's dict).
        return type(self), (self.status, self.code, self.message, self.reason), self.__dict__

    def response(self, headers: Mapping[str, str] | None = None) -> JSONResponse:
        body = {
            "error": self.code,
            "message": self.message,
            "reason": self.reason,
            "problems": [self.message],
            **self.extra,
        }
        headers = dict(headers or {})
        if self.status == 401:
            headers["WWW-Authenticate"] = "Bearer"
        return JSONResponse(body, status_code=self.status, headers=headers or None)


# --------------------------------------------------------------------------- request bodies


class NewGame(BaseModel):
    """``POST /api/games``: seats not named in ``agents`` are played by humans."""

    model_config = ConfigDict(extra="forbid", strict=True)

    map: str = Field("europe", max_length=100, description="an installed map (GET /api/maps)")
    players: int = Field(2, description="how many play: 2 to 5 on europe (the map's rules say)")
    agents: dict[Annotated[str, Field(max_length=3)], Annotated[str, Field(max_length=100)]] = (
        Field(
            default_factory=dict,
            description='seat number (as a string) -> agent name, e.g. {"1": "greedy"}',
            max_length=10,
        )
    )
    seed: Annotated[int, Number(0, MAX_SEED)] | None = Field(
        None, description="deals the game; omitted: a secret random seed"
    )


class NewAction(BaseModel):
    """``POST /api/games/{id}/actions``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: str = Field(
        max_length=1000, description="text notation, e.g. 'draw blind', 'claim Madrid-Pamplona'"
    )


# --------------------------------------------------------------------------- middleware


class BodyLimit:
    """Refuse request bodies larger than ``limit`` bytes with 413, whether announced by
    ``Content-Length`` or streamed (the body is read at most ``limit + 1`` bytes far)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        too_big = ApiError(
            413, "body_too_large", f"request bodies are limited to {self.limit} bytes"
        )
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = self.limit + 1
                if announced > self.limit:
                    await too_big.response()(scope, receive, send)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await too_big.response()(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            if _is_json(scope):  # a file of another type is the endpoint's to word
                malformed = ApiError(400, "malformed_json", "the request body is not UTF-8 JSON")
                await malformed.response()(scope, receive, send)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _is_json(scope: Scope) -> bool:
    """Whether a request's body is JSON by its ``Content-Type`` (or has none)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            media = value.partition(b";")[0].strip().lower()
            return media in (b"", b"application/json")
    return True


class HeadAsGet:
    """Answer ``HEAD`` as the ``GET`` of the same path without its body (RFC 9110: a server
    that answers GET answers HEAD), a stream included: once its headers are out the stream is
    told the client left, so it ends."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        started = False
        finished = False

        async def headers_only(message: Message) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
                await send(message)
            elif message["type"] == "http.response.body" and not finished:
                finished = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def until_answered() -> Message:
            if started:
                return {"type": "http.disconnect"}
            return await receive()

        await self.app({**scope, "method": "GET"}, until_answered, headers_only)


class HostCheck:
    """Answer 400 ``unknown_host`` to a request whose ``Host`` header names no address this
    server serves (a web page of another site reaching a local server by DNS rebinding sends
    its own host name)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and _host_name(scope) not in self.allowed:
            refused = ApiError(
                400, "unknown_host", "this server does not serve the host named in the request"
            )
            await refused.response()(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _host_name(scope: Scope) -> str:
    """The host of the request's ``Host`` header, lower-case, without its port; the whole
    header when its port is not a number or a ``[`` is not closed (no host is named so).

    >>> _host_name({"headers": [(b"host", b"LOCALHOST:8000")]})
    'localhost'
    >>> _host_name({"headers": [(b"host", b"[::1]:80")]}), _host_name({"headers": []})
    ('[::1]', '')
    >>> _host_name({"headers": [(b"host", b"[::1")]})
    '[::1'
    """
    for name, value in scope.get("headers", ()):
        if name == b"host":
            host: str = bytes(value).decode("latin-1").strip().lower()
            if host.startswith("["):
                address, bracket, port = host.partition("]")
                if not bracket or (port and not port.startswith(":")):
                    return host
                name_only, port = address + bracket, port[1:]
            elif host.count(":") == 1:
                name_only, _, port = host.partition(":")
            else:
                return host
            return name_only if port == "" or _is_count(port) else host
    return ""


class CreationLimit:
    """At most ``per_minute`` games created per client address, in bursts of ``burst`` (a
    token bucket per address)."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def wait(self, client: str, now: float | None = None) -> float:
        """0 when ``client`` may create a game now (one is counted), else the seconds until
        it may."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        if len(self._buckets) > 10_000:  # forget full buckets: they are the default
            self._buckets = {
                k: v for k, v in self._buckets.items() if self._level(v, now) < self.burst
            }
        level = self._level(self._buckets.get(client, (float(self.burst), now)), now)
        if level < 1.0:
            return (1.0 - level) / self.rate
        self._buckets[client] = (level - 1.0, now)
        return 0.0

    def _level(self, bucket: tuple[float, float], now: float) -> float:
        tokens, then = bucket
        return min(float(self.burst), tokens + (now - then) * self.rate)


# --------------------------------------------------------------------------- dependencies


def find_game(request: Request, game_id: str) -> Game:
    store: GameStore = request.app.state.store
    try:
        game = store.get(game_id)
    except GameNotFoundError:
        raise ApiError(404, "game_not_found", f"no game {game_id[:100]!r}") from None
    game.touch()
    return game


GameDep = Annotated[Game, Depends(find_game)]


def seat_of(game: GameDep, authorization: Annotated[str | None, Header()] = None) -> int | None:
    """None for a spectator (no Authorization header), the seat of a valid token, 401 for a
    header that is not ``Bearer TOKEN``, 403 for a token of no seat of this game."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_authorization", "expected 'Authorization: Bearer TOKEN'")
    seat = game.seat_of(token.strip())
    if seat is None:
        raise ApiError(403, "forbidden", "this token is not a seat of this game")
    return seat


SeatDep = Annotated[int | None, Depends(seat_of)]


def require_seat(seat: SeatDep) -> int:
    """The seat of the request's token; 401 without one."""
    if seat is None:
        raise ApiError(401, "token_required", "send 'Authorization: Bearer TOKEN' of your seat")
    return seat


PlayerDep = Annotated[int, Depends(require_seat)]


class SecurityHeaders:
    """Add ``nosniff``, ``no-referrer`` and ``DENY`` framing headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [
                    (name.lower().encode(), value.encode())
                    for name, value in _SECURITY_HEADERS.items()
                    if name.lower().encode() not in names
                ]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


# --------------------------------------------------------------------------- the app


def _static(name: str) -> bytes:
    return files("ttr_rules.web").joinpath("static", name).read_bytes()


#: Swagger UI's files that /api/docs needs, with their media types.
_DOCS_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
}


def _install_docs(app: FastAPI) -> None:
    """``/api/docs``: Swagger UI 5 from the swagger-ui-py package (the ``web`` extra), so the
    page works without reaching any other host; without that package there is no
    ``/api/docs`` (the schema stays at ``/api/openapi.json``)."""
    if importlib.util.find_spec("swagger_ui") is None:
        return
    from fastapi.openapi.docs import get_swagger_ui_html

    assets = files("swagger_ui").joinpath("static")

    @app.get("/api/docs", include_in_schema=False)
    def docs() -> Response:
        return get_swagger_ui_html(
            openapi_url="/api/openapi.json",
            title="ttr-rules web API",
            swagger_js_url="/api/docs/assets/swagger-ui-bundle.js",
            swagger_css_url="/api/docs/assets/swagger-ui.css",
            swagger_favicon_url="/api/docs/assets/favicon-32x32.png",
        )

    @app.get("/api/docs/assets/{name}", include_in_schema=False)
    def docs_asset(name: str) -> Response:
        if name not in _DOCS_ASSETS:
            raise ApiError(404, "not_found", f"no documentation file {name[:100]!r}")
        return Response(
            assets.joinpath(name).read_bytes(),
            media_type=_DOCS_ASSETS[name],
            headers={"Cache-Control": "public, max-age=86400"},
        )


def _view_response(game: Game, seat: int | None) -> Response:
    return Response(
        to_json(game.view(seat)), media_type=_JSON, headers={"Cache-Control": "no-store"}
    )


_VIEW_DOC: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the seat's view, `to_json(observe(state, seat))` (the spectator view "
        "`to_json(public_view(state))` without a token); read it with "
        "`from_json(text, PlayerView, map=...)`",
        "model": View,
    }
}


def create_app(
    data_dir: str | None = None,
    *,
    max_games: int = 1000,
    agent_delay: float = 0.0,
    agent_workers: int = 2,
    move_seconds: float = 30.0,
    idle_seconds: float | None = 24 * 3600.0,
    games_per_minute: float = 60.0,
    games_burst: int = 60,
    allowed_hosts: tuple[str, ...] = (),
) -> FastAPI:
    """A new ASGI application with its own games (in memory; saved as records under
    ``data_dir`` and reloaded from there on start when given).

    ``agent_delay`` seconds pass before each agent move (so a person can follow the game);
    agents think in ``agent_workers`` processes (0: a thread), ``move_seconds`` at most per
    move; unfinished games untouched for ``idle_seconds`` expire (None: never); a client
    address creates at most ``games_per_minute`` games (bursts of ``games_burst``; 0: no
    limit). Requests must name one of :data:`LOCAL_HOSTS` or ``allowed_hosts`` in ``Host``
    (``"*"`` accepts any). Raises ``DataDirError`` for a ``data_dir`` that cannot hold games.
    """
    store = GameStore(
        data_dir,
        max_games=max_games,
        agent_delay=agent_delay,
        agent_workers=agent_workers,
        move_seconds=move_seconds,
        idle_seconds=idle_seconds,
    )
    limit = CreationLimit(games_per_minute, games_burst)

    async def expire_now_and_then() -> None:
        assert store.idle_seconds is not None
        while True:
            await asyncio.sleep(min(60.0, max(0.05, store.idle_seconds / 4)))
            store.expire()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.offer)  # plugins are imported here, off the event loop
        failed = store.load()
        if failed:
            games = counted(len(failed), "saved game")
            log.warning("%s could not be reloaded: %s", games, ", ".join(failed))
        store.resume()
        expiry = None if idle_seconds is None else asyncio.create_task(expire_now_and_then())
        yield
        if expiry is not None:
            expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await expiry
        await store.close()

    app = FastAPI(
        title="ttr-rules web API",
        version="1",
        description="Play Ticket to Ride games (any installed board) held by the server; each "
        "seat sees only its own view. Authenticate a seat with `Authorization: Bearer TOKEN`.",
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url=None,  # served below from the package's own copy of Swagger UI
        redoc_url=None,
    )
    app.state.store = store
    app.add_middleware(BodyLimit)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)
    if "*" not in allowed_hosts:
        hosts = frozenset(h.lower() for h in (*LOCAL_HOSTS, *allowed_hosts))
        app.add_middleware(HostCheck, allowed=hosts)

    install_error_handlers(app)
    _install_openapi(app)

    # ----------------------------------------------------------------- page

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return Response(_static("index.html"), media_type="text/html; charset=utf-8")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        if name not in _STATIC:
            raise ApiError(404, "not_found", f"no static file {name[:100]!r}")
        return Response(_static(name), media_type=_STATIC[name])

    _install_docs(app)

    # ----------------------------------------------------------------- catalogue

    @app.get("/api/maps", summary="The maps a game can be played on", responses=ERROR_RESPONSES)
    def maps() -> list[str]:
        return list(store.offer().maps)  # installed plugins that fail to load are left out

    @app.get(
        "/api/map-groups",
        summary="The maps grouped by board: each board, then its variants (other ticket decks)",
        responses=ERROR_RESPONSES,
    )
    def map_group_list() -> list[dict[str, Any]]:
        groups = map_groups(store.offer().maps)
        return [{"board": board, "maps": list(names)} for board, names in groups]

    @app.get(
        "/api/maps/{name}",
        summary="A map, in the map-file format",
        response_class=Response,
        responses={
            200: {
                "description": "the map file (docs/map-format.md): what `load_map_file` and "
                "`ttr validate-map` read, so a client can rebuild the map with "
                "`parse_map_text(text)` and read views with `from_json(text, PlayerView, "
                "map=...)`; route and ticket ids are positions in the lists; the ETag is the "
                "map's digest",
                "content": {_JSON: {"schema": {"$ref": "#/components/schemas/MapFile"}}},
            },
            **ERROR_RESPONSES,
        },
    )
    def map_data(name: str) -> Response:
        offered = store.offer().maps
        if name not in offered:
            raise ApiError(404, "map_not_found", map_unavailable(name, offered))
        game_map = load_map(name)
        return Response(
            json.dumps(map_to_dict(game_map), ensure_ascii=False),
            media_type=_JSON,
            headers={"ETag": f'"{game_map.digest}"'},
        )

    @app.get("/api/agents", summary="Agents a seat can be given", responses=ERROR_RESPONSES)
    def agents() -> list[str]:
        return list(store.offer().agents)

    # ----------------------------------------------------------------- games

    @app.get(
        "/api/games",
        summary="Games on this server (public facts only)",
        response_model=list[GameSummary],
        responses=ERROR_RESPONSES,
    )
    def list_games() -> list[dict[str, Any]]:
        return [game.summary() for game in store.games.values()]

    @app.post(
        "/api/games",
        status_code=201,
        summary="Create a game",
        response_model=Created,
        responses=errors(413, 429, 503),
    )
    async def create_game(request: Request, body: NewGame) -> Response:
        seats: dict[int, str] = {}
        for key, name in body.agents.items():
            if not (key.isascii() and key.isdigit()):
                problem = f"body.agents: the key {key!r} is not a seat number"
                raise ApiError(422, "invalid_request", problem, problems=[problem])
            seats[int(key)] = name
        wait = limit.wait(request.client.host if request.client else "")
        if wait:
            seconds = math.ceil(wait)
            return ApiError(
                429,
                "too_many_games",
                f"too many games created from your address; try again in {seconds} "
                + ("second" if seconds == 1 else "seconds"),
            ).response({"Retry-After": str(seconds)})
        try:
            game, tokens = store.create(body.map, body.players, seats, body.seed)
        except GameSetupError as exc:
            raise ApiError(422, "invalid_game", str(exc)) from None
        except StoreFullError as exc:
            raise ApiError(503, "server_full", str(exc)) from None
        except SaveError as exc:
            raise ApiError(
                503, "save_failed", f"the game could not be saved: {exc.strerror}"
            ) from None
        created = {
            "id": game.id,
            "seats": [{"seat": seat, "token": token} for seat, token in sorted(tokens.items())],
        }
        return JSONResponse(created, status_code=201)

    @app.get(
        "/api/games/{game_id}",
        summary="The view of your seat",
        responses={**_VIEW_DOC, **errors(401, 403)},
    )
    def get_view(game: GameDep, seat: SeatDep) -> Response:
        return _view_response(game, seat)

    @app.get(
        "/api/games/{game_id}/info",
        summary="Public facts about a game",
        response_model=GameSummary,
        responses=ERROR_RESPONSES,
    )
    def info(game: GameDep) -> dict[str, Any]:
        return game.summary()

    @app.post(
        "/api/games/{game_id}/actions",
        summary="Play an action for your seat",
        responses={**_VIEW_DOC, **errors(401, 403, 409, 413, 503)},
    )
    async def post_action(game: GameDep, seat: PlayerDep, body: NewAction) -> Response:
        try:
            await store.act(game, seat, body.action)
        except NotYourTurnError as exc:
            # the library's reason, answered before the text is read (so it reveals nothing)
            raise ApiError(
                409, "illegal_action", str(exc), reason=Reason.NOT_YOUR_TURN.value
            ) from None
        except SaveError as exc:
            raise ApiError(
                503,
                "save_failed",
                f"the action was not played: the server cannot save the game ({exc.strerror})",
            ) from None
        except AmbiguousActionError as exc:
            raise ApiError(400, "ambiguous_action", str(exc)) from None
        except InvalidActionError as exc:
            raise ApiError(400, "invalid_action", str(exc)) from None
        except IllegalActionError as exc:
            raise ApiError(
                409,
                "illegal_action",
                str(exc),
                reason=exc.reason.value,
                action=str(exc.action),
            ) from None
        return _view_response(game, seat)

    @app.get(
        "/api/games/{game_id}/legal",
        summary="Your legal actions (notation and labels)",
        response_model=list[LegalAction],
        responses=errors(401, 403),
    )
    def legal(game: GameDep, seat: PlayerDep) -> list[dict[str, Any]]:
        state = game.state
        if game.over or state.current != seat:
            return []
        return describe_legal_actions(state)

    @app.get(
        "/api/games/{game_id}/hint",
        summary="What a good player would do now, and why",
        response_model=list[Hint],
        responses=errors(401, 403),
    )
    def hint(game: GameDep, seat: PlayerDep) -> list[dict[str, Any]]:
        return [] if game.over else seat_hints(game.state, seat)

    @app.get(
        "/api/games/{game_id}/tickets",
        summary="Your tickets, with cities and progress",
        response_model=list[TicketInfo],
        responses=errors(401, 403),
    )
    def tickets(game: GameDep, seat: PlayerDep) -> list[dict[str, Any]]:
        return game.tickets(seat)

    @app.get(
        "/api/games/{game_id}/log",
        summary="The steps so far, as your seat may see them",
        response_model=list[LogStep],
        responses=errors(401, 403),
    )
    def game_log(
        game: GameDep, seat: SeatDep, since: Annotated[int, Query(), Number(0)] = 0
    ) -> list[dict[str, Any]]:
        return game.log(seat, since)

    @app.get(
        "/api/games/{game_id}/panels",
        summary="The tunnel and payment under way, in words for your seat",
        response_model=Panels,
        responses=errors(401, 403),
    )
    def panels(game: GameDep, seat: SeatDep) -> dict[str, Any]:
        return panel_words(game.view(seat), game.agents)

    @app.get(
        "/api/games/{game_id}/scores",
        summary="Final scores (once the game is over)",
        response_model=Scores,
        responses=errors(409),
    )
    def scores(game: GameDep, seat: SeatDep) -> dict[str, Any]:
        if not game.over:
            raise ApiError(409, "game_not_over", "scores are shown when the game is over")
        return game.scores(seat)

    @app.get(
        "/api/games/{game_id}/record",
        summary="The game record (once the game is over)",
        response_class=Response,
        responses={
            200: {
                "description": "the record (record.schema.json), as `ttr replay` reads it",
                "content": {_JSON: {"schema": {"$ref": "#/components/schemas/GameRecord"}}},
            },
            **errors(409),
        },
    )
    def record(game: GameDep) -> Response:
        if not game.over:
            raise ApiError(
                409, "game_not_over", "the record (with its seed) is hidden until the end"
            )
        return Response(
            to_json(game.record(), indent=2),
            media_type=_JSON,
            headers={"Content-Disposition": f'attachment; filename="{game.id}.record.json"'},
        )

    @app.get(
        "/api/games/{game_id}/board.svg",
        summary="The board as your seat sees it (SVG)",
        response_class=Response,
        responses={
            200: {"description": "an SVG document", "content": {"image/svg+xml": {}}},
            **errors(401, 403),
        },
    )
    def board(
        game: GameDep,
        seat: SeatDep,
        legend: bool = True,
        size: Annotated[int, Query(), Number(200, 4000)] = 900,
        symbols: bool = Query(False, description="draw the card symbols (colour-blind mode)"),
    ) -> Response:
        from ..render import svg

        return Response(
            svg(game.view(seat), size=size, legend=legend, symbols=symbols),
            media_type="image/svg+xml",
            headers={"Cache-Control": "no-store"},
        )

    @app.get(
        "/api/games/{game_id}/stream",
        summary="Live updates (Server-Sent Events)",
        response_class=Response,
        responses={
            200: {
                "description": "`update` events: {seq, steps, view, over, agent_error}; a "
                "last `closed` event {seq, reason} when the server lets the game go (it "
                "expired)",
                "content": {"text/event-stream": {}},
            },
            **errors(401, 403),
        },
    )
    async def stream(
        request: Request,
        game: GameDep,
        seat: SeatDep,
        since: Annotated[int, Query(), Number(0)] = 0,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> EventSourceResponse:
        if last_event_id is not None and _is_count(last_event_id):
            since = int(last_event_id)  # anything else is ignored, as browsers never send it

        async def updates() -> AsyncIterator[ServerSentEvent]:
            sent = min(since, game.seq)
            first = True
            while True:
                if game.closed is not None:  # the server let the game go: say so, and end
                    gone = {"seq": sent, "reason": game.closed}
                    yield ServerSentEvent(data=json.dumps(gone), event="closed", id=str(sent))
                    return
                if first or game.seq > sent:
                    first = False
                    steps = game.log(seat, sent)
                    sent += len(steps)
                    data = {
                        "seq": sent,
                        "steps": steps,
                        "view": json.loads(to_json(game.view(seat))),
                        "over": game.over,
                        "agent_error": game.agent_error,
                    }
                    yield ServerSentEvent(data=json.dumps(data), event="update", id=str(sent))
                    if game.over:
                        return
                if await request.is_disconnected():
                    return
                await game.wait_change(sent, timeout=10.0)

        return EventSourceResponse(updates(), ping=15, headers={"Cache-Control": "no-store"})

    return app


def _printable(part: object) -> str:
    """A part of a request's field path as a message shows it (a key with a newline quoted).

    >>> _printable("agents"), _printable(0), _printable("a\\nb")
    ('agents', '0', "'a\\\\nb'")
    """
    text = str(part)
    return text if text.isprintable() else repr(text)


#: Pydantic's error types for a value that is not a whole number, and for one that is not a
#: number (fields declared with :class:`~.schemas.Number` say their own words).
_WHOLE_NUMBER_ERRORS = frozenset({"int_type", "int_parsing", "int_from_float", "int_parsing_size"})
_NUMBER_ERRORS = {"float_type": "a number", "float_parsing": "a number", "finite_number": "finite"}
#: Pydantic's range errors: their bound's words.
_BOUNDS = {
    "greater_than_equal": ("ge", "of at least"),
    "greater_than": ("gt", "more than"),
    "less_than_equal": ("le", "of at most"),
    "less_than": ("lt", "less than"),
}
#: Pydantic's other common error types, in words: what the field must be.
_KIND_WORDS = {
    "string_type": "text",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "an object of named fields",
    "model_type": "an object of named fields",
    "model_attributes_type": "an object of named fields",
}
#: Pydantic's length errors: their bound's words and what is counted.
_LENGTHS = {
    "string_too_short": ("min_length", "at least", "character"),
    "string_too_long": ("max_length", "at most", "character"),
    "too_short": ("min_length", "at least", "item"),
    "too_long": ("max_length", "at most", "item"),
}
#: The parts of a field's path that name where it was sent, not the field.
_PLACES = frozenset({"body", "query", "path", "header", "cookie"})


def _problem(error: Mapping[str, Any]) -> str:
    """One validation problem in words: ``body.map: String should have at most 100
    characters``; a number field is named with what it takes, as people read it (``seed
    must be a whole number from 0 to 9223372036854775807``; ``x must be a number from 0 to
    1``).

    >>> _problem({"type": "number", "loc": ("body", "x"), "ctx": {"expected": "a number"}})
    'x must be a number'
    >>> _problem({"type": "int_from_float", "loc": ("body", "edit", "games"), "msg": "..."})
    'games must be a whole number'
    >>> _problem({"type": "greater_than", "loc": ("body", "scale"), "ctx": {"gt": 0}})
    'scale must be a number more than 0'
    >>> _problem({"type": "missing", "loc": ("body", "action"), "msg": "Field required"})
    'action is missing'
    >>> _problem({"type": "extra_forbidden", "loc": ("body", "edit", "destinations", 0, "x")})
    'edit.destinations.0.x is not a field this request takes'
    >>> _problem({"type": "too_long", "loc": ("body", "agents"), "ctx": {"max_length": 1}})
    'agents must have at most 1 item'
    >>> _problem({"type": "string_type", "loc": ("body", "map")})
    'map must be text'
    """
    loc = tuple(error.get("loc", ()))
    kind = error.get("type")
    ctx = error.get("ctx") or {}
    if loc and kind == "number":
        return f"{_printable(loc[-1])} must be {ctx.get('expected', 'a number')}"
    if loc and kind in _WHOLE_NUMBER_ERRORS:
        return f"{_printable(loc[-1])} must be a whole number"
    if loc and kind in _NUMBER_ERRORS:
        return f"{_printable(loc[-1])} must be {_NUMBER_ERRORS[str(kind)]}"
    if loc and kind in _BOUNDS:
        key, words = _BOUNDS[str(kind)]
        return f"{_printable(loc[-1])} must be a number {words} {ctx.get(key, '?')}"
    path = ".".join(_printable(p) for p in (loc[1:] if loc and loc[0] in _PLACES else loc))
    if path and kind == "missing":
        return f"{path} is missing"
    if path and kind == "extra_forbidden":
        return f"{path} is not a field this request takes"
    if loc and kind in _KIND_WORDS:
        return f"{_printable(loc[-1])} must be {_KIND_WORDS[str(kind)]}"
    if loc and kind in _LENGTHS and isinstance(ctx.get(_LENGTHS[str(kind)][0]), int):
        key, words, unit = _LENGTHS[str(kind)]
        count = ctx[key]
        return f"{_printable(loc[-1])} must have {words} {count} {unit}{'' if count == 1 else 's'}"
    return f"{'.'.join(_printable(p) for p in loc)}: {error.get('msg', 'invalid')}"


def _is_count(text: str) -> bool:
    """ASCII digits, not too many (``"²"`` is ``isdigit()``; 5,000 digits are no step)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


#: Python's JSON decoder refuses what is valid JSON but beyond its limits.
_UNREADABLE_JSON = (
    "the request body cannot be read as JSON (nested too deeply, or a number too long)"
)


def _install_openapi(app: FastAPI) -> None:
    """The OpenAPI document with the library's own document schemas (the map file, the game
    record) among its components, where the operations refer to them."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            schema.setdefault("components", {}).setdefault("schemas", {}).update(document_schemas())
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error as ``{"error", "message", "problems"}`` in words (never a trace)."""

    async def api_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return exc.response()

    async def http_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400:  # FastAPI's answer to a body its JSON decoder gave up on
            return ApiError(400, "malformed_json", _UNREADABLE_JSON).response()
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return ApiError(exc.status_code, code, str(exc.detail)).response(exc.headers)

    async def validation_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return ApiError(400, "malformed_json", "the request body is not valid JSON").response()
        media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if media not in ("", "application/json") and any(e.get("loc") == ("body",) for e in errors):
            problem = (
                f"send the body as JSON with 'Content-Type: application/json', not {media[:100]!r}"
            )
            return ApiError(422, "invalid_request", problem, problems=[problem]).response()
        problems = [_problem(e) for e in errors]
        return ApiError(
            422, "invalid_request", "; ".join(problems) or "invalid request", problems=problems
        ).response()

    async def internal_error(_: Request, exc: Exception) -> Response:
        log.error("internal error", exc_info=exc)
        return ApiError(500, "internal_error", "internal server error").response()

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(Exception, internal_error)
