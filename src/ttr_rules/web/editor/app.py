"""The workbench's ASGI app: the page, and a JSON API on one :class:`~.workbench.Workbench`.

The same doors as ``ttr serve``: bodies are size-limited (:data:`MAX_EDIT_BYTES`), requests
must name this machine in ``Host``, and every error is answered in words.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..api import (
    LOCAL_HOSTS,
    ApiError,
    BodyLimit,
    HostCheck,
    SecurityHeaders,
    install_error_handlers,
)
from ..schemas import Number
from . import edits
from .imports import MAX_UPLOAD_BYTES, import_csv, map_document
from .layout import MAX_BEND
from .playtest import MAX_GAMES, PlayTest
from .plugin import plugin_zip
from .workbench import BACKGROUND_TYPES, ROUTE_COLORS, EditError, Workbench

__all__ = ["MAX_EDIT_BYTES", "create_editor_app"]

#: The largest request body accepted: an import's file (an edit is a few hundred bytes and
#: its fields are bounded by the request models).
MAX_EDIT_BYTES = MAX_UPLOAD_BYTES

_PAGES = {
    "editor.js": "text/javascript; charset=utf-8",
    "editor.css": "text/css; charset=utf-8",
}

#: A city's name: printable, no control characters, 1 to 60 characters.
CityName = Annotated[
    str, StringConstraints(min_length=1, max_length=60, pattern=r"^[^\x00-\x1f\x7f]+$")
]
Index = Annotated[int, Number(0, 100_000)]
Length = Annotated[int, Number(1, 20)]
#: A place on the board: a fraction of its width or height.
Fraction = Annotated[float, Number(0, 1)]


class _Edit(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AddCity(_Edit):
    op: Literal["add_city"]
    name: CityName
    x: Fraction
    y: Fraction


class MoveCity(_Edit):
    op: Literal["move_city"]
    name: CityName
    x: Fraction
    y: Fraction


class RenameCity(_Edit):
    op: Literal["rename_city"]
    name: CityName
    to: CityName


class DeleteCity(_Edit):
    op: Literal["delete_city"]
    name: CityName


class RouteFields(_Edit):
    length: Length | None = None
    color: Literal[ROUTE_COLORS] | None = None  # type: ignore[valid-type]
    tunnel: bool | None = None
    ferry_locomotives: Annotated[int, Number(0, 20)] | None = None
    mountain: Annotated[int, Number(0, 20)] | None = None

    def given(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class AddRoute(RouteFields):
    op: Literal["add_route"]
    a: CityName
    b: CityName


class UpdateRoute(RouteFields):
    op: Literal["update_route"]
    index: Index


class DeleteRoute(_Edit):
    op: Literal["delete_route"]
    index: Index


class BendRoute(_Edit):
    op: Literal["bend_route"]
    index: Index
    bend: Annotated[float, Number(-MAX_BEND, MAX_BEND)]


class LaySpaces(_Edit):
    op: Literal["lay_spaces"]
    on: bool


Points = Annotated[int, Number(1, 100)]


class AddTicket(_Edit):
    op: Literal["add_ticket"]
    a: CityName
    b: CityName
    points: Points | None = None


class Destination(_Edit):
    to: CityName
    points: Points | None = None


class SetTicket(_Edit):
    op: Literal["set_ticket"]
    index: Index
    a: CityName
    destinations: Annotated[list[Destination], Field(min_length=1, max_length=20)]
    long: bool = False


class SetCountry(_Edit):
    op: Literal["set_country"]
    name: CityName
    to: CityName | None = None
    places: Annotated[list[CityName], Field(min_length=1, max_length=50)]


class DeleteCountry(_Edit):
    op: Literal["delete_country"]
    name: CityName


class UpdateTicket(_Edit):
    op: Literal["update_ticket"]
    index: Index
    points: Points
    long: bool = False


class DeleteTicket(_Edit):
    op: Literal["delete_ticket"]
    index: Index


class SetDetails(_Edit):
    op: Literal["set_details"]
    name: Annotated[
        str, StringConstraints(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9_.-]*$")
    ]
    title: Annotated[str, StringConstraints(max_length=100, pattern=r"^[^\x00-\x1f\x7f]*$")]
    version: Annotated[
        str, StringConstraints(min_length=1, max_length=20, pattern=r"^[A-Za-z0-9.+-]+$")
    ]


class SetRule(_Edit):
    op: Literal["set_rule"]
    name: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    value: Annotated[int | bool | None, Number(-1_000_000, 1_000_000, also="true, false or null")]


Edit = Annotated[
    SetRule
    | AddCity
    | MoveCity
    | RenameCity
    | DeleteCity
    | AddRoute
    | UpdateRoute
    | DeleteRoute
    | BendRoute
    | LaySpaces
    | AddTicket
    | UpdateTicket
    | SetTicket
    | DeleteTicket
    | SetCountry
    | DeleteCountry
    | SetDetails,
    Field(discriminator="op"),
]


class EditRequest(BaseModel):
    """``POST /api/edit``: one edit, named by ``op``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    edit: Edit


