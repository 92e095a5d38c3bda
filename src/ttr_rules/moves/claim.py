"""Claiming routes: colours, gray routes, locomotives, double routes, ferries and tunnels
(E23–E50, U13–U18)."""

from __future__ import annotations

from ..actions import Action, ClaimRoute, DeclineTunnel, PayTunnel
from ..cards import COLORS, LOCOMOTIVE_CODE, Color
from ..errors import IllegalActionError, Reason
from ..events import Event, RouteClaimed, TunnelDeclined, TunnelRevealed
from ..maps.index import MapIndex, map_index, payment_indices
from ..piles import Piles
from ..state import GameState, PendingTunnel, Phase, PlayerState
from .common import can_pay, pay, payment_cards, with_player
from .turn import finish_action

__all__ = [
    "apply_claim",
    "apply_decline_tunnel",
    "apply_pay_tunnel",
    "claim_actions",
    "claim_problem",
    "tunnel_actions",
]

# Enum members are looked up once here: ``Phase.START`` in a function body costs an enum
# class-attribute look-up (about 0.2 µs on Python 3.11) every time it runs.
_LOCOMOTIVE = Color.LOCOMOTIVE
_START = Phase.START
_TUNNEL = Phase.TUNNEL

_LOCO = LOCOMOTIVE_CODE
_DECLINE = DeclineTunnel()
_PAY = tuple(PayTunnel(k) for k in range(16))


def claim_actions(state: GameState, board: MapIndex) -> list[Action]:
    """Every distinct legal payment for every open route, by route id, colour and locomotives.

    Any open route may be claimed, connected to the player's network or not (E27, E30). It
    needs as many trains as its length (E28) and a set of one colour (E23, E24), locomotives
    wild, all-locomotive sets included (E25); a ferry needs one locomotive per symbol (E35),
    locomotives may pay its other spaces too and nothing replaces them (E36, E37, U18), and
    its other spaces take one colour (E38). A double route (``double_of``, E34) has its second
    track closed to the owner of the first (E31) and, below ``double_route_min_players``, to
    everyone (E32); at 4 and 5 players both tracks are open (E33, U17).
    """
    seat = state.current
    player = state.players[seat]
    counts = player.hand.counts
    locos = counts[_LOCO]
    trains = player.trains
    owner = state.route_owner
    doubles_open = len(state.players) >= state.rules.double_route_min_players
    doubles = board.double
    stride = board.stride
    found: list[tuple[int, list[int]]] = []
    # Routes are grouped by colour and then by kind (length, ferry symbols), shortest first:
    # the hand affords a kind, or not, for all its routes at once.
    for code, kinds in board.kinds_by_color:
        reach = (max(counts[:8]) if code < 0 else counts[code]) + locos
        longest = trains if trains < reach else reach
        for length, ferry, routes in kinds:
            if length > longest:
                break
            if locos < ferry:
                continue
            payments: list[int] | None = None
            for r in routes:
                if owner[r] is not None:
                    continue
                other = doubles[r]
                if other >= 0:
                    other_owner = owner[other]
                    if other_owner is not None and (other_owner == seat or not doubles_open):
                        continue
                if payments is None:
                    payments = payment_indices(counts, length, code, ferry, stride)
                found.append((r, payments))
    found.sort()
    tables = board.claim_tables
    out: list[Action] = []
    for r, payments in found:
        out += map(tables[r].__getitem__, payments)  # type: ignore[arg-type]
    return out


