"""The cheap path of the transitions, in the ordinary case: card draws and claims (E5–E12,
E18, E23–E48, U3, U5), and the rarer ticket draws and choices, tunnel refusals and stations
(E4, E45, E51–E54, E61–E64, U21), whose legality is their family's own rule check.

Card draws are about 60% of the decisions of a game, claims about 20%. In the ordinary case —
for a draw, the deck holds at least two cards; for a tunnel, the deck covers the reveal; for
both, the row needs no upkeep after the action — a draw changes only the acting player's hand,
the deck, the face-up row and the phase (or ends the turn), a claim only the acting player, the
discard, the route's owner and the turn (a tunnel also the deck and, when extras are owed, the
pending tunnel and the phase). So the next state is built here directly: no
:class:`~ttr_rules.moves.draft.Draft`, no face-up settling (U3 has nothing to do), one ``dict``
of the state's fields written in place (the way :func:`~ttr_rules.state.evolve` builds a
state, without its intermediate dict of changes). Anything else — an illegal action, a short
deck, a reveal reaching the discard, a row with an empty slot or too many locomotives, a caller
who wants the events — returns None, and ``apply_action`` takes the general path, which alone
decides legality and reasons. ``tests/test_quick_draw.py`` checks every draw, legal or not,
and every legal claim, ticket action, refusal and station with illegal neighbours, of random
games against :func:`~ttr_rules.step` (which always takes the general path);
``tests/test_perft.py`` and the soak benchmark pin the games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..actions import (
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
)
from ..cards import LOCOMOTIVE_CODE, Color, Hand
from ..maps.index import map_index
from ..state import GameState, PendingTunnel, PlayerState
from .claim import decline_tunnel_problem, tunnel_extras_owed
from .common import (
    INITIAL_TICKETS,
    KEEP_TICKETS,
    LOCOMOTIVE,
    SECOND_CARD,
    START,
    TUNNEL,
    hand_add,
    pay,
    payment_cards,
    refund,
)
from .payments import general_payments
from .stations import build_problem
from .tickets import draw_problem, keep_problem, returned_pile, split_offered
from .turn import end_turn

__all__ = [
    "QUICK",
    "Quick",
    "blind",
    "claim",
    "decline",
    "draw_tickets",
    "face_up",
    "keep_tickets",
    "station",
]

_new = object.__new__
_set = object.__setattr__

#: A cheap transition: ``quick(state, action, player)``, the next state, or None to say "take
#: the general path".
Quick = Callable[[GameState, Any, "int | None"], "GameState | None"]


def face_up(state: GameState, action: DrawFaceUp, player: int | None) -> GameState | None:
    """A face-up draw, its slot refilled from the deck (E7): a locomotive is the first and only
    card (E8, E9), any other first card calls for a second (E6). The new row's locomotives are
    the old row's, less the card taken, plus the card turned (E12)."""
    try:
        if player is not None and player != state.current:
            return None
        slot = action.slot
        row = state.face_up
        deck = state.deck
    except AttributeError:  # not a state: the general path says so
        return None
    if type(slot) is not int or not 0 <= slot < len(row) or len(deck) < 2:
        return None
    card = row[slot]
    if card is None:
        return None
    if card is LOCOMOTIVE and (
        state.phase is not START or not state.rules.face_up_locomotive_ends_draw
    ):  # a second-card locomotive, or one that counts as one card: the general path
        return None
    locos = _row_locomotives(row)
    if locos < 0:  # an empty slot stays empty: the general path fills it
        return None
    new_row = list(row)  # a list and one tuple: cheaper than two slices and two concatenations
    new_row[slot] = deck[0]
    row = tuple(new_row)
    locos += (deck[0] is LOCOMOTIVE) - (card is LOCOMOTIVE)
    global _last_row
    _last_row = (row, locos)
    limit = state.rules.face_up_locomotive_limit
    if limit is not None and locos >= limit:
        return None
    return _after_draw(state, card, deck[1:], row, card is LOCOMOTIVE)


