"""What each seat may learn from a step: the per-seat filter of actions and events (rule E79).

The server keeps the full :class:`~ttr_rules.GameState`; a client only ever receives views
(:func:`~ttr_rules.observe` / :func:`~ttr_rules.public_view`) and the steps of the game as
filtered here. Two things in a step are private to the player who took it:

- the colour of a card drawn blind from the deck (:class:`~ttr_rules.CardDrawn` with ``slot``
  None) — others see that a card was drawn, with ``"color": null``;
- which tickets were kept (:class:`~ttr_rules.KeepTickets`) — others see the action as
  ``null`` and only the counts of the :class:`~ttr_rules.TicketsKept` event;
- the cards picked one by one for a payment with substitute sets (:class:`~ttr_rules.PayCard`)
  — others see each pick as ``null`` (the view hides them too): the claim that ends the
  payment shows them all at once, and a payment that never claims shows nothing.

Everything else in an event is public at the table: face-up cards, payments, tunnel reveals,
reshuffles, counts of drawn and kept tickets.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .. import Action, Event, GameMap, KeepTickets, PayCard, events_for, format_action, to_json

__all__ = ["seat_action", "seat_event", "seat_step"]


def seat_event(event: Event, viewer: int | None) -> dict[str, Any]:
    """The JSON object of ``event`` as ``viewer`` may see it (``viewer`` None: a spectator).

    >>> from ttr_rules import CardDrawn, Color
    >>> seat_event(CardDrawn(player=1, color=Color.RED), viewer=0)
    {'type': 'card_drawn', 'player': 1, 'color': None, 'slot': None}
    >>> seat_event(CardDrawn(player=1, color=Color.RED), viewer=1)["color"]
    'red'
    """
    (seen,) = events_for((event,), viewer)  # the library's one filter of events (E79)
    data: dict[str, Any] = json.loads(to_json(seen))
    return data


def seat_action(action: Action, actor: int, viewer: int | None, game_map: GameMap) -> str | None:
    """The notation of ``actor``'s ``action`` as ``viewer`` may see it: None for the tickets
    another player kept and for the cards another player picks for a payment (until its
    claim), :func:`~ttr_rules.format_action` text otherwise.

    >>> from ttr_rules import KeepTickets, load_map
    >>> europe = load_map("europe")
    >>> seat_action(KeepTickets({3, 4}), actor=0, viewer=0, game_map=europe)
    'tickets keep 3,4'
    >>> seat_action(KeepTickets({3, 4}), actor=0, viewer=1, game_map=europe) is None
    True
    >>> from ttr_rules import Color, PayCard
    >>> pick = PayCard(Color.BLUE)
    >>> seat_action(pick, 0, 0, europe), seat_action(pick, 0, None, europe)
    ('pay blue', None)
    """
    if isinstance(action, KeepTickets | PayCard) and actor != viewer:
        return None
    return format_action(action, game_map)


def seat_step(
    seq: int,
    actor: int,
    action: Action,
    events: Iterable[Event],
    viewer: int | None,
    game_map: GameMap,
) -> dict[str, Any]:
    """One step of the game log as ``viewer`` may see it: ``{"seq", "player", "action",
    "events"}`` (``seq`` counts the actions from 1)."""
    return {
        "seq": seq,
        "player": actor,
        "action": seat_action(action, actor, viewer, game_map),
        "events": [seat_event(event, viewer) for event in events],
    }
