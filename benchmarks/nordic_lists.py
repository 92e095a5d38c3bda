"""The largest ``legal_actions`` lists of the Nordic Countries board (a script, not a test; issue
34): seeded games of the random and greedy agents at 2 and 3 players, then the largest hands a
game can hold, listing at the start of a turn and at every step of picking a payment with
substitute sets (docs/rules.md, "Payments").

For each agent and player count: the largest hand held, the largest list and the slowest
``legal_actions`` call met in the games, the mean and largest seconds per game, and how many
payments with sets were started. Then, for a hand of 4 cards of each kind and for every card
of the game: the list at the start of a turn, and over random walks through the picking of every
route that takes sets, the largest list and the slowest call.

    python benchmarks/nordic_lists.py [--random 50] [--greedy 25]
"""

from __future__ import annotations

import argparse
import random
import time

from ttr_rules import (
    Action,
    ClaimWithSets,
    Color,
    GameState,
    Phase,
    apply_action,
    legal_actions,
    load_map,
    new_game,
    observe,
    scenario,
)
from ttr_rules.agents import make_agent


def timed_list(state: GameState) -> tuple[int, float, tuple[Action, ...]]:
    start = time.perf_counter()
    listed = legal_actions(state)
    return len(listed), time.perf_counter() - start, listed


def games(agent: str, players: int, count: int) -> None:
    hand = longest = sets = 0
    slowest = 0.0
    seconds: list[float] = []
    for seed in range(count):
        state = new_game("nordic", players=players, seed=seed)
        seats = [make_agent(agent, seed=seed * 10 + seat) for seat in range(players)]
        began = time.perf_counter()
        while not state.is_terminal:
            seat = state.current
            size, took, listed = timed_list(state)
            hand = max(hand, state.players[seat].hand.total)
            longest, slowest = max(longest, size), max(slowest, took)
            action = seats[seat].act(observe(state, seat))
            assert action in listed, action
            sets += isinstance(action, ClaimWithSets)
            state = apply_action(state, action)
        seconds.append(time.perf_counter() - began)
    print(
        f"{agent} {players} players, {count} games: largest hand {hand}, largest list {longest}, "
        f"slowest legal_actions {slowest * 1000:.2f} ms, seconds a game {sum(seconds) / count:.2f}"
        f" (largest {max(seconds):.2f}), payments with sets started {sets}"
    )


def largest_hands() -> None:
    nordic = load_map("nordic")
    rules = nordic.rules
    every = {color: rules.cards_per_color for color in Color}
    every[Color.LOCOMOTIVE] = rules.locomotive_cards
    rng = random.Random(0)
    for label, hand in (("4 of each kind", dict.fromkeys(Color, 4)), ("every card", every)):
        state = scenario(nordic, hands=[hand, {}], deck=[], discard=[], face_up=[None] * 5)
        size, took, listed = timed_list(state)
        steps, longest, slowest = 0, 0, 0.0
        for start in listed:
            if not isinstance(start, ClaimWithSets):
                continue
            for _ in range(5):
                here = apply_action(state, start)
                while here.phase is Phase.PAYMENT:
                    n, t, options = timed_list(here)
                    steps, longest, slowest = steps + 1, max(longest, n), max(slowest, t)
                    here = apply_action(here, rng.choice(options))
        print(
            f"{label} ({sum(hand.values())} cards): {size} actions at the start of a turn in "
            f"{took * 1000:.2f} ms; picking, {steps} steps: largest list {longest}, slowest "
            f"{slowest * 1000:.3f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=50, help="random games per player count")
    parser.add_argument("--greedy", type=int, default=25, help="greedy games per player count")
    args = parser.parse_args()
    for agent, count in (("random", args.random), ("greedy", args.greedy)):
        for players in (2, 3):
            if count:
                games(agent, players, count)
    largest_hands()


if __name__ == "__main__":
    main()
