"""Starting a game and the one dispatch point for legal moves and transitions.

``new_game → (legal_actions → apply_action)* → final_scores``: nothing here mutates a state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from attrs import frozen

from .actions import (
    Action,
    Pass,
)
from .cards import CARD_COLORS, COLORS, Color, Hand
from .errors import IllegalActionError, MapLoadError, Reason
from .events import Event
from .maps import GameMap, resolve_map
from .maps.check import deal_problems, rules_problems
from .moves import claim, draw, stations, tickets, turn
from .moves.claim import payment_actions, tunnel_actions
from .moves.common import (
    GAME_OVER,
    INITIAL_TICKETS,
    KEEP_TICKETS,
    PAYMENT,
    SECOND_CARD,
    START,
    TUNNEL,
    ActionRules,
    Problem,
)
from .moves.draft import Draft
from .moves.draw import draw_choices
from .moves.quick import QUICK
from .moves.tickets import keep_actions
from .moves.turn import finish, settle_row, start_pieces
from .piles import fisher_yates
from .rules import Rules
from .state import GameState, PlayerState
from .words import action_text, seat_name

__all__ = [
    "StepResult",
    "apply_action",
    "check_deal",
    "check_player_count",
    "check_rules",
    "current_player",
    "full_deck",
    "is_legal",
    "is_terminal",
    "legal_actions",
    "new_game",
    "step",
    "why_illegal",
]

_ONLY_PASS: tuple[Action, ...] = (Pass(),)


def full_deck(rules: Rules) -> tuple[Color, ...]:
    """The train cards in colour order: ``cards_per_color`` of each colour, then the
    locomotives (E1)."""
    cards: list[Color] = []
    for color in CARD_COLORS:
        cards.extend([color] * rules.cards_per_color)
    cards.extend([Color.LOCOMOTIVE] * rules.locomotive_cards)
    return tuple(cards)


def check_player_count(players: object, rules: Rules) -> int:
    """The player count when ``rules`` allow it (E1), else a ``ValueError`` naming it."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players must be an integer, got {players!r}")
    if not rules.min_players <= players <= rules.max_players:
        shown = str(players) if abs(players) < 10**15 else "a number of over 15 digits"
        raise ValueError(
            f"players must be between {rules.min_players} and {rules.max_players}, got {shown}"
        )
    return players


def check_rules(rules: Rules | None, game_map: GameMap) -> Rules:
    """The map's rules, or the given ones when they are consistent (else a ``ValueError``
    naming every problem); ``new_game`` and ``scenario`` accept the same rules."""
    if rules is None:
        return game_map.rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules or None, got {type(rules).__name__}")
    problems = list(rules_problems(rules, game_map))
    if problems:
        lines = (f"{p.path.removeprefix('rules.')}: {p.message}" for p in problems)
        raise ValueError("rules: " + "; ".join(lines))
    return rules


def check_deal(game_map: GameMap, rules: Rules, players: int) -> None:
    """Refuse a deal the map's tickets cannot make for ``players`` (E3) with
    :class:`~ttr_rules.errors.MapLoadError` (a ``ValueError``) naming each pile that falls
    short; a board without tickets still serves ``scenario``, which deals nothing."""
    problems = tuple(str(p) for p in deal_problems(game_map, rules, players))
    if problems:
        lines = "".join(f"\n  {p}" for p in problems)
        raise MapLoadError(
            f"the map {game_map.name!r} cannot deal {players} players:{lines}", problems
        )


def _deal_cards(
    deck: tuple[Color, ...], seats: list[int], per_player: int
) -> tuple[list[Hand], tuple[Color, ...]]:
    """Deal ``per_player`` cards round-robin in ``seats`` order (E2, U20): the hands by seat
    and the rest of the deck."""
    counts = [[0] * len(COLORS) for _ in seats]
    for round_ in range(per_player):
        for i, seat in enumerate(seats):
            counts[seat][deck[round_ * len(seats) + i].code] += 1
    rest = deck[per_player * len(seats) :]
    return [Hand(tuple(c)) for c in counts], rest


