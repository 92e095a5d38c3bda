"""JSON for states, views, actions, events, scores and game records, through one cattrs converter.

Conventions (the round trip ``from_json(to_json(x), type(x)) == x`` is exact):

- attrs classes are JSON objects with one key per field; unknown keys are refused.
- Actions and events are tagged: ``{"type": "claim_route", "route": 57, ...}``; the tag is the
  class name in snake case. ``to_json`` always writes the tag, and ``from_json`` accepts it for
  the :data:`~ttr_rules.Action` / :data:`~ttr_rules.Event` unions and for each concrete class.
- :class:`~ttr_rules.Color`, :class:`~ttr_rules.Phase` and :class:`~ttr_rules.Termination` are
  their string values; tuples are arrays; frozensets are sorted arrays; a
  :class:`~ttr_rules.Hand` is an object of its non-zero counts in colour order,
  ``{"red": 2, "locomotive": 1}``.
- A :class:`~ttr_rules.GameMap` (in a state or a view) is a reference ``{"name", "version",
  "digest"}`` when the installed map of that name has that digest, and is reloaded with
  ``load_map``; any other map is embedded in full under ``"embedded"`` (in the map-file format),
  so a state on a custom map still reloads. ``from_json(text, cls, map=game_map)`` reads a
  reference with ``game_map`` instead of the installed maps (a client that has a map from
  ``GET /api/maps/{name}`` but not its plugin). A reference to a map that is neither given nor
  installed, or whose digest differs, is refused.

Every problem in the input raises :class:`~ttr_rules.errors.SerializationError`, whose
``problems`` name the JSON path of each problem (``$.players[1].hand.red: expected int``); no
partially built object is ever returned.
"""

from __future__ import annotations

import contextvars
import json
import re
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from typing import Any, Literal, TypeVar, get_args, get_origin, overload

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    BaseValidationError,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_unstructure_fn, override
from cattrs.v import transform_error

from .actions import ACTION_TYPES, Action, ClaimRoute
from .cards import COLORS, Color, Hand
from .errors import MapError, SerializationError
from .events import Event, Termination
from .invariants import state_problems
from .maps import GameMap, resolve_map
from .maps.file import json_error_text
from .state import GameState, Phase
from .words import counted

__all__ = [
    "EVENT_TYPES",
    "converter",
    "decode_json",
    "from_json",
    "structure",
    "tag_of",
    "to_json",
    "view_problems",
]

T = TypeVar("T")


class _Invalid(ValueError):
    """A problem found by one of our hooks; its message is reported as is."""


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


#: Every concrete event class, in the order of the :data:`~ttr_rules.Event` union.
EVENT_TYPES: tuple[type, ...] = get_args(Event)
_ACTION_TAGS: dict[str, type] = {_snake(cls.__name__): cls for cls in ACTION_TYPES}
_EVENT_TAGS: dict[str, type] = {_snake(cls.__name__): cls for cls in EVENT_TYPES}
_TAG_OF: dict[type, str] = {cls: tag for tag, cls in (*_ACTION_TAGS.items(), *_EVENT_TAGS.items())}


def tag_of(cls: type) -> str:
    """The ``"type"`` tag of an action or event class (``ClaimRoute`` -> ``"claim_route"``)."""
    return _TAG_OF[cls]


# --------------------------------------------------------------------------- primitive hooks


