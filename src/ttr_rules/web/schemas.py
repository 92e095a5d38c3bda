"""The shapes of the web API's answers, for its OpenAPI description, and :class:`Number`, the
number fields of its requests.

Each model describes a JSON body the server really sends (``tests/test_web_openapi.py`` checks
every answer of a whole game against ``/api/openapi.json``). Bodies that the library writes
itself (views, scores, records, maps) are described from the library's own types and schemas,
so that there is one truth: the view from :class:`~ttr_rules.PlayerView`'s fields, the map from
:func:`~ttr_rules.maps.map_schema`, the record from ``record.schema.json``. Models accept
members they do not name, so that an older client keeps reading a newer server.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files
from typing import Any, get_args, get_type_hints

import attrs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    ValidationError,
    create_model,
)
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from ..cards import Color
from ..maps import map_schema
from ..scoring import PlayerScore
from ..state import Phase

__all__ = [
    "ERROR_RESPONSES",
    "Created",
    "ErrorBody",
    "GameSummary",
    "Hint",
    "LegalAction",
    "LogStep",
    "Number",
    "Panels",
    "Scores",
    "SeatToken",
    "TicketInfo",
    "View",
    "document_schemas",
    "errors",
]


@attrs.frozen
class Number:
    """A request's number field, refused in words that say what it takes: its kind (a whole
    number for ``int``, a number for ``float``, never infinite or NaN), its range, and
    ``also``, the other values it takes. ``Annotated[float, Number(0, 1)]``; the error
    (type ``number``) carries the words as ``ctx["expected"]`` and the field's name in its
    ``loc``, and the bounds stay in the OpenAPI schema.

    >>> from typing import Annotated
    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(Annotated[float, Number(0, 1)]).validate_python(0.25)
    0.25
    >>> Number(0, 1).words(whole=False), Number(1).words(whole=True)
    ('a number from 0 to 1', 'a whole number of at least 1')
    >>> Number(-5, 5, also="true, false or null").words(whole=True)
    'a whole number from -5 to 5, true, false or null'
    """

    low: float | None = None
    high: float | None = None
    also: str = ""

    def words(self, *, whole: bool) -> str:
        kind = "a whole number" if whole else "a number"
        low, high = _shown(self.low), _shown(self.high)
        if low is not None and high is not None:
            said = f"{kind} from {low} to {high}"
        elif low is not None:
            said = f"{kind} of at least {low}"
        elif high is not None:
            said = f"{kind} of at most {high}"
        else:
            said = kind
        return f"{said}, {self.also}" if self.also else said

    def within(self, value: object) -> bool:
        """Whether a validated value keeps to the range (what is not a number always does)."""
        if not isinstance(value, int | float) or isinstance(value, bool):
            return True
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        whole = source is int or int in get_args(source)
        inner: CoreSchema
        if source is int:
            inner = core_schema.int_schema(ge=_whole(self.low), le=_whole(self.high))
        elif source is float:
            inner = core_schema.float_schema(ge=self.low, le=self.high, allow_inf_nan=False)
        else:
            inner = handler(source)
        return core_schema.no_info_wrap_validator_function(self._check(whole), inner)

    def _check(self, whole: bool) -> Callable[[Any, Callable[[Any], Any]], Any]:
        expected = self.words(whole=whole)

        def check(value: Any, validate: Callable[[Any], Any]) -> Any:
            try:
                result = validate(value)
            except ValidationError:
                result = None
            else:
                if self.within(result):
                    return result
            raise PydanticCustomError("number", "must be {expected}", {"expected": expected})

        return check


def _shown(bound: float | None) -> str | None:
    """A bound as people write it: ``1`` for ``1.0``, ``0.5`` as it is."""
    if bound is None:
        return None
    return str(int(bound)) if float(bound).is_integer() else str(bound)


def _whole(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


class Body(BaseModel):
    """An answer's JSON object: the members named here, and any that a newer server adds
    (passed through, never dropped)."""

    model_config = ConfigDict(extra="allow")


# --------------------------------------------------------------------------- errors


class ErrorBody(Body):
    """Every error answer: a stable code, a sentence for people, the library's reason for a
    refused action, and the problems one per line (at least the message)."""

    error: str = Field(description="a stable code, e.g. 'game_not_found', 'illegal_action'")
    message: str = Field(description="what went wrong, in plain words")
    reason: str | None = Field(
        description="for 'illegal_action': the library's Reason (e.g. 'not your turn')"
    )
    problems: list[str] = Field(description="every problem found, one line each; never empty")
    action: str | None = Field(None, description="for 'illegal_action': the refused action")


#: What each error status means; every operation declares the ones it can answer.
_ERROR_MEANINGS = {
    400: "malformed JSON, a Host this server does not serve, or not an action in notation",
    401: "no 'Authorization: Bearer TOKEN', or a malformed one",
    403: "a token of no seat of this game",
    404: "no such game, map or file",
    409: "refused now: an illegal action (`reason` is the library's Reason), or not yet over",
    413: "the request body is too large",
    422: "the request does not fit its schema (`problems` lists each field)",
    429: "too many games created from this address (see Retry-After)",
    500: "an internal error",
    503: "the server is full, or cannot save the game",
}

#: Answered by any operation: the Host check, validation, the catch-all.
_ALWAYS = (400, 404, 422, 500)


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of an operation: ``statuses`` and the ones any operation may answer,
    each with the :class:`ErrorBody` schema (never FastAPI's ``{detail}``)."""
    return {
        status: {"model": ErrorBody, "description": _ERROR_MEANINGS[status]}
        for status in sorted({*_ALWAYS, *statuses})
    }