def _deal_tickets(
    pile: tuple[int, ...], seats: list[int], per_player: int, offered: list[list[int]]
) -> tuple[int, ...]:
    """Give ``per_player`` tickets from the top of ``pile`` to each seat in order (E3, U20);
    the rest of the pile."""
    for i, seat in enumerate(seats):
        offered[seat].extend(pile[i * per_player : (i + 1) * per_player])
    return pile[per_player * len(seats) :]


def new_game(
    map: str | GameMap = "europe",  # the contract's parameter name
    players: int = 4,
    seed: int = 0,
    rules: Rules | None = None,
    first_player: int = 0,
) -> GameState:
    """A new game, dealt as the rules say, waiting for the initial ticket choices (E1–E5).

    Everything is deterministic from ``seed``: the train deck and both ticket piles are
    shuffled by Fisher–Yates from ``random.Random(seed)``; cards are dealt round-robin from
    ``first_player``, then the face-up row is turned and checked for locomotives (U20); each
    player gets the long tickets and then the regular ones (E3). Players choose their tickets
    in seat order from ``first_player`` (U21).

    >>> state = new_game("europe", players=3, seed=7)
    >>> state.phase, current_player(state)
    (<Phase.INITIAL_TICKETS: 'initial tickets'>, 0)
    >>> [len(p.offered) for p in state.players], state.players[0].hand.total, len(state.deck)
    ([4, 4, 4], 4, 93)
    >>> new_game(players=6)
    Traceback (most recent call last):
    ...
    ValueError: players must be between 2 and 5, got 6

    Raises :class:`ValueError` for a player count, seed (an ``int``; not a bool), first player
    or rules that do not fit, and the errors of :func:`~ttr_rules.load_map` for the map.
    """
    game_map = resolve_map(map)
    rules = check_rules(rules, game_map)
    count = check_player_count(players, rules)
    check_deal(game_map, rules, count)
    if type(seed) is not int:  # None or a float would deal a game no record can reproduce
        raise ValueError(f"seed must be an integer, got {type(seed).__name__}")
    if type(first_player) is not int or not 0 <= first_player < count:
        raise ValueError(f"first_player must be a seat from 0 to {count - 1}, got {first_player!r}")
    rnd = random.Random(seed)
    deck = fisher_yates(full_deck(rules), rnd)
    long_tickets = fisher_yates([t.id for t in game_map.tickets if t.long], rnd)
    regular_tickets = fisher_yates([t.id for t in game_map.tickets if not t.long], rnd)
    seats = [(first_player + i) % count for i in range(count)]
    hands, deck = _deal_cards(deck, seats, rules.starting_hand)
    offered: list[list[int]] = [[] for _ in range(count)]
    long_tickets = _deal_tickets(long_tickets, seats, rules.initial_long_tickets, offered)
    regular_tickets = _deal_tickets(regular_tickets, seats, rules.initial_regular_tickets, offered)
    row = rules.face_up_size
    face_up, deck = deck[:row], deck[row:]
    state = GameState(
        map=game_map,
        rules=rules,
        players=tuple(
            PlayerState(hands[s], rules.trains_per_player, offered=tuple(offered[s]))
            for s in range(count)
        ),
        current=first_player,
        phase=INITIAL_TICKETS if any(offered) else START,
        face_up=face_up,
        deck=deck,
        discard=(),
        ticket_deck=regular_tickets,
        ticket_box=long_tickets,  # undealt long tickets leave the game (E3)
        route_owner=(None,) * len(game_map.routes),
        first_player=first_player,
        seed=seed,
        rng=int(rnd.random() * 2**53),
    )
    draft = Draft(state, None)
    settle_row(draft, rules)  # the locomotive rule applies at setup (E2)
    return draft.build()


