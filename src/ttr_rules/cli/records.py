"""``ttr replay FILE`` and ``ttr show FILE --turn N --player P``: game records on the command line.

``replay`` prints a record turn by turn, each action with the events it caused, then the final
score breakdown. ``show`` prints what one player (or a spectator) sees at the start of a turn.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import Any

from ..cards import COLORS, Color
from ..events import (
    CardDrawn,
    DeckReshuffled,
    Event,
    FaceUpReplaced,
    FaceUpReset,
    FinalRoundStarted,
    GameOver,
    Passed,
    ResetCapReached,
    RouteClaimed,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelDeclined,
    TunnelRevealed,
    TurnEnded,
)
from ..maps import GameMap
from ..records import GameRecord, ReplayStep, read_record, replay_steps, start_state
from ..state import GameState, Phase
from ..views import PlayerView, SeatView, observe, public_view

__all__ = [
    "configure_replay",
    "configure_show",
    "describe_event",
    "describe_view",
    "replay_lines",
    "run_replay",
    "run_show",
    "state_at_turn",
]


# --------------------------------------------------------------------------- ttr replay


def configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Replay a game record: every action turn by turn with its events, then the final scores."
    )
    parser.add_argument("file", metavar="FILE", help="a game record (JSON)")


def run_replay(args: argparse.Namespace) -> int:
    for line in replay_lines(read_record(args.file)):
        print(line)
    return 0


def replay_lines(record: GameRecord) -> Iterator[str]:
    """The text of ``ttr replay``: a header, each turn's actions and events, the scores."""
    rules = "map defaults" if record.rules is None else "custom"
    yield (
        f"{record.map} {record.map_version or ''}".rstrip()
        + f", {record.players} players, seed {record.seed}, first player {record.first_player},"
        + f" rules: {rules}, {len(record.actions)} actions"
    )
    state = start_state(record)
    heading: str | None = None
    for replayed in replay_steps(record):
        before = replayed.before
        label = "setup" if before.phase is Phase.INITIAL_TICKETS else f"turn {before.turn}"
        if label != heading:
            yield label
            heading = label
        yield f"  player {before.current}: {replayed.text}"
        for event in replayed.events:
            text = describe_event(event, before.map)
            if text:
                yield f"      {text}"
        state = replayed.after
    yield ""
    yield from _final_lines(state)


def _final_lines(state: GameState) -> Iterator[str]:
    if state.phase is not Phase.GAME_OVER:
        yield "the record ends before the game is over; provisional scores:"
    try:
        from ..scoring import format_scores
    except ImportError:  # scoring is optional for this command
        for seat, p in enumerate(state.players):
            yield f"player {seat}: {p.route_points} route points"
        return
    yield format_scores(state)


def _cards(cards: tuple[Color, ...]) -> str:
    return ", ".join(c.value for c in cards) if cards else "nothing"


def _route(game_map: GameMap, route: int) -> str:
    r = game_map.routes[route]
    return f"{r.a}-{r.b} (#{route})"


_EventText = Callable[[Any, GameMap], str]
_EVENT_TEXT: dict[type, _EventText] = {
    CardDrawn: lambda e, m: (
        f"player {e.player} draws {e.color.value}"
        + (" blind" if e.slot is None else f" from slot {e.slot}")
    ),
    FaceUpReplaced: lambda e, m: f"face-up slot {e.slot} gets {e.color.value}",
    FaceUpReset: lambda e, m: f"face-up row reset (discarded {_cards(e.discarded)})",
    ResetCapReached: lambda e, m: f"face-up row kept after {e.resets} resets",
    DeckReshuffled: lambda e, m: f"discard reshuffled into a deck of {e.cards} cards",
    TunnelRevealed: lambda e, m: (
        f"tunnel {_route(m, e.route)} reveals {_cards(e.cards)}:" + f" {e.owed} extra card(s) owed"
    ),
    TunnelDeclined: lambda e, m: f"player {e.player} declines the tunnel {_route(m, e.route)}",
    RouteClaimed: lambda e, m: (
        f"player {e.player} claims {_route(m, e.route)} with"
        + f" {_cards(e.cards)} for {e.points} points"
    ),
    StationBuilt: lambda e, m: (
        f"player {e.player} builds a station in {e.city} with" + f" {_cards(e.cards)}"
    ),
    TicketsDrawn: lambda e, m: f"player {e.player} draws {e.count} tickets",
    TicketsKept: lambda e, m: (
        f"player {e.player} keeps {e.kept} ticket(s)," + f" returns {e.returned}"
    ),
    Passed: lambda e, m: f"player {e.player} passes",
    TurnEnded: lambda e, m: "",
    FinalRoundStarted: lambda e, m: f"final round: player {e.player} has {e.trains} trains left",
    GameOver: lambda e, m: f"game over ({e.reason})",
}


