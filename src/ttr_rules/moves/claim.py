"""Claiming routes: colours, gray routes, locomotives, double routes, ferries and tunnels
(E23–E50, U13–U18).

The family's actions are :class:`~ttr_rules.ClaimRoute`; after a tunnel reveal,
:class:`~ttr_rules.PayTunnel` and :class:`~ttr_rules.DeclineTunnel`; for a payment with
substitute sets, :class:`~ttr_rules.ClaimWithSets`, then :class:`~ttr_rules.PayCard` for each
card and the :class:`~ttr_rules.ClaimRoute` of the picked cards (docs/rules.md, "Payments").
"""

from __future__ import annotations

from ..actions import Action, ClaimRoute, ClaimWithSets, DeclineTunnel, PayCard, PayTunnel
from ..cards import COLORS, LOCOMOTIVE_CODE, Color, Hand
from ..errors import Reason
from ..events import RouteClaimed, TunnelDeclined, TunnelRevealed
from ..maps.index import CLAIM_SPAN, MapIndex, map_index, payment_indices
from ..state import GameState, PendingPayment, PendingTunnel, Phase, evolve
from ..words import counted, route_name, route_with_number, seat_name
from .common import (
    LOCOMOTIVE,
    PAYMENT,
    START,
    TUNNEL,
    ActionRules,
    Problem,
    can_pay,
    pay,
    payment_cards,
    payment_problem,
    refund,
    wrong_phase,
)
from .draft import Draft
from .payments import (
    can_pay_with_sets,
    general_payments,
    payment_cards_of,
    payment_counts,
    route_payments,
    set_payment_choices,
    set_size,
)
from .payments import payment_problem as general_payment_problem

__all__ = [
    "ACTIONS",
    "apply",
    "claim",
    "claim_actions",
    "claim_problem",
    "decline_tunnel",
    "decline_tunnel_problem",
    "pay_card",
    "pay_card_problem",
    "pay_tunnel",
    "pay_tunnel_problem",
    "payment_actions",
    "problem",
    "sets_problem",
    "start_sets",
    "trains_needed",
    "tunnel_actions",
    "tunnel_extras_owed",
]

_DECLINE = DeclineTunnel()
#: ``PayTunnel`` actions made once (a cache: larger payments are built when needed).
_PAY = tuple(PayTunnel(k) for k in range(16))
#: The order in which the cards of a payment with sets are picked.
_CARD_ORDER = ", ".join(card.value for card in COLORS)
#: ``PayCard`` actions by card code, made once.
_PAY_CARD = tuple(PayCard(card) for card in COLORS)


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
    if general_payments(state):
        return _general_claim_actions(state)
    seat = state.current
    player = state.players[seat]
    counts = player.hand.counts
    locos = counts[LOCOMOTIVE_CODE]
    # The routes the hand and the trains reach, whoever owns them (the map's tables by the
    # cards of each colour plus the locomotives held), in route order.
    candidates: list[int]
    if locos < CLAIM_SPAN and player.trains >= board.max_trains:
        # Unrolled over the 8 colours: a list display and 8 comparisons execute about a
        # third of the bytecodes of a loop over them (6,700 instructions a call).
        (t0, t1, t2, t3, t4, t5, t6, t7), gray = board.claim_spans[locos]
        n0, n1, n2, n3, n4, n5, n6, n7, _ = counts
        most = n0  # cards of the commonest colour: gray routes take any one colour
        if n1 > most:
            most = n1
        if n2 > most:
            most = n2
        if n3 > most:
            most = n3
        if n4 > most:
            most = n4
        if n5 > most:
            most = n5
        if n6 > most:
            most = n6
        if n7 > most:
            most = n7
        try:
            candidates = [
                *t0[n0], *t1[n1], *t2[n2], *t3[n3], *t4[n4], *t5[n5], *t6[n6], *t7[n7],
                *gray[most],
            ]  # fmt: skip
        except IndexError:  # CLAIM_SPAN cards or more of a colour
            candidates = _reached(board, counts, player.trains)
    else:
        candidates = _reached(board, counts, player.trains)
        if board.mountains and player.trains < board.max_trains:  # X marks take trains too
            mountain, length, trains = board.mountain, board.length, player.trains
            candidates = [r for r in candidates if length[r] + mountain[r] <= trains]
    candidates.sort()
    owner = state.route_owner
    doubles = board.double
    color = board.color
    memos = board.claim_memo
    keyed = locos < _LOCO_KEYS  # the memo's int keys hold this many locomotive counts
    gray_payments: dict[tuple[int, int], list[int]] = {}
    out: list[Action] = []
    for r in candidates:
        if owner[r] is not None:
            continue
        other = doubles[r]
        if other >= 0:
            other_owner = owner[other]
            if other_owner is not None and (
                other_owner == seat or len(state.players) < state.rules.double_route_min_players
            ):
                continue
        memo = memos[r]
        if memo is not None:  # a coloured route: its payments follow from two counts
            actions = memo.get(counts[color[r]] * _LOCO_KEYS + locos) if keyed else None
            if actions is None:
                actions = _route_claims(board, r, counts)
            out += actions
        else:  # gray: every colour held may pay; once per kind of route
            kind = (board.length[r], board.ferry[r])
            payments = gray_payments.get(kind)
            if payments is None:
                payments = gray_payments[kind] = payment_indices(
                    counts, kind[0], -1, kind[1], board.stride
                )
            # One append per payment (1.8 a route on average): cheaper than ``out += map(...)``,
            # whose map object and bound method cost about 2,000 instructions a route.
            route_claims = board.claim_tables[r]
            for i in payments:
                out.append(route_claims[i])  # type: ignore[arg-type]
    return out


