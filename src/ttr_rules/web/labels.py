"""The words of the web page, for the seat asking: legal actions as a client shows them
(notation, structured fields, the kit's label, group and button caption), the panels, the
status line and prompts, the tickets, the table headings and the final scores.

The page places these texts and writes none itself. The sentences come from the front-end kit
(:mod:`ttr_rules.frontend`) and :mod:`ttr_rules.words`, the same that ``ttr play`` shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .. import (
    BuildStation,
    ClaimRoute,
    ClaimWithSets,
    Event,
    GameMap,
    GameState,
    Phase,
    PlayerView,
    format_action,
    legal_actions,
    observe,
    to_json,
    words,
)
from ..frontend import (
    TicketStatus,
    action_label,
    claim_payment_label,
    group_actions,
    keep_prompt,
    payment_label,
    payment_words,
    phase_prompt,
    ticket_worth,
    tunnel_words,
    turn_words,
    verdict,
)
from ..render import describe_event
from ..scoring import final_scores, winners
from ..views import view_legal_actions
from ..words import counted, sentence, signed, ticket_ends

__all__ = [
    "describe_legal_actions",
    "game_facts",
    "panel_words",
    "score_words",
    "seat_name",
    "step_words",
    "ticket_words",
]


def seat_name(seat: int, viewer: int | None, agents: Mapping[int, str]) -> str:
    """How the page names ``seat`` to ``viewer``: ``you``, ``Player 2``, ``Player 2 (medium)``
    (:func:`ttr_rules.words.seat_name`, with the agent playing the seat).

    >>> seat_name(0, 0, {}), seat_name(1, 0, {1: "medium"}), seat_name(0, None, {})
    ('you', 'Player 2 (medium)', 'Player 1')
    """
    return words.seat_name(seat, viewer, agents.get(seat, ""))


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


def panel_words(view: PlayerView, agents: Mapping[int, str]) -> dict[str, Any]:
    """What the page says to ``view``'s seat about the position (null: nothing to say): the
    tunnel and payment panels (:func:`ttr_rules.frontend.tunnel_words`,
    :func:`~ttr_rules.frontend.payment_words`), the status line
    (:func:`~ttr_rules.frontend.turn_words`), the turn panel's title and prompt, the lead-in of
    the tickets to keep and its button, the lead-in of a payment's next card, each seat's name
    and the headings of the players' table.

    >>> from ttr_rules import new_game
    >>> said = panel_words(observe(new_game(players=2, seed=1), 0), {1: "medium"})
    >>> said["tunnel"], said["status"], said["keep"]
    (None, 'Your turn: choose your destination tickets.', 'Keep at least 2 of these 4 tickets:')
    >>> said["seats"][1], [c["title"] for c in said["columns"]][:3]
    ({'name': 'Player 2', 'full': 'Player 2 (medium)'}, ['Player', 'Trains left', 'Cards'])
    """

    def name(seat: int) -> str:
        return seat_name(seat, view.player, agents)

    acting = view.player is not None and view.player == view.current and not view.is_terminal
    prompt = sentence(phase_prompt(view)) + "." if acting else ""
    if acting and view.phase is Phase.START and _can_claim(view):
        prompt += " Click a highlighted route to claim it."
    keep = keep_prompt(view)
    paying = acting and view.phase is Phase.PAYMENT
    return {
        "tunnel": tunnel_words(view, name),
        "payment": payment_words(view, name),
        "status": turn_words(view, name),
        "title": "Your move" if acting else "Table",
        "prompt": prompt,
        "keep": keep,
        "keep_button": "Keep the checked tickets" if keep else None,
        "pick": "Pick the next card:" if paying else None,
        "seats": [_seat_names(seat, view.player, agents) for seat in range(len(view.seats))],
        "columns": _player_columns(view),
    }


def _can_claim(view: PlayerView) -> bool:
    return any(isinstance(a, ClaimRoute | ClaimWithSets) for a in view_legal_actions(view))


def _seat_names(seat: int, viewer: int | None, agents: Mapping[int, str]) -> dict[str, str]:
    """A seat's name alone (``Player 2``, ``You``) and with its agent (``Player 2 (medium)``)."""
    full = sentence(seat_name(seat, viewer, agents))
    return {"name": sentence(seat_name(seat, viewer, {})), "full": full}


def _player_columns(view: PlayerView) -> list[dict[str, str]]:
    """The players' table: the key of each column (what the page fills it with) and its
    heading; the hand sizes give way to the final scores at the end, and a board without
    stations has no column for them."""
    over = view.is_terminal
    columns = [("player", "Player"), ("trains", "Trains left")]
    columns += [] if over else [("cards", "Cards")]
    columns += [("tickets", "Tickets")]
    columns += [("stations", "Stations left")] if view.rules.stations_per_player else []
    columns += [("route_points", "Route points")]
    columns += [("total", "Final score")] if over else []
    return [{"key": key, "title": title} for key, title in columns]