def describe_event(event: Event, game_map: GameMap) -> str:
    """One line for an event (empty for the end of a turn, which the layout shows)."""
    return _EVENT_TEXT[type(event)](event, game_map)


# --------------------------------------------------------------------------- ttr show


def configure_show(parser: argparse.ArgumentParser) -> None:
    parser.description = "Print what one player (or a spectator) sees at a turn of a game record."
    parser.add_argument("file", metavar="FILE", help="a game record (JSON)")
    parser.add_argument(
        "--turn",
        type=int,
        default=None,
        help="the turn to show, at its start (0 = the first turn; default: the end)",
    )
    parser.add_argument(
        "--player", type=int, default=None, help="the seat whose view to show (default: spectator)"
    )


def run_show(args: argparse.Namespace) -> int:
    state = state_at_turn(read_record(args.file), args.turn)
    view = public_view(state) if args.player is None else observe(state, args.player)
    print(describe_view(view))
    return 0


def state_at_turn(record: GameRecord, turn: int | None) -> GameState:
    """The state at the start of ``turn`` (after the initial ticket choices for turn 0), or at
    the end of the record for None. Raises ``ValueError`` for a turn the record does not reach.
    """
    if turn is not None and turn < 0:
        raise ValueError(f"--turn must be >= 0, got {turn}")
    state = start_state(record)
    steps: Iterator[ReplayStep] = replay_steps(record)
    while turn is None or state.turn < turn or state.phase is Phase.INITIAL_TICKETS:
        replayed = next(steps, None)
        if replayed is None:
            if turn is None:
                return state
            raise ValueError(f"the record ends at turn {state.turn}; there is no turn {turn}")
        state = replayed.after
    return state


def describe_view(view: PlayerView) -> str:
    """A player's view as text: the situation, the cards on the table, every player."""
    m = view.map
    who = "spectator" if view.player is None else f"player {view.player}"
    acting = "" if view.is_terminal else f", player {view.current} to act"
    lines = [
        f"{m.name} {m.version}: turn {view.turn}, {view.phase.value}{acting} (view of {who})",
        "face-up: " + ", ".join("-" if c is None else c.value for c in view.face_up),
        f"deck: {view.deck_size} cards; discard: {len(view.discard)} cards"
        f" ({_counts(view.discard)}); tickets: {view.ticket_deck_size} in the deck,"
        f" {view.ticket_box_size} out of the game",
    ]
    if view.final_turns is not None:
        lines.append(f"final round: {view.final_turns} turn(s) left")
    if view.tunnel is not None:
        t = view.tunnel
        lines.append(
            f"tunnel {_route(m, t.route)}: revealed {_cards(t.revealed)}, {t.owed} extra owed"
        )
    for seat, s in enumerate(view.seats):
        lines.extend(_seat_lines(view, seat, s))
    return "\n".join(lines)


def _seat_lines(view: PlayerView, seat: int, s: SeatView) -> list[str]:
    m = view.map
    you = " (you)" if seat == view.player else ""
    routes = [_route(m, r) for r, owner in enumerate(view.route_owner) if owner == seat]
    lines = [
        f"player {seat}{you}: {s.hand_size} cards, {s.trains} trains, {s.route_points} route"
        f" points, {s.ticket_count} tickets, {s.offered_count} offered,"
        f" stations: {', '.join(s.stations) or 'none'}",
        f"  routes: {', '.join(routes) or 'none'}",
    ]
    if s.hand is not None:
        hand = s.hand
        lines.append(
            "  hand: " + (", ".join(f"{c.value} {n}" for c, n in hand.as_dict().items()) or "empty")
        )
    if s.tickets is not None:
        lines.append("  tickets: " + (", ".join(str(m.tickets[t]) for t in s.tickets) or "none"))
    if s.offered:
        lines.append("  offered: " + ", ".join(f"#{t} {m.tickets[t]}" for t in s.offered))
    return lines


def _counts(cards: tuple[Color, ...]) -> str:
    counts = [(c, cards.count(c)) for c in COLORS]
    return ", ".join(f"{c.value} {n}" for c, n in counts if n) or "empty"
