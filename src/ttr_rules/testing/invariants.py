"""``check_invariants`` for tests: the invariants themselves live in :mod:`ttr_rules.invariants`
(the boundaries ``from_json``, ``scenario`` and ``replay`` use them too); this module re-exports
them for the verification kit."""

from __future__ import annotations

from ..invariants import (
    INVARIANTS,
    InvariantError,
    Violation,
    card_census,
    check_invariants,
    invariant_problems,
    reset_feasible,
)

__all__ = [
    "INVARIANTS",
    "InvariantError",
    "Violation",
    "card_census",
    "check_invariants",
    "invariant_problems",
    "reset_feasible",
]
