"""Payments on boards whose locomotives are not wild everywhere or that take substitute sets
(docs/rules.md, "Payments"; the Nordic Countries board uses all three).

A payment for a route of length ``L`` is a base of ``L − u`` cards and ``u`` substitute sets of
``N`` cards each (any cards, locomotives included), where ``N`` is the map's
:attr:`~ttr_rules.Rules.locomotive_substitute` on a ferry (each set stands in for one of the
ferry's locomotives) or the route's :attr:`~ttr_rules.maps.Route.card_substitute` (each set
stands in for one card of the colour). The base is cards of one colour (the route's, or any one
for a gray route) and locomotives: the ferry's required ones (one per symbol not replaced by a
set) and, where the route's kind is in :attr:`~ttr_rules.Rules.wild_locomotives`, more of them
in place of coloured cards, up to an all-locomotive base.

The number of sets follows from the number of cards (``L + u·(N − 1)``), so a multiset of cards
pays at most one way up to the choice of which cards form the base; :func:`canonical_claim`
fixes that choice, so that each multiset is one :class:`~ttr_rules.ClaimRoute` (the only
spelling ``apply_action`` accepts): the first base that fits, trying an all-locomotive base
first, then the colours in card order, each with as many locomotives as can be in it. The
substitute cards are what is left.

Payments without sets are listed whole (:func:`route_payments`). Payments with sets are too
many to list (92,131 on Lieksa–Murmansk for 4 cards of each kind), so they are picked card by
card (:func:`can_pay_with_sets` says whether one can start, :func:`set_payment_choices` what
may follow): each step offers at most the nine kinds of card and the claim.

These boards take this general path; Europe and USA keep the engine's tables
(:mod:`ttr_rules.maps.index`), whose payments this path reproduces exactly when nothing is
restricted (``tests/test_nordic.py`` compares them).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..actions import ClaimRoute
from ..cards import CARD_COLORS, COLORS, LOCOMOTIVE_CODE, Color
from ..errors import Reason
from ..maps.index import map_index
from ..maps.model import GameMap, Route
from ..rules import Rules
from ..state import GameState, PendingPayment
from ..words import counted
from .common import LOCOMOTIVE, Problem
from .common import payment_problem as common_payment_problem

__all__ = [
    "can_pay_with_sets",
    "canonical_claim",
    "general_payments",
    "payment_cards_of",
    "payment_counts",
    "payment_problem",
    "pending_payment_problems",
    "route_kind",
    "route_payments",
    "set_payment_choices",
    "set_size",
    "substitute_cards_at_most",
]

_KINDS = len(COLORS)


def route_kind(route: Route) -> str:
    """``"ferry"``, ``"tunnel"`` or ``"plain"`` (the names of :attr:`Rules.wild_locomotives`)."""
    if route.ferry_locomotives:
        return "ferry"
    return "tunnel" if route.tunnel else "plain"


def set_size(route: Route, rules: Rules) -> int:
    """Cards in one substitute set on ``route`` (0: the route takes none)."""
    if route.ferry_locomotives:
        return rules.locomotive_substitute
    return route.card_substitute


def _max_sets(route: Route, rules: Rules) -> int:
    if not set_size(route, rules):
        return 0
    return route.ferry_locomotives if route.ferry_locomotives else route.length


def substitute_cards_at_most(route: Route, rules: Rules) -> int:
    """The most substitute cards one payment for ``route`` holds: every set it may take, full.

    >>> from ttr_rules import load_map
    >>> nordic = load_map("nordic")
    >>> max(substitute_cards_at_most(r, nordic.rules) for r in nordic.routes)
    36
    >>> substitute_cards_at_most(load_map("europe").routes[0], load_map("europe").rules)
    0
    """
    return _max_sets(route, rules) * set_size(route, rules)


def payment_problem(route: Route, rules: Rules, action: ClaimRoute) -> Problem | None:
    """Why ``action`` is no payment for ``route`` under ``rules`` (whatever the hand holds), or
    None: substitute sets of the route's size (E35 as generalised), locomotives only where
    they are wild, required or inside a set, and the canonical spelling of its cards."""
    subs = action.substitutes
    if not isinstance(subs, tuple) or not all(isinstance(card, Color) for card in subs):
        return Problem(Reason.BAD_PAYMENT, "substitutes must be cards")
    per_set = set_size(route, rules)
    if subs and per_set < 2:
        return Problem(Reason.BAD_SUBSTITUTE_SET, f"{route.a}–{route.b} takes no substitute sets")
    if subs and len(subs) % per_set:
        return Problem(
            Reason.BAD_SUBSTITUTE_SET,
            f"sets of any {per_set} cards: {counted(len(subs), 'card')} do not split",
        )
    sets = len(subs) // per_set if subs else 0
    size = route.length - sets
    if sets > _max_sets(route, rules) or size < 0:
        return Problem(Reason.BAD_SUBSTITUTE_SET, f"at most {_max_sets(route, rules)} sets")
    found = common_payment_problem(action.color, action.locomotives, size, -1)
    if found is not None:
        return found
    color, locos = action.color, action.locomotives
    code = color.code
    if not _base_fits(route, rules, code, locos, size, sets):
        return _base_problem(route, rules, code, locos, sets)
    cards = [0] * _KINDS
    cards[LOCOMOTIVE_CODE] += locos
    if code != LOCOMOTIVE_CODE:
        cards[code] += size - locos
    for card in subs:
        cards[card.code] += 1
    canonical = canonical_claim(route, rules, cards)
    if canonical != action:
        return Problem(Reason.BAD_PAYMENT, f"the same cards are written {canonical}")
    return None


def payment_cards_of(action: ClaimRoute, route: Route, rules: Rules) -> tuple[Color, ...]:
    """The cards ``action`` pays (checked by :func:`payment_problem`), in discard order: the
    base's coloured cards, its locomotives, then the substitute sets (U8)."""
    subs = action.substitutes
    size = route.length - (len(subs) // set_size(route, rules) if subs else 0)
    if action.color is LOCOMOTIVE:
        return (LOCOMOTIVE,) * size + subs
    colour = (action.color,) * (size - action.locomotives)
    return colour + (LOCOMOTIVE,) * action.locomotives + subs


def payment_counts(cards: tuple[Color, ...]) -> list[int]:
    """``cards`` as counts by card code."""
    counts = [0] * _KINDS
    for card in cards:
        counts[card.code] += 1
    return counts


def _base_problem(route: Route, rules: Rules, code: int, locos: int, sets: int) -> Problem:
    """Why a base does not fit (see :func:`_base_fits`)."""
    if code != LOCOMOTIVE_CODE and route.color is not None and route.color.code != code:
        return Problem(Reason.WRONG_COLOR, f"the route is {route.color.value}")
    required = route.ferry_locomotives - sets if route.ferry_locomotives else 0
    if locos < required:
        return Problem(
            Reason.FERRY_NEEDS_LOCOMOTIVES,
            f"{counted(required, 'locomotive')} or sets of any "
            f"{rules.locomotive_substitute} cards needed",
        )
    kind = route_kind(route)
    where = "inside a set of any " + str(route.card_substitute) if route.card_substitute else ""
    return Problem(
        Reason.LOCOMOTIVE_NOT_WILD,
        f"locomotives are wild only on {', '.join(rules.wild_locomotives) or 'no'} routes; "
        f"this one is {kind}" + (f" (they count {where} cards)" if where else ""),
    )


def _base_fits(route: Route, rules: Rules, code: int, locos: int, size: int, sets: int) -> bool:
    """Whether a base of ``size`` cards, ``locos`` of them locomotives and the rest of colour
    ``code`` (``LOCOMOTIVE_CODE``: all locomotives), pays ``route`` with ``sets`` sets."""
    if code == LOCOMOTIVE_CODE:
        if locos != size:
            return False
    elif not 0 <= locos < size or (route.color is not None and route.color.code != code):
        return False
    required = route.ferry_locomotives - sets if route.ferry_locomotives else 0
    if locos < required:
        return False
    return locos == required or route_kind(route) in rules.wild_locomotives


def _bases(route: Route, rules: Rules, size: int, sets: int) -> Iterator[tuple[int, int]]:
    """The bases that could pay ``route`` with ``sets`` sets, as ``(colour code, locomotives)``
    in the canonical order: all locomotives first, then by colour, most locomotives first."""
    if _base_fits(route, rules, LOCOMOTIVE_CODE, size, size, sets):
        yield LOCOMOTIVE_CODE, size
    codes = range(len(CARD_COLORS)) if route.color is None else (route.color.code,)
    for code in codes:
        for locos in range(size - 1, -1, -1):
            if _base_fits(route, rules, code, locos, size, sets):
                yield code, locos


def _take(counts: list[int], code: int, locos: int, size: int) -> bool:
    """Remove a base from ``counts`` in place; False (``counts`` unchanged) when it is not
    there."""
    colour = 0 if code == LOCOMOTIVE_CODE else size - locos
    if counts[LOCOMOTIVE_CODE] < locos or (colour and counts[code] < colour):
        return False
    counts[LOCOMOTIVE_CODE] -= locos
    if colour:
        counts[code] -= colour
    return True


def _claim(route: Route, code: int, locos: int, rest: list[int]) -> ClaimRoute:
    cards = [COLORS[k] for k in range(_KINDS) for _ in range(rest[k])]
    return ClaimRoute(route.id, COLORS[code], locos, tuple(cards))


def canonical_claim(route: Route, rules: Rules, cards: list[int]) -> ClaimRoute | None:
    """The one :class:`~ttr_rules.ClaimRoute` that pays ``route`` with exactly ``cards``
    (counts by card code), or None when they are no payment for it.

    >>> from ttr_rules import load_map
    >>> nordic = load_map("nordic")
    >>> murmansk = next(r for r in nordic.routes if r.card_substitute)
    >>> red, blue = Color.RED.code, Color.BLUE.code
    >>> cards = [0] * 9
    >>> cards[red], cards[blue] = 8, 4  # 8 red and a set of 4 for the ninth
    >>> str(canonical_claim(murmansk, nordic.rules, cards))
    'claim #50 red any:4blue'
    """
    total = sum(cards)
    length = route.length
    per_set = set_size(route, rules)
    sets = 0
    if total != length:
        if per_set < 2 or (total - length) % (per_set - 1):
            return None
        sets = (total - length) // (per_set - 1)
        if not 0 < sets <= _max_sets(route, rules):
            return None
    size = length - sets
    for code, locos in _bases(route, rules, size, sets):
        rest = list(cards)
        if _take(rest, code, locos, size):
            return _claim(route, code, locos, rest)
    return None


def route_payments(route: Route, rules: Rules, hand: tuple[int, ...]) -> list[ClaimRoute]:
    """Every legal payment without substitute sets that ``hand`` (counts by card code) can make
    for ``route``, in the order the bases are tried (:func:`canonical_claim`). Payments with
    sets are picked card by card instead (:func:`set_payment_choices`)."""
    size = route.length
    found: list[ClaimRoute] = []
    for code, locos in _bases(route, rules, size, 0):
        rest = list(hand)
        if _take(rest, code, locos, size):
            found.append(ClaimRoute(route.id, COLORS[code], locos))
    return found


def can_pay_with_sets(route: Route, rules: Rules, hand: tuple[int, ...]) -> bool:
    """Whether ``hand`` (counts by card code) can pay ``route`` with at least one substitute
    set: whether :class:`~ttr_rules.ClaimWithSets` may start.

    >>> from ttr_rules import load_map
    >>> nordic = load_map("nordic")
    >>> murmansk = next(r for r in nordic.routes if r.card_substitute)
    >>> hand = [0] * 9
    >>> hand[Color.RED.code], hand[Color.BLUE.code] = 8, 3
    >>> can_pay_with_sets(murmansk, nordic.rules, tuple(hand))
    False
    >>> hand[Color.LOCOMOTIVE.code] = 1  # a locomotive counts inside a set
    >>> can_pay_with_sets(murmansk, nordic.rules, tuple(hand))
    True
    """
    return _completable(route, rules, hand, [0] * _KINDS, 0)


def set_payment_choices(
    route: Route, rules: Rules, hand: tuple[int, ...], picked: tuple[Color, ...]
) -> tuple[list[Color], ClaimRoute | None]:
    """The next steps of a payment with sets for ``route`` after ``picked`` (in card order)
    from ``hand`` (counts by card code, the picked cards included): the cards that may be
    picked next, and the claim of exactly the picked cards when they are a payment.

    A card may be picked when it is in the hand beyond the picked ones, is not before the last
    picked card in card order (so each multiset is picked in one order only) and leaves a
    payment with sets still reachable (so no pick leads nowhere); at most 9 cards and the
    claim, whatever the hand.

    >>> from ttr_rules import load_map
    >>> nordic = load_map("nordic")
    >>> murmansk = next(r for r in nordic.routes if r.card_substitute)
    >>> hand = [0] * 9
    >>> hand[Color.RED.code], hand[Color.BLUE.code] = 8, 4
    >>> cards, claim = set_payment_choices(murmansk, nordic.rules, tuple(hand), ())
    >>> [c.value for c in cards], claim  # red first would shut out the blues that must pay
    (['blue'], None)
    >>> cards, claim = set_payment_choices(
    ...     murmansk, nordic.rules, tuple(hand), (Color.BLUE,) * 4 + (Color.RED,) * 8
    ... )
    >>> cards, str(claim)
    ([], 'claim #50 red any:4blue')
    """
    chosen = payment_counts(picked)
    low = picked[-1].code if picked else 0
    cards: list[Color] = []
    for code in range(low, _KINDS):
        if hand[code] > chosen[code]:
            chosen[code] += 1
            if _completable(route, rules, hand, chosen, code):
                cards.append(COLORS[code])
            chosen[code] -= 1
    claim = canonical_claim(route, rules, chosen) if len(picked) > route.length else None
    return cards, claim


def _completable(
    route: Route, rules: Rules, hand: tuple[int, ...], chosen: list[int], low: int
) -> bool:
    """Whether adding cards of code ``low`` or later from ``hand`` beyond ``chosen`` (counts
    by card code) can make ``chosen`` a payment of ``route`` with at least one set: for some
    number of sets, a base that fits lacks only cards that can still be added, and the hand
    holds enough such cards to reach the payment's size."""
    per_set = set_size(route, rules)
    if per_set < 2:
        return False
    picked = sum(chosen)
    spare = [hand[k] - chosen[k] if k >= low else 0 for k in range(_KINDS)]
    spare_total = sum(spare)
    for sets in range(1, _max_sets(route, rules) + 1):
        missing = route.length + sets * (per_set - 1) - picked
        if missing < 0:
            continue
        if missing > spare_total:
            return False  # the sizes only grow
        size = route.length - sets
        for code, locos in _bases(route, rules, size, sets):
            lack_l = locos - chosen[LOCOMOTIVE_CODE]
            lack_c = 0 if code == LOCOMOTIVE_CODE else size - locos - chosen[code]
            if lack_l > spare[LOCOMOTIVE_CODE] or lack_c > spare[code]:
                continue  # (spare is 0 before ``low``: a lack there cannot be filled)
            if max(lack_l, 0) + max(lack_c, 0) <= missing:
                return True
    return False


def pending_payment_problems(
    payment: PendingPayment,
    game_map: GameMap,
    rules: Rules,
    owners: Sequence[int | None],
    *,
    seat: int,
    players: int,
    trains: int,
    hand: tuple[int, ...] | None,
    hand_size: int,
) -> Iterator[str]:
    """Why ``payment``, picked by ``seat`` of ``players`` (holding ``trains``, and ``hand`` as
    counts by card code, or None when unseen, of ``hand_size`` cards), is no payment any game
    reaches: a route the map has not, or that is taken, closed to the seat or beyond its
    trains; a route that takes no substitute sets, or more cards than the seat holds; picks
    out of card order, beyond the hand, or that no payment can follow. ``ClaimWithSets``
    starts only where a payment can end, and each pick keeps one reachable, so such a
    position would have no legal action. ``from_json`` of a state and of a view ask it.

    >>> from ttr_rules import load_map
    >>> nordic = load_map("nordic")
    >>> owners = [None] * len(nordic.routes)
    >>> list(pending_payment_problems(
    ...     PendingPayment(0), nordic, nordic.rules, owners,
    ...     seat=0, players=2, trains=40, hand=None, hand_size=12))
    ["the pending payment's route 0 (Ålborg–Århus) takes no substitute sets"]
    """
    routes, r = game_map.routes, payment.route
    if not 0 <= r < len(routes):
        yield f"the pending payment's route {r} is not a route of the map"
        return
    route = routes[r]
    name = f"the pending payment's route {r} ({route.a}–{route.b})"
    other = route.double_of
    if owners[r] is not None:
        yield f"{name} is already claimed"
    elif (
        other is not None
        and owners[other] is not None
        and (owners[other] == seat or players < rules.double_route_min_players)
    ):
        yield f"{name} is a double route closed to player {seat}"
    if trains < route.trains:
        yield f"{name} needs {counted(route.trains, 'train')}; player {seat} has {trains}"
    per_set = set_size(route, rules)
    if per_set < 2:
        yield f"{name} takes no substitute sets"
        return
    smallest = route.length + per_set - 1
    if hand_size < smallest:
        yield f"{name} takes at least {counted(smallest, 'card')}; player {seat} holds {hand_size}"
    elif hand is not None:
        yield from _picked_problems(name, payment.cards, route, rules, hand)


def _picked_problems(
    name: str, picked: tuple[Color, ...], route: Route, rules: Rules, hand: tuple[int, ...]
) -> Iterator[str]:
    codes = [card.code for card in picked]
    if codes != sorted(codes):
        yield f"{name}: its cards are not in card order"
        return
    chosen = payment_counts(picked)
    if any(chosen[code] > hand[code] for code in range(_KINDS)):
        yield f"{name}: its cards are not all in the hand"
        return
    cards, claim = set_payment_choices(route, rules, hand, picked)
    if not cards and claim is None:
        yield f"{name}: no payment with sets can follow its cards"


def general_payments(state: GameState) -> bool:
    """Whether claims in ``state`` take this module's path: its rules restrict locomotives or
    take ferry sets, or its map has a route with sets. Europe and USA do not."""
    if state.rules.general_payments:
        return True
    # The map's index holds it, so that it is freed with the map (a dict keyed by maps kept
    # every scenario's map alive).
    return map_index(state.map).card_sets
