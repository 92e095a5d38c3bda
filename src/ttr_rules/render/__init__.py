"""Seeing a game: the board as an SVG picture and a position as terminal text.

``svg(state_or_view)`` is python-chess's ``chess.svg.board`` for Ticket to Ride: a standalone
SVG document built with the standard library only. ``text(state_or_view)`` is the text that
``ttr show`` and ``ttr play`` print. Both accept a full :class:`~ttr_rules.GameState` (which
shows everything) or a :class:`~ttr_rules.PlayerView` (which shows only what its viewer knows).
"""

from __future__ import annotations

from .layout import Layout, city_layout
from .svg import CARD_FILLS, PLAYER_COLORS, svg
from .text import SCORE_COLUMNS, counted, describe_event, format_scores, score_table, text

__all__ = [
    "CARD_FILLS",
    "PLAYER_COLORS",
    "SCORE_COLUMNS",
    "Layout",
    "city_layout",
    "counted",
    "describe_event",
    "format_scores",
    "score_table",
    "svg",
    "text",
]