def current_player(state: GameState) -> int | None:
    """The seat of the player to act; None once the game is over.

    >>> current_player(new_game(players=3, first_player=2))
    2
    """
    return None if state.phase is GAME_OVER else state.current


def is_terminal(state: GameState) -> bool:
    """Whether the game is over (E66–E68, E20); then :func:`legal_actions` is empty.

    >>> is_terminal(new_game())
    False
    """
    return state.phase is GAME_OVER


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player to act, without duplicates, in a fixed order: face-up
    draws, blind draw, claims (by route, colour, locomotives), ticket draw, stations (by city,
    colour, locomotives). ``(Pass(),)`` when nothing else is legal (U1); empty only when the
    game is over.

    >>> state = new_game(players=2, seed=7)
    >>> [str(a) for a in legal_actions(state)[:3]]  # the initial ticket choice (E4)
    ['tickets keep 0,31', 'tickets keep 0,38', 'tickets keep 0,12']
    >>> for _ in range(2):
    ...     state = apply_action(state, legal_actions(state)[0])
    >>> [str(a) for a in legal_actions(state)[4:7]]
    ['draw faceup 4', 'draw blind', 'claim #0 black']
    """
    try:
        phase = state.phase
    except AttributeError:  # free on the hot path: only a non-state pays for the check
        raise _not_a_state(state) from None
    if phase is START:
        draws, others, stations = start_pieces(state)
        return (*draws, *others, *stations) or _ONLY_PASS
    if phase is SECOND_CARD:
        return draw_choices(state)
    if phase is KEEP_TICKETS or phase is INITIAL_TICKETS:
        return tuple(keep_actions(state))
    if phase is TUNNEL:
        return tuple(tunnel_actions(state))
    if phase is PAYMENT:
        return tuple(payment_actions(state))
    return ()


def _legal_pieces(state: GameState) -> tuple[Sequence[Action], ...]:
    """:func:`legal_actions` in pieces, in order: concatenated, they are its tuple (for
    ``ttr_rules.rl``, whose action masks are written piece by piece). A tuple piece is one the
    families hand out again, the same object for the same drawable slots, stations and
    payments, or the forced pass (a caller may remember what it derives from one by its
    identity, keeping it alive); a list is made for this call. A piece may be empty.

    :func:`legal_actions` repeats this dispatch rather than concatenating these pieces: doing
    so cost it 1,105 instructions a call, 2.4% (``benchmarks/callgrind/legal_probe.sh all``)."""
    try:
        phase = state.phase
    except AttributeError:
        raise _not_a_state(state) from None
    if phase is START:
        pieces = start_pieces(state)
        return pieces if any(pieces) else (_ONLY_PASS,)
    if phase is SECOND_CARD:
        return (draw_choices(state),)
    if phase is KEEP_TICKETS or phase is INITIAL_TICKETS:
        return (keep_actions(state),)
    if phase is TUNNEL:
        return (tunnel_actions(state),)
    if phase is PAYMENT:
        return (payment_actions(state),)
    return ()


#: Every action class with its rule check and its transition: the families' ``ACTIONS`` tables
#: merged (each family's ``problem``/``apply`` dispatch through its own table; reading the
#: merged one saves that second dispatch in the hot path).
_ACTIONS: ActionRules = {
    **draw.ACTIONS,
    **claim.ACTIONS,
    **tickets.ACTIONS,
    **stations.ACTIONS,
    **turn.ACTIONS,
}


def _not_a_state(value: object) -> TypeError:
    return TypeError(f"expected a GameState, got {type(value).__name__}")


def _problem(state: GameState, action: object, player: int | None) -> Problem | None:
    """The one legality check behind :func:`why_illegal`, :func:`is_legal` and
    :func:`apply_action` (U22)."""
    family = _ACTIONS.get(type(action))
    if family is None:
        return Problem(Reason.NOT_AN_ACTION, "only the library's action values can be applied")
    try:
        phase = state.phase
    except AttributeError:
        raise _not_a_state(state) from None
    if phase is GAME_OVER:
        return Problem(Reason.GAME_OVER)
    if player is not None and player != state.current:
        return Problem(Reason.NOT_YOUR_TURN, f"it is {seat_name(state.current)}'s turn")
    return family[0](state, action)


def why_illegal(state: GameState, action: object, player: int | None = None) -> Reason | None:
    """Why ``action`` is not legal in ``state`` — the :class:`~ttr_rules.Reason` that
    :func:`apply_action` would raise with — or None when it is legal.

    Anything can be asked about: objects that are not actions give ``Reason.NOT_AN_ACTION``.
    ``player``, when given, must be the player to act (``Reason.NOT_YOUR_TURN`` otherwise).

    >>> from ttr_rules import DrawBlind, KeepTickets
    >>> state = new_game(players=2, seed=1)
    >>> why_illegal(state, DrawBlind())
    <Reason.WRONG_PHASE: 'wrong phase'>
    >>> why_illegal(state, KeepTickets(frozenset(state.players[0].offered))) is None
    True
    """
    problem = _problem(state, action, player)
    return None if problem is None else problem.reason


def is_legal(state: GameState, action: object, player: int | None = None) -> bool:
    """Whether ``action`` is legal in ``state``: ``action in legal_actions(state)``, without
    listing them (python-chess's ``Board.is_legal``).

    >>> from ttr_rules import DrawBlind
    >>> is_legal(new_game(players=2, seed=1), DrawBlind())
    False
    """
    return _problem(state, action, player) is None


def _apply(
    state: GameState, action: Action, log: list[Event] | None, player: int | None
) -> GameState:
    problem = _problem(state, action, player)
    if problem is not None:
        said = action_text(action, state.map)
        raise IllegalActionError(problem.reason, action, problem.detail, said)
    draft = Draft(state, log)
    return finish(draft, _ACTIONS[type(action)][1](draft, action))


def apply_action(state: GameState, action: Action, player: int | None = None) -> GameState:
    """The state after ``action``. The given state is never changed (U22).

    Raises :class:`~ttr_rules.IllegalActionError` (with ``.reason`` and ``.action``) for any
    action that is not legal now, including objects that are not actions of this library.
    ``player``, when given, must be the player to act (``Reason.NOT_YOUR_TURN`` otherwise).
    :func:`why_illegal` gives the same reason without applying.

    >>> from ttr_rules import DrawBlind
    >>> state = new_game(players=2, seed=7)
    >>> after = apply_action(state, legal_actions(state)[0])
    >>> state.current, after.current, after.players[0].tickets
    (0, 1, (0, 31))
    >>> apply_action(after, DrawBlind())
    Traceback (most recent call last):
    ...
    ttr_rules.errors.IllegalActionError: illegal action draw blind: wrong phase (...)
    """
    quick = QUICK.get(type(action))  # the commonest transitions' cheap path
    if quick is not None:
        new = quick(state, action, player)
        if new is not None:
            return new
    return _apply(state, action, None, player)


@frozen
class StepResult:
    """The state after an action and the events it caused, in order."""

    state: GameState
    events: tuple[Event, ...]


def step(state: GameState, action: Action, player: int | None = None) -> StepResult:
    """Like :func:`apply_action`, also returning the events a front end needs (cards drawn,
    face-up replacements and resets, reshuffles, tunnel reveals, claims, stations, tickets,
    the final round, the end of the game).

    >>> from ttr_rules import Color, DrawBlind, scenario
    >>> state = scenario(players=2, deck=[Color.RED, Color.BLUE])
    >>> result = step(state, DrawBlind())
    >>> result.events
    (CardDrawn(player=0, color=<Color.RED: 'red'>, slot=None),)
    >>> result.state.phase, result.state.players[0].hand[Color.RED]
    (<Phase.SECOND_CARD: 'second card'>, 1)
    """
    log: list[Event] = []
    new = _apply(state, action, log, player)
    return StepResult(new, tuple(log))