def ticket_words(status: TicketStatus, over: bool) -> dict[str, str | None]:
    """A ticket of the page's list in words: its ends, what it is worth (the points lost by a
    ticket to several destinations with a true minus), where it stands, and whether it is a
    long one.

    >>> from ttr_rules import new_game
    >>> from ttr_rules.frontend import ticket_status
    >>> view = observe(new_game("switzerland", players=2, seed=2), 0)
    >>> [ticket_words(s, False) for s in ticket_status(view, offered=True)][0]
    {'ends': 'Italia – France 11, Deutschland 13 or Österreich 6', 'worth': '6–13 (−6)', \
'status': 'open', 'tag': None}
    """
    ticket = status.ticket
    worth = ticket_worth(ticket, status.points if status.done else None)
    state = "✓ completed" if status.done else "✗ failed" if over else "open"
    return {
        "ends": ticket_ends(ticket),
        "worth": worth,
        "status": state,
        "tag": "long" if ticket.long else None,
    }


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
        item["caption"] = _caption(action, view) or item["label"]
        item["kind"], item["target"] = place[action]
        out.append(item)
    return out


def _caption(action: object, view: PlayerView) -> str:
    """A payment's button under its route or city, which the menu already names: ``Pay 3
    black + 1 locomotive`` (empty for other actions: their label is their caption)."""
    if isinstance(action, ClaimWithSets):
        return "Pay with substitute sets (pick the cards one by one)"
    if isinstance(action, ClaimRoute):
        return f"Pay {claim_payment_label(action, view)}"
    if isinstance(action, BuildStation):
        cost = len(view.seats[view.current].stations) + 1
        return f"Pay {payment_label(action.color, action.locomotives, cost)}"
    return ""


def score_words(state: GameState, viewer: int | None, agents: Mapping[int, str]) -> dict[str, Any]:
    """The final scores as the page shows them to ``viewer``: the headline
    (:func:`ttr_rules.frontend.verdict`) and the table, best first: its headings and, per
    player, the cells in words and numbers. Columns the rules cannot fill are left out
    (stations on a board without them, the longest-path bonus where it is not scored, mountain
    points on a board without mountains); each bonus has its name on this map.

    >>> from ttr_rules import scenario
    >>> said = score_words(scenario("europe", players=2, routes={0: 1}), 1, {0: "medium"})
    >>> said["headline"], said["columns"][-3:]
    ('You win!', ['Longest path', 'European Express', 'Final score'])
    >>> said["rows"][0]["cells"][0], said["rows"][1]["cells"][0]
    ('You ★', 'Player 1 (medium)')
    >>> score_words(scenario("europe", players=2), None, {})["headline"]
    'Tie: Player 1 and Player 2 share the win.'
    """
    game_map = state.map
    scores = final_scores(state)
    best = winners(state)
    mountains = any(route.mountain for route in game_map.routes)
    stations = state.rules.stations_per_player > 0
    express = "express" in state.rules.bonuses
    others = [name for name in state.rules.bonuses if name != "express"]
    columns = ["Player", "Route points"]
    columns += ["of which mountains"] if mountains else []
    columns += ["Ticket points", "Tickets completed / failed"]
    columns += ["Station bonus"] if stations else []
    columns += ["Longest path"]
    columns += [_bonus_heading(game_map, name) for name in (["express"] if express else [])]
    columns += [_bonus_heading(game_map, name) for name in others]
    columns += ["Final score"]
    rows = []
    for score in sorted(scores, key=lambda s: -s.total):
        won = score.player in best
        bonus = dict(score.bonuses)
        numbers = [score.route_points]
        numbers += [score.mountain_points] if mountains else []
        numbers += [score.ticket_points]
        cells = [signed(n, plus=False) for n in numbers]
        cells += [f"{score.tickets_completed} / {score.tickets_failed}"]
        numbers = [score.station_bonus] if stations else []
        numbers += [score.longest_path]
        numbers += [score.express_bonus] if express else []
        numbers += [bonus.get(name, 0) for name in others]
        numbers += [score.total]
        cells += [signed(n, plus=False) for n in numbers]
        who = sentence(seat_name(score.player, viewer, agents)) + (" ★" if won else "")
        cells.insert(0, who)
        rows.append({"player": score.player, "winner": won, "cells": cells})

    def name(seat: int) -> str:
        return seat_name(seat, viewer, agents)

    return {"headline": verdict(best, name), "columns": columns, "rows": rows}


def _bonus_heading(game_map: GameMap, name: str) -> str:
    """A bonus's column: its name on this map without the article (``European Express``)."""
    return sentence(game_map.bonus_title(name).removeprefix("the "))


def game_facts(summary: Mapping[str, Any], now: float) -> dict[str, str]:
    """A game of the lobby's list in words: its title (map, seats, where it stands) and its
    facts (id, age, open seats), from :meth:`ttr_rules.web.games.Game.summary`.

    >>> summary = {"id": "ab12", "map": "europe", "seats": [{"agent": None}, {"agent": "medium"}],
    ...            "over": False, "turn": 4, "created": 1000.0, "open_seats": 1}
    >>> said = game_facts(summary, 1000.0 + 300)
    >>> said["title"], said["facts"]
    ('europe: human vs medium, turn 5', 'game ab12 · started 5 minutes ago · 1 open seat')
    """
    seats = " vs ".join(seat["agent"] or "human" for seat in summary["seats"])
    where = "finished" if summary["over"] else f"turn {summary['turn'] + 1}"
    open_seats = summary["open_seats"]
    seats_open = counted(open_seats, "open seat") if open_seats else "no open seats"
    facts = f"game {summary['id']} · {_age(now - summary['created'])} · {seats_open}"
    return {"title": f"{summary['map']}: {seats}, {where}", "facts": facts}


def _age(seconds: float) -> str:
    """How long ago something started, in words (``started 5 minutes ago``)."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            return f"started {counted(int(seconds // size), unit)} ago"
    return "started just now"
