"""Hypothesis strategies for games, positions and actions (needs the ``test`` extra).

* :func:`games` — whole games (or prefixes) played by random legal play;
* :func:`states` — positions reached by random legal play, steered toward rare phases
  (tunnel payment, ticket choice, final round, empty deck, game over);
* :func:`actions` — the legal actions of a position; :func:`illegal_actions` — actions and
  other objects that ``apply_action`` must refuse in it.

Every random decision is a hypothesis draw (an index into the legal actions, up to
``explicit`` of them per game; then a ``random.Random`` seeded by a drawn seed), so failing
examples shrink to short games made of first choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
)
from ..cards import COLORS
from ..game import legal_actions, new_game
from ..maps import GameMap, resolve_map
from ..rules import Rules
from ..state import GameState
from .play import POLICIES, TARGETS, PlayedGame, Target, play, random_chooser

__all__ = ["actions", "games", "illegal_actions", "player_counts", "states"]

_MAX_GAME = 10_000
#: Objects that are not actions of this library at all.
_FOREIGN: tuple[object, ...] = (None, 0, 4.5, "draw blind", ("claim", 1), DrawBlind, b"pass")

Players = int | st.SearchStrategy[int] | None


def player_counts(game_map: GameMap, rules: Rules | None = None) -> st.SearchStrategy[int]:
    """Every player count the map's (or the given) rules allow."""
    rules = rules or game_map.rules
    return st.integers(rules.min_players, rules.max_players)


def _players(players: Players, game_map: GameMap, rules: Rules | None) -> st.SearchStrategy[int]:
    if players is None:
        return player_counts(game_map, rules)
    if isinstance(players, int):
        return st.just(players)
    return players


def _drawing_chooser(draw: st.DrawFn, explicit: int, seed: int) -> Callable[[int], int]:
    """Hypothesis draws for the first ``explicit`` decisions, then ``random.Random(seed)``."""
    then = random_chooser(random.Random(seed))
    made = [0]

    def choose(n: int) -> int:
        if n == 1:
            return 0
        if made[0] < explicit:
            made[0] += 1
            return draw(st.integers(0, n - 1))
        return then(n)

    return choose


def games(
    map: str | GameMap = "europe",
    players: Players = None,
    *,
    rules: Rules | None = None,
    policies: Sequence[str] = POLICIES,
    max_steps: int | None = None,
    explicit: int = 64,
) -> st.SearchStrategy[PlayedGame]:
    """Games played by random legal play from ``new_game``.

    ``players`` is a count, a strategy of counts, or None for every count the rules allow.
    With ``max_steps=None`` each game is played to its end; otherwise its length is drawn
    from 0 to ``max_steps`` (so a failing game shrinks to a short prefix). ``policies`` are
    the :data:`~ttr_rules.testing.play.POLICIES` to draw from.
    """
    game_map = resolve_map(map)
    counts = _players(players, game_map, rules)

    @st.composite
    def build(draw: st.DrawFn) -> PlayedGame:
        start = new_game(game_map, draw(counts), draw(st.integers(0, 2**32 - 1)), rules)
        policy = draw(st.sampled_from(tuple(policies)))
        length = _MAX_GAME if max_steps is None else draw(st.integers(0, max_steps))
        choose = _drawing_chooser(draw, explicit, draw(st.integers(0, 2**32 - 1)))
        return play(start, choose, policy=policy, max_steps=length)

    return build()


def states(
    map: str | GameMap = "europe",
    players: Players = None,
    *,
    rules: Rules | None = None,
    targets: Sequence[Target] = TARGETS,
    max_steps: int = 1_000,
    explicit: int = 32,
) -> st.SearchStrategy[GameState]:
    """Positions reached by random legal play.

    Each example first draws a :data:`~ttr_rules.testing.play.TARGETS` entry — a random
    position, a second card draw, a ticket choice, a tunnel payment, the final round, an empty
    deck and discard, or a finished game — then plays with the target's policy until the
    target is reached (or the game ends, or ``max_steps``).
    """
    game_map = resolve_map(map)
    counts = _players(players, game_map, rules)

    @st.composite
    def build(draw: st.DrawFn) -> GameState:
        start = new_game(game_map, draw(counts), draw(st.integers(0, 2**32 - 1)), rules)
        target = draw(st.sampled_from(tuple(targets)))
        limit = max_steps
        if target.name == "any":
            limit = draw(st.integers(0, max_steps))
        choose = _drawing_chooser(draw, explicit, draw(st.integers(0, 2**32 - 1)))
        game = play(start, choose, policy=target.policy, max_steps=limit, stop=target.reached)
        return game.final

    return build()


def actions(state: GameState) -> st.SearchStrategy[Action]:
    """The legal actions of ``state`` (nothing once the game is over)."""
    legal = legal_actions(state)
    return st.sampled_from(legal) if legal else st.nothing()


def illegal_actions(state: GameState) -> st.SearchStrategy[object]:
    """Actions — and other objects — that ``apply_action(state, ...)`` must refuse.

    Mixes taken and unknown routes, wrong colours and payments, actions of other phases,
    empty or unknown face-up slots, tickets that were not offered, taken and unknown cities,
    a pass when something else is legal, and objects that are not actions at all.
    """
    legal = frozenset(legal_actions(state))
    return st.one_of(_illegal_candidates(state)).filter(lambda a: a not in legal)


def _illegal_candidates(state: GameState) -> list[st.SearchStrategy[object]]:
    game_map = state.map
    colors = st.sampled_from(COLORS)
    locos = st.integers(-1, 9)
    cities = st.sampled_from((*game_map.cities, "Atlantis", ""))
    owned = [r for r, owner in enumerate(state.route_owner) if owner is not None]
    candidates: list[st.SearchStrategy[object]] = [
        st.builds(DrawFaceUp, st.integers(-2, 7)),
        st.just(DrawBlind()),
        st.builds(ClaimRoute, st.integers(-1, len(game_map.routes)), colors, locos),
        st.builds(PayTunnel, st.integers(-1, 10)),
        st.just(DeclineTunnel()),
        st.just(DrawTickets()),
        st.builds(KeepTickets, st.frozensets(st.integers(-1, len(game_map.tickets)), max_size=4)),
        st.builds(BuildStation, cities, colors, st.integers(-1, 4)),
        st.just(Pass()),
        st.sampled_from(_FOREIGN),
    ]
    if owned:
        candidates.append(st.builds(ClaimRoute, st.sampled_from(owned), colors, locos))
    return candidates
