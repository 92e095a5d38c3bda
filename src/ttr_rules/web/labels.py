"""Legal actions as a client shows them: notation, structured fields and an English label."""

from __future__ import annotations

import json
from typing import Any

from .. import (
    Action,
    BuildStation,
    ClaimRoute,
    Color,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepTickets,
    Pass,
    PayTunnel,
    format_action,
    legal_actions,
    to_json,
)

__all__ = ["action_label", "describe_legal_actions", "payment_label"]


def _cards(n: int, color: Color) -> str:
    name = "locomotive" if color is Color.LOCOMOTIVE else color.value
    return f"{n} {name}" + ("s" if n != 1 and color is Color.LOCOMOTIVE else "")


def payment_label(color: Color, locomotives: int, total: int) -> str:
    """``3 black + 1 locomotive``, ``2 locomotives``, ``4 red``.

    >>> from ttr_rules import Color
    >>> payment_label(Color.BLACK, 1, 4)
    '3 black + 1 locomotive'
    >>> payment_label(Color.LOCOMOTIVE, 2, 2)
    '2 locomotives'
    """
    if color is Color.LOCOMOTIVE or locomotives == total:
        return _cards(total, Color.LOCOMOTIVE)
    text = _cards(total - locomotives, color)
    return f"{text} + {_cards(locomotives, Color.LOCOMOTIVE)}" if locomotives else text


def action_label(action: Action, state: GameState) -> str:
    """An English description of a legal ``action`` in ``state`` for buttons and menus.

    >>> from ttr_rules import DrawBlind, new_game
    >>> action_label(DrawBlind(), new_game(players=2))
    'Draw a card from the deck'
    """
    game_map = state.map
    if isinstance(action, DrawFaceUp):
        color = state.face_up[action.slot]
        name = color.value if color is not None else "card"
        return f"Take the face-up {name} (slot {action.slot + 1})"
    if isinstance(action, DrawBlind):
        return "Draw a card from the deck"
    if isinstance(action, ClaimRoute):
        route = game_map.routes[action.route]
        pay = payment_label(action.color, action.locomotives, route.length)
        return f"Claim {route.a} – {route.b} with {pay}"
    if isinstance(action, PayTunnel):
        tunnel = state.tunnel
        owed = tunnel.owed if tunnel is not None else action.locomotives
        color = tunnel.color if tunnel is not None else Color.LOCOMOTIVE
        return f"Pay the tunnel's extra {payment_label(color, action.locomotives, owed)}"
    if isinstance(action, DeclineTunnel):
        return "Give up the tunnel (take the cards back)"
    if isinstance(action, DrawTickets):
        return "Draw destination tickets"
    if isinstance(action, KeepTickets):
        names = ", ".join(str(game_map.tickets[t]) for t in sorted(action.tickets))
        return f"Keep {names}"
    if isinstance(action, BuildStation):
        cost = len(state.players[state.current].stations) + 1
        pay = payment_label(action.color, action.locomotives, cost)
        return f"Build a station in {action.city} with {pay}"
    if isinstance(action, Pass):
        return "Pass (nothing else is possible)"
    return str(action)


def describe_legal_actions(state: GameState) -> list[dict[str, Any]]:
    """Every legal action of the player to act as ``{"action": notation, "label": text,
    "type": tag, ...the action's JSON fields}``, in the order of
    :func:`~ttr_rules.legal_actions`."""
    out = []
    for action in legal_actions(state):
        item: dict[str, Any] = json.loads(to_json(action))
        item["action"] = format_action(action, state.map)
        item["label"] = action_label(action, state)
        out.append(item)
    return out
