"""legal_actions inside real random playouts (issue 16): callgrind instructions by phase and family.

Run under valgrind --tool=callgrind --collect-atstart=no --toggle-collect=math_prod: each
measured call runs inside a call of ``math.prod`` (and nothing else does), so callgrind
collects during those calls only, as for ``benchmarks/rl_env_instructions.sh``. MODE: 'none'
(a ``math.prod`` call around nothing: the overhead), 'all', a phase value ('start', 'second
card', ...), or a family ('draws', 'claims', 'tickets', 'stations') for START states.
"""

import sys
from collections.abc import Callable, Sequence
from functools import partial
from random import Random

from region import measured

import ttr_rules
from ttr_rules import Action, GameMap, GameState, apply_action, legal_actions, new_game
from ttr_rules.maps.index import map_index
from ttr_rules.moves.claim import claim_actions
from ttr_rules.moves.draw import draw_actions
from ttr_rules.moves.stations import station_actions
from ttr_rules.moves.tickets import ticket_actions

mode = sys.argv[1]
games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
FAM = {"draws": 0, "claims": 1, "tickets": 2, "stations": 3}
counts: dict[str, int] = {}


def start_parts(state: GameState) -> tuple[Action, ...]:
    board = map_index(state.map)
    parts: list[Sequence[Action]] = [(), (), (), ()]
    f = FAM[mode]
    families: tuple[Callable[[], Sequence[Action]], ...] = (
        lambda: draw_actions(state),
        lambda: claim_actions(state, board),
        lambda: ticket_actions(state),
        lambda: station_actions(state, board),
    )
    for i, family in enumerate(families):
        if i == f:
            parts[i] = measured(family)
        else:
            parts[i] = family()
    return (*parts[0], *parts[1], *parts[2], *parts[3]) or legal_actions(state)


def play(game_map: GameMap, seed: int, measure: int) -> int:
    rnd = Random(seed)
    state = new_game(game_map, 4, seed=seed)
    n = 0
    while not state.is_terminal:
        ph = state.phase.value
        counts[ph] = counts.get(ph, 0) + measure
        if not measure:
            options = legal_actions(state)
        elif mode == "none":
            measured(lambda: None)
            options = legal_actions(state)
        elif mode == "all" or mode == ph:
            options = measured(partial(legal_actions, state))
        elif mode in FAM and ph == "start":
            options = start_parts(state)
        else:
            options = legal_actions(state)
        state = apply_action(state, options[rnd.randrange(len(options))])
        n += 1
    return n


game_map = ttr_rules.load_map("europe")
play(game_map, 10_000, 0)
total = sum(play(game_map, s, 1) for s in range(games))
print("decisions", total, counts)
