"""A hot-seat game in the terminal, written against docs/frontend.md alone (the front-end kit).

Two or more people share one terminal. When a seat's turn comes, it is told what happened since
its last move, how far each of its tickets is (the cheapest way left, in trains), then asked
what to do: tickets are kept by their numbers, a station's city may be typed by name, a route or
a payment is picked from a short list (Enter takes the suggested first one).

    python examples/hot_seat.py [PLAYERS] [SEED]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from ttr_rules import GameState, InvalidActionError, PlayerView, new_game, observe, step
from ttr_rules.actions import Action
from ttr_rules.frontend import (
    ActionGroup,
    EventBuffer,
    Target,
    cheapest_path,
    choose_tickets,
    find_place,
    group_actions,
)
from ttr_rules.render import describe_event, text
from ttr_rules.words import seat_name

T = TypeVar("T")
Ask = Callable[[str], str]


def pick(ask: Ask, question: str, options: Sequence[T], labels: Sequence[str]) -> T:
    """Show numbered options and read a number (Enter: the first)."""
    print(question)
    for number, label in enumerate(labels, 1):
        print(f"  {number:>2}. {label}")
    while True:
        answer = ask("> ").strip() or "1"
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        print(f"type a number from 1 to {len(options)}")


def keep_tickets(ask: Ask, view: PlayerView) -> Action:
    """The offered tickets by number; the kit checks the choice (Enter: keep them all)."""
    offered = view.seats[view.current].offered or ()
    print("tickets offered:")
    for number, ticket_id in enumerate(offered, 1):
        ticket = view.map.tickets[ticket_id]
        print(f"  {number}. {ticket.a} - {ticket.b} ({ticket.points} points)")
    while True:
        answer = ask("keep which (numbers, Enter: all)? ").replace(",", " ").split()
        numbers = [int(n) for n in answer if n.isdigit() and 1 <= int(n) <= len(offered)]
        try:
            return choose_tickets(view, [offered[n - 1] for n in numbers] if answer else offered)
        except ValueError as error:  # too few, or a number twice: the kit says which
            print(error)


def choose_target(ask: Ask, view: PlayerView, group: ActionGroup) -> Target:
    """A route or a city from the group's list; a station's city may also be typed by name."""
    targets = group.targets
    if group.kind != "station":
        return pick(ask, group.heading, targets, [f"{t.label} {t.cost}" for t in targets])
    while True:
        answer = ask("build a station in which city? ").strip()
        if not answer:
            return targets[0]
        try:
            city = find_place(view.map, answer)
        except InvalidActionError as error:
            print(error)
            continue
        chosen = [t for t in targets if t.city == city]
        if chosen:
            return chosen[0]
        print(f"no station can be built in {city} now")


def show_turn(view: PlayerView, buffer: EventBuffer) -> None:
    """What the seat missed since its last move, and its tickets' cheapest ways."""
    seat = view.current
    for event in buffer.since_last_move(seat):
        line = describe_event(event, view.map, viewer=seat)
        if line:
            print(f"  {line}")
    for ticket_id in view.seats[seat].tickets or ():
        ticket = view.map.tickets[ticket_id]
        plan = cheapest_path(view, ticket.a, ticket.b)
        if plan is None:
            progress = "cannot be finished"
        elif plan.done:
            progress = "done"
        else:
            progress = f"{plan.missing_trains} trains to lay, via {' - '.join(plan.cities)}"
        print(f"  ticket {ticket.a} - {ticket.b}: {progress}")


def play(players: int, seed: int, ask: Ask = input) -> GameState:
    state = new_game("europe", players=players, seed=seed)
    buffer = EventBuffer.for_players(players)
    while not state.is_terminal:
        seat = state.current
        view = observe(state, seat)
        print(f"\n--- {seat_name(seat)}: {view.phase.value} ---")
        show_turn(view, buffer)
        groups = group_actions(view)
        if groups[0].kind == "keep":
            action = keep_tickets(ask, view)
        else:
            group = (
                groups[0]
                if len(groups) == 1
                else pick(ask, "what?", groups, [g.heading for g in groups])
            )
            target = choose_target(ask, view, group)
            choices = target.choices
            choice = (
                choices[0]
                if len(choices) == 1
                else pick(ask, "pay?", choices, [c.label for c in choices])
            )
            action = choice.action
        result = step(state, action)
        buffer = buffer.record(seat, result.events)
        state = result.state
    print(text(state))
    return state


if __name__ == "__main__":
    play(int(sys.argv[1]) if len(sys.argv) > 1 else 2, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