def _general_claim_actions(state: GameState) -> list[Action]:
    """:func:`claim_actions` on a board whose payments the tables do not cover
    (:mod:`.payments`): every open route the trains reach, each payment without sets once,
    then the start of a payment with sets where the hand can make one."""
    seat = state.current
    player = state.players[seat]
    counts = player.hand.counts
    held = sum(counts)
    rules = state.rules
    owner = state.route_owner
    out: list[Action] = []
    for route in state.map.routes:
        r = route.id
        if owner[r] is not None or route.trains > player.trains or route.length > held:
            continue
        if _double_closed(state, r, seat):
            continue
        out += route_payments(route, rules, counts)
        if set_size(route, rules) and can_pay_with_sets(route, rules, counts):
            out.append(ClaimWithSets(r))
    return out


def _double_closed(state: GameState, route: int, seat: int) -> bool:
    """Whether the other track of a double route closes ``route`` to ``seat`` (E31, E32)."""
    other = state.map.routes[route].double_of
    if other is None:
        return False
    other_owner = state.route_owner[other]
    return other_owner is not None and (
        other_owner == seat or len(state.players) < state.rules.double_route_min_players
    )


def _reached(board: MapIndex, counts: tuple[int, ...], trains: int) -> list[int]:
    """The routes that ``counts`` and ``trains`` reach, whoever owns them, unsorted: any hand
    (``claim_actions`` reads ``MapIndex.claim_spans`` for the usual ones)."""
    locos = counts[LOCOMOTIVE_CODE]
    top = board.max_ferry
    colours, gray = board.claim_reach[locos if locos < top else top]
    cap = board.max_length
    if trains < cap:
        cap = trains
    found: list[int] = []
    most = 0
    for table, held in zip(colours, counts, strict=False):  # the 8 colours
        if held > most:
            most = held
        held += locos
        found += table[held if held < cap else cap]
    most += locos
    found += gray[most if most < cap else cap]
    return found


def _route_claims(board: MapIndex, route: int, counts: tuple[int, ...]) -> tuple[ClaimRoute, ...]:
    """The claims of a coloured route that ``counts`` can pay, stored in the route's memo
    (``MapIndex.claim_memo``, bounded) by the two counts they depend on (see
    :data:`_LOCO_KEYS`)."""
    code = board.color[route]
    memo = board.claim_memo[route]
    assert memo is not None  # coloured
    held, locos = counts[code], counts[LOCOMOTIVE_CODE]
    key = (board.stride, code, board.length[route], board.ferry[route], held, locos)
    payments = _COLOURED.get(key)
    if payments is None:
        payments = _coloured_payments(key, counts)
    if len(memo) >= _ROUTE_MEMO_SIZE:
        memo.clear()
    table = board.claim_tables[route]
    found: tuple[ClaimRoute, ...] = tuple(map(table.__getitem__, payments))  # type: ignore[arg-type]
    if locos < _LOCO_KEYS:
        memo[held * _LOCO_KEYS + locos] = found
    return found


