"""A playout decision's instructions by part, inside real random playouts (issue 16).

Run under ``valgrind --tool=callgrind --collect-atstart=no --toggle-collect=math_prod`` (see
``play_probe.sh``): each measured call runs inside a call of ``math.prod`` (as in
``legal_probe.py``), so callgrind collects during those calls only. MODE: ``none`` (a
``math.prod`` call around nothing: the overhead), ``legal`` or ``apply`` (every call),
``legal:PHASE`` (the calls in that phase), ``apply:CLASS`` (the calls applying that action
class). The previous state is freed outside the window (the ``partial`` holds it).
"""

import sys
from functools import partial
from random import Random

from region import measured

import ttr_rules
from ttr_rules import GameMap, apply_action, legal_actions, new_game

mode = sys.argv[1]
games = int(sys.argv[2])
part, _, which = mode.partition(":")
calls = 0


def play(game_map: GameMap, seed: int, measure: bool) -> int:
    global calls
    rnd = Random(seed)
    state = new_game(game_map, 4, seed=seed)
    n = 0
    while not state.is_terminal:
        if measure and part == "legal" and which in ("", state.phase.value):
            calls += 1
            options = measured(partial(legal_actions, state))
        else:
            if measure and part == "none":
                calls += 1
                measured(lambda: None)
            options = legal_actions(state)
        action = options[rnd.randrange(len(options))]
        if measure and part == "apply" and which in ("", type(action).__name__):
            calls += 1
            state = measured(partial(apply_action, state, action))
        else:
            state = apply_action(state, action)
        n += 1
    return n


game_map = ttr_rules.load_map("europe")
play(game_map, 10_000, False)
total = sum(play(game_map, s, True) for s in range(games))
print("decisions", total, "calls", calls)
