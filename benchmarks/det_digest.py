"""A digest of many determinize deals: equal before and after a change means the deal stream
(which state a given view and seed give) did not change.

Every decision of 9 random games (``europe`` and ``usa``, 2 to 4 players), every 7th state:
each seat's view and a spectator's, dealt with two seeds; the digest is SHA-256 of the dealt
states' reprs.

    python benchmarks/det_digest.py
"""

import hashlib
from random import Random

import ttr_rules
from ttr_rules import apply_action, determinize, legal_actions, new_game, observe, public_view

digest = hashlib.sha256()
deals = 0
for name in ("europe", "usa"):
    game_map = ttr_rules.load_map(name)
    for seed, players in enumerate((2, 3, 4, 2, 3, 4, 2, 3, 4)[: 5 if name == "usa" else 9]):
        rnd = Random(seed)
        state = new_game(game_map, players, seed=seed)
        step = 0
        while not state.is_terminal:
            if step % 7 == 0:
                viewers = [*range(players), None]
                for viewer in viewers:
                    view = public_view(state) if viewer is None else observe(state, viewer)
                    for s in (step, 2**40 + step):
                        world = determinize(view, s)
                        digest.update(repr(world).encode())
                        deals += 1
            options = legal_actions(state)
            state = apply_action(state, options[rnd.randrange(len(options))])
            step += 1
print(deals, "deals", digest.hexdigest())
