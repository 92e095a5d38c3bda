"""The property-based verification kit: the tools the library's own tests use.

* :func:`check_invariants` (and :class:`InvariantError`) — bookkeeping every position keeps;
* :func:`check_map` — the conformance run for a map plugin (:class:`ConformanceReport`);
* :func:`play` / :func:`playout` — games played by a chooser (:func:`random_chooser`,
  :func:`chooser`) and a policy, the one playout loop of the library, its tests and benchmarks;
* :func:`snapshot` — a deep copy to prove that a call left a state unchanged;
* hypothesis strategies :func:`games`, :func:`states`, :func:`actions`,
  :func:`illegal_actions`, and the state machine :class:`GameMachine` (``TestGame``).

``import ttr_rules`` never imports hypothesis. This package does, for the strategies and the
state machine: install the ``test`` extra (``pip install "ttr-rules[test]"``). Without it,
``check_invariants`` and ``check_map`` still work; the hypothesis names raise ImportError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .conformance import ConformanceError, ConformanceReport, Failure, check_map
from .invariants import (
    INVARIANTS,
    InvariantError,
    Violation,
    card_census,
    check_invariants,
    invariant_problems,
)
from .play import (
    POLICIES,
    TARGETS,
    PlayedGame,
    Step,
    Target,
    chooser,
    play,
    playout,
    random_chooser,
)
from .snapshots import snapshot

if TYPE_CHECKING:
    from .machine import GameMachine, TestGame
    from .strategies import actions, games, illegal_actions, states

__all__ = [
    "INVARIANTS",
    "POLICIES",
    "TARGETS",
    "ConformanceError",
    "ConformanceReport",
    "Failure",
    "GameMachine",
    "InvariantError",
    "PlayedGame",
    "Step",
    "Target",
    "TestGame",
    "Violation",
    "actions",
    "card_census",
    "check_invariants",
    "check_map",
    "chooser",
    "games",
    "illegal_actions",
    "invariant_problems",
    "play",
    "playout",
    "random_chooser",
    "snapshot",
    "states",
]

_LAZY = {
    "GameMachine": "machine",
    "TestGame": "machine",
    "actions": "strategies",
    "games": "strategies",
    "illegal_actions": "strategies",
    "states": "strategies",
}


def __getattr__(name: str) -> Any:
    """The hypothesis-based names, imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
