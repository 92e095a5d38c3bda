"""OpenSpiel's stock ISMCTSBot against its uniform_random bot on ``python_ttr``.

ISMCTS searches over the deals a player cannot tell apart (the game's
``resample_from_infostate``, built on :func:`ttr_rules.determinize`); the stock ``MCTSBot``
would search the true state and see the other hands and the deck.

    python examples/openspiel_ismcts.py [--games 4] [--simulations 20]
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.bots import uniform_random

import ttr_rules.rl.openspiel  # noqa: F401 (registers python_ttr)


def play(games: int = 4, simulations: int = 20, seed: int = 0) -> Counter[str]:
    """ISMCTS (seat 0, then seat 1 in alternate games) against uniform random."""
    game = pyspiel.load_game("python_ttr", {"players": 2})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng
    )
    # open_spiel 2.0.2's ISMCTSBot lacks restart_at, which evaluate_bots calls first:
    bot.restart_at = lambda state: bot.reset()
    tally: Counter[str] = Counter()
    for number in range(games):
        seat = number % 2
        bots = [bot, uniform_random.UniformRandomBot(1 - seat, rng)]
        if seat == 1:
            bots.reverse()
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        tally["ismcts" if returns[seat] > 0 else "random" if returns[seat] < 0 else "tie"] += 1
        print(f"game {number + 1}: ISMCTS in seat {seat} gets {returns[seat]:+.0f}")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=20)
    args = parser.parse_args()
    print(dict(play(args.games, args.simulations)))


if __name__ == "__main__":
    main()