def claim_problem(state: GameState, action: ClaimRoute) -> tuple[Reason, str] | None:
    """Why ``action`` is not a legal claim now, or None when it is. A tunnel attempt needs a
    legal base payment and enough trains, not the cards for any extras (E50, U15)."""
    if state.phase is not _START:
        return Reason.WRONG_PHASE, f"phase is {state.phase.value}"
    board = map_index(state.map)
    r = action.route
    if not isinstance(r, int) or not 0 <= r < len(board.length):
        return Reason.NO_SUCH_ROUTE, f"route {r!r}"
    if state.route_owner[r] is not None:
        return Reason.ROUTE_TAKEN, f"owned by player {state.route_owner[r]}"
    seat = state.current
    other = board.double[r]
    if other >= 0 and state.route_owner[other] is not None:
        if state.route_owner[other] == seat:
            return Reason.DOUBLE_ROUTE_OWNED, f"route {other}"
        if len(state.players) < state.rules.double_route_min_players:
            return Reason.DOUBLE_ROUTE_CLOSED, f"route {other} is taken"
    length = board.length[r]
    player = state.players[seat]
    if player.trains < length:
        return Reason.NOT_ENOUGH_TRAINS, f"{player.trains} left, {length} needed"
    problem = _payment_problem(action.color, action.locomotives, length, board.color[r])
    if problem is not None:
        return problem
    if action.locomotives < board.ferry[r]:
        return Reason.FERRY_NEEDS_LOCOMOTIVES, f"{board.ferry[r]} locomotives needed"
    if not can_pay(player.hand, action.color, action.locomotives, length):
        return Reason.NOT_ENOUGH_CARDS, f"hand {player.hand}"
    return None


def _payment_problem(
    color: object, locomotives: object, total: int, route_color: int
) -> tuple[Reason, str] | None:
    """A payment is ``total`` cards of one colour, locomotives wild; all-locomotive payments
    are written with ``Color.LOCOMOTIVE`` (E23, E25); as many cards as the length (E26)."""
    if not isinstance(color, Color) or not isinstance(locomotives, int):
        return Reason.BAD_PAYMENT, "colour must be a Color and locomotives an int"
    if color is _LOCOMOTIVE:
        if locomotives != total:
            return Reason.BAD_PAYMENT, f"an all-locomotive payment is {total} locomotives"
        return None
    if not 0 <= locomotives < total:
        return Reason.BAD_PAYMENT, f"locomotives must be 0..{total - 1} with a colour"
    if route_color >= 0 and color.code != route_color:
        return Reason.WRONG_COLOR, f"the route is {COLORS[route_color].value}"
    return None


def apply_claim(state: GameState, action: ClaimRoute, log: list[Event] | None) -> GameState:
    """Pay for and claim a route; for a tunnel, lay the base payment and reveal (E39): with
    nothing to match, it is claimed for the base payment (E46)."""
    problem = claim_problem(state, action)
    if problem is not None:
        raise IllegalActionError(problem[0], action, problem[1])
    board = map_index(state.map)
    route = action.route
    length = board.length[route]
    seat = state.current
    player = state.players[seat]
    hand = pay(player.hand, action.color, action.locomotives, length)
    base = payment_cards(action.color, action.locomotives, length)
    piles = Piles(state, log)
    if not board.tunnel[route]:
        return _complete_claim(state, piles, player.replace(hand=hand), route, base, (), log)
    revealed = piles.reveal(state.rules.tunnel_reveal_cards, state.rules.tunnel_reveal_uses_discard)
    owed = tunnel_extras_owed(action.color, revealed)
    if log is not None:
        log.append(TunnelRevealed(seat, route, revealed, owed))
    if owed == 0:
        return _complete_claim(state, piles, player.replace(hand=hand), route, base, revealed, log)
    players = with_player(state.players, seat, player.replace(hand=hand))
    pending = PendingTunnel(route, action.color, action.locomotives, revealed, owed)
    return finish_action(state, piles, players, log, _TUNNEL, tunnel=pending)


def tunnel_extras_owed(color: Color, revealed: tuple[Color, ...]) -> int:
    """Each revealed card of the payment's colour, and each revealed locomotive, owes one extra
    card (E39, E40, E43); after an all-locomotive payment only locomotives count (E41, E44)."""
    loco = _LOCOMOTIVE
    if color is loco:
        return revealed.count(loco)
    return revealed.count(color) + revealed.count(loco)


