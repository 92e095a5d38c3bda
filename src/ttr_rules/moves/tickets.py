"""Destination tickets: the initial choice and the ticket draw (E3, E4, E61–E64, U7,
U21).

The family's actions are :class:`~ttr_rules.DrawTickets` and :class:`~ttr_rules.KeepTickets`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..actions import Action, DrawTickets, KeepTickets
from ..errors import Reason
from ..events import TicketsDrawn, TicketsKept
from ..rules import Rules
from ..state import GameState, Phase, evolve
from ..words import counted, joined
from .common import INITIAL_TICKETS, KEEP_TICKETS, START, ActionRules, Problem, wrong_phase
from .draft import Draft

__all__ = [
    "ACTIONS",
    "apply",
    "draw",
    "draw_problem",
    "keep",
    "keep_actions",
    "keep_at_least",
    "keep_problem",
    "min_keep",
    "problem",
    "returned_pile",
    "split_offered",
    "ticket_actions",
]

_DRAW: tuple[Action, ...] = (DrawTickets(),)
_new = object.__new__
_set = object.__setattr__


def ticket_actions(state: GameState) -> tuple[Action, ...]:
    """Drawing tickets is legal while the ticket deck is not empty (E63). A shared tuple."""
    return _DRAW if state.ticket_deck else ()


def min_keep(state: GameState) -> int:
    """Tickets that must be kept: 2 of the initial deal (E4), 1 of a draw (E61), never more than
    were offered (E62)."""
    return keep_at_least(state.rules, state.phase, len(state.players[state.current].offered))


def keep_at_least(rules: Rules, phase: Phase, offered: int) -> int:
    """:func:`min_keep` from what a seat's view shows: the rules, the phase and the number of
    tickets offered.

    >>> from ttr_rules import Rules
    >>> keep_at_least(Rules(), INITIAL_TICKETS, 4), keep_at_least(Rules(), KEEP_TICKETS, 3)
    (2, 1)
    """
    wanted = (
        rules.initial_keep_at_least if phase is INITIAL_TICKETS else rules.tickets_keep_at_least
    )
    return min(wanted, offered)


@lru_cache(maxsize=4096)
def _keep_choices(offered: tuple[int, ...], least: int) -> tuple[KeepTickets, ...]:
    choices: list[KeepTickets] = []
    for size in range(least, len(offered) + 1):
        for kept in combinations(offered, size):
            choices.append(_keep(kept))
    return tuple(choices)


def _keep(tickets: tuple[int, ...]) -> KeepTickets:
    """``KeepTickets(frozenset(tickets))`` without the attrs ``__init__`` and its converter
    (about 5,000 instructions of a choice's listing each; the converter makes this frozenset)."""
    action = _new(KeepTickets)
    _set(action, "tickets", frozenset(tickets))
    return action


def keep_actions(state: GameState) -> list[Action]:
    """Every subset of the offered tickets with at least :func:`min_keep` tickets, smallest
    first."""
    offered = state.players[state.current].offered
    return list(_keep_choices(offered, min_keep(state)))


def draw_problem(state: GameState, action: DrawTickets) -> Problem | None:
    """Why drawing tickets is not legal now: it needs a ticket left in the deck (E63)."""
    if state.phase is not START:
        return wrong_phase(state.phase)
    if not state.ticket_deck:
        return Problem(Reason.NO_TICKETS_LEFT)
    return None


def keep_problem(state: GameState, action: KeepTickets) -> Problem | None:
    """Why ``action`` is not a legal choice: it names offered tickets only, at least
    :func:`min_keep` of them (E4, E61, E62)."""
    phase = state.phase
    if phase is not KEEP_TICKETS and phase is not INITIAL_TICKETS:
        return wrong_phase(phase)
    offered = state.players[state.current].offered
    chosen = action.tickets
    if (
        not isinstance(chosen, frozenset)
        or not chosen <= set(offered)
        or any(type(t) is not int for t in chosen)  # True == 1, but is not ticket 1
    ):
        return Problem(Reason.NOT_OFFERED, f"the offered tickets are {joined(sorted(offered))}")
    least = min_keep(state)
    if len(chosen) < least:
        return Problem(Reason.MUST_KEEP_MORE_TICKETS, f"keep at least {counted(least, 'ticket')}")
    return None


def draw(draft: Draft, action: DrawTickets) -> Phase:
    """Draw the top ``tickets_drawn`` tickets, or what remains (E61, E62); the same player
    chooses next."""
    state = draft.state
    count = state.rules.tickets_drawn
    offered = state.ticket_deck[:count]
    draft.changes["ticket_deck"] = state.ticket_deck[count:]
    draft.player = evolve(draft.player, offered=offered)
    if draft.log is not None:
        draft.log.append(TicketsDrawn(state.current, len(offered)))
    return KEEP_TICKETS


def keep(draft: Draft, action: KeepTickets) -> Phase:
    """Keep some of the offered tickets for good (E64). Returned tickets go to the bottom of
    the deck in drawn order (E61, U7); unkept initial tickets go to the box, or to the bottom
    in the ``initial_discard="bottom"`` variant (E4). After an initial choice the turn module
    hands the choice to the next player (U21)."""
    state = draft.state
    player = draft.player
    kept, returned = split_offered(player.offered, action.tickets)
    draft.player = evolve(draft.player, tickets=player.tickets + kept, offered=())
    if draft.log is not None:
        draft.log.append(TicketsKept(state.current, len(kept), len(returned)))
    pile, tickets = returned_pile(state, returned)
    draft.changes[pile] = tickets
    return START if state.phase is KEEP_TICKETS else INITIAL_TICKETS


def split_offered(
    offered: tuple[int, ...], chosen: frozenset[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The offered tickets split into the kept and the returned ones, each in drawn order
    (E64, U7).

    >>> split_offered((5, 2, 9), frozenset({9, 5}))
    ((5, 9), (2,))
    """
    kept: list[int] = []
    returned: list[int] = []
    for t in offered:
        (kept if t in chosen else returned).append(t)
    return tuple(kept), tuple(returned)


def returned_pile(state: GameState, returned: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """Where the unkept tickets go, as (state field, new pile): the bottom of the ticket deck
    (E61, U7), or the box after the initial choice unless ``initial_discard="bottom"`` (E4),
    and during play when ``returned_ticket_discard="box"`` (the Nordic Countries rule)."""
    rules = state.rules
    if state.phase is INITIAL_TICKETS:
        where = rules.initial_discard
    else:
        where = rules.returned_ticket_discard
    if where == "box":
        return "ticket_box", state.ticket_box + returned
    return "ticket_deck", state.ticket_deck + returned


#: The ticket family: each action class with its check and its transition.
ACTIONS: ActionRules = {
    DrawTickets: (draw_problem, draw),
    KeepTickets: (keep_problem, keep),
}


def problem(state: GameState, action: DrawTickets | KeepTickets) -> Problem | None:
    """Why ``action`` is not legal now, or None when it is."""
    return ACTIONS[type(action)][0](state, action)


def apply(draft: Draft, action: DrawTickets | KeepTickets) -> Phase:
    """Apply a legal ticket draw or ticket choice (see :func:`problem`)."""
    return ACTIONS[type(action)][1](draft, action)
