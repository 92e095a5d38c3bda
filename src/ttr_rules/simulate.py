"""Random self-play: the playout behind ``ttr simulate`` (whose command line is
:mod:`ttr_rules.cli.simulate`).

Every decision (the initial ticket choices included) is a uniformly random legal action drawn
from ``random.Random(seed)``, so a game is reproducible from its map, player count and seed.
"""

from __future__ import annotations

import random
import time

from attrs import frozen

from .actions import Action
from .game import apply_action, legal_actions, new_game
from .maps import GameMap
from .state import GameState, Phase

__all__ = [
    "GameResult",
    "play_random_game",
    "random_playout",
]


def random_playout(
    state: GameState, rnd: random.Random, max_decisions: int = 100_000
) -> tuple[GameState, tuple[Action, ...]]:
    """Play uniformly random legal actions until the game ends; the end state and the actions.

    ``max_decisions`` is a safety net for custom maps: reaching it raises ``RuntimeError``
    (on Europe a random game takes a few hundred decisions).
    """
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        if len(actions) >= max_decisions:
            raise RuntimeError(f"no end after {max_decisions} decisions")
        options = legal_actions(state)
        action = options[int(rnd.random() * len(options))]
        state = apply_action(state, action)
        actions.append(action)
    return state, tuple(actions)


@frozen
class GameResult:
    """One simulated game."""

    seed: int
    start: GameState
    end: GameState
    actions: tuple[Action, ...]
    seconds: float


def play_random_game(game_map: GameMap, players: int, seed: int) -> GameResult:
    """A complete random game on ``game_map`` from ``seed`` (deal and choices)."""
    began = time.perf_counter()
    start = new_game(game_map, players, seed=seed)
    end, actions = random_playout(start, random.Random(seed))
    return GameResult(seed, start, end, actions, time.perf_counter() - began)