def _complete_claim(
    state: GameState,
    piles: Piles,
    player: PlayerState,
    route: int,
    paid: tuple[Color, ...],
    revealed: tuple[Color, ...],
    log: list[Event] | None,
) -> GameState:
    """The route becomes the player's: trains placed, points scored at once, the payment and
    then any revealed tunnel cards discarded (E29, E48, U8)."""
    seat = state.current
    length = state.map.routes[route].length
    points = state.rules.route_scores[length]
    player = player.replace(
        trains=player.trains - length, route_points=player.route_points + points
    )
    piles.discard = piles.discard + paid + revealed
    owners = state.route_owner
    owners = owners[:route] + (seat,) + owners[route + 1 :]
    if log is not None:
        log.append(RouteClaimed(seat, route, paid, points))
    players = with_player(state.players, seat, player)
    return finish_action(state, piles, players, log, _START, route_owner=owners, tunnel=None)


def tunnel_actions(state: GameState) -> list[Action]:
    """After a reveal: every affordable composition of the extras, and always declining (E42,
    E45, U13)."""
    tunnel = state.tunnel
    if tunnel is None:
        return [_DECLINE]
    counts = state.players[state.current].hand.counts
    owed = tunnel.owed
    out: list[Action] = []
    if tunnel.color is _LOCOMOTIVE:
        if counts[_LOCO] >= owed:
            out.append(_pay_action(owed))
    else:
        low = max(0, owed - counts[tunnel.color.code])
        out.extend(_pay_action(k) for k in range(low, min(owed, counts[_LOCO]) + 1))
    out.append(_DECLINE)
    return out


def _pay_action(locomotives: int) -> PayTunnel:
    return _PAY[locomotives] if locomotives < len(_PAY) else PayTunnel(locomotives)


def _tunnel_problem(state: GameState, action: PayTunnel) -> tuple[Reason, str] | None:
    tunnel = state.tunnel
    if state.phase is not _TUNNEL or tunnel is None:
        return Reason.WRONG_PHASE, f"phase is {state.phase.value}"
    k = action.locomotives
    if not isinstance(k, int) or not 0 <= k <= tunnel.owed:
        return Reason.BAD_PAYMENT, f"{tunnel.owed} extra cards are owed"
    if tunnel.color is _LOCOMOTIVE and k != tunnel.owed:
        return Reason.BAD_PAYMENT, "after an all-locomotive payment the extras are locomotives"
    hand = state.players[state.current].hand
    if not can_pay(hand, tunnel.color, k, tunnel.owed):
        return Reason.NOT_ENOUGH_CARDS, f"hand {hand}"
    return None


def apply_pay_tunnel(state: GameState, action: PayTunnel, log: list[Event] | None) -> GameState:
    """Pay the extras; the tunnel is claimed (E39–E44, E49)."""
    problem = _tunnel_problem(state, action)
    if problem is not None:
        raise IllegalActionError(problem[0], action, problem[1])
    tunnel = state.tunnel
    assert tunnel is not None  # checked by _tunnel_problem
    player = state.players[state.current]
    hand = pay(player.hand, tunnel.color, action.locomotives, tunnel.owed)
    length = state.map.routes[tunnel.route].length
    paid = payment_cards(tunnel.color, tunnel.locomotives, length) + payment_cards(
        tunnel.color, action.locomotives, tunnel.owed
    )
    piles = Piles(state, log)
    return _complete_claim(
        state, piles, player.replace(hand=hand), tunnel.route, paid, tunnel.revealed, log
    )


def apply_decline_tunnel(
    state: GameState, action: DeclineTunnel, log: list[Event] | None
) -> GameState:
    """Take the base payment back; the route stays open, the revealed cards are discarded and
    the turn ends (E45, E48, U16)."""
    tunnel = state.tunnel
    if state.phase is not _TUNNEL or tunnel is None:
        raise IllegalActionError(Reason.WRONG_PHASE, action, f"phase is {state.phase.value}")
    seat = state.current
    player = state.players[seat]
    counts = list(player.hand.counts)
    length = state.map.routes[tunnel.route].length
    for card in payment_cards(tunnel.color, tunnel.locomotives, length):
        counts[card.code] += 1
    players = with_player(
        state.players, seat, player.replace(hand=type(player.hand)(tuple(counts)))
    )
    piles = Piles(state, log)
    piles.discard = piles.discard + tunnel.revealed
    if log is not None:
        log.append(TunnelDeclined(seat, tunnel.route))
    return finish_action(state, piles, players, log, _START, tunnel=None)
