"""The web page's hints: :func:`~ttr_rules.agents.suggest` for one seat, as JSON."""

from __future__ import annotations

from typing import Any

from ..agents import suggest
from ..state import GameState
from ..views import observe

__all__ = ["seat_hints"]


def seat_hints(state: GameState, seat: int) -> list[dict[str, Any]]:
    """Ranked suggestions for ``seat`` (empty unless it is that seat's turn), each as
    ``{"action": notation, "score", "reason", "points", "tickets", "risk"}``. Only the
    seat's view is read, so a hint never tells what the seat cannot see.

    >>> from ttr_rules import new_game
    >>> hints = seat_hints(new_game("europe", players=2, seed=0), 0)
    >>> sorted(hints[0])
    ['action', 'points', 'reason', 'risk', 'score', 'tickets']
    >>> seat_hints(new_game("europe", players=2, seed=0), 1)
    []
    """
    if state.is_terminal or state.current != seat:
        return []
    return [
        {
            "action": hint.text,
            "score": hint.score,
            "reason": hint.reason,
            "points": hint.points,
            "tickets": list(hint.tickets),
            "risk": hint.risk,
        }
        for hint in suggest(observe(state, seat))
    ]
