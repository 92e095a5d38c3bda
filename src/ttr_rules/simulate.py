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
from .game import new_game
from .maps import GameMap
from .playout import playout, random_chooser
from .state import GameState

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

    >>> from ttr_rules import new_game
    >>> end, actions = random_playout(new_game(players=2, seed=0), random.Random(0))
    >>> end.is_terminal, len(actions)  # the perft pin of tests/test_perft.py
    (True, 179)
    """
    actions: list[Action] = []
    for step in playout(state, random_chooser(rnd), max_steps=max_decisions):
        actions.append(step.action)
        state = step.after
    if not state.is_terminal:
        raise RuntimeError(f"no end after {max_decisions} decisions")
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
    """A complete random game on ``game_map`` from ``seed`` (deal and choices).

    >>> from ttr_rules import load_map
    >>> result = play_random_game(load_map("europe"), players=3, seed=5)
    >>> result.end.is_terminal, len(result.actions), result.end.turn
    (True, 278, 172)
    """
    began = time.perf_counter()
    start = new_game(game_map, players, seed=seed)
    end, actions = random_playout(start, random.Random(seed))
    return GameResult(seed, start, end, actions, time.perf_counter() - began)
