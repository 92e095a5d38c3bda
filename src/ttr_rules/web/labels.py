"""Legal actions as a client shows them: notation, structured fields, the kit's label and group.

The words and the grouping come from the front-end kit (:mod:`ttr_rules.frontend`), the same
that ``ttr play`` shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .. import Event, GameMap, GameState, PlayerView, format_action, legal_actions, observe, to_json
from ..frontend import action_label, group_actions, payment_words, tunnel_words
from ..render import describe_event
from ..words import sentence

__all__ = ["describe_legal_actions", "panel_words", "seat_name", "step_words"]


def seat_name(seat: int, viewer: int | None, agents: Mapping[int, str]) -> str:
    """How the page names ``seat`` to ``viewer``: ``you``, ``Player 2``, ``Player 2 (medium)``
    (seats counted from 1, as the page shows them).

    >>> seat_name(0, 0, {}), seat_name(1, 0, {1: "medium"}), seat_name(0, None, {})
    ('you', 'Player 2 (medium)', 'Player 1')
    """
    if seat == viewer:
        return "you"
    agent = agents.get(seat)
    return f"Player {seat + 1}" + (f" ({agent})" if agent else "")


def step_words(
    events: Iterable[Event], game_map: GameMap, viewer: int | None, agents: Mapping[int, str]
) -> str:
    """A step of the game log in words, as ``viewer`` may read it (the same sentences as
    ``ttr play``: :func:`ttr_rules.render.describe_event`).

    >>> from ttr_rules import load_map
    >>> from ttr_rules.events import TicketsKept, TurnEnded
    >>> step_words([TicketsKept(0, 1, 2), TurnEnded(0, 1)], load_map("europe"), 0, {})
    'You keep 1 ticket (2 returned)'
    """

    def name(seat: int) -> str:
        return seat_name(seat, viewer, agents)

    said = (describe_event(e, game_map, viewer=viewer, names=name) for e in events)
    return sentence("; ".join(s for s in said if s))


def panel_words(view: PlayerView, agents: Mapping[int, str]) -> dict[str, str | None]:
    """What the page's tunnel and payment panels say to ``view``'s seat (null: no panel), in
    the kit's words (:func:`ttr_rules.frontend.tunnel_words`,
    :func:`~ttr_rules.frontend.payment_words`).

    >>> from ttr_rules import new_game
    >>> panel_words(observe(new_game(players=2, seed=1), 0), {})
    {'tunnel': None, 'payment': None}
    """

    def name(seat: int) -> str:
        return seat_name(seat, view.player, agents)

    return {"tunnel": tunnel_words(view, name), "payment": payment_words(view, name)}


def describe_legal_actions(state: GameState) -> list[dict[str, Any]]:
    """Every legal action of the player to act as ``{"action": notation, "label": text,
    "kind": kind, "target": route or city, "type": tag, ...the action's JSON fields}``, in the
    order of :func:`~ttr_rules.legal_actions`; ``kind`` and ``target`` are the groups of
    :func:`ttr_rules.frontend.group_actions` (a client groups by them, as ``ttr play`` does).

    >>> from ttr_rules import new_game
    >>> first = describe_legal_actions(new_game(players=2, seed=1))[0]
    >>> first["kind"], first["action"]
    ('keep', 'tickets keep 4,32')
    >>> first["label"]
    'Keep Cadiz – Stockholm (21 points), Smolensk – Rostov (8 points)'
    """
    view = observe(state, state.current)
    place = {
        choice.action: (group.kind, target.label)
        for group in group_actions(view)
        for target in group.targets
        for choice in target.choices
    }
    out = []
    for action in legal_actions(state):
        item: dict[str, Any] = json.loads(to_json(action))
        item["action"] = format_action(action, state.map)
        item["label"] = action_label(action, view)
        item["kind"], item["target"] = place[action]
        out.append(item)
    return out