#: Entries of each route's claim memo: (cards of its colour, locomotives) pairs.
_ROUTE_MEMO_SIZE = 1024
#: A route memo's key is ``held * _LOCO_KEYS + locomotives`` (an int: no tuple to build and
#: hash on every look-up), for fewer locomotives than this only (so that keys never collide).
_LOCO_KEYS = 64


#: The payment indices of a coloured route kind by (stride, colour code, length, ferry
#: locomotives, cards of the colour held, locomotives held): only these decide them, and they
#: repeat from hand to hand. Ints only (nothing for the garbage collector to track); bounded.
_COLOURED: dict[tuple[int, int, int, int, int, int], tuple[int, ...]] = {}
_COLOURED_SIZE = 4096


def _coloured_payments(
    key: tuple[int, int, int, int, int, int], counts: tuple[int, ...]
) -> tuple[int, ...]:
    """:func:`~ttr_rules.maps.index.payment_indices` of a coloured route kind, memoized."""
    stride, code, length, ferry = key[:4]
    if len(_COLOURED) >= _COLOURED_SIZE:
        _COLOURED.clear()
    found = _COLOURED[key] = tuple(payment_indices(counts, length, code, ferry, stride))
    return found


def pay_tunnel_problem(state: GameState, action: PayTunnel) -> Problem | None:
    """Why ``action`` does not pay the tunnel's extras: ``locomotives`` of the owed cards, the
    rest in the base payment's colour, all locomotives after an all-locomotive payment (E40–E44,
    U13)."""
    tunnel = state.tunnel
    if state.phase is not TUNNEL or tunnel is None:
        return wrong_phase(state.phase)
    k = action.locomotives
    if type(k) is not int or not 0 <= k <= tunnel.owed:
        return Problem(Reason.BAD_PAYMENT, f"{counted(tunnel.owed, 'extra card')} owed")
    if tunnel.color is LOCOMOTIVE and k != tunnel.owed:
        return Problem(
            Reason.BAD_PAYMENT, "after an all-locomotive payment the extras are locomotives"
        )
    if k and "tunnel" not in state.rules.wild_locomotives:
        return Problem(Reason.LOCOMOTIVE_NOT_WILD, "locomotives are not wild on tunnels here")
    hand = state.players[state.current].hand
    if not can_pay(hand, tunnel.color, k, tunnel.owed):
        return Problem(Reason.NOT_ENOUGH_CARDS, f"the hand holds {hand}")
    return None


def decline_tunnel_problem(state: GameState, action: DeclineTunnel) -> Problem | None:
    """Declining is always possible after a reveal that owes cards (E45)."""
    if state.phase is not TUNNEL or state.tunnel is None:
        return wrong_phase(state.phase)
    return None


def claim_problem(state: GameState, action: ClaimRoute) -> Problem | None:
    """Why ``action`` is not a legal claim now, or None when it is: the route exists and is
    open (E31–E33), the player has the trains (E28) and the cards of a fitting payment
    (E23, E25, E26), with the ferry's locomotives (E35). A tunnel attempt needs a legal base
    payment and enough trains, not the cards for any extras (E50, U15)."""
    if state.phase is not START:
        if state.phase is PAYMENT:
            return _picked_claim_problem(state, action)
        return wrong_phase(state.phase)
    board = map_index(state.map)
    found = _route_problem(state, board, action.route)
    if found is not None:
        return found
    if general_payments(state):
        return _general_claim_problem(state, action)
    if action.substitutes:
        return Problem(Reason.BAD_SUBSTITUTE_SET, "no route of this game takes substitute sets")
    r = action.route
    length = board.length[r]
    found = payment_problem(action.color, action.locomotives, length, board.color[r])
    if found is not None:
        return found
    if action.locomotives < board.ferry[r]:
        return Problem(
            Reason.FERRY_NEEDS_LOCOMOTIVES, f"{counted(board.ferry[r], 'locomotive')} needed"
        )
    hand = state.players[state.current].hand
    if not can_pay(hand, action.color, action.locomotives, length):
        return Problem(Reason.NOT_ENOUGH_CARDS, f"the hand holds {hand}")
    return None