#: The ``responses`` of an operation that answers only the errors every operation may.
ERROR_RESPONSES = errors()

# --------------------------------------------------------------------------- games


class SeatToken(Body):
    seat: int
    token: str = Field(description="send as 'Authorization: Bearer TOKEN' to play this seat")


class Created(Body):
    """``POST /api/games``: the game's id and a token for each human seat."""

    id: str
    seats: list[SeatToken]


class SeatInfo(Body):
    seat: int
    agent: str | None = Field(description="the agent playing the seat; null for a person")


class GameSummary(Body):
    """Public facts about a game (no seed, no tokens)."""

    id: str
    map: str
    players: int
    seats: list[SeatInfo]
    seq: int = Field(description="actions applied so far")
    turn: int
    phase: Phase
    current: int | None = Field(description="the seat to act; null when the game is over")
    over: bool
    created: float = Field(description="seconds since the epoch")
    agent_error: str | None
    title: str = Field(description="the game in words: map, seats, where it stands")
    facts: str = Field(description="its id, age and open seats, in words")


# --------------------------------------------------------------------------- the view


class MapRef(Body):
    """The map a view or state is played on; ``digest`` identifies its content."""

    name: str
    version: str
    digest: str


class SeatViewBody(Body):
    """One seat as the viewer sees it: counts for everybody, hand and tickets only for the
    viewer (null for the others)."""

    hand_size: int
    trains: int
    stations: list[str]
    route_points: int
    ticket_count: int
    offered_count: int
    hand: dict[str, int] | None = Field(description="colour -> number of cards")
    tickets: list[int] | None
    offered: list[int] | None


class TunnelBody(Body):
    route: int
    color: Color
    locomotives: int
    revealed: list[Color]
    owed: int


class View(Body):
    """``to_json(observe(state, seat))`` (a spectator: ``public_view``); read it back with
    ``from_json(text, PlayerView, map=...)``."""

    player: int | None = Field(description="the viewer's seat; null for a spectator")
    map: MapRef
    rules: dict[str, Any] = Field(description="the game's ttr_rules.Rules, field by field")
    seats: list[SeatViewBody]
    current: int
    phase: Phase
    face_up: list[Color | None]
    deck_size: int
    discard: list[Color]
    ticket_deck_size: int
    ticket_box_size: int
    route_owner: list[int | None] = Field(description="by route id: the owner's seat, or null")
    tunnel: TunnelBody | None
    final_turns: int | None
    passes: int
    turn: int
    first_player: int
    identity_shuffle: bool
    out_of_play_size: int


# --------------------------------------------------------------------------- per seat


class LegalAction(Body):
    """A legal action: its notation (what ``POST .../actions`` takes), the kit's label and
    groups (:func:`ttr_rules.frontend.group_actions`), and the action's own JSON members."""

    action: str = Field(description="the action in notation")
    label: str
    kind: str = Field(description="the group: draw, claim, tickets, station, keep, tunnel, pass")
    target: str = Field(description="the route or city (or the action) within the group")
    type: str = Field(description="the action's JSON tag, e.g. 'claim_route'")
    caption: str = Field(
        description="the text of its button where a menu already names the route or city "
        "(a payment: 'Pay 3 black + 1 locomotive'); the label otherwise"
    )


class Hint(Body):
    action: str = Field(description="the suggested action in notation")
    label: str = Field(description="the suggested action in words")
    compared: str = Field(description="how it compares with the first suggestion, in words")
    score: float
    reason: str
    points: int
    tickets: list[str] = Field(description="the tickets it helps, in words")
    risk: str | None
    why: str = Field(description="the reason, the comparison and the risk in one sentence")


class TicketInfo(Body):
    id: int
    a: str
    b: str
    points: int
    long: bool
    kept: bool = Field(description="kept (true) or still offered (false)")
    completed: bool = Field(
        description="the seat's own routes connect the two cities (or, for a ticket to several "
        "destinations, its origin to one of them)"
    )
    text: str = Field(description="the ticket in words")
    destinations: list[tuple[str, int]] = Field(
        description="a ticket to several destinations: (place or country, points) each; "
        "empty for a two-city ticket (then b and points say it)"
    )
    penalty: int = Field(description="points lost when no destination is reached (0: points)")
    value: int = Field(
        description="what the ticket scores where it stands: its points, or the value of the "
        "best destination reached, else of the nearest"
    )
    line: tuple[str, str] = Field(
        description="the two places a picture joins for the ticket: its cities, or the way to "
        "the best destination reached, else to the nearest"
    )
    ends: str = Field(description="its origin and destinations in words")
    worth: str = Field(
        description="its points; for several destinations the value reached, else the range "
        "and the points lost (with a true minus: '5–11 (−5)')"
    )
    status: str = Field(description="where it stands in words: completed, failed or open")
    tag: str | None = Field(description="'long' for a long ticket; null otherwise")


