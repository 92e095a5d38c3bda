"""Playing games from a list of choices: the engine of the strategies and of ``check_map``.

A game is reproducible from its start state, a *policy* (which legal actions a player prefers)
and a sequence of choices. Choice ``c`` at a step picks ``preferred[c % len(preferred)]``; when
the explicit choices run out, a ``random.Random(seed)`` supplies the rest. Choices near zero pick
the first preferred action, which is what makes hypothesis shrink games well.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from attrs import frozen

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    PayTunnel,
)
from ..game import apply_action, legal_actions
from ..state import GameState, Phase

__all__ = ["POLICIES", "TARGETS", "PlayedGame", "Target", "play", "preferred_actions"]

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
    """The legal actions ``policy`` prefers, or all of them when it prefers none of them."""
    kinds = _PREFERRED[policy]
    if not kinds:
        return legal
    chosen = tuple(a for a in legal if isinstance(a, kinds))
    return chosen or legal


@frozen
class Target:
    """A kind of position a strategy steers toward: a name, a policy and a predicate."""

    name: str
    policy: str
    reached: Callable[[GameState], bool]


def _empty_deck(state: GameState) -> bool:
    return not state.deck and not state.discard and state.phase is not Phase.GAME_OVER


#: Positions :func:`~ttr_rules.testing.strategies.states` steers toward, rare phases included.
TARGETS: tuple[Target, ...] = (
    Target("any", "uniform", lambda s: False),
    Target("second card", "draws", lambda s: s.phase is Phase.SECOND_CARD),
    Target("keep tickets", "tickets", lambda s: s.phase is Phase.KEEP_TICKETS),
    Target("tunnel", "claims", lambda s: s.phase is Phase.TUNNEL),
    Target("final round", "claims", lambda s: s.final_turns is not None and not s.is_terminal),
    Target("empty deck", "draws", _empty_deck),
    Target("game over", "uniform", lambda s: s.is_terminal),
)


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
    choose: Callable[[int], int],
    *,
    policy: str = "uniform",
    max_steps: int = 10_000,
    stop: Callable[[GameState], bool] | None = None,
) -> PlayedGame:
    """Play from ``start`` until the game ends, ``stop`` holds or ``max_steps`` actions.

    ``choose(n)`` returns an index below ``n`` among the ``policy``'s preferred legal actions.
    """
    state = start
    actions: list[Action] = []
    states: list[GameState] = []
    while len(actions) < max_steps and not state.is_terminal:
        if stop is not None and stop(state):
            break
        options = preferred_actions(legal_actions(state), policy)
        action = options[choose(len(options))]
        state = apply_action(state, action)
        actions.append(action)
        states.append(state)
    return PlayedGame(start, policy, tuple(actions), tuple(states))


def chooser(choices: Sequence[int], seed: int) -> Callable[[int], int]:
    """Explicit ``choices`` first (each taken modulo the number of options), then
    ``random.Random(seed)``."""
    rnd = random.Random(seed)
    it = iter(choices)

    def choose(n: int) -> int:
        for c in it:
            return c % n
        return int(rnd.random() * n)

    return choose
