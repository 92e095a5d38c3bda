"""Game records: a whole game as its setup and its actions in notation, and replaying them.

A record is what a bug report, a tournament log or a regression test stores: the map (name,
version and digest), the rules when they differ from the map's, the number of players, the seed
and the first player — everything :func:`~ttr_rules.new_game` needs — and every action from the
first initial ticket choice on, written with :func:`~ttr_rules.notation.format_action`
(``claim Madrid-Pamplona black+1L``). Records are JSON files (``write_record`` /
``read_record``) described by the JSON Schema ``ttr_rules/schemas/record.schema.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from importlib.resources import files
from typing import Any

import attrs
from attrs import field, frozen

from .actions import Action
from .errors import (
    IllegalActionError,
    InvalidActionError,
    MapError,
    RecordError,
    SerializationError,
)
from .events import Event
from .game import apply_action, is_terminal, new_game, step
from .maps import GameMap, resolve_map
from .maps.file import read_file_bytes
from .notation import format_action, parse_action
from .rules import Rules
from .scoring import final_scores
from .serialization import from_json, to_json
from .state import GameState
from .words import clipped, joined

__all__ = [
    "FORMAT_VERSION",
    "GameRecord",
    "ReplayStep",
    "read_record",
    "record_game",
    "record_schema",
    "replay",
    "replay_steps",
    "start_state",
    "state_digest",
    "with_result",
    "write_record",
]

#: The record format written by this version of the library.
FORMAT_VERSION = 1


def _texts(items: Iterable[str]) -> tuple[str, ...]:
    if isinstance(items, str):  # a str is an iterable of one-letter "actions"
        raise TypeError("actions must be a sequence of action texts, not one string")
    texts = tuple(items)
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"actions must be strings, got {type(text).__name__}")
    return texts


@frozen(kw_only=True)
class GameRecord:
    """One game: its setup and its actions in notation (see the module docstring)."""

    #: The map's name, as given to ``load_map``.
    map: str
    players: int
    seed: int
    #: Every action from the first initial ticket choice on, in notation.
    actions: tuple[str, ...] = field(converter=_texts)
    first_player: int = 0
    #: The rules played, or None for the map's default rules.
    rules: Rules | None = None
    #: The map's digest; when given, replaying on a map with another digest is refused.
    map_digest: str | None = None
    #: The map's version (informative; the digest decides).
    map_version: str | None = None
    format_version: int = FORMAT_VERSION
    #: The end of the game, like a PGN result: the :func:`state_digest` of the final state
    #: and each seat's total score. ``record_game`` fills them when the game is over; when
    #: given, ``replay`` checks that the actions lead there.
    final_digest: str | None = None
    scores: tuple[int, ...] | None = None


def state_digest(state: GameState) -> str:
    """The sha256 of ``to_json(state)``: equal digests, equal states.

    >>> from ttr_rules import new_game
    >>> state_digest(new_game(players=2, seed=1)) == state_digest(new_game(players=2, seed=1))
    True
    """
    return hashlib.sha256(to_json(state).encode("utf-8")).hexdigest()


@frozen
class ReplayStep:
    """One replayed action: its index in the record, its text, the action, the state before
    it and the events it caused (``after`` is the state after it)."""

    index: int
    text: str
    action: Action
    before: GameState
    after: GameState
    events: tuple[Event, ...]


def record_game(
    start_state: GameState, actions: Iterable[Action], *, seed: int | None = None
) -> GameRecord:
    """The record of the game that starts at ``start_state`` and goes on with ``actions``.

    ``start_state`` must be ``new_game(map, players, seed, rules, first_player)`` for an
    installed map; its seed is ``start_state.seed`` unless ``seed`` is given (it is checked by
    dealing the game again). Raises :class:`ValueError` when ``start_state`` is not
    that new game, and :class:`~ttr_rules.IllegalActionError` for an action that is not legal.

    >>> import random
    >>> from ttr_rules import new_game
    >>> from ttr_rules.simulate import random_playout
    >>> start = new_game(players=2, seed=3)
    >>> end, actions = random_playout(start, random.Random(3))
    >>> record = record_game(start, actions)
    >>> record.map, record.players, record.seed, record.actions[0]
    ('europe', 2, 3, 'tickets keep 3,18')
    >>> replay(record) == end
    True
    """
    seed = start_state.seed if seed is None else seed
    game_map = start_state.map
    rules = None if start_state.rules == game_map.rules else start_state.rules
    record = GameRecord(
        map=game_map.name,
        players=start_state.num_players,
        seed=seed,
        actions=(),
        first_player=start_state.first_player,
        rules=rules,
        map_digest=game_map.digest,
        map_version=game_map.version,
    )
    if _start(record, game_map) != start_state:
        raise ValueError(
            f"the state is not new_game({game_map.name!r}, players={record.players}, "
            f"seed={seed}, first_player={record.first_player}) with its rules"
        )
    texts: list[str] = []
    state = start_state
    for action in actions:
        state = apply_action(state, action)
        texts.append(format_action(action, game_map))
    return with_result(attrs.evolve(record, actions=tuple(texts)), state)


def with_result(record: GameRecord, end: GameState) -> GameRecord:
    """``record`` with the end of its game written in when ``end`` (the state its actions
    lead to) is over: ``final_digest`` and ``scores``, the proof :func:`replay` checks. Every
    writer of a record of a finished game calls it (or :func:`record_game`, which does), so
    that a record cut short is refused rather than replayed as an unfinished game.

    ``record`` unchanged when the game is not over.

    >>> import random
    >>> from ttr_rules import new_game
    >>> from ttr_rules.simulate import random_playout
    >>> start = new_game(players=2, seed=3)
    >>> end, actions = random_playout(start, random.Random(3))
    >>> bare = attrs.evolve(record_game(start, ()), actions=record_game(start, actions).actions)
    >>> bare.final_digest is None, with_result(bare, end).final_digest == state_digest(end)
    (True, True)
    """
    if not is_terminal(end):
        return record
    return attrs.evolve(
        record,
        final_digest=state_digest(end),
        scores=tuple(s.total for s in final_scores(end)),
    )


def _start(record: GameRecord, game_map: GameMap) -> GameState:
    return new_game(game_map, record.players, record.seed, record.rules, record.first_player)


def _record_map(record: GameRecord, given: GameMap | None = None) -> GameMap:
    """The record's map — ``given``, or else the installed map of its name — checked against
    the record's digest and version."""
    if record.format_version != FORMAT_VERSION:
        raise RecordError(
            f"record format version {record.format_version} is not supported "
            f"(this library reads version {FORMAT_VERSION})"
        )
    if given is not None:
        return _checked_given_map(record, given)
    try:
        game_map = resolve_map(record.map)
    except MapError as exc:
        raise RecordError(
            f"the record's map cannot be loaded: {exc} (a record of a map file replays on "
            "that file's map: ttr replay --map FILE, or replay(record, map=load_map_file(FILE)))"
        ) from None
    if record.map_digest is not None and record.map_digest != game_map.digest:
        raise RecordError(
            f"the record was played on map {record.map!r} with digest {record.map_digest}; "
            f"the installed map (version {game_map.version}) has digest {game_map.digest}"
        )
    if record.map_version is not None and record.map_version != game_map.version:
        raise RecordError(
            f"the record was played on map {record.map!r} version {record.map_version}; "
            f"version {game_map.version} is installed"
        )
    return game_map