class LogStep(Body):
    seq: int = Field(description="counts the actions from 1")
    player: int
    action: str | None = Field(description="notation; null for tickets another seat kept")
    events: list[dict[str, Any]] = Field(description="the events as this seat may see them")
    text: str = Field(description="the step in words, as this seat may read it")


class Panels(Body):
    """What the page's panels say about a decision under way, in words for the seat asking
    (:func:`ttr_rules.frontend.tunnel_words`, :func:`~ttr_rules.frontend.payment_words`)."""

    tunnel: str | None = Field(
        description="the tunnel waiting for its extra cards: what the revealed cards ask for "
        "and, for the seat paying, whether its hand can pay; null: no tunnel"
    )
    payment: str | None = Field(
        description="the claim being paid card by card with substitute sets; null: none"
    )
    status: str = Field(description="whose turn it is and what is asked, for your seat")
    title: str = Field(description="the turn panel's title")
    prompt: str = Field(description="what your seat is asked now (empty: nothing)")
    keep: str | None = Field(description="the lead-in of the tickets to keep; null: none")
    keep_button: str | None = Field(description="the caption of the button that keeps them")
    pick: str | None = Field(description="the lead-in of a payment's next card; null: none")
    seats: list[dict[str, str]] = Field(
        description="each seat's name for you ('You', 'Player 2') and with its agent ('full')"
    )
    columns: list[dict[str, str]] = Field(
        description="the players' table: each column's key and heading"
    )


def _from_attrs(cls: type, descriptions: dict[str, str]) -> type[Body]:
    """A model of ``cls``'s attrs fields, every one required (the library always writes them
    all), with ``descriptions`` for some."""
    hints = get_type_hints(cls)
    members: dict[str, Any] = {
        field.name: (hints[field.name], Field(description=descriptions.get(field.name)))
        for field in attrs.fields(cls)
    }
    model: type[Body] = create_model(cls.__name__.removeprefix("Player"), __base__=Body, **members)
    return model


#: One player's score: ``to_json(final_scores(state)[seat])``, from
#: :class:`~ttr_rules.PlayerScore`'s own fields.
Score = _from_attrs(
    PlayerScore,
    {
        "station_routes": "each station's city and the route it borrows (null: none)",
        "bonuses": "(bonus name, points) of the map's bonuses",
        "mountain_points": "of the route points, those the X marks of mountain routes scored",
    },
)


class ScoreRow(Body):
    player: int
    winner: bool
    cells: list[str] = Field(description="the row's cells in words and numbers, as 'columns'")


class Scores(Body):
    scores: list[Score]  # type: ignore[valid-type]
    winners: list[int]
    bonus_titles: dict[str, str] = Field(
        description="the name people read for each bonus the game scores, on this map"
    )
    headline: str = Field(description="who won, for your seat: 'You win!', 'Player 2 wins!'")
    columns: list[str] = Field(description="the score table's headings")
    rows: list[ScoreRow] = Field(description="the score table's rows, best first")


# --------------------------------------------------------------------------- documents


def _record_schema() -> dict[str, Any]:
    text = files("ttr_rules").joinpath("schemas", "record.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _as_component(schema: dict[str, Any], prefix: str) -> dict[str, dict[str, Any]]:
    """A JSON Schema document as OpenAPI components: the document itself under ``prefix``
    and each of its ``$defs`` as ``prefix`` + name, their ``#/$defs/`` references rewritten."""
    defs = schema.get("$defs", {})
    text = json.dumps({k: v for k, v in schema.items() if k not in ("$defs", "$schema", "$id")})
    out = {prefix: text}
    out.update({prefix + name.title().replace("_", ""): json.dumps(d) for name, d in defs.items()})
    for name in defs:
        target = f'"#/components/schemas/{prefix}{name.title().replace("_", "")}"'
        out = {key: value.replace(f'"#/$defs/{name}"', target) for key, value in out.items()}
    return {key: json.loads(value) for key, value in out.items()}


def document_schemas() -> dict[str, dict[str, Any]]:
    """The OpenAPI components of the documents the library defines by JSON Schema: the map
    file (``MapFile``) and the game record (``GameRecord``).

    >>> components = document_schemas()
    >>> components["MapFile"]["properties"]["routes"]["items"]
    {'$ref': '#/components/schemas/MapFileRoute'}
    """
    return {
        **_as_component(map_schema(), "MapFile"),
        **_as_component(_record_schema(), "GameRecord"),
    }
