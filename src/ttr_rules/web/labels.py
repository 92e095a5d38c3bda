"""Legal actions as a client shows them: notation, structured fields, the kit's label and group.

The words and the grouping come from the front-end kit (:mod:`ttr_rules.frontend`), the same
that ``ttr play`` shows.
"""

from __future__ import annotations

import json
from typing import Any

from .. import GameState, format_action, legal_actions, observe, to_json
from ..frontend import action_label, group_actions

__all__ = ["describe_legal_actions"]


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
