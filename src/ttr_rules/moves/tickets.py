"""Destination tickets: the initial choice and the ticket draw (E3, E4, E61–E64, U7,
U21)."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..actions import Action, DrawTickets, KeepTickets
from ..errors import IllegalActionError, Reason
from ..events import Event, TicketsDrawn, TicketsKept
from ..piles import Piles
from ..state import GameState, Phase, PlayerState, evolve
from .common import with_player
from .turn import finish_action

__all__ = [
    "apply_draw_tickets",
    "apply_keep_tickets",
    "keep_actions",
    "min_keep",
    "ticket_actions",
]

# Enum members are looked up once here: ``Phase.START`` in a function body costs an enum
# class-attribute look-up (about 0.2 µs on Python 3.11) every time it runs.
_INITIAL_TICKETS = Phase.INITIAL_TICKETS
_KEEP_TICKETS = Phase.KEEP_TICKETS
_START = Phase.START

_DRAW = DrawTickets()


def ticket_actions(state: GameState) -> list[Action]:
    """Drawing tickets is legal while the ticket deck is not empty (E63)."""
    return [_DRAW] if state.ticket_deck else []


def min_keep(state: GameState) -> int:
    """Tickets that must be kept: 2 of the initial deal (E4), 1 of a draw (E61), never more than
    were offered (E62)."""
    rules = state.rules
    offered = len(state.players[state.current].offered)
    wanted = (
        rules.initial_keep_at_least
        if state.phase is _INITIAL_TICKETS
        else rules.tickets_keep_at_least
    )
    return min(wanted, offered)


@lru_cache(maxsize=4096)
def _keep_choices(offered: tuple[int, ...], least: int) -> tuple[KeepTickets, ...]:
    return tuple(
        KeepTickets(frozenset(kept))
        for size in range(least, len(offered) + 1)
        for kept in combinations(offered, size)
    )


def keep_actions(state: GameState) -> list[Action]:
    """Every subset of the offered tickets with at least :func:`min_keep` tickets, smallest
    first."""
    offered = state.players[state.current].offered
    return list(_keep_choices(offered, min_keep(state)))


def apply_draw_tickets(state: GameState, action: DrawTickets, log: list[Event] | None) -> GameState:
    """Draw the top ``tickets_drawn`` tickets, or what remains (E61, E62)."""
    if state.phase is not _START:
        raise IllegalActionError(Reason.WRONG_PHASE, action, f"phase is {state.phase.value}")
    if not state.ticket_deck:
        raise IllegalActionError(Reason.NO_TICKETS_LEFT, action)
    count = state.rules.tickets_drawn
    offered, rest = state.ticket_deck[:count], state.ticket_deck[count:]
    seat = state.current
    player = state.players[seat].replace(offered=offered)
    if log is not None:
        log.append(TicketsDrawn(seat, len(offered)))
    return finish_action(
        state,
        Piles(state, log),
        with_player(state.players, seat, player),
        log,
        _KEEP_TICKETS,
        ticket_deck=rest,
    )


def apply_keep_tickets(state: GameState, action: KeepTickets, log: list[Event] | None) -> GameState:
    """Keep some of the offered tickets for good (E64). Returned tickets go to the bottom of
    the deck in drawn order (E61, U7); unkept initial tickets go to the box, or to the bottom
    in the ``initial_discard="bottom"`` variant (E4)."""
    phase = state.phase
    if phase is not _KEEP_TICKETS and phase is not _INITIAL_TICKETS:
        raise IllegalActionError(Reason.WRONG_PHASE, action, f"phase is {phase.value}")
    seat = state.current
    player = state.players[seat]
    chosen = action.tickets
    if not isinstance(chosen, frozenset) or not chosen <= set(player.offered):
        raise IllegalActionError(Reason.NOT_OFFERED, action, f"offered {player.offered}")
    if len(chosen) < min_keep(state):
        raise IllegalActionError(Reason.MUST_KEEP_MORE_TICKETS, action, f"keep {min_keep(state)}")
    kept = tuple(t for t in player.offered if t in chosen)
    returned = tuple(t for t in player.offered if t not in chosen)
    player = player.replace(tickets=player.tickets + kept, offered=())
    players = with_player(state.players, seat, player)
    if log is not None:
        log.append(TicketsKept(seat, len(kept), len(returned)))
    if phase is _KEEP_TICKETS:
        return finish_action(
            state,
            Piles(state, log),
            players,
            log,
            _START,
            ticket_deck=state.ticket_deck + returned,
        )
    return _next_initial_choice(state, players, returned)


def _next_initial_choice(
    state: GameState, players: tuple[PlayerState, ...], returned: tuple[int, ...]
) -> GameState:
    """Players choose their initial tickets in seat order from the first player (U21); then the
    first player starts the game."""
    box, deck = state.ticket_box, state.ticket_deck
    if state.rules.initial_discard == "box":
        box = box + returned
    else:
        deck = deck + returned
    following = (state.current + 1) % len(players)
    phase = _START if following == state.first_player else _INITIAL_TICKETS
    return evolve(
        state, players=players, ticket_box=box, ticket_deck=deck, current=following, phase=phase
    )