#: An agent's name as typed (checked against the agents there are, in words).
AgentName = Annotated[str, StringConstraints(max_length=40)]


class NewPlayTest(BaseModel):
    """``POST /api/playtest``: games between these agents (one per seat, in seat order)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    games: Annotated[int, Number(1, MAX_GAMES)] = 20
    agents: Annotated[list[AgentName], Field(max_length=10)] = ["greedy", "greedy"]
    seed: Annotated[int, Number(0, 2**31)] = 0


class NewBackground(BaseModel):
    """``POST /api/background``: an image (PNG, JPEG or SVG), base64-encoded."""

    model_config = ConfigDict(extra="forbid", strict=True)

    data: Annotated[str, StringConstraints(max_length=MAX_UPLOAD_BYTES)]


class PlaceBackground(BaseModel):
    """``PUT /api/background/place``: where the background lies (fractions of the frame)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    x: Annotated[float, Number(-1, 1)] | None = None
    y: Annotated[float, Number(-1, 1)] | None = None
    scale: Annotated[float, Number(0.1, 10)] | None = None
    locked: bool | None = None


def _change(edit: BaseModel) -> Callable[[dict[str, Any]], None]:
    """The document change an edit request makes."""
    e: Any = edit
    changes: dict[type[BaseModel], Callable[[dict[str, Any]], None]] = {
        AddCity: lambda d: edits.add_city(d, e.name, e.x, e.y),
        MoveCity: lambda d: edits.move_city(d, e.name, e.x, e.y),
        RenameCity: lambda d: edits.rename_city(d, e.name, e.to),
        DeleteCity: lambda d: edits.delete_city(d, e.name),
        AddRoute: lambda d: edits.add_route(d, e.a, e.b, e.given()),
        UpdateRoute: lambda d: edits.update_route(d, e.index, e.given()),
        DeleteRoute: lambda d: edits.delete_route(d, e.index),
        BendRoute: lambda d: edits.bend_route(d, e.index, e.bend),
        LaySpaces: lambda d: edits.lay_spaces(d, e.on),
        AddTicket: lambda d: edits.add_ticket(d, e.a, e.b, e.points),
        UpdateTicket: lambda d: edits.update_ticket(d, e.index, e.points, e.long),
        SetTicket: lambda d: edits.set_ticket(
            d, e.index, e.a, [(x.to, x.points) for x in e.destinations], e.long
        ),
        DeleteTicket: lambda d: edits.delete_ticket(d, e.index),
        SetCountry: lambda d: edits.set_country(d, e.name, e.to or e.name, e.places),
        DeleteCountry: lambda d: edits.delete_country(d, e.name),
        SetDetails: lambda d: edits.set_details(d, e.name, e.title, e.version),
        SetRule: lambda d: edits.set_rule(d, e.name, e.value),
    }
    return changes[type(edit)]


def _static(name: str) -> bytes:
    return files("ttr_rules.web.editor").joinpath("static", name).read_bytes()