def _strict(kind: type, name: str) -> Callable[[Any, Any], Any]:
    """A hook accepting only JSON values of ``kind`` (no ``"3"`` for 3, no ``true`` for 1)."""

    def hook(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise _Invalid(f"expected {name}, got {_json_type(value)}")
        return value

    return hook


def _structure_float(value: Any, _: Any) -> float:
    if type(value) not in (int, float):
        raise _Invalid(f"expected number, got {_json_type(value)}")
    return float(value)


def _json_type(value: Any) -> str:
    names = {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "array",
        dict: "object",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def _enum_hook(value: Any, cls: type[Enum]) -> Enum:
    if isinstance(value, str):
        for member in cls:
            if member.value == value:
                return member
    names = ", ".join(repr(m.value) for m in cls)
    got = json.dumps(value) if isinstance(value, str | int | float) else _json_type(value)
    raise _Invalid(f"expected one of {names}, got {got}")


def _require_list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise _Invalid(f"expected array, got {_json_type(value)}")
    return value


def _is_homogeneous(t: Any) -> bool:
    args = get_args(t)
    if get_origin(t) is tuple:
        return len(args) == 2 and args[1] is Ellipsis
    return get_origin(t) is frozenset and len(args) == 1


def _collection_hook(t: Any) -> Callable[[Any, Any], Any]:
    """Arrays into ``tuple[X, ...]`` or ``frozenset[X]``, with the index of each bad item."""
    origin = get_origin(t)
    item_type = get_args(t)[0]
    item_hook = converter.get_structure_hook(item_type)

    def hook(value: Any, _: Any) -> Any:
        items = []
        problems: list[Exception] = []
        for i, item in enumerate(_require_list(value)):
            try:
                items.append(item_hook(item, item_type))
            except Exception as exc:
                exc.__notes__ = [IterableValidationNote(f"item {i}", i, item_type)]
                problems.append(exc)
        if problems:
            raise IterableValidationError(f"while structuring {t}", problems, t)
        return origin(items)

    return hook


def _unstructure_frozenset(value: frozenset[Any]) -> list[Any]:
    return [converter.unstructure(v) for v in sorted(value)]


# --------------------------------------------------------------------------- hand and map hooks


def _unstructure_hand(hand: Hand) -> dict[str, int]:
    return {COLORS[i].value: n for i, n in enumerate(hand.counts) if n}


def _structure_hand(value: Any, _: Any) -> Hand:
    if not isinstance(value, dict):
        raise _Invalid(f"expected object of card counts, got {_json_type(value)}")
    counts = [0] * len(COLORS)
    problems: list[Exception] = []
    for key, n in value.items():
        color = next((c for c in COLORS if c.value == key), None)
        if color is None:
            problem = _Invalid(
                f"unknown colour; expected one of {', '.join(c.value for c in COLORS)}"
            )
        elif type(n) is not int or n < 0:
            got = _json_type(n) if isinstance(n, list | dict) else json.dumps(n)
            problem = _Invalid(f"expected int >= 0, got {got}")
        else:
            counts[color.code] = n
            continue
        problem.__notes__ = [AttributeValidationNote(f"card {key}", str(key), int)]
        problems.append(problem)
    if problems:
        raise ClassValidationError("while structuring Hand", problems, Hand)
    return Hand(tuple(counts))


def _map_is_installed(game_map: GameMap) -> bool:
    from .maps import load_map

    try:
        return load_map(game_map.name).digest == game_map.digest
    except MapError:
        return False


def _unstructure_map(game_map: GameMap) -> dict[str, Any]:
    ref: dict[str, Any] = {
        "name": game_map.name,
        "version": game_map.version,
        "digest": game_map.digest,
    }
    if not _map_is_installed(game_map):
        from .maps import map_to_dict

        ref["embedded"] = map_to_dict(game_map)
    return ref


def _structure_map(value: Any, _: Any) -> GameMap:
    if not isinstance(value, dict):
        raise _Invalid(f"expected a map reference object, got {_json_type(value)}")
    extra = set(value) - {"name", "version", "digest", "embedded"}
    if extra:
        raise _Invalid(f"unexpected fields {', '.join(sorted(extra))}")
    name, digest = value.get("name"), value.get("digest")
    if not isinstance(name, str) or not isinstance(digest, str):
        raise _Invalid("a map reference needs string fields name and digest")
    given = _given_map.get()
    if "embedded" in value:
        game_map = _embedded_map(value["embedded"])
    elif given is not None:
        game_map = given
        if given.digest != digest:
            raise _Invalid(
                f"the JSON's map {name!r} (digest {digest}) is not the given map "
                f"{given.name!r} (digest {given.digest})"
            )
    else:
        game_map = _installed_map(name)
    if game_map.digest != digest:
        raise _Invalid(f"map {name!r} has digest {game_map.digest}, the JSON expects {digest}")
    return game_map


#: The map passed to :func:`from_json` as ``map=``, read by the map hook while it decodes.
_given_map: contextvars.ContextVar[GameMap | None] = contextvars.ContextVar(
    "_given_map", default=None
)


def _installed_map(name: str) -> GameMap:
    from .maps import load_map

    try:
        return load_map(name)
    except MapError as exc:
        raise _Invalid(f"map {name!r} cannot be loaded: {exc}") from None


def _embedded_map(data: Any) -> GameMap:
    from .maps import map_from_dict

    try:
        return map_from_dict(data, "embedded map")
    except MapError as exc:
        raise _Invalid(str(exc)) from None


# --------------------------------------------------------------------------- tagged unions


def _tagged_union_hooks(
    tags: Mapping[str, type], kind: str
) -> tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]:
    """Unstructure and structure hooks for a union tagged by ``"type"``."""
    classes = {cls: tag for tag, cls in tags.items()}

    def unstructure(value: Any) -> dict[str, Any]:
        fields = converter.unstructure(value, unstructure_as=type(value))
        return {"type": classes[type(value)], **fields}

    def structure(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise _Invalid(f"expected {kind} object, got {_json_type(value)}")
        tag = value.get("type")
        cls = tags.get(tag) if isinstance(tag, str) else None
        if cls is None:
            known = ", ".join(tags)
            raise _Invalid(f"unknown {kind} type {json.dumps(tag)}; expected one of {known}")
        fields = {k: v for k, v in value.items() if k != "type"}
        return converter.structure(fields, cls)

    return unstructure, structure


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    strict: tuple[tuple[type, str], ...] = ((int, "int"), (str, "string"), (bool, "boolean"))
    for kind, label in strict:
        conv.register_structure_hook(kind, _strict(kind, label))
    conv.register_structure_hook(float, _structure_float)
    # Each enum by name: the hook for ``str`` would otherwise catch these StrEnums.
    for enum in (Color, Phase, Termination):
        conv.register_structure_hook(enum, _enum_hook)
    conv.register_structure_hook_factory(_is_homogeneous, _collection_hook)
    conv.register_unstructure_hook_func(_is_frozenset, _unstructure_frozenset)
    conv.register_unstructure_hook(Hand, _unstructure_hand)
    conv.register_structure_hook(Hand, _structure_hand)
    # A claim's substitute cards only where there are some: records of the boards without
    # substitute sets read and write as before.
    conv.register_unstructure_hook(
        ClaimRoute,
        make_dict_unstructure_fn(ClaimRoute, conv, substitutes=override(omit_if_default=True)),
    )
    conv.register_unstructure_hook(GameMap, _unstructure_map)
    conv.register_structure_hook(GameMap, _structure_map)
    unions: tuple[tuple[Any, dict[str, type], str], ...] = (
        (Action, _ACTION_TAGS, "action"),
        (Event, _EVENT_TAGS, "event"),
    )
    for union, tags, noun in unions:
        unstructure_hook, structure_hook = _tagged_union_hooks(tags, noun)
        conv.register_unstructure_hook_func(_is_exactly(union), unstructure_hook)
        conv.register_structure_hook_func(_is_exactly(union), structure_hook)
    return conv


def _is_exactly(union: Any) -> Callable[[Any], bool]:
    def predicate(t: Any) -> bool:
        return bool(t == union)

    return predicate


def _is_frozenset(t: Any) -> bool:
    return t is frozenset or get_origin(t) is frozenset


#: The one converter behind :func:`to_json` and :func:`from_json`; use it to (un)structure to
#: plain Python data (``converter.unstructure(state)``) without going through text.
converter: cattrs.Converter = _make_converter()


# --------------------------------------------------------------------------- the public functions


_UNION_NAMES: dict[Any, str] = {Action: "action", Event: "event"}


def _union_of(cls: Any) -> Any:
    """The tagged union an action or event class belongs to, or ``cls`` itself."""
    if cls in _ACTION_TAGS.values():
        return Action
    if cls in _EVENT_TAGS.values():
        return Event
    return cls


def to_json(obj: Any, cls: Any = None, *, indent: int | None = None) -> str:
    """The JSON text of ``obj`` (as ``cls`` when given, e.g. ``tuple[Event, ...]``).

    Actions and events carry their ``"type"`` tag. Non-ASCII text (city names) is kept as is.

    >>> from ttr_rules import ClaimRoute, Color, new_game
    >>> to_json(ClaimRoute(57, Color.BLACK, 1))
    '{"type": "claim_route", "route": 57, "color": "black", "locomotives": 1}'
    >>> len(to_json(new_game())) > 1000  # a whole state (its map by name and digest)
    True
    """
    data = converter.unstructure(obj, unstructure_as=_union_of(cls or type(obj)))
    return json.dumps(data, ensure_ascii=False, indent=indent)


@overload
def from_json(text: str | bytes, cls: type[T], *, map: GameMap | str | None = None) -> T: ...
@overload
def from_json(text: str | bytes, cls: Any, *, map: GameMap | str | None = None) -> Any: ...
def from_json(
    text: str | bytes,
    cls: Any,
    *,
    map: GameMap | str | None = None,  # the contract's parameter name
) -> Any:
    """Decode ``text`` into a ``cls`` (a class, or the ``Action`` / ``Event`` unions).

    A state or view names its map by name and digest; ``map`` (a :class:`~ttr_rules.GameMap`,
    or an installed map's name) is used for that reference instead of the installed maps, so
    a client without a map's plugin reads views of it with the map from ``GET /api/maps/{name}``
    (:func:`~ttr_rules.load_map_file` or :func:`~ttr_rules.maps.map_from_dict`). The map is
    validated first (:class:`~ttr_rules.errors.MapError`); a digest that differs is refused.

    Raises :class:`~ttr_rules.errors.SerializationError` naming the JSON path of every problem.

    >>> from ttr_rules import Action, ClaimRoute, Color, GameState, new_game
    >>> text = '{"type": "claim_route", "route": 57, "color": "black", "locomotives": 1}'
    >>> from_json(text, Action)
    ClaimRoute(route=57, color=<Color.BLACK: 'black'>, locomotives=1, substitutes=())
    >>> state = new_game(players=3, seed=2)
    >>> from_json(to_json(state), GameState) == state
    True
    >>> from_json('{"type": "claim_route", "route": "x"}', Action)
    Traceback (most recent call last):
    ...
    ttr_rules.errors.SerializationError: ...
    """
    data = decode_json(text)
    token = _given_map.set(None if map is None else resolve_map(map))
    try:
        return structure(data, cls)
    except RecursionError:
        problem = "$: nested too deeply"
        raise SerializationError(problem, (problem,)) from None
    finally:
        _given_map.reset(token)


def decode_json(text: str | bytes) -> Any:
    """The JSON value of ``text`` (a string, or UTF-8 bytes with or without a byte-order mark).

    Raises :class:`~ttr_rules.errors.SerializationError` for anything else: not text, not UTF-8,
    not JSON (``NaN`` and ``Infinity`` included), or nested deeper than Python can decode.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            problem = f"$: not UTF-8 text ({exc.reason} at byte {exc.start})"
            raise SerializationError(problem, (problem,)) from None
    if not isinstance(text, str):
        problem = f"$: expected JSON text, got {type(text).__name__}"
        raise SerializationError(problem, (problem,))
    try:
        return json.loads(text.removeprefix("\ufeff"), parse_constant=_reject_constant)
    except RecursionError:
        problem = "$: invalid JSON: nested too deeply"
        raise SerializationError(problem, (problem,)) from None
    except ValueError as exc:
        text = str(exc) if isinstance(exc, json.JSONDecodeError) else json_error_text(exc)
        problem = f"$: invalid JSON: {text}"
        raise SerializationError(problem, (problem,)) from None


def structure(data: Any, cls: Any) -> Any:
    """Build a ``cls`` from decoded JSON data, raising ``SerializationError`` on any problem."""
    target = _union_of(cls)
    if attrs.has(target) and not isinstance(data, dict):
        problem = f"$: expected object, got {_json_type(data)}"
        raise SerializationError(f"not a valid {cls.__name__}: {problem}", (problem,))
    try:
        obj = converter.structure(data, target)
    except Exception as exc:  # cattrs groups every problem; see _problems
        problems = _problems(exc)
        name = _UNION_NAMES.get(target) or getattr(cls, "__name__", str(cls))
        raise SerializationError(f"not a valid {name}: " + "; ".join(problems), problems) from None
    if isinstance(obj, GameState):
        _check_state(obj)
    elif type(obj).__name__ == "PlayerView":  # views sit above this layer: checked by shape
        _check_view(obj)
    if target is not cls and not isinstance(obj, cls):
        problem = f"$.type: expected {json.dumps(tag_of(cls))}, got {json.dumps(tag_of(type(obj)))}"
        raise SerializationError(problem, (problem,))
    return obj


#: The JSON path each invariant is about (see :mod:`ttr_rules.invariants`).
_INVARIANT_PATHS = {
    "shape": "$",
    "rules": "$.rules",
    "cards": "$",
    "tickets": "$",
    "trains": "$.players",
    "stations": "$.players",
    "station cities": "$.players",
    "routes": "$.route_owner",
    "payment": "$.players",
    "double routes": "$.route_owner",
    "route points": "$.players",
    "face-up row": "$.face_up",
    "face-up locomotives": "$.face_up",
    "phase": "$.phase",
}


def _check_state(state: GameState) -> None:
    """Refuse a decoded state that breaks an invariant (trains may be below the start, as
    ``scenario`` positions have them, but never above it)."""
    violations = state_problems(state, check_trains=False)
    if violations:
        problems = tuple(
            f"{_INVARIANT_PATHS.get(v.invariant, '$')}: {v.invariant}: {v.message}"
            for v in violations
        )
        raise SerializationError(
            "not a valid GameState (an impossible position): " + "; ".join(problems), problems
        )


def _check_view(view: Any) -> None:
    """Refuse a decoded view that no observed state has (see :func:`view_problems`)."""
    problems = tuple(view_problems(view))
    if problems:
        raise SerializationError("not a valid PlayerView: " + "; ".join(problems), problems)


def view_problems(view: Any) -> list[str]:
    """Why ``view`` (a ``PlayerView``) cannot be what :func:`~ttr_rules.observe` gives of any
    position of its map and rules, as ``"<json path>: <message>"`` lines; empty when none.

    Checked against the map and the rules, as ``from_json`` checks a ``GameState``, and in
    time linear in the view: the seats and the seat indexes, rules that fit the map, every
    count within what the rules deal (the cards conserved: deck, hands, row, discard and a
    pending tunnel add up to the rules' cards, so ``deck_size: 10**9`` is refused; every
    ticket in one place), ticket ids and station cities of the map, trains and route points
    as the owned routes allow. A client can then trust a view from a server it does not.
    """
    shape = list(_view_shape_problems(view))
    if shape:  # the checks below index by seats and routes
        return shape
    return [
        *_view_card_problems(view),
        *_view_ticket_problems(view),
        *_view_board_problems(view),
        *_view_payment_problems(view),
        *(f"$.phase: {problem}" for problem in _view_phase_problems(view)),
    ]


def _view_phase_problems(view: Any) -> Iterator[str]:
    """The phase fits what the view holds, as a state's must (the invariant ``phase``)."""
    from .invariants import phase_problems

    offered = [counted(s.offered_count, "ticket") if s.offered_count else "" for s in view.seats]
    yield from phase_problems(view, offered)


def _view_shape_problems(view: Any) -> Iterator[str]:
    from .maps.check import rules_problems

    rules, game_map = view.rules, view.map
    count = len(view.seats)
    for problem in rules_problems(rules, game_map):
        yield f"$.rules: {problem.path.removeprefix('rules.')}: {problem.message}"
    if not rules.min_players <= count <= rules.max_players:
        yield f"$.seats: {count} seats; the rules allow {rules.min_players} to {rules.max_players}"
    if view.player is not None and not 0 <= view.player < count:
        yield f"$.player: {view.player} is not a seat"
    for name in ("current", "first_player"):
        if not 0 <= getattr(view, name) < max(count, 1):
            yield f"$.{name}: {getattr(view, name)} is not a seat"
    if len(view.route_owner) != len(game_map.routes):
        yield f"$.route_owner: {len(view.route_owner)} owners for {len(game_map.routes)} routes"
    for route, owner in enumerate(view.route_owner):
        if owner is not None and not 0 <= owner < count:
            yield f"$.route_owner[{route}]: {owner} is not a seat"
    sizes = ("deck_size", "ticket_deck_size", "ticket_box_size", "out_of_play_size", "passes")
    for name in sizes:
        if getattr(view, name) < 0:
            yield f"$.{name}: must be >= 0"
    if len(view.face_up) != rules.face_up_size:
        yield f"$.face_up: {len(view.face_up)} slots, not face_up_size {rules.face_up_size}"
    tunnel = view.tunnel
    if tunnel is not None and not (
        0 <= tunnel.route < len(game_map.routes) and game_map.routes[tunnel.route].tunnel
    ):
        yield f"$.tunnel.route: {tunnel.route} is not a tunnel of the map"
    if view.final_turns is not None and not 0 <= view.final_turns <= count:
        yield f"$.final_turns: {view.final_turns} turns left in a {count}-player game"
    for seat, player in enumerate(view.seats):
        where = f"$.seats[{seat}]"
        for name in ("hand_size", "trains", "route_points", "ticket_count", "offered_count"):
            if getattr(player, name) < 0:
                yield f"{where}.{name}: must be >= 0"
        hand = player.hand
        if hand is not None and (min(hand.counts) < 0 or sum(hand.counts) != player.hand_size):
            held_cards = counted(sum(hand.counts), "card")
            yield f"{where}.hand: {held_cards}, hand_size says {player.hand_size}"
        for name, count_name in (("tickets", "ticket_count"), ("offered", "offered_count")):
            held, said = getattr(player, name), getattr(player, count_name)
            if held is not None and len(held) != said:
                yield f"{where}.{name}: {counted(len(held), 'ticket')}, {count_name} says {said}"


def _view_cards_in_play(view: Any) -> int:
    """The cards the view accounts for: hidden (deck, hands, set aside) and shown."""
    shown = len(view.discard) + sum(c is not None for c in view.face_up)
    tunnel = view.tunnel
    if tunnel is not None:
        shown += view.map.routes[tunnel.route].length + len(tunnel.revealed)
    hidden: int = view.deck_size + view.out_of_play_size + sum(p.hand_size for p in view.seats)
    return shown + hidden


def _view_card_problems(view: Any) -> Iterator[str]:
    rules = view.rules
    total = rules.cards_per_color * (len(COLORS) - 1) + rules.locomotive_cards
    in_play = _view_cards_in_play(view)
    if in_play != total:
        yield (
            f"$.deck_size: deck, hands, row, discard and tunnel hold {in_play} cards; the "
            f"rules deal {total}"
        )
        return
    seen: dict[Color, int] = dict.fromkeys(COLORS, 0)
    for color in (*view.discard, *(c for c in view.face_up if c is not None)):
        seen[color] += 1
    if view.tunnel is not None:
        for color in view.tunnel.revealed:
            seen[color] += 1
    own = view.seats[view.player].hand if view.player is not None else None
    if own is not None:
        for color, count in zip(COLORS, own.counts, strict=True):
            seen[color] += count
    for color, count in seen.items():
        want = rules.locomotive_cards if color is Color.LOCOMOTIVE else rules.cards_per_color
        if count > want:
            yield f"$: {counted(count, color.value + ' card')} in sight; the rules deal {want}"


def _view_ticket_problems(view: Any) -> Iterator[str]:
    tickets = len(view.map.tickets)
    held = sum(p.ticket_count + p.offered_count for p in view.seats)
    in_play = held + view.ticket_deck_size + view.ticket_box_size
    if in_play != tickets:
        yield (
            f"$.ticket_deck_size: seats, deck and box hold {in_play} tickets; the map has {tickets}"
        )
    places: set[int] = set()
    for seat, player in enumerate(view.seats):
        for name in ("tickets", "offered"):
            for i, ticket in enumerate(getattr(player, name) or ()):
                if not 0 <= ticket < tickets:
                    yield f"$.seats[{seat}].{name}[{i}]: {ticket} is not a ticket of the map"
                elif ticket in places:
                    yield f"$.seats[{seat}].{name}[{i}]: ticket {ticket} is in two places"
                places.add(ticket)


def _view_board_problems(view: Any) -> Iterator[str]:
    rules, routes = view.rules, view.map.routes
    used = [0] * len(view.seats)
    points = [0] * len(view.seats)
    for route, owner in enumerate(view.route_owner):
        if owner is not None:
            used[owner] += routes[route].trains
            points[owner] += rules.claim_points(routes[route].length, routes[route].mountain)
    cities = set(view.map.cities)
    built: set[str] = set()
    for seat, player in enumerate(view.seats):
        where = f"$.seats[{seat}]"
        if player.trains + used[seat] > rules.trains_per_player:
            yield (
                f"{where}.trains: {counted(player.trains, 'train')} and {used[seat]} on claimed "
                "routes; "
                f"players start with {rules.trains_per_player}"
            )
        if player.route_points != points[seat]:
            have, want = player.route_points, points[seat]
            yield f"{where}.route_points: {have}; the seat's routes score {want}"
        if len(player.stations) > rules.stations_per_player:
            yield f"{where}.stations: {len(player.stations)} of {rules.stations_per_player} allowed"
        for i, city in enumerate(player.stations):
            if city not in cities:
                yield f"{where}.stations[{i}]: {_clipped(city)} is not a city of the map"
            elif city in built:
                yield f"{where}.stations[{i}]: a second station in {city}"
            built.add(city)


def _view_payment_problems(view: Any) -> Iterator[str]:
    """A payment with sets is the player to act's, in phase ``PAYMENT`` only, its picks shown
    to that player alone, and one some position reaches (as ``from_json`` of a state checks
    it: :func:`~ttr_rules.moves.payments.pending_payment_problems`)."""
    from .moves.payments import pending_payment_problems

    for seat, player in enumerate(view.seats):
        payment = player.payment
        if payment is None:
            continue
        where = f"$.seats[{seat}].payment"
        if seat != view.current:
            yield f"{where}: player {seat} pays with sets out of turn"
            continue
        if seat != view.player and payment.cards:
            yield f"{where}.cards: the picked cards are shown to their player only"
        for problem in pending_payment_problems(
            payment,
            view.map,
            view.rules,
            view.route_owner,
            seat=seat,
            players=len(view.seats),
            trains=player.trains,
            hand=player.hand.counts if seat == view.player and player.hand else None,
            hand_size=player.hand_size,
        ):
            yield f"{where}: {problem}"


def _clipped(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _problems(exc: BaseException) -> tuple[str, ...]:
    """``"<path>: <message>"`` lines for an exception raised while structuring."""
    if not isinstance(exc, BaseValidationError):
        return (f"$: {_describe(exc, None)}",)
    lines = transform_error(exc, "$", _describe)
    return tuple(_path_first(line) for line in lines)


def _path_first(line: str) -> str:
    message, _, path = line.rpartition(" @ ")
    return f"{path}: {message}"


def _describe(exc: BaseException, type_: Any) -> str:
    """One problem's message: ours verbatim, cattrs' and Python's made short."""
    if isinstance(exc, _Invalid):
        return str(exc)
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, ForbiddenExtraKeysError):
        return f"unexpected fields {', '.join(sorted(exc.extra_fields))}"
    if get_origin(type_) is Literal:
        return "expected " + " or ".join(json.dumps(value) for value in get_args(type_))
    if isinstance(exc, (ValueError, TypeError)) and type_ is not None:
        name = getattr(type_, "__name__", type_)
        if attrs.has(type_):  # an object was expected: Python's complaint says nothing more
            return f"expected {name} (a JSON object)"
        return f"expected {name} ({exc})"
    if isinstance(exc, AttributeError):
        return "expected object"
    if isinstance(exc, cattrs.errors.CattrsError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"
