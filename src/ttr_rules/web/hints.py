"""The web page's hints: :func:`~ttr_rules.agents.suggest` for one seat, as JSON."""

from __future__ import annotations

from typing import Any

from ..agents import compared, suggest
from ..state import GameState
from ..views import observe

__all__ = ["seat_hints"]


def seat_hints(state: GameState, seat: int) -> list[dict[str, Any]]:
    """Ranked suggestions for ``seat`` (empty unless it is that seat's turn), each as
    ``{"action": notation, "label": in words, "compared": to the first in words, "score",
    "reason", "points", "tickets", "risk", "why"}``, ``why`` the reason, the comparison and
    the risk in one sentence. Only the seat's view is read, so a hint never
    tells what the seat cannot see.

    >>> from ttr_rules import new_game
    >>> hints = seat_hints(new_game("europe", players=2, seed=0), 0)
    >>> sorted(hints[0])
    ['action', 'compared', 'label', 'points', 'reason', 'risk', 'score', 'tickets', 'why']
    >>> hints[0]["label"].split(", ")[0]
    'Keep Edinburgh – Athina (21 points)'
    >>> hints[0]["compared"], hints[1]["compared"].startswith("about ")
    ('the best of these', True)
    >>> seat_hints(new_game("europe", players=2, seed=0), 1)
    []
    """
    if state.is_terminal or state.current != seat:
        return []
    hints = suggest(observe(state, seat))
    return [
        {
            "action": hint.text,
            "label": hint.label,
            "compared": compared(hint, hints[0]),
            "score": hint.score,
            "reason": hint.reason,
            "points": hint.points,
            "tickets": list(hint.tickets),
            "risk": hint.risk,
            "why": _why(hint.reason, compared(hint, hints[0]), hint.risk),
        }
        for hint in hints
    ]


def _why(reason: str, compared: str, risk: str | None) -> str:
    """A hint's reason with how it compares and its risk (``risk: ...``), in one sentence."""
    return f"{reason} ({compared})" + (f"; risk: {risk}" if risk else "")
