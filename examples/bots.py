"""Two bots that see only their own view, the way a game server would run them.

A greedy bot claims the longest route it can pay for and otherwise draws blind; a Monte Carlo
bot samples the hidden cards (``determinize``), plays each candidate action forward with
random play, and keeps the action with the best average final margin. They play three-player
games with a random player; run with ``python examples/bots.py [--games 4]``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from ttr_rules import (
    Action,
    ClaimRoute,
    DrawBlind,
    GameState,
    PlayerView,
    apply_action,
    determinize,
    final_scores,
    is_terminal,
    new_game,
    observe,
    view_legal_actions,
    winners,
)
from ttr_rules.simulate import random_playout

Bot = Callable[[PlayerView, random.Random], Action]


def random_bot(view: PlayerView, rnd: random.Random) -> Action:
    return rnd.choice(view_legal_actions(view))


def greedy_bot(view: PlayerView, rnd: random.Random) -> Action:
    """The longest affordable route, paying with as few locomotives as possible."""
    options = view_legal_actions(view)
    claims = [a for a in options if isinstance(a, ClaimRoute)]
    if claims:
        return max(claims, key=lambda a: (view.map.routes[a.route].length, -a.locomotives))
    if DrawBlind() in options:
        return DrawBlind()
    return options[0]


def monte_carlo_bot(view: PlayerView, rnd: random.Random, samples: int = 3) -> Action:
    """Information-set Monte Carlo: average the final margin over sampled hidden cards."""
    options = view_legal_actions(view)
    if len(options) == 1:
        return options[0]
    me = view.player
    if me is None:
        raise ValueError("a spectator does not play")
    candidates = rnd.sample(options, min(len(options), 6))

    def margin(state: GameState) -> int:
        totals = [s.total for s in final_scores(state)]
        return totals[me] - max(t for seat, t in enumerate(totals) if seat != me)

    def value(action: Action) -> float:
        results = []
        for _ in range(samples):
            world = determinize(view, rnd.randrange(2**32))
            end, _ = random_playout(apply_action(world, action), rnd)
            results.append(margin(end))
        return sum(results) / len(results)

    return max(candidates, key=value)


def play(bots: list[Bot], seed: int) -> GameState:
    rnd = random.Random(seed)
    state = new_game("europe", len(bots), seed=seed)
    while not is_terminal(state):
        seat = state.current
        state = apply_action(state, bots[seat](observe(state, seat), rnd))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    line_up: list[tuple[str, Bot]] = [
        ("greedy", greedy_bot),
        ("monte carlo", monte_carlo_bot),
        ("random", random_bot),
    ]
    wins = {name: 0.0 for name, _ in line_up}
    for seed in range(args.games):
        end = play([bot for _, bot in line_up], seed)
        best = winners(end)
        for seat in best:
            wins[line_up[seat][0]] += 1 / len(best)
        totals = ", ".join(f"{line_up[s.player][0]} {s.total}" for s in final_scores(end))
        print(f"game {seed}: {totals}")
    print("wins:", ", ".join(f"{name} {count:g}" for name, count in wins.items()))


if __name__ == "__main__":
    main()
