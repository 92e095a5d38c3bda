"""Fuzzing the boundaries (issue 10): random bytes, JSON, notation and map files thrown at
``from_json``, ``read_record``, ``parse_action``, ``load_map_file`` and the CLI.

Each test asserts only the documented behaviour: the call returns a value or raises the
documented exception (docs/errors.md), and the CLI returns a status without a traceback or an
"unexpected" error. Inputs are bounded in size, and each call is checked against a loose time
bound (:data:`BOUND`, seconds) — far above the milliseconds they take, far below the seconds
of the quadratic and exponential cases this suite was written against.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from map_samples import small_map_data

from ttr_rules import (
    Action,
    Color,
    Event,
    GameRecord,
    GameState,
    InvalidActionError,
    MapLoadError,
    PlayerView,
    SerializationError,
    from_json,
    legal_actions,
    load_map,
    load_map_file,
    new_game,
    observe,
    parse_action,
    read_record,
    scenario,
    to_json,
)
from ttr_rules.actions import ACTION_TYPES
from ttr_rules.cli import main
from ttr_rules.maps import map_to_dict
from ttr_rules.testing import check_invariants

#: Seconds one input may take, loosely (the machine is shared; nothing here is a benchmark).
BOUND = 5.0
T = TypeVar("T")

STATE = scenario(players=3, hands=[{Color.RED: 3, Color.LOCOMOTIVE: 2}, {}, {}])
START = new_game("europe", 3, seed=2)
CITIES = load_map("europe").cities

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=30,
)


@contextmanager
def bounded() -> Iterator[None]:
    start = time.perf_counter()
    yield
    assert time.perf_counter() - start < BOUND


def _only(call: Callable[[], T], *errors: type[BaseException]) -> T | None:
    with bounded():
        try:
            return call()
        except errors:
            return None


# --------------------------------------------------------------------------- parse_action

words = st.sampled_from(
    [
        "claim",
        "station",
        "draw",
        "faceup",
        "blind",
        "tickets",
        "keep",
        "tunnel",
        "pay",
        "decline",
        "pass",
        "-",
        "#",
        "+",
        "L",
        "red",
        "black",
        "locomotive",
        "pink",
        ",",
        "²",
        "٣",
        "Rostov-on-Don",
    ]
)
notation = st.lists(
    words | st.sampled_from(CITIES) | st.integers(-5, 10**12).map(str) | st.text(max_size=8),
    max_size=12,
).map(" ".join)


hyphens = st.lists(st.sampled_from("-ab "), max_size=990).map(lambda cs: f"claim {''.join(cs)} red")


@given(text=notation | st.text(max_size=1_200) | hyphens)
def test_parse_action_reads_or_refuses(text: str) -> None:
    for state in (STATE, START):
        action = _only(partial(parse_action, text, state), InvalidActionError)
        if action is not None:
            assert isinstance(action, ACTION_TYPES)


# --------------------------------------------------------------------------- from_json


@given(data=st.binary(max_size=2_000) | st.text(max_size=2_000).map(str.encode))
def test_from_json_of_random_bytes(data: bytes) -> None:
    for cls in (GameState, GameRecord, PlayerView, Action, Event):
        _only(partial(from_json, data, cls), SerializationError)


@given(value=json_values)
def test_from_json_of_random_json(value: Any) -> None:
    text = json.dumps(value)
    for cls in (GameState, GameRecord, PlayerView, Action, Event):
        _only(partial(from_json, text, cls), SerializationError)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    yield path


STATE_JSON = json.loads(to_json(STATE))
STATE_PATHS = [p for p in _leaves(STATE_JSON) if p]


def _replace(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@given(path=st.sampled_from(STATE_PATHS), value=json_values | st.integers(-3, 200))
def test_a_mutated_state_is_refused_or_consistent(path: tuple[Any, ...], value: Any) -> None:
    text = json.dumps(_replace(STATE_JSON, path, value))
    state = _only(lambda: from_json(text, GameState), SerializationError)
    if state is not None:  # whatever is accepted keeps the invariants and plays on
        check_invariants(state, check_trains=False)
        legal_actions(state)
        observe(state, 0)


# --------------------------------------------------------------------------- files


@given(data=st.binary(max_size=2_000) | json_values.map(lambda v: json.dumps(v).encode()))
def test_read_record_of_random_files(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("records") / "record.json"
    path.write_bytes(data)
    _only(lambda: read_record(path), SerializationError)


MAP_DATA = small_map_data()
MAP_PATHS = [p for p in _leaves(MAP_DATA) if p]
EUROPE_DATA = map_to_dict(load_map("europe"))


@given(
    data=st.binary(max_size=2_000)
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.tuples(st.sampled_from(MAP_PATHS), json_values | st.integers(-3, 10**6)).map(
        lambda pv: json.dumps(_replace(MAP_DATA, pv[0], pv[1])).encode()
    )
)
def test_load_map_file_of_random_files(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("maps") / "map.json"
    path.write_bytes(data)
    game_map = _only(lambda: load_map_file(path), MapLoadError)
    if game_map is not None:  # a map that loads can be played
        with bounded():
            state = new_game(game_map, 2, seed=0)
            legal_actions(state)


# --------------------------------------------------------------------------- the CLI

COMMANDS = ["replay", "show", "validate-map", "map-info"]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    command=st.sampled_from(COMMANDS),
    data=st.binary(max_size=1_000) | json_values.map(lambda v: json.dumps(v).encode()),
    extra=st.lists(
        st.sampled_from(["--turn", "3", "--player", "1", "-1", "x", "--json"]), max_size=3
    ),
)
def test_cli_commands_on_random_files(
    tmp_path_factory: pytest.TempPathFactory,
    capfd: pytest.CaptureFixture[str],
    command: str,
    data: bytes,
    extra: list[str],
) -> None:
    path = tmp_path_factory.mktemp("cli") / "input.json"
    path.write_bytes(data)
    with bounded():
        status = main([command, str(path), *extra])
    err = capfd.readouterr().err
    assert isinstance(status, int)
    assert "error: unexpected" not in err and "Traceback" not in err


def test_cli_on_a_deeply_nested_file(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for command in COMMANDS:
        assert main([command, str(path)]) != 0
    out, err = capfd.readouterr()
    assert "error: unexpected" not in err
    # validate-map reports on stdout, the others on stderr: each names the file and the problem
    text = out + err
    assert text.count("deep.json") == text.count("nested too deeply") == len(COMMANDS)