def _route_problem(state: GameState, board: MapIndex, r: int) -> Problem | None:
    """Why route ``r`` cannot be claimed now whatever the payment: it does not exist, it is
    owned or closed (E31–E33), or the player lacks the trains (E28)."""
    if type(r) is not int or not 0 <= r < len(board.length):
        return Problem(
            Reason.NO_SUCH_ROUTE, f"the routes are numbered 0 to {len(board.length) - 1}"
        )
    owner = state.route_owner[r]
    if owner is not None:
        return Problem(Reason.ROUTE_TAKEN, f"owned by {seat_name(owner)}")
    seat = state.current
    other = board.double[r]
    if other >= 0 and state.route_owner[other] is not None:
        if state.route_owner[other] == seat:
            track = route_with_number(state.map, other)
            return Problem(Reason.DOUBLE_ROUTE_OWNED, f"the other track is {track}")
        if len(state.players) < state.rules.double_route_min_players:
            return Problem(
                Reason.DOUBLE_ROUTE_CLOSED,
                f"the other track, {route_with_number(state.map, other)}, is taken, and both"
                f" are open only to {state.rules.double_route_min_players} or more players",
            )
    length = board.length[r]
    marks = board.mountain[r]
    player = state.players[seat]
    if player.trains < length + marks:
        return Problem(Reason.NOT_ENOUGH_TRAINS, trains_needed(player.trains, length, marks))
    return None


def trains_needed(trains: int, length: int, marks: int) -> str:
    """Why a claim lacks trains, in words: a mountain's X marks take trains too (U27).

    >>> trains_needed(3, 4, 0)
    '3 trains left, 4 needed'
    >>> trains_needed(4, 4, 1)
    '4 trains left, 5 needed: 4 for the track and 1 for its mountain X mark'
    """
    left = f"{counted(trains, 'train')} left, {length + marks} needed"
    if not marks:
        return left
    its = "its mountain X mark" if marks == 1 else "its mountain X marks"
    return f"{left}: {length} for the track and {marks} for {its}"


def _general_claim_problem(state: GameState, action: ClaimRoute) -> Problem | None:
    """:func:`claim_problem`'s payment checks on a board of :mod:`.payments`."""
    route = state.map.routes[action.route]
    if action.substitutes:
        return Problem(
            Reason.BAD_SUBSTITUTE_SET,
            f"a payment with substitute sets for {route_name(state.map, route.id)} is picked card"
            f" by card: 'claim #{route.id} sets', then 'pay CARD' for each of its cards, then"
            " this claim",
        )
    found = general_payment_problem(route, state.rules, action)
    if found is not None:
        return found
    hand = state.players[state.current].hand
    needed = payment_counts(payment_cards_of(action, route, state.rules))
    if any(n > h for n, h in zip(needed, hand.counts, strict=True)):
        return Problem(Reason.NOT_ENOUGH_CARDS, f"hand {hand}")
    return None


def claim(draft: Draft, action: ClaimRoute) -> Phase:
    """Pay for and claim a route; for a tunnel, lay the base payment and reveal (E39): with
    nothing to match, it is claimed for the base payment (E46)."""
    state = draft.state
    board = map_index(state.map)
    route = action.route
    length = board.length[route]
    if action.substitutes:  # the picked cards; never on a tunnel (the map's checks)
        draft.player = evolve(draft.player, {"payment": None})
        base = payment_cards_of(action, state.map.routes[route], state.rules)
        return _complete_claim(draft, route, _without(draft.player.hand, base), base, ())
    hand = pay(draft.player.hand, action.color, action.locomotives, length)
    base = payment_cards(action.color, action.locomotives, length)
    if not board.tunnel[route]:
        return _complete_claim(draft, route, hand, base, ())
    rules = state.rules
    revealed = draft.reveal(rules.tunnel_reveal_cards, rules.tunnel_reveal_uses_discard)
    owed = tunnel_extras_owed(action.color, revealed)
    if draft.log is not None:
        draft.log.append(TunnelRevealed(state.current, route, revealed, owed))
    if owed == 0:
        return _complete_claim(draft, route, hand, base, revealed)
    draft.player = evolve(draft.player, {"hand": hand})
    draft.changes["tunnel"] = PendingTunnel(route, action.color, action.locomotives, revealed, owed)
    return TUNNEL


def _without(hand: Hand, cards: tuple[Color, ...]) -> Hand:
    counts = list(hand.counts)
    for card in cards:
        counts[card.code] -= 1
    return Hand(tuple(counts))


