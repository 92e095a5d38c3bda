"""determinize on the views of a recorded random game, counted by callgrind (issue 16).

Run under valgrind --tool=callgrind --collect-atstart=no --toggle-collect=math_prod (see
``det_probe.sh``): the deals run inside one call of ``math.prod`` and nothing else does, so
no start-up, import, recording or exit is counted. The game is ``games.decisions_of`` of seed
0 (4 players, ``europe``); the views are the actor's, one per decision, made beforehand.
MODE: ``none`` (the same loop, no deal: the overhead), ``fresh`` (one deal per view, seed
``i``, as ``parts.sh``), ``search`` (DEALS deals of each view in turn, seeds ``100 * i + r``:
a search's determinizations of one view), ``shuffle`` (the deal's random orders alone, the
floor of any deal by random keys: per view, its ``_random_keys`` and the sorts of its unseen
cards and tickets by them, with the views' plans made beforehand; nothing is built).

    python benchmarks/callgrind/det_probe.py MODE [DEALS]
"""

import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import decisions_of
from region import measured

import ttr_rules
from ttr_rules import determinize, observe
from ttr_rules.views import _plan, _random_keys

mode = sys.argv[1]
deals = int(sys.argv[2]) if len(sys.argv) > 2 else 12
pairs = decisions_of(ttr_rules.load_map("europe"), 4, range(1))
views = [observe(state, state.current) for state, _ in pairs]
determinize(views[0], 0)  # warm the memos and the specialized bytecode


def none() -> None:
    for _view in views:
        for _ in range(deals):
            pass


def fresh() -> None:
    for i, view in enumerate(views):
        for _ in range(deals):  # deals is 1: the same loop as none's
            determinize(view, i)


def search() -> None:
    for i, view in enumerate(views):
        for r in range(deals):
            determinize(view, 100 * i + r)


plans = [_plan(view) for view in views] if mode == "shuffle" else []


def shuffle() -> None:
    for i, (_, cards, tickets, _extra, _size, keys) in enumerate(plans):
        for _ in range(deals):  # deals is 1: the same loop as none's
            key = partial(next, iter(_random_keys(i, keys)))
            sorted(cards, key=key)
            sorted(tickets, key=key)


call = {"none": none, "fresh": fresh, "search": search, "shuffle": shuffle}[mode]
measured(call)
calls = len(views) * deals
print("calls", calls)
