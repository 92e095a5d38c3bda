"""Agent options checked against the factory's signature, so that a typo or a value of the wrong
type is refused with a message naming the agent and the option.

``ttr ... --agents NAME:opt=value`` reads each value as JSON when it parses (``3``, ``0.5``,
``true``, ``null``), else as text; :func:`check_options` then compares it with the annotation of
the factory's parameter: ``int`` takes an integer (not ``true``), ``float`` any number, ``bool``
``true`` or ``false``, ``str`` anything (a number is passed as its text), a union any of its
members, ``Literal`` one of its values. Parameters without a checkable annotation are passed
through for the factory to check.
"""

from __future__ import annotations

import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["AgentOptionError", "check_number", "check_options", "check_whole"]


class AgentOptionError(TypeError, ValueError):
    """An option the agent's factory does not take, or a value of the wrong type; the message
    names the agent and the option. (A :class:`TypeError` like any unexpected keyword, and a
    :class:`ValueError` like any bad input.)"""


def check_options(
    agent: str, factory: Callable[..., Any], options: Mapping[str, Any]
) -> dict[str, Any]:
    """``options`` as ``factory`` takes them, or :class:`AgentOptionError` (a ``TypeError`` and a
    ``ValueError``) for an option it does not take or a value of the wrong type, naming agent and
    option.

    >>> from ttr_rules.agents import GreedyAgent
    >>> check_options("greedy", GreedyAgent, {"ticket_weight": 2})
    {'ticket_weight': 2.0}
    >>> for bad in ({"ticket_weight": "abc"}, {"depth": 3}):
    ...     try:
    ...         check_options("greedy", GreedyAgent, bad)
    ...     except AgentOptionError as error:
    ...         print(error)
    agent 'greedy': option ticket_weight must be a number, got "abc"
    agent 'greedy' has no option 'depth'; its options are: ticket_weight, claim_weight, \
points_weight, tickets_min_trains, tunnel_weight, last_chance
    """
    try:
        signature = inspect.signature(factory)
        hints = typing.get_type_hints(_initializer(factory))
    except (TypeError, ValueError, NameError):  # a builtin or unresolvable annotations
        return dict(options)
    params = signature.parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    names = [n for n, p in params.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
    checked: dict[str, Any] = {}
    for key, value in options.items():
        if key not in names:
            if takes_any:
                checked[key] = value
                continue
            offered = ", ".join(n for n in names if n != "seed") or "none"
            raise AgentOptionError(
                f"agent {agent!r} has no option {key!r}; its options are: {offered}"
            )
        checked[key] = _typed(agent, key, hints.get(key, Any), value)
    return checked


def _initializer(factory: Callable[..., Any]) -> Callable[..., Any]:
    """A class's ``__init__`` (where its parameters are annotated), else the factory."""
    if not isinstance(factory, type):
        return factory
    init: Callable[..., Any] = next(
        vars(k)["__init__"] for k in factory.__mro__ if "__init__" in vars(k)
    )
    return init


def _typed(agent: str, key: str, annotation: Any, value: Any) -> Any:
    """``value`` as ``annotation`` takes it (an int for a float becomes a float)."""
    fitted = _fit(annotation, value)
    if fitted is _MISMATCH:
        raise AgentOptionError(
            f"agent {agent!r}: option {key} must be {_describe(annotation)}, "
            f"got {json.dumps(value, default=str)}"
        )
    return fitted


_MISMATCH = object()


def _fit(annotation: Any, value: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = typing.get_args(annotation)
        exact = [m for m in members if _fit(m, value) is value]  # keep an int that fits int
        fits = exact or [m for m in members if _fit(m, value) is not _MISMATCH]
        return _fit(fits[0], value) if fits else _MISMATCH
    if origin is typing.Literal:
        return value if value in typing.get_args(annotation) else _MISMATCH
    if annotation in (None, type(None)):
        return value if value is None else _MISMATCH
    if annotation is bool:
        return value if type(value) is bool else _MISMATCH
    if annotation is int:
        return value if type(value) is int else _MISMATCH
    if annotation is float:
        return float(value) if type(value) in (int, float) else _MISMATCH
    if annotation is str:
        return value if isinstance(value, str) else json.dumps(value)
    return value  # anything else is the factory's to check


def _describe(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(m) for m in typing.get_args(annotation))
    if origin is typing.Literal:
        return "one of " + ", ".join(json.dumps(v) for v in typing.get_args(annotation))
    names = {bool: "true or false", int: "an integer", float: "a number", str: "text"}
    if annotation in (None, type(None)):
        return "null"
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def check_whole(name: str, value: object, low: int, high: int) -> None:
    """Refuse an option that is not a whole number from ``low`` to ``high``, in plain words
    (the range check a factory makes after :func:`check_options` checked the type).

    >>> check_whole("iterations", 10**11, 1, 1_000_000)
    Traceback (most recent call last):
    ...
    ValueError: iterations must be a whole number from 1 to 1,000,000, got 100000000000
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, got {value}")


def check_number(name: str, value: object, low: float, high: float) -> None:
    """Refuse an option that is not a number from ``low`` to ``high`` (NaN included), in
    plain words.

    >>> check_number("points_weight", float("nan"), 0.0, 10.0)
    Traceback (most recent call last):
    ...
    ValueError: points_weight must be a number from 0 to 10, got nan
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, got {value}")
