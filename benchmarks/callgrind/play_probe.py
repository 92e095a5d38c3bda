"""A playout decision's instructions by part, inside real random playouts (issue 16).

Run under ``valgrind --tool=callgrind --collect-atstart=no`` (see ``play_probe.sh``): collection
is toggled on around the measured calls only. MODE: ``none`` (toggle pairs around nothing: the
overhead), ``legal`` or ``apply`` (every call), ``legal:PHASE`` (the calls in that phase),
``apply:CLASS`` (the calls applying that action class).
"""

import ctypes
import sys
from collections.abc import Callable
from random import Random

import ttr_rules
from ttr_rules import GameMap, apply_action, legal_actions, new_game

lib = ctypes.CDLL(sys.argv[3])
toggle: Callable[[], object] = lib.cg_toggle
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
            toggle()
            options = legal_actions(state)
            toggle()
        else:
            if measure and part == "none":
                calls += 1
                toggle()
                toggle()
            options = legal_actions(state)
        action = options[rnd.randrange(len(options))]
        if measure and part == "apply" and which in ("", type(action).__name__):
            calls += 1
            toggle()
            state = apply_action(state, action)
            toggle()
        else:
            state = apply_action(state, action)
        n += 1
    return n


game_map = ttr_rules.load_map("europe")
play(game_map, 10_000, False)
total = sum(play(game_map, s, True) for s in range(games))
print("decisions", total, "calls", calls)