def blind(state: GameState, action: DrawBlind, player: int | None) -> GameState | None:
    """A blind draw from a deck of two cards or more (E10); the row is unchanged."""
    try:
        if player is not None and player != state.current:
            return None
        deck = state.deck
    except AttributeError:  # not a state: the general path says so
        return None
    if len(deck) < 2 or not _settled(state, state.face_up):
        return None
    return _after_draw(state, deck[0], deck[1:], state.face_up, False)


def _settled(state: GameState, row: tuple[Color | None, ...]) -> bool:
    """Whether the end-of-action upkeep leaves ``row`` as it is: no empty slot and fewer
    locomotives than the reset limit (E12, E13, U3)."""
    locos = _row_locomotives(row)
    if locos < 0:
        return False
    limit = state.rules.face_up_locomotive_limit
    return limit is None or locos < limit


#: The last face-up row the cheap paths counted, with its locomotives (-1: a slot is empty).
#: A row passes unchanged from state to state until a card is taken from it, so the next
#: action nearly always asks about the same tuple; counting it again costs about 2,000
#: instructions (each comparison of a ``Color`` with None or another colour goes through
#: ``str``'s rich comparison), the identity test about 50. The reference held keeps the
#: identity test sound: a live object's id is never reused.
_last_row: tuple[tuple[Color | None, ...], int] = ((), 0)


def _row_locomotives(row: tuple[Color | None, ...]) -> int:
    """The locomotives in ``row``, or -1 when a slot is empty."""
    global _last_row
    last = _last_row
    if last[0] is row:
        return last[1]
    locos = -1 if None in row else row.count(LOCOMOTIVE)
    _last_row = (row, locos)
    return locos


def _after_draw(
    state: GameState,
    card: Color,
    deck: tuple[Color, ...],
    row: tuple[Color | None, ...],
    only_card: bool,
) -> GameState | None:
    """The state once the player to act holds ``card``: a first card calls for a second, which
    the remaining deck can always give (E6, U5), unless it is the ``only_card`` (a face-up
    locomotive, E8); a second card ends the turn (E5). None in any other phase (the general
    path gives the reason)."""
    phase = state.phase
    if phase is not START and phase is not SECOND_CARD:
        return None
    seat = state.current
    acting = state.players[seat]
    fields = _next_fields(state, seat, dict(acting.__dict__, hand=hand_add(acting.hand, card)))
    fields["deck"] = deck
    fields["face_up"] = row
    if phase is START and not only_card:
        fields["phase"] = SECOND_CARD
    else:
        end_turn(state, acting.trains, fields, None)
    return _built(fields)


def _next_fields(state: GameState, seat: int, player: dict[str, Any]) -> dict[str, Any]:
    """The fields of the next state: ``state``'s, with the player at ``seat`` made of the
    ``player`` fields (the cheap paths' one way to change the acting player). Objects are
    built as :func:`~ttr_rules.state.evolve` builds them: one combined dict each, no
    ``__init__``."""
    acting = _new(PlayerState)
    _set(acting, "__dict__", player)
    seats = list(state.players)  # a list and one tuple: cheaper than slices and concatenations
    seats[seat] = acting
    fields = dict(state.__dict__)
    fields["players"] = tuple(seats)
    return fields


