"""Every exception class of the library survives pickling with its message and its fields
(issue 44 T2): an error raised in a worker process (``ttr simulate --workers``, the web
server's agents, Ray tasks) reaches its parent whole.

The classes are found by walking every module of the package, so that a new exception class
cannot be added without being checked here; one whose ``__init__`` takes other arguments than
a message needs a sample in :data:`SAMPLES`."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from collections.abc import Callable

import pytest

import ttr_rules
from ttr_rules import DrawBlind, Reason, new_game
from ttr_rules.errors import (
    AgentError,
    IllegalActionError,
    MapConflictError,
    MapError,
    MapLoadError,
    MapNotFoundError,
    RecordError,
    SerializationError,
)
from ttr_rules.invariants import InvariantError, Violation


def _library_exceptions() -> list[type[BaseException]]:
    found: set[type[BaseException]] = set()
    for info in pkgutil.walk_packages(ttr_rules.__path__, "ttr_rules."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("ttr_rules")
            ):
                found.add(value)
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__qualname__}")


def _conformance_error() -> BaseException:
    from ttr_rules.testing.conformance import ConformanceError, ConformanceReport, Failure

    report = ConformanceReport("toy", 1, 10, (Failure("validate", "routes[0]: bad"),))
    return ConformanceError(report)


def _api_error() -> BaseException:
    from ttr_rules.web.api import ApiError

    return ApiError(409, "illegal_action", "illegal", reason="game over", action="draw blind")


#: Instances of the classes whose ``__init__`` takes more than a message, by qualified name.
SAMPLES: dict[str, Callable[[], BaseException]] = {
    "ttr_rules.errors.IllegalActionError": lambda: IllegalActionError(
        Reason.GAME_OVER, DrawBlind(), "the game ended"
    ),
    "ttr_rules.errors.AgentError": lambda: AgentError("mcts:iterations=5", 2, "raised X", 7),
    "ttr_rules.errors.MapError": lambda: MapError("bad map", ("a: 1", "b: 2")),
    "ttr_rules.errors.MapLoadError": lambda: MapLoadError("bad file", ("f.json: x",)),
    "ttr_rules.errors.MapNotFoundError": lambda: MapNotFoundError("no map named 'x'"),
    "ttr_rules.errors.MapConflictError": lambda: MapConflictError("two providers"),
    "ttr_rules.errors.RecordError": lambda: RecordError("action 3 does not replay", 3),
    "ttr_rules.errors.SerializationError": lambda: SerializationError("bad", ("$.x: int",)),
    "ttr_rules.invariants.InvariantError": lambda: InvariantError(
        (Violation("cards", "one card too many"),), new_game(players=2, seed=1)
    ),
    "ttr_rules.testing.conformance.ConformanceError": _conformance_error,
    "ttr_rules.web.api.ApiError": _api_error,
}


def _takes_a_message(cls: type[BaseException]) -> bool:
    """Whether ``cls`` keeps the built-in exceptions' ``__init__`` (a message)."""
    return not any(
        "__init__" in vars(k) for k in cls.__mro__ if k.__module__.startswith("ttr_rules")
    )


def _sample(cls: type[BaseException]) -> BaseException:
    name = f"{cls.__module__}.{cls.__qualname__}"
    if name in SAMPLES:
        return SAMPLES[name]()
    assert _takes_a_message(cls), f"{name} takes other arguments: add a sample to SAMPLES"
    return cls("a message, with 'quotes'")


def _fields(error: BaseException) -> dict[str, object]:
    return {k: v for k, v in vars(error).items() if not k.startswith("__")}


CLASSES = _library_exceptions()


def test_the_walk_finds_the_library_exceptions() -> None:
    names = {c.__qualname__ for c in CLASSES}
    assert {"IllegalActionError", "MapLoadError", "InvariantError", "ApiError"} <= names
    assert {"AgentError", "GameSetupError", "AgentOptionError"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_every_library_exception_survives_pickling(cls: type[BaseException]) -> None:
    error = _sample(cls)
    assert type(error) is cls
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls
    assert str(copy) == str(error)
    assert copy.args == error.args
    assert _fields(copy) == _fields(error)


def test_illegal_action_error_keeps_reason_action_and_detail() -> None:
    error = IllegalActionError(Reason.NOT_YOUR_TURN, DrawBlind(), "seat 1 is to act")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.reason, copy.action, copy.detail) == (
        Reason.NOT_YOUR_TURN,
        DrawBlind(),
        "seat 1 is to act",
    )
    assert str(copy) == "illegal action draw blind: not your turn (seat 1 is to act)"