def _checked_given_map(record: GameRecord, given: GameMap) -> GameMap:
    """A map given for the record (a map file's): it must be the one the record was played on
    (same name, and same digest when the record has one)."""
    if not isinstance(given, GameMap):
        raise RecordError(f"map must be a GameMap, got {type(given).__name__}")
    if given.name != record.map:
        raise RecordError(f"the record was played on map {record.map!r}, not {given.name!r}")
    if record.map_digest is not None and record.map_digest != given.digest:
        raise RecordError(
            f"the record was played on map {record.map!r} with digest {record.map_digest}; "
            f"the given map has digest {given.digest}"
        )
    return given


def start_state(record: GameRecord, *, map: GameMap | None = None) -> GameState:
    """The state before the record's first action (the new game it describes).

    ``map``: the map to play it on instead of the installed map of the record's name (for a
    record of a map file, e.g. ``load_map_file(path)``); it must have the record's name and
    digest.
    """
    game_map = _record_map(record, map)
    try:
        return _start(record, game_map)
    except ValueError as exc:
        raise RecordError(f"the record's setup is invalid: {exc}") from None


def replay_steps(record: GameRecord, *, map: GameMap | None = None) -> Iterator[ReplayStep]:
    """Replay ``record`` one action at a time, yielding each step with its events (``map`` as
    for :func:`start_state`).

    Raises :class:`~ttr_rules.RecordError` (``index`` = the failing action) when an action
    cannot be read or is not legal, and (``index`` None) for a map that does not match, and
    after the last action for a record that claims more than its actions prove: an end
    (``final_digest``, ``scores``) they do not reach, or only half of that proof.

    >>> from ttr_rules import GameRecord
    >>> record = GameRecord(map="europe", players=2, seed=1, actions=["tickets keep 4,32"])
    >>> first = next(replay_steps(record))
    >>> first.index, first.text, first.after.current
    (0, 'tickets keep 4,32', 1)
    """
    if not isinstance(record, GameRecord):
        raise RecordError(f"expected a GameRecord, got {type(record).__name__}")
    _check_result_claim(record)
    state = start_state(record, map=map)
    for index, text in enumerate(record.actions):
        try:
            action = parse_action(text, state)
            result = step(state, action)
        except (InvalidActionError, IllegalActionError) as exc:
            raise RecordError(
                f"action {index} ({clipped(repr(text))}) does not replay: {exc}", index
            ) from None
        yield ReplayStep(index, text, action, state, result.state, result.events)
        state = result.state
    _check_end(record, state)