def claim(state: GameState, action: ClaimRoute, player: int | None) -> GameState | None:
    """A legal claim paid from the hand (E23–E38), while the row needs no upkeep: the route
    becomes the player's, trains placed and points scored at once, the payment discarded,
    coloured cards first (E29, U8), and the turn ends (E5). A tunnel first reveals the top
    cards of the deck (E39): with nothing owed it is claimed for the base payment, the revealed
    cards discarded after it (E46, E48); else the same player pays the extras or declines (the
    tunnel phase, E40–E45). The rule checks are those of
    :func:`~ttr_rules.moves.claim.claim_problem`; a claim that fails any of them, a tunnel whose
    reveal would reach the discard (E47, U14) and an unsettled row take the general path."""
    try:
        if player is not None and player != state.current:
            return None
        route = action.route
        color = action.color
        locos = action.locomotives
        owners = state.route_owner
        if state.phase is not START or state.tunnel is not None:
            return None
        if action.substitutes or general_payments(state):  # payments of .payments: stand aside
            return None
        board = map_index(state.map)
    except AttributeError:  # not a state or not a claim: the general path says so
        return None
    if type(route) is not int or not 0 <= route < len(owners) or owners[route] is not None:
        return None
    if type(locos) is not int or not isinstance(color, Color):
        return None
    seat = state.current
    players = state.players
    other = board.double[route]
    if other >= 0:
        taken = owners[other]
        if taken is not None and (
            taken == seat or len(players) < state.rules.double_route_min_players
        ):
            return None
    length = board.length[route]
    marks = board.mountain[route]  # X marks take trains and score too (U27)
    acting = players[seat]
    trains = acting.trains - length - marks
    counts = list(acting.hand.counts)
    if color is LOCOMOTIVE:  # an all-locomotive payment (E25)
        if locos != length:
            return None
        paid = (LOCOMOTIVE,) * length
        code = LOCOMOTIVE_CODE
    else:
        code = color.code
        need = board.color[route]
        if not 0 <= locos < length or (need >= 0 and code != need):
            return None
        counts[code] -= length - locos
        paid = (color,) * (length - locos) + (LOCOMOTIVE,) * locos
    loco_left = counts[LOCOMOTIVE_CODE] - locos
    if trains < 0 or loco_left < 0 or locos < board.ferry[route] or counts[code] < 0:
        return None
    if not _settled(state, state.face_up):
        return None
    deck = state.deck
    revealed: tuple[Color, ...] = ()
    owed = 0
    if board.tunnel[route]:
        reveal = state.rules.tunnel_reveal_cards
        if len(deck) < reveal:  # the reveal may need the discard: the general path
            return None
        revealed = deck[:reveal]
        deck = deck[reveal:]
        owed = tunnel_extras_owed(color, revealed)
    counts[LOCOMOTIVE_CODE] = loco_left
    hand = _new(Hand)
    _set(hand, "counts", tuple(counts))
    holdings = dict(acting.__dict__, hand=hand)
    if owed:  # the extras are owed: the same player continues (E40–E45)
        fields = _next_fields(state, seat, holdings)
        fields["deck"] = deck
        fields["tunnel"] = PendingTunnel(route, color, locos, revealed, owed)
        fields["phase"] = TUNNEL
        return _built(fields)
    holdings["trains"] = trains
    points = state.rules.route_scores[length]
    if marks:
        points += marks * state.rules.mountain_points
    holdings["route_points"] = acting.route_points + points
    fields = _next_fields(state, seat, holdings)
    fields["discard"] = state.discard + paid + revealed
    fields["deck"] = deck
    owned = list(owners)
    owned[route] = seat
    fields["route_owner"] = tuple(owned)
    end_turn(state, trains, fields, None)
    return _built(fields)


def _built(fields: dict[str, Any]) -> GameState:
    """The next state, its instance dict ``fields`` itself (see :func:`_next_fields`)."""
    new = _new(GameState)
    _set(new, "__dict__", fields)
    return new


# The rarer transitions (E4, E45, E52, E61–E64): legality from the family's own rule check,
# the next state built as above (no Draft, no settling of a settled row).


def _acting(state: GameState, player: int | None) -> bool:
    """Whether ``player`` (None: whoever acts) may act in ``state``, a state at all."""
    try:
        current = state.current
    except AttributeError:  # not a state: the general path says so
        return False
    return player is None or player == current