def tunnel_extras_owed(color: Color, revealed: tuple[Color, ...]) -> int:
    """Each revealed card of the payment's colour, and each revealed locomotive, owes one extra
    card (E39, E40, E43); after an all-locomotive payment only locomotives count (E41, E44)."""
    if color is LOCOMOTIVE:
        return revealed.count(LOCOMOTIVE)
    return revealed.count(color) + revealed.count(LOCOMOTIVE)


def _complete_claim(
    draft: Draft, route: int, hand: Hand, paid: tuple[Color, ...], revealed: tuple[Color, ...]
) -> Phase:
    """The route becomes the player's, who now holds ``hand`` (paid for): trains placed, points
    scored at once, the payment and then any revealed tunnel cards discarded (E29, E48, U8);
    the turn ends."""
    state = draft.state
    seat = state.current
    track = state.map.routes[route]
    points = state.rules.claim_points(track.length, track.mountain)
    player = draft.player
    draft.player = evolve(
        player,
        {
            "hand": hand,
            "trains": player.trains - track.trains,
            "route_points": player.route_points + points,
        },
    )
    draft.discard = draft.discard + paid + revealed
    owners = state.route_owner
    changes = draft.changes
    changes["route_owner"] = owners[:route] + (seat,) + owners[route + 1 :]
    changes["tunnel"] = None
    if draft.log is not None:
        draft.log.append(RouteClaimed(seat, route, paid, points))
    return START


def tunnel_actions(state: GameState) -> list[Action]:
    """After a reveal: every affordable composition of the extras, and always declining (E42,
    E45, U13)."""
    tunnel = state.tunnel
    if tunnel is None:
        return [_DECLINE]
    counts = state.players[state.current].hand.counts
    owed = tunnel.owed
    out: list[Action] = []
    if tunnel.color is LOCOMOTIVE:
        if counts[LOCOMOTIVE_CODE] >= owed:
            out.append(_pay_action(owed))
    else:
        low = max(0, owed - counts[tunnel.color.code])
        top = min(owed, counts[LOCOMOTIVE_CODE])
        if "tunnel" not in state.rules.wild_locomotives:
            top = 0
        out.extend(_pay_action(k) for k in range(low, top + 1))
    out.append(_DECLINE)
    return out


def _pay_action(locomotives: int) -> PayTunnel:
    return _PAY[locomotives] if locomotives < len(_PAY) else PayTunnel(locomotives)


def pay_tunnel(draft: Draft, action: PayTunnel) -> Phase:
    """Pay the extras; the tunnel is claimed (E39–E44, E49)."""
    tunnel = draft.state.tunnel
    assert tunnel is not None  # checked by the tunnel problems
    hand = pay(draft.player.hand, tunnel.color, action.locomotives, tunnel.owed)
    length = draft.state.map.routes[tunnel.route].length
    paid = payment_cards(tunnel.color, tunnel.locomotives, length) + payment_cards(
        tunnel.color, action.locomotives, tunnel.owed
    )
    return _complete_claim(draft, tunnel.route, hand, paid, tunnel.revealed)


def decline_tunnel(draft: Draft, action: DeclineTunnel) -> Phase:
    """Take the base payment back; the route stays open, the revealed cards are discarded and
    the turn ends (E45, E48, U16)."""
    tunnel = draft.state.tunnel
    assert tunnel is not None  # checked by the tunnel problems
    length = draft.state.map.routes[tunnel.route].length
    hand = refund(draft.player.hand, tunnel.color, tunnel.locomotives, length)
    draft.player = evolve(draft.player, hand=hand)
    draft.discard = draft.discard + tunnel.revealed
    draft.changes["tunnel"] = None
    if draft.log is not None:
        draft.log.append(TunnelDeclined(draft.state.current, tunnel.route))
    return START


def sets_problem(state: GameState, action: ClaimWithSets) -> Problem | None:
    """Why a payment with substitute sets for ``action.route`` cannot start: the route's own
    refusals (:func:`claim_problem`), a route that takes no sets, or a hand that can make no
    such payment."""
    if state.phase is not START:
        return wrong_phase(state.phase)
    board = map_index(state.map)
    found = _route_problem(state, board, action.route)
    if found is not None:
        return found
    route = state.map.routes[action.route]
    if not general_payments(state) or set_size(route, state.rules) < 2:
        return Problem(
            Reason.BAD_SUBSTITUTE_SET, f"{route_name(state.map, route.id)} takes no substitute sets"
        )
    hand = state.players[state.current].hand
    if not can_pay_with_sets(route, state.rules, hand.counts):
        return Problem(Reason.NOT_ENOUGH_CARDS, f"no payment with sets from {hand}")
    return None