def _json(value: Any) -> Response:
    return Response(
        json.dumps(value, ensure_ascii=False),
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def create_editor_app(bench: Workbench, allowed_hosts: tuple[str, ...] = ()) -> FastAPI:
    """The workbench's app on ``bench``; requests must name one of the local hosts (or
    ``allowed_hosts``) in ``Host``."""
    app = FastAPI(
        title="ttr-rules map workbench",
        version="1",
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(BodyLimit, limit=MAX_EDIT_BYTES)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(
        HostCheck, allowed=frozenset(h.lower() for h in (*LOCAL_HOSTS, *allowed_hosts))
    )
    install_error_handlers(app)
    _word_text_fields(app)

    def answer(change: Callable[[], None]) -> Response:
        with bench.lock:
            try:
                change()
            except EditError as exc:
                raise ApiError(422, "invalid_edit", str(exc)) from None
            except OSError as exc:
                raise ApiError(500, "cannot_write", f"{bench.path.name}: {exc.strerror}") from None
            return _json(bench.state())

    @app.get("/", include_in_schema=False)
    def page() -> Response:
        return Response(_static("editor.html"), media_type="text/html; charset=utf-8")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        if name not in _PAGES:
            raise ApiError(404, "not_found", "no such file")
        return Response(_static(name), media_type=_PAGES[name])

    @app.post("/api/import/map", summary="Replace the map by a map file's (undo takes it back)")
    async def import_map(request: Request) -> Response:
        text = await _text(request)
        return answer(lambda: bench.apply(lambda d: _replace(d, map_document(text))))

    @app.post("/api/import/{kind}", summary="Add routes or tickets from CSV with a header row")
    async def import_rows(kind: str, request: Request) -> Response:
        if kind not in ("routes", "tickets"):
            raise ApiError(404, "not_found", "import 'map', 'routes' or 'tickets'")
        text = await _text(request)
        return answer(lambda: bench.apply(lambda d: import_csv(d, text, kind)))

    @app.post("/api/background", summary="Keep an image beside the map file as its background")
    def set_background(body: NewBackground) -> Response:
        try:
            data = base64.b64decode(body.data, validate=True)
        except ValueError:
            raise ApiError(422, "invalid_image", "the image is not base64") from None
        return answer(lambda: bench.set_background(data))

    @app.delete("/api/background", summary="Remove the background image")
    def remove_background() -> Response:
        return answer(lambda: bench.set_background(None))

    @app.put("/api/background/place", summary="Move, scale or lock the background image")
    def place_background(body: PlaceBackground) -> Response:
        return answer(lambda: bench.place_background(body.model_dump(exclude_none=True)))

    @app.get("/api/background", summary="The background image")
    def background() -> Response:
        with bench.lock:
            path = bench.background()
            if path is None:
                raise ApiError(404, "no_background", "the map has no background image")
            data = path.read_bytes()
        return Response(
            data,
            media_type=BACKGROUND_TYPES[path.suffix[1:]],
            headers={
                "Cache-Control": "no-store",
                # An SVG opened on its own runs no script and reaches nothing.
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
            },
        )

    @app.get("/api/rules", summary="The rules a map may set, with their defaults")
    def rules() -> Response:
        return _json(edits.rule_defaults())

    @app.get("/api/state", summary="The map, its problems, the history")
    def state() -> Response:
        with bench.lock:
            return _json(bench.state())

    @app.post("/api/edit", summary="Apply one edit")
    def edit(body: EditRequest) -> Response:
        return answer(lambda: bench.apply(_change(body.edit)))

    @app.post("/api/undo", summary="Undo the last edit")
    def undo() -> Response:
        return answer(bench.undo)

    @app.post("/api/redo", summary="Redo the last undone edit")
    def redo() -> Response:
        return answer(bench.redo)

    @app.post("/api/recover", summary="Take the map of the recovery file")
    def recover() -> Response:
        return answer(bench.recover)

    @app.post("/api/save", summary="Save the map file")
    def save() -> Response:
        return answer(bench.save)

    tests: list[PlayTest] = []

    @app.post("/api/playtest", summary="Start a play-test of the map as it is now")
    def start_playtest(body: NewPlayTest) -> Response:
        from ...agents import available_agents
        from ...maps import map_from_dict

        unknown = sorted(set(body.agents) - set(available_agents()))
        if unknown:
            # As typed, quoted, with JSON's escapes for what cannot be printed.
            names = ", ".join(f"'{json.dumps(name, ensure_ascii=False)[1:-1]}'" for name in unknown)
            raise ApiError(
                422,
                "unknown_agent",
                f"no agent named {names} (there are {', '.join(available_agents())})",
            )
        if len(body.agents) < 2:
            raise ApiError(
                422,
                "invalid_players",
                "name at least 2 agents, one for each seat, e.g. greedy,random",
            )
        with bench.lock:
            if tests and tests[-1].status == "running":
                raise ApiError(409, "playtest_running", "a play-test is running: cancel it first")
            if bench.problems():
                raise ApiError(422, "invalid_map", "fix the map's problems before a play-test")
            game_map = map_from_dict(bench.document)
            rules = game_map.rules
            if not rules.min_players <= len(body.agents) <= rules.max_players:
                low, high = rules.min_players, rules.max_players
                count = str(low) if low == high else f"{low} to {high}"
                raise ApiError(
                    422,
                    "invalid_players",
                    f"this map is played by {count} players, not {len(body.agents)}: "
                    "name one agent for each seat",
                )
            tests[:] = [PlayTest(game_map, body.games, tuple(body.agents), body.seed).start()]
            return _json(tests[-1].summary())

    @app.get("/api/playtest", summary="The play-test's progress and figures")
    def playtest() -> Response:
        return _json(tests[-1].summary() if tests else {"status": "none"})

    @app.post("/api/playtest/cancel", summary="Stop the play-test after the game in play")
    def cancel_playtest() -> Response:
        if not tests:
            raise ApiError(422, "no_playtest", "no play-test has been started")
        tests[-1].cancel()
        return _json(tests[-1].summary())

    @app.get("/api/export/map", summary="The map file, to download")
    def export_map() -> Response:
        with bench.lock:
            document = bench.document
            return Response(
                json.dumps(document, ensure_ascii=False, indent=1) + "\n",
                media_type="application/json",
                headers=_attachment(f"{_file_name(document)}.json"),
            )

    @app.get("/api/export/plugin", summary="An installable plugin package, as a zip")
    def export_plugin() -> Response:
        with bench.lock:
            problems = bench.problems()
            if problems:
                raise ApiError(
                    422,
                    "invalid_map",
                    f"fix the map's {_problems(len(problems))} before exporting a plugin",
                )
            document = bench.document
            return Response(
                plugin_zip(document),
                media_type="application/zip",
                headers=_attachment(f"ttr-rules-{_file_name(document)}.zip"),
            )

    return app


#: The editor's text fields, in words (pydantic's own name a pattern), by edit and field.
_FIELD_WORDS = {
    ("set_details", "name"): "a map's name is 1 to 40 characters: lower-case letters, digits, "
    "'_', '.' or '-', beginning with a letter or a digit (e.g. alpine-ten)",
    ("set_details", "version"): "a map's version is 1 to 20 letters, digits, '.', '+' or '-' "
    "(e.g. 1.0)",
    ("set_details", "title"): "a map's title is at most 100 characters, on one line",
    ("set_country", "name"): "a country's name is 1 to 60 characters, on one line",
    ("set_country", "to"): "a country's name is 1 to 60 characters, on one line",
}
#: The editor's lists, in words, when the list itself is refused (not one of its items).
_LIST_WORDS = {
    ("set_country", "places"): "a country's places are a list of 1 to 50 city names",
    ("set_ticket", "destinations"): 'a ticket\'s destinations are a list of 1 to 20 {"to": '
    'PLACE, "points": N}',
}
_CITY_WORDS = "a city's name is 1 to 60 characters, on one line"


def _field_words(error: Mapping[str, Any]) -> str | None:
    """An edit's field refused by its constraints, in words (None: not one of those).

    >>> _field_words({"loc": ("body", "edit", "rename_city", "to"), "type": "string_too_long"})
    "a city's name is 1 to 60 characters, on one line"
    """
    loc = tuple(error.get("loc", ()))
    if len(loc) < 4 or loc[:2] != ("body", "edit"):
        return None
    if (loc[2], loc[3]) in _FIELD_WORDS:
        return _FIELD_WORDS[loc[2], loc[3]]
    if len(loc) == 4 and (loc[2], loc[3]) in _LIST_WORDS:
        return _LIST_WORDS[loc[2], loc[3]]
    if loc[3] in ("name", "to", "a", "b") and str(error.get("type", "")).startswith("string_"):
        return _CITY_WORDS
    return None


def _word_text_fields(app: FastAPI) -> None:
    """Answer a refused text field of an edit in the editor's words; leave the rest to the
    shared answer (:func:`~ttr_rules.web.api.install_error_handlers`)."""
    shared = app.exception_handlers[RequestValidationError]

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        words = [_field_words(error) for error in exc.errors()]
        if not words or None in words:
            answer = shared(request, exc)
            return answer if isinstance(answer, Response) else await answer
        message = "; ".join(dict.fromkeys(w for w in words if w))
        return ApiError(422, "invalid_edit", message).response()

    app.add_exception_handler(RequestValidationError, refused)


async def _text(request: Request) -> str:
    """The request body as text (UTF-8)."""
    try:
        return (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(
            400,
            "not_utf8",
            "the file is not UTF-8 text: save it as UTF-8 (a spreadsheet's CSV UTF-8)",
        ) from None


def _replace(document: dict[str, Any], new: dict[str, Any]) -> None:
    document.clear()
    document.update(new)


def _problems(count: int) -> str:
    return "problem" if count == 1 else f"{count} problems"


def _file_name(document: dict[str, Any]) -> str:
    """The map's name as a file name: its own when it is a valid map name, else ``map``."""
    name = document.get("name")
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789_.-")
    if isinstance(name, str) and name[:1].isalnum() and set(name) <= allowed and len(name) <= 40:
        return name
    return "map"


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}
