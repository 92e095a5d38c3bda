"""``ttr play``: a person plays a game in the terminal against agents.

Each of the person's turns shows what their seat sees (:func:`ttr_rules.render.text`; in
colour through the optional ``rich`` when the output is a terminal: ``pip install
"ttr-rules[play]"``), then the legal actions as a numbered menu grouped by kind. The answer is a
number or any action notation :func:`ttr_rules.parse_action` reads; ``?`` explains the
commands. A wrong answer gets a one-line explanation and the prompt again. The agents' turns are
told as the events the person may see. At the end the score table is printed and, with
``--record DIR``, the game record and an SVG of the final board are written to ``DIR``.

When standard input is not a terminal, one command is read per line (a game can be scripted);
the end of the input or Ctrl-C ends the game cleanly.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
)
from ..agents import Agent, available_agents, make_agent
from ..cards import CARD_COLORS, Color
from ..errors import IllegalActionError, InvalidActionError
from ..game import apply_action, legal_actions, new_game, step
from ..notation import format_action, parse_action
from ..records import record_game, write_record
from ..render import counted, describe_event, svg, text
from ..state import GameState, Phase
from ..views import PlayerView, observe
from .common import check_output_dir

__all__ = ["Menu", "action_label", "configure", "menu", "run"]

#: The kinds of actions, in menu order: (heading, action classes).
KINDS: tuple[tuple[str, tuple[type, ...]], ...] = (
    ("keep tickets", (KeepTickets,)),
    ("tunnel", (PayTunnel, DeclineTunnel)),
    ("draw cards", (DrawFaceUp, DrawBlind)),
    ("claim a route", (ClaimRoute,)),
    ("draw tickets", (DrawTickets,)),
    ("build a station", (BuildStation,)),
    ("pass", (Pass,)),
)
#: Groups longer than this show their first entries only (``all`` lists everything).
SHORT_GROUP = 12

HELP = """\
commands:
  NUMBER        play the action with this number in the menu
  NOTATION      play an action written in notation, e.g. `draw blind`, `draw faceup 2`,
                `claim Paris-Wien red+1L`, `station Berlin black`, `tickets keep 3,17`,
                `tunnel pay 1L`, `tunnel decline` (see docs/notation.md)
  all           list every legal action (long groups are shortened otherwise)
  show          show the position again
  svg [FILE]    write the board as you see it to FILE (default board.svg), for a browser
  ?  help       this help
  quit          leave the game (also Ctrl-C or the end of the input)"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play a game in the terminal against agents: the menu lists your legal actions; answer "
        "with a number or an action in notation (? for help)."
    )
    parser.add_argument("--map", default="europe", help="an installed map (default: europe)")
    parser.add_argument(
        "--players", type=int, default=2, help="the number of players, you included (default 2)"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0: you begin)")
    parser.add_argument(
        "--agents",
        default="greedy",
        help="the agents in the other seats, in seat order, comma-separated (the last one "
        "fills the remaining seats; default: greedy); see `ttr play --list-agents`",
    )
    parser.add_argument("--seed", type=int, default=0, help="the deal's seed (default 0)")
    parser.add_argument(
        "--record",
        metavar="DIR",
        default=None,
        help="write the game record and an SVG of the final board to DIR",
    )
    parser.add_argument(
        "--force", action="store_true", help="with --record: replace that game's files in DIR"
    )
    parser.add_argument(
        "--plain", action="store_true", help="no colour, even in a terminal (no rich)"
    )
    parser.add_argument(
        "--list-agents", action="store_true", help="list the available agents and exit"
    )


def run(args: argparse.Namespace) -> int:
    if args.list_agents:
        print("\n".join(available_agents()))
        return 0
    state = new_game(args.map, args.players, seed=args.seed)
    if not 0 <= args.seat < state.num_players:
        raise ValueError(f"--seat must be from 0 to {state.num_players - 1}, got {args.seat}")
    agents = _agents(args.agents, state.num_players, args.seat, args.seed)
    if args.record is not None:  # a record that cannot be written is refused before the game
        names = [f"{_stem(state)}.json", f"{_stem(state)}.svg"]
        check_output_dir(args.record, force=args.force, names=names)
    output = _Output(sys.stdout, colour=not args.plain and sys.stdout.isatty())
    game = _Game(state, args.seat, agents, output, _Input(sys.stdin, output))
    try:
        finished = game.play()
    except KeyboardInterrupt:
        output.line("")
        output.line(f"game interrupted at turn {game.state.turn}", style="bold red")
        return 130
    if not finished:
        output.line(f"game left at turn {game.state.turn}", style="bold")
        return 0
    if args.record is not None:
        _save(Path(args.record), game, output)
    return 0


def _agents(spec: str, players: int, human: int, seed: int) -> dict[int, Agent]:
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise ValueError("--agents needs at least one agent name")
    others = [seat for seat in range(players) if seat != human]
    if len(names) > len(others):
        raise ValueError(f"{len(names)} agents named for {len(others)} other seat(s)")
    names += [names[-1]] * (len(others) - len(names))
    return {
        seat: make_agent(name, seed=seed + seat) for seat, name in zip(others, names, strict=True)
    }


