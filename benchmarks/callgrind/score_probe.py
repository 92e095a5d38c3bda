"""Instructions of one call of ``final_scores``, ``winners`` and ``longest_path`` (issue 13).

Run under ``valgrind --tool=callgrind --collect-atstart=no --toggle-collect=math_prod
--dump-after=math_prod`` (see ``score_probe.sh``). The states are those of random games of
uniformly random legal actions (fixed seeds 0 to GAMES - 1): the terminal state of each game
(``end``) and its state after half its decisions (``mid``), for 2 and 4 players. Each region is
one loop over the states of one set calling one function (``longest_path``: once per seat),
run inside one call of ``math.prod`` (one callgrind dump each); ``none`` loops calling nothing,
the loop's own cost. Prints one line per region, in dump order: ``function set calls``.

    python benchmarks/callgrind/score_probe.py [GAMES]
"""

import gc
import sys
from collections.abc import Callable
from functools import partial
from random import Random

from region import measured

from ttr_rules import (
    GameState,
    apply_action,
    final_scores,
    legal_actions,
    load_map,
    longest_path,
    new_game,
    winners,
)

games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
game_map = load_map("europe")


def play(players: int, seed: int) -> tuple[GameState, GameState]:
    """The state after half the decisions of a random game, and its terminal state."""
    rnd = Random(seed)
    state = new_game(game_map, players, seed=seed)
    states = [state]
    while not state.is_terminal:
        options = legal_actions(state)
        state = apply_action(state, options[rnd.randrange(len(options))])
        states.append(state)
    return states[len(states) // 2], state


def nothing(state: GameState) -> None:
    return None


def each(function: Callable[[GameState], object], states: list[GameState]) -> None:
    for state in states:
        function(state)


def every_seat(state: GameState) -> None:
    for seat in range(state.num_players):
        longest_path(state, seat)


FUNCTIONS: dict[str, tuple[Callable[[GameState], object], bool]] = {
    "none": (nothing, False),
    "final_scores": (final_scores, False),
    "winners": (winners, False),
    "longest_path": (every_seat, True),
}

sets: dict[str, list[GameState]] = {}
for players in (2, 4):
    played = [play(players, seed) for seed in range(games)]
    sets[f"mid{players}"] = [mid for mid, _ in played]
    sets[f"end{players}"] = [end for _, end in played]
for states in sets.values():
    for state in states:
        final_scores(state)  # the map's index built outside the regions
gc.collect()
gc.freeze()

for name, (function, per_seat) in FUNCTIONS.items():
    for label, states in sets.items():
        measured(partial(each, function, states))
        calls = sum(s.num_players for s in states) if per_seat else len(states)
        print(name, label, calls, flush=True)
