"""``ttr replay FILE`` and ``ttr show FILE --turn N --player P``: game records on the command line.

``replay`` prints a record turn by turn, each action with the events it caused, then the final
score breakdown. ``show`` prints what one player (or a spectator) sees at the start of a turn.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from ..events import Event
from ..maps import GameMap
from ..records import GameRecord, ReplayStep, read_record, replay_steps, start_state
from ..render import describe_event, format_scores, text
from ..scoring import PlayerScore, final_scores
from ..serialization import converter, to_json
from ..state import GameState, Phase
from ..views import observe, public_view
from ..words import counted, seat_name
from .common import integer, json_line
from .maps import map_named

__all__ = [
    "add_map_argument",
    "configure_replay",
    "configure_show",
    "given_map",
    "replay_json_lines",
    "replay_lines",
    "run_replay",
    "run_show",
    "state_at_turn",
    "steps_to_turn",
]


# --------------------------------------------------------------------------- ttr replay


def configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Replay a game record: every action turn by turn with its events, then the final scores."
    )
    parser.add_argument("file", metavar="FILE", help="a game record (JSON)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="JSON lines: one object per action (turn, player, action, events), then one with "
        "the scores",
    )
    add_map_argument(parser)


def add_map_argument(parser: argparse.ArgumentParser) -> None:
    """``--map NAME|FILE``: the map of a record played on a map file (``ttr simulate --map
    FILE --record``), which no installed map provides."""
    parser.add_argument(
        "--map",
        default=None,
        metavar="FILE",
        help="the map file (or installed map) the record was played on, for a record of a map "
        "file; it must have the record's name and digest (default: the installed map)",
    )


def given_map(args: argparse.Namespace) -> GameMap | None:
    """The map ``--map`` names, or None."""
    return None if args.map is None else map_named(args.map)


def run_replay(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    game_map = given_map(args)
    lines = replay_json_lines(record, game_map) if args.json else replay_lines(record, game_map)
    for line in lines:
        print(line)
    return 0


def replay_json_lines(record: GameRecord, game_map: GameMap | None = None) -> Iterator[str]:
    """``ttr replay --json``: a JSON object per action, ``{"turn", "player", "action",
    "events"}`` (the events as :func:`~ttr_rules.to_json` writes them; ``turn`` is null during
    the initial ticket choices), then ``{"game_over", "scores"}`` (the scores as
    :func:`~ttr_rules.final_scores` gives them, provisional when the game is not over).
    ``game_map``: the map of a record of a map file."""
    state = start_state(record, map=game_map)
    for replayed in replay_steps(record, map=game_map):
        before = replayed.before
        yield json_line(
            {
                "turn": None if before.phase is Phase.INITIAL_TICKETS else before.turn,
                "player": before.current,
                "action": replayed.text,
                "events": converter.unstructure(replayed.events, unstructure_as=_EVENTS),
            }
        )
        state = replayed.after
    yield json_line(
        {
            "game_over": state.phase is Phase.GAME_OVER,
            "scores": converter.unstructure(final_scores(state), unstructure_as=_SCORES),
        }
    )


#: What the events and the scores are unstructured as: each event then carries its ``"type"``
#: tag, as :func:`~ttr_rules.to_json` writes it.
_EVENTS = tuple[Event, ...]
_SCORES = tuple[PlayerScore, ...]


def replay_lines(record: GameRecord, game_map: GameMap | None = None) -> Iterator[str]:
    """The text of ``ttr replay``: a header, each turn's actions and events, the scores
    (``game_map``: the map of a record of a map file)."""
    state = start_state(record, map=game_map)  # a record that cannot start fails first
    rules = "map defaults" if record.rules is None else "custom"
    yield (
        f"{record.map} {record.map_version or ''}".rstrip()
        + f", {record.players} players, seed {record.seed}, {seat_name(record.first_player)} first,"
        + f" rules: {rules}, {counted(len(record.actions), 'action')}"
    )
    heading: str | None = None
    for replayed in replay_steps(record, map=game_map):
        before = replayed.before
        label = "setup" if before.phase is Phase.INITIAL_TICKETS else f"turn {before.turn}"
        if label != heading:
            yield label
            heading = label
        yield f"  {seat_name(before.current)}: {replayed.text}"
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
    yield format_scores(state)


# --------------------------------------------------------------------------- ttr show


def configure_show(parser: argparse.ArgumentParser) -> None:
    parser.description = "Print what one player (or a spectator) sees at a turn of a game record."
    parser.add_argument("file", metavar="FILE", help="a game record (JSON)")
    parser.add_argument(
        "--turn",
        type=integer,
        default=None,
        help="the turn to show, at its start (0 = the first turn; default: the end)",
    )
    parser.add_argument(
        "--player",
        type=integer,
        default=None,
        help="the seat whose view to show (default: spectator)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the view as JSON (readable by from_json(text, PlayerView))",
    )
    add_map_argument(parser)


def run_show(args: argparse.Namespace) -> int:
    state = state_at_turn(read_record(args.file), args.turn, given_map(args))
    view = public_view(state) if args.player is None else observe(state, args.player)
    print(to_json(view) if args.json else text(view))
    return 0


def state_at_turn(
    record: GameRecord, turn: int | None, game_map: GameMap | None = None
) -> GameState:
    """The state at the start of ``turn`` (after the initial ticket choices for turn 0), or at
    the end of the record for None (played on ``game_map`` when given). Raises
    ``ValueError`` for a turn the record does not reach.
    """
    return steps_to_turn(record, turn, game_map)[0]


def steps_to_turn(
    record: GameRecord, turn: int | None, game_map: GameMap | None = None
) -> tuple[GameState, list[ReplayStep]]:
    """:func:`state_at_turn` and the steps replayed to reach it, in order."""
    if turn is not None and turn < 0:
        raise ValueError(f"--turn must be >= 0, got {turn}")
    state = start_state(record, map=game_map)
    done: list[ReplayStep] = []
    steps: Iterator[ReplayStep] = replay_steps(record, map=game_map)
    while turn is None or state.turn < turn or state.phase is Phase.INITIAL_TICKETS:
        replayed = next(steps, None)
        if replayed is None:
            if turn is None:
                return state, done
            raise ValueError(f"the record ends at turn {state.turn}; there is no turn {turn}")
        state = replayed.after
        done.append(replayed)
    return state, done