def _stem(start: GameState) -> str:
    return f"ttr-play-{start.map.name}-seed{start.seed}"


def _save(directory: Path, game: _Game, output: _Output) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    start = game.start
    stem = _stem(start)
    record_path = directory / f"{stem}.json"
    board_path = directory / f"{stem}.svg"
    write_record(record_path, record_game(start, game.actions))
    board_path.write_text(svg(game.state, highlight=game.actions[-1:]), encoding="utf-8")
    output.line(f"record: {record_path}")
    output.line(f"board: {board_path}")


# --------------------------------------------------------------------------- the menu


#: A menu: (heading, [(number, action, label)]) groups, numbered from 1 in display order.
Menu = list[tuple[str, list[tuple[int, Action, str]]]]


def menu(view: PlayerView, actions: Sequence[Action]) -> Menu:
    """The legal ``actions`` grouped by kind and numbered from 1, with readable labels."""
    groups: Menu = []
    number = 0
    for heading, kinds in KINDS:
        entries = []
        for action in actions:
            if isinstance(action, kinds):
                number += 1
                entries.append((number, action, action_label(action, view)))
        if entries:
            groups.append((heading, entries))
    return groups


def action_label(action: Action, view: PlayerView) -> str:
    """What an action does, in words, with its notation: ``take the red card (slot 2)``.

    >>> from ttr_rules import new_game, observe, DrawBlind
    >>> action_label(DrawBlind(), observe(new_game("europe", 2, seed=1), 0))
    'draw the top card of the deck  [draw blind]'
    """
    m = view.map
    notation = format_action(action, m)
    if isinstance(action, DrawFaceUp):
        card = view.face_up[action.slot]
        words = f"take the face-up {card.value if card else 'empty'} card (slot {action.slot})"
    elif isinstance(action, DrawBlind):
        words = "draw the top card of the deck"
    elif isinstance(action, ClaimRoute):
        r = m.routes[action.route]
        kind = " tunnel" if r.tunnel else f" ferry ({r.ferry_locomotives}L)" if r.is_ferry else ""
        colour = "gray" if r.color is None else r.color.value
        pay = _payment(action.color, action.locomotives, r.length)
        points = view.rules.route_scores[r.length] if r.length < len(view.rules.route_scores) else 0
        words = f"{r.a}-{r.b} {colour} {r.length}{kind}: pay {pay}, {counted(points, 'point')}"
    elif isinstance(action, BuildStation):
        seat = view.seats[view.current]
        cost = len(seat.stations) + 1
        words = f"station in {action.city}: pay {_payment(action.color, action.locomotives, cost)}"
    elif isinstance(action, KeepTickets):
        kept = [m.tickets[t] for t in sorted(action.tickets)]
        words = "keep " + ", ".join(f"{t.a}-{t.b} ({t.points})" for t in kept)
    elif isinstance(action, DrawTickets):
        words = f"draw {view.rules.tickets_drawn} destination tickets"
    elif isinstance(action, PayTunnel):
        words = f"pay the extra cards ({action.locomotives} of them locomotives)"
    elif isinstance(action, DeclineTunnel):
        words = "give up the tunnel (take the cards back)"
    else:
        words = "pass (nothing else is possible)"
    return f"{words}  [{notation}]"


def _payment(colour: Color, locomotives: int, cards: int) -> str:
    if colour is Color.LOCOMOTIVE:
        return f"{cards} locomotive"
    parts = [f"{cards - locomotives} {colour.value}"] if cards > locomotives else []
    parts += [f"{locomotives} locomotive"] if locomotives else []
    return " + ".join(parts)


# --------------------------------------------------------------------------- input and output


_COLOUR_WORDS = re.compile(
    r"\b(" + "|".join(c.value for c in (*CARD_COLORS, Color.LOCOMOTIVE)) + r")\b"
)
_RICH_STYLE = {
    "purple": "magenta",
    "white": "bold white",
    "blue": "bold blue",
    "yellow": "bold yellow",
    "orange": "dark_orange",
    "black": "bold bright_black",
    "red": "bold red",
    "green": "bold green",
    "locomotive": "bold cyan",
}


class _Output:
    """Plain lines, or rich colour in a terminal when rich is installed."""

    def __init__(self, stream: TextIO, *, colour: bool) -> None:
        self.stream = stream
        self.console: Any = None
        if colour:
            try:
                from rich.console import Console
            except ImportError:
                print('(colour needs rich: pip install "ttr-rules[play]")', file=stream)
            else:
                self.console = Console(file=stream, highlight=False)

    def line(self, content: str, *, style: str | None = None) -> None:
        if self.console is None:
            print(content, file=self.stream, flush=True)
            return
        from rich.text import Text

        rich_text = Text(content, style=style or "")
        for match in _COLOUR_WORDS.finditer(content):
            rich_text.stylize(_RICH_STYLE[match.group(1)], match.start(), match.end())
        self.console.print(rich_text)


