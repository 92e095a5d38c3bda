"""Playing a game out: the one loop behind ``ttr simulate``, the testing kit, the tests and the
benchmarks.

A playout starts from a state and, at every decision, asks ``choose(n)`` for an index below
``n`` among the legal actions — or among those a *policy* prefers, see :data:`POLICIES`. It
stops when the game is over (E77), when ``stop`` holds or after ``max_steps`` actions.
:func:`playout` yields each :class:`Step` as it is taken (nothing is kept); :func:`play`
keeps the whole game as a :class:`PlayedGame`.

A game is reproducible from its start state, its policy and its choices.
:func:`random_chooser` makes uniformly random choices from a ``random.Random``;
:func:`chooser` takes explicit choices first (each modulo the number of options), then random
ones. Choices near zero pick the first preferred action, which is what makes hypothesis shrink
games well (:mod:`ttr_rules.testing.strategies`).

>>> import random
>>> from ttr_rules import new_game
>>> steps = list(playout(new_game(players=2, seed=0), random_chooser(random.Random(0))))
>>> len(steps), steps[-1].after.is_terminal, str(steps[0].action)
(179, True, 'tickets keep 15,24,44')
>>> game = play(new_game(players=3), chooser((0, 0, 0), seed=1), max_steps=5)
>>> len(game.actions), game.final is game.states[-1]
(5, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from attrs import frozen

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    PayTunnel,
)
from .game import apply_action as _apply_action
from .game import legal_actions as _legal_actions
from .state import GameState

__all__ = [
    "POLICIES",
    "Chooser",
    "PlayedGame",
    "Step",
    "chooser",
    "play",
    "playout",
    "preferred_actions",
    "random_chooser",
]

#: ``choose(n)``: the index, below ``n``, of the option to take.
Chooser = Callable[[int], int]

#: Names of the built-in policies: which legal actions a random player prefers.
#: ``uniform`` prefers none; ``claims`` claims routes (and pays tunnels) whenever it can, which
#: reaches the final round fast; ``draws`` only draws cards, which empties the deck;
#: ``tickets`` draws tickets whenever it can.
POLICIES = ("uniform", "claims", "draws", "tickets")

_PREFERRED: dict[str, tuple[type, ...]] = {
    "uniform": (),
    "claims": (ClaimRoute, PayTunnel, BuildStation),
    "draws": (DrawFaceUp, DrawBlind),
    "tickets": (DrawTickets,),
}


def preferred_actions(legal: tuple[Action, ...], policy: str) -> tuple[Action, ...]:
    """The legal actions ``policy`` prefers, or all of them when it prefers none of them.

    >>> from ttr_rules import DrawBlind, DrawTickets
    >>> preferred_actions((DrawBlind(), DrawTickets()), "tickets")
    (DrawTickets(),)
    >>> preferred_actions((DrawBlind(),), "claims")
    (DrawBlind(),)
    """
    kinds = _PREFERRED[policy]
    if not kinds:
        return legal
    chosen = tuple(a for a in legal if isinstance(a, kinds))
    return chosen or legal


class Step(NamedTuple):
    """One decision of a playout: the state, its legal actions, the action taken, the result."""

    state: GameState
    legal: tuple[Action, ...]
    action: Action
    after: GameState


def playout(
    start: GameState,
    choose: Chooser,
    *,
    policy: str = "uniform",
    max_steps: int | None = None,
    stop: Callable[[GameState], bool] | None = None,
    legal_actions: Callable[[GameState], tuple[Action, ...]] = _legal_actions,
    apply_action: Callable[[GameState, Action], GameState] = _apply_action,
) -> Iterator[Step]:
    """Play from ``start``, yielding each :class:`Step`, until the game ends, ``stop`` holds
    for the state to act from, or ``max_steps`` actions have been taken (None: no limit).

    ``legal_actions`` and ``apply_action`` are the engine's functions; pass wrappers of them
    to time or trace the calls (``benchmarks/playout.py`` does).
    """
    state = start
    taken = 0
    while not state.is_terminal and (max_steps is None or taken < max_steps):
        if stop is not None and stop(state):
            return
        legal = legal_actions(state)
        options = preferred_actions(legal, policy)
        action = options[choose(len(options))]
        after = apply_action(state, action)
        yield Step(state, legal, action, after)
        state = after
        taken += 1


def random_chooser(rnd: random.Random) -> Chooser:
    """Uniformly random choices from ``rnd`` (one ``rnd.random()`` per decision).

    >>> choose = random_chooser(random.Random(0))
    >>> [choose(10) for _ in range(5)]
    [8, 7, 4, 2, 5]
    """
    draw = rnd.random

    def choose(n: int) -> int:
        return int(draw() * n)

    return choose


def chooser(choices: Sequence[int], seed: int) -> Chooser:
    """Explicit ``choices`` first (each taken modulo the number of options), then
    ``random.Random(seed)``.

    >>> choose = chooser((7, 1), seed=0)
    >>> [choose(5) for _ in range(4)]
    [2, 1, 4, 3]
    """
    then = random_chooser(random.Random(seed))
    it = iter(choices)

    def choose(n: int) -> int:
        for c in it:
            return c % n
        return then(n)

    return choose


@frozen(repr=False)
class PlayedGame:
    """A game played from ``start``: the actions taken and the state after each of them."""

    start: GameState
    policy: str
    actions: tuple[Action, ...]
    states: tuple[GameState, ...]

    @property
    def final(self) -> GameState:
        """The last state (``start`` when no action was taken)."""
        return self.states[-1] if self.states else self.start

    def positions(self) -> Iterator[GameState]:
        """``start`` and every state after it."""
        yield self.start
        yield from self.states

    def __str__(self) -> str:
        moves = "; ".join(str(a) for a in self.actions)
        return f"{len(self.actions)} actions ({self.policy}): {moves}"

    def __repr__(self) -> str:
        return (
            f"<PlayedGame {self.start.map.name} {self.start.num_players} players, "
            f"{self.policy}: {[str(a) for a in self.actions]}>"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis and IPython print the short repr, not every state."""
        printer.text(repr(self))


def play(
    start: GameState,
    choose: Chooser,
    *,
    policy: str = "uniform",
    max_steps: int = 10_000,
    stop: Callable[[GameState], bool] | None = None,
) -> PlayedGame:
    """:func:`playout` kept whole: every action and every state reached."""
    steps = list(playout(start, choose, policy=policy, max_steps=max_steps, stop=stop))
    return PlayedGame(start, policy, tuple(s.action for s in steps), tuple(s.after for s in steps))