def _check_result_claim(record: GameRecord) -> None:
    """A record states the end of its game whole (``final_digest`` and ``scores``) or not at
    all: scores without the digest would not prove which game they are the end of."""
    if (record.final_digest is None) != (record.scores is None):
        given, missing = (
            ("scores", "final_digest")
            if record.final_digest is None
            else ("final_digest", "scores")
        )
        raise RecordError(
            f"the record gives {given} but no {missing}: a finished game's record needs both"
        )


def _check_end(record: GameRecord, state: GameState) -> None:
    """The record's result, when it has one, is where its actions lead."""
    if record.final_digest is not None and not is_terminal(state):
        raise RecordError(
            f"the record claims a finished game, but its {len(record.actions)} actions end "
            f"before the game is over (at turn {state.turn}): actions are missing"
        )
    if record.scores is not None:
        scores = tuple(s.total for s in final_scores(state))
        if scores != tuple(record.scores):
            raise RecordError(
                f"the actions lead to scores {joined(scores)}, the record says "
                f"{joined(record.scores)}"
            )
    if record.final_digest is not None and record.final_digest != state_digest(state):
        raise RecordError(
            "the actions lead to another final state than the record's (final_digest differs)"
        )


def replay(record: GameRecord, *, map: GameMap | None = None) -> GameState:
    """The state at the end of ``record`` (see :func:`replay_steps` for the errors and
    ``map``).

    >>> record = GameRecord(map="europe", players=2, seed=0, actions=("tickets keep 3,15",))
    >>> state = replay(record)
    >>> state.players[0].tickets, state.current
    ((3, 15), 1)
    >>> replay(GameRecord(map="europe", players=2, seed=0, actions=("draw blind",)))
    Traceback (most recent call last):
    ...
    ttr_rules.errors.RecordError: action 0 ('draw blind') does not replay: ...
    """
    if not isinstance(record, GameRecord):
        raise RecordError(f"expected a GameRecord, got {type(record).__name__}")
    state: GameState | None = None
    for replayed in replay_steps(record, map=map):
        state = replayed.after
    return start_state(record, map=map) if state is None else state


def write_record(
    path: str | os.PathLike[str], record: GameRecord, *, overwrite: bool = True
) -> None:
    """Write ``record`` as a JSON file (UTF-8, indented); with ``overwrite=False`` an existing
    file is left alone and :class:`FileExistsError` raised.

    >>> import json, tempfile, pathlib
    >>> record = GameRecord(map="europe", players=2, seed=0, actions=("tickets keep 3,15",))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "game.json"
    ...     write_record(path, record)
    ...     json.loads(path.read_text(encoding="utf-8"))["actions"]
    ['tickets keep 3,15']
    """
    with open(path, "w" if overwrite else "x", encoding="utf-8") as out:
        out.write(to_json(record, indent=2) + "\n")


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record written by :func:`write_record` (UTF-8, a byte-order mark allowed); raises
    :class:`~ttr_rules.errors.SerializationError` naming the JSON path of any problem (also for
    bytes that are not UTF-8 and JSON nested too deeply), and :class:`OSError` for a file that
    cannot be read, before reading it for a device or a file over
    :data:`~ttr_rules.maps.file.MAX_FILE_BYTES`.

    >>> import tempfile, pathlib
    >>> record = GameRecord(map="europe", players=2, seed=0, actions=("tickets keep 3,15",))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "game.json"
    ...     write_record(path, record)
    ...     read_record(path) == record
    True
    """
    data = read_file_bytes(path)
    try:
        record: GameRecord = from_json(data, GameRecord)
    except SerializationError as exc:
        raise SerializationError(f"{os.fspath(path)}: {exc}", exc.problems) from None
    return record


def record_schema() -> dict[str, Any]:
    """The JSON Schema of record files (``ttr_rules/schemas/record.schema.json``).

    >>> record_schema()["title"]
    'ttr-rules game record'
    """
    text = files("ttr_rules").joinpath("schemas", "record.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
