"""A hot-seat game in the terminal, written against docs/frontend.md alone (the front-end kit).

Two or more people share one terminal. Each turn asks what to do, then which route or city, then
the payment (only when there is a choice; Enter takes the suggested first one).

    python examples/hot_seat.py [PLAYERS] [SEED]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TypeVar

from ttr_rules import new_game, observe, step
from ttr_rules.frontend import group_actions, ticket_status
from ttr_rules.render import describe_event, text

T = TypeVar("T")


def ask(question: str, options: Sequence[T], labels: Sequence[str]) -> T:
    """Show numbered options and read a number (Enter: the first)."""
    print(question)
    for number, label in enumerate(labels, 1):
        print(f"  {number:>2}. {label}")
    while True:
        answer = input("> ").strip() or "1"
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        print(f"type a number from 1 to {len(options)}")


def main(players: int, seed: int) -> None:
    state = new_game("europe", players=players, seed=seed)
    while not state.is_terminal:
        seat = state.current
        view = observe(state, seat)
        print(f"\n--- player {seat}: {view.phase.value} ---")
        for status in ticket_status(view) if view.seats[seat].tickets else ():
            print(f"  ticket {status.ticket.a} - {status.ticket.b}: {status.progress}")
        groups = group_actions(view)
        group = groups[0] if len(groups) == 1 else ask("what?", groups, [g.heading for g in groups])
        targets = group.targets
        target = ask(group.heading, targets, [f"{t.label} {t.cost}" for t in targets])
        choices = target.choices
        choice = (
            choices[0] if len(choices) == 1 else ask("pay?", choices, [c.label for c in choices])
        )
        result = step(state, choice.action)
        for event in result.events:
            print(" ", describe_event(event, state.map, viewer="all"))
        state = result.state
    print(text(state))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