def decline(state: GameState, action: DeclineTunnel, player: int | None) -> GameState | None:
    """Declining a tunnel (E45, E48, U16): the base payment back in the hand, the revealed
    cards discarded, the turn over."""
    if not _acting(state, player) or decline_tunnel_problem(state, action) is not None:
        return None
    if not _settled(state, state.face_up):
        return None
    tunnel = state.tunnel
    assert tunnel is not None  # checked by decline_tunnel_problem
    seat = state.current
    acting = state.players[seat]
    length = map_index(state.map).length[tunnel.route]
    hand = refund(acting.hand, tunnel.color, tunnel.locomotives, length)
    fields = _next_fields(state, seat, dict(acting.__dict__, hand=hand))
    fields["discard"] = state.discard + tunnel.revealed
    fields["tunnel"] = None
    end_turn(state, acting.trains, fields, None)
    return _built(fields)


def draw_tickets(state: GameState, action: DrawTickets, player: int | None) -> GameState | None:
    """A ticket draw (E61, E62): the top tickets offered, the same player chooses next."""
    if not _acting(state, player) or draw_problem(state, action) is not None:
        return None
    if not _settled(state, state.face_up):
        return None
    seat = state.current
    count = state.rules.tickets_drawn
    pile = state.ticket_deck
    fields = _next_fields(state, seat, dict(state.players[seat].__dict__, offered=pile[:count]))
    fields["ticket_deck"] = pile[count:]
    fields["phase"] = KEEP_TICKETS
    return _built(fields)


def keep_tickets(state: GameState, action: KeepTickets, player: int | None) -> GameState | None:
    """A ticket choice (E4, E61, E64, U7, U21): the kept tickets for good, the others to the
    bottom of the deck in drawn order, or to the box after the initial deal; after a draw the
    turn ends, after an initial choice the next seat chooses."""
    if not _acting(state, player) or keep_problem(state, action) is not None:
        return None
    phase = state.phase
    if phase is KEEP_TICKETS and not _settled(state, state.face_up):
        return None
    seat = state.current
    acting = state.players[seat]
    kept, returned = split_offered(acting.offered, action.tickets)
    tickets = acting.tickets + kept
    fields = _next_fields(state, seat, dict(acting.__dict__, tickets=tickets, offered=()))
    pile, remaining = returned_pile(state, returned)
    fields[pile] = remaining
    if phase is KEEP_TICKETS:
        end_turn(state, acting.trains, fields, None)
        return _built(fields)
    assert phase is INITIAL_TICKETS  # checked by keep_problem
    following = (seat + 1) % len(state.players)
    fields["current"] = following
    fields["phase"] = START if following == state.first_player else INITIAL_TICKETS
    return _built(fields)


def station(state: GameState, action: BuildStation, player: int | None) -> GameState | None:
    """A station (E51–E54): the n-th costs n cards of one colour, locomotives wild, discarded
    coloured cards first (U8); the turn ends."""
    if not _acting(state, player) or build_problem(state, action) is not None:
        return None
    if not _settled(state, state.face_up):
        return None
    seat = state.current
    acting = state.players[seat]
    cost = len(acting.stations) + 1
    color = action.color
    locos = action.locomotives
    holdings = dict(
        acting.__dict__,
        hand=pay(acting.hand, color, locos, cost),
        stations=(*acting.stations, action.city),
    )
    fields = _next_fields(state, seat, holdings)
    fields["discard"] = state.discard + payment_cards(color, locos, cost)
    end_turn(state, acting.trains, fields, None)
    return _built(fields)


#: The action classes with a cheap path.
QUICK: dict[type, Quick] = {
    DrawFaceUp: face_up,
    DrawBlind: blind,
    ClaimRoute: claim,
    DeclineTunnel: decline,
    DrawTickets: draw_tickets,
    KeepTickets: keep_tickets,
    BuildStation: station,
}