def start_sets(draft: Draft, action: ClaimWithSets) -> Phase:
    """The player starts picking the cards of a payment with sets; nothing is paid yet."""
    draft.player = evolve(draft.player, {"payment": PendingPayment(action.route)})
    return PAYMENT


def _payment_choices(state: GameState) -> tuple[list[Color], ClaimRoute | None]:
    payment = state.payment
    assert payment is not None  # the phase says so (invariants)
    route = state.map.routes[payment.route]
    hand = state.players[state.current].hand.counts
    return set_payment_choices(route, state.rules, hand, payment.cards)


def payment_actions(state: GameState) -> list[Action]:
    """While a payment with sets is picked: the cards that may come next, in card order, then
    the claim of the picked cards once they pay (docs/rules.md, "Payments")."""
    cards, claim = _payment_choices(state)
    out: list[Action] = [_PAY_CARD[card.code] for card in cards]
    if claim is not None:
        out.append(claim)
    return out


def pay_card_problem(state: GameState, action: PayCard) -> Problem | None:
    """Why ``action.card`` cannot be picked next: not a card, not in the hand beyond the
    picked ones, before the last picked card in card order, or leading to no payment."""
    if state.phase is not PAYMENT or state.payment is None:
        return wrong_phase(state.phase)
    card = action.card
    if not isinstance(card, Color):
        return Problem(Reason.BAD_PAYMENT, "pay a card: a colour or L")
    cards, _ = _payment_choices(state)
    if card in cards:
        return None
    picked = state.payment.cards
    hand = state.players[state.current].hand
    if hand[card] <= picked.count(card):
        return Problem(Reason.NOT_ENOUGH_CARDS, f"the hand holds {hand}")
    if picked and card.code < picked[-1].code:
        return Problem(
            Reason.BAD_PAYMENT,
            f"cards are picked in card order: {card.value} comes before {picked[-1].value}",
        )
    return Problem(
        Reason.BAD_SUBSTITUTE_SET,
        f"no payment of the hand follows {card.value} (cards are picked in card order: "
        f"{_CARD_ORDER}; the next may be {', '.join(c.value for c in cards) or 'none'})",
    )


def pay_card(draft: Draft, action: PayCard) -> Phase:
    """One more card is picked; it stays in the hand until the claim."""
    payment = draft.state.payment
    assert payment is not None  # checked by pay_card_problem
    picked = PendingPayment(payment.route, (*payment.cards, action.card))
    draft.player = evolve(draft.player, {"payment": picked})
    return PAYMENT


def _picked_claim_problem(state: GameState, action: ClaimRoute) -> Problem | None:
    """While picking: only the claim of exactly the picked cards, once they pay, is legal."""
    if state.payment is None:
        return wrong_phase(state.phase)
    _, claim = _payment_choices(state)
    if claim is None:
        return Problem(Reason.BAD_PAYMENT, "the picked cards do not pay yet: pick more")
    if action != claim:
        return Problem(Reason.BAD_PAYMENT, f"the picked cards make {claim}")
    return None


#: The claim family: each action class with its check and its transition.
ACTIONS: ActionRules = {
    ClaimRoute: (claim_problem, claim),
    ClaimWithSets: (sets_problem, start_sets),
    PayCard: (pay_card_problem, pay_card),
    PayTunnel: (pay_tunnel_problem, pay_tunnel),
    DeclineTunnel: (decline_tunnel_problem, decline_tunnel),
}


def problem(
    state: GameState, action: ClaimRoute | ClaimWithSets | PayCard | PayTunnel | DeclineTunnel
) -> Problem | None:
    """Why ``action`` is not legal now, or None when it is (E23–E50, U13)."""
    return ACTIONS[type(action)][0](state, action)


def apply(
    draft: Draft, action: ClaimRoute | ClaimWithSets | PayCard | PayTunnel | DeclineTunnel
) -> Phase:
    """Apply a legal claim, tunnel payment or tunnel refusal (see :func:`problem`)."""
    return ACTIONS[type(action)][1](draft, action)