class _Input:
    """The person's answers: ``input()`` in a terminal, else one line at a time (echoed)."""

    def __init__(self, stream: TextIO, output: _Output) -> None:
        self.stream = stream
        self.output = output
        self.tty = stream.isatty()

    def read(self, prompt: str) -> str | None:
        """The next answer, or None at the end of the input."""
        if self.tty and self.stream is sys.stdin:
            try:
                return input(prompt)
            except EOFError:
                return None
        line = self.stream.readline()
        if not line:
            return None
        self.output.line(prompt + line.rstrip("\n"))
        return line


class _Game:
    def __init__(
        self,
        state: GameState,
        human: int,
        agents: dict[int, Agent],
        output: _Output,
        answers: _Input,
    ) -> None:
        self.start = state
        self.state = state
        self.human = human
        self.agents = agents
        self.out = output
        self.answers = answers
        self.actions: list[Action] = []

    def play(self) -> bool:
        """Play to the end (True) or until the person leaves (False)."""
        names = ", ".join(f"P{s} {a.name}" for s, a in sorted(self.agents.items()))
        self.out.line(
            f"{self.state.map.title or self.state.map.name}: you are P{self.human}; "
            f"{names}. Type ? for help.",
            style="bold",
        )
        while self.state.phase is not Phase.GAME_OVER:
            seat = self.state.current
            if seat == self.human:
                action = self._ask()
                if action is None:
                    return False
            else:
                action = self.agents[seat].act(observe(self.state, seat))
            self._apply(seat, action)
        self.out.line("")
        self.out.line(text(observe(self.state, self.human)))
        return True

    def _apply(self, seat: int, action: Action) -> None:
        result = step(self.state, action)
        self.state = result.state
        self.actions.append(action)
        who = "you" if seat == self.human else f"P{seat} ({self.agents[seat].name})"
        said = [describe_event(e, self.state.map, viewer=self.human) for e in result.events]
        told = "; ".join(s for s in said if s) or "done"
        self.out.line(f"{who}: {told}", style=None if seat == self.human else "dim")

    def _ask(self) -> Action | None:
        view = observe(self.state, self.human)
        actions = legal_actions(self.state)
        groups = menu(view, actions)
        by_number = {n: a for _, entries in groups for n, a, _ in entries}
        self._show(view, groups, full=False)
        while True:
            answer = self.answers.read(f"P{self.human}> ")
            if answer is None:
                return None
            command = answer.strip()
            lower = command.lower()
            if not command:
                continue
            if lower in ("?", "help", "h"):
                self.out.line(HELP)
            elif lower in ("quit", "exit", "q"):
                return None
            elif lower in ("all", "menu"):
                self._show_menu(groups, full=True)
            elif lower in ("show", "view"):
                self._show(view, groups, full=False)
            elif lower == "svg" or lower.startswith("svg "):
                self._write_board(view, command[3:].strip() or "board.svg")
            elif command.isdigit():
                number = int(command)
                if number in by_number:
                    return by_number[number]
                self._complain(
                    f"no action {number}: choose from 1 to {len(by_number)} (? for help)"
                )
            else:
                action, problem = self._parse(command, actions)
                if action is not None:
                    return action
                self._complain(problem)

    def _parse(self, command: str, actions: Sequence[Action]) -> tuple[Action | None, str]:
        try:
            action = parse_action(command, self.state)
        except InvalidActionError as exc:
            return None, f"{exc} (? for help)"
        if action in actions:
            return action, ""
        try:
            apply_action(self.state, action)
        except IllegalActionError as exc:
            return None, f"not allowed now: {exc}"
        return None, f"not allowed now: {format_action(action, self.state.map)}"

    def _write_board(self, view: PlayerView, name: str) -> None:
        last = self.actions[-1:] if self.actions else ()
        try:
            Path(name).write_text(svg(view, highlight=last, tickets_of=self.human), "utf-8")
        except OSError as exc:
            self._complain(f"cannot write {name}: {exc.strerror or exc}")
            return
        self.out.line(f"wrote {name}")

    def _complain(self, message: str) -> None:
        self.out.line(message.splitlines()[0] if message else "not understood", style="red")

    def _show(self, view: PlayerView, groups: Menu, *, full: bool) -> None:
        self.out.line("")
        self.out.line(text(view))
        self._show_menu(groups, full=full)

    def _show_menu(self, groups: Menu, *, full: bool) -> None:
        self.out.line("your move:", style="bold")
        for heading, entries in groups:
            self.out.line(f" {heading}:", style="bold")
            shown = entries if full or len(entries) <= SHORT_GROUP else entries[:SHORT_GROUP]
            for number, _, label in shown:
                self.out.line(f"  {number:>3}. {label}")
            if len(shown) < len(entries):
                self.out.line(
                    f"       ... {len(entries) - len(shown)} more (numbers {shown[-1][0] + 1}"
                    f"-{entries[-1][0]}; type `all` to list them)"
                )
