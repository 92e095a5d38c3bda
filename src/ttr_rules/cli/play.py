"""``ttr play``: a person plays a game in the terminal against agents.

Each of the person's turns shows what their seat sees (:func:`ttr_rules.render.text`; in
colour through the optional ``rich`` when the output is a terminal: ``pip install
"ttr-rules[play]"``), the other players' last moves and the person's tickets with their
progress and the cards they still ask for. Then a short menu asks what to do (draw a card,
claim a route, draw tickets, build a station), then which route or city (with its cost), then
the payment when there is a real choice (the suggested one first: Enter takes it). Any answer
may instead be an action in notation (:func:`ttr_rules.parse_action`); ``?`` explains the
commands. The menus come from the front-end kit (:mod:`ttr_rules.frontend`), as the web page's
do. A wrong answer gets a one-line explanation and the prompt again.

The deal's seed is random unless ``--seed`` fixes it; it is printed at the start and kept in
the record, which is written at the end (to the current directory unless ``--record DIR``
says otherwise, never over an existing file), with an SVG of the final board.

When standard input is not a terminal, one command is read per line (a game can be scripted);
the end of the input or Ctrl-C ends the game cleanly.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO, cast

from ..actions import Action
from ..agents import Agent, available_agents, hint_lines, make_agent, suggest
from ..cards import CARD_COLORS, Color
from ..errors import IllegalActionError, InvalidActionError
from ..frontend import ActionGroup, Target, cards_needed, group_actions, ticket_status
from ..game import apply_action, check_player_count, legal_actions, new_game, step
from ..notation import format_action, parse_action, resolve_city
from ..records import record_game, write_record
from ..render import counted, describe_event, svg, text
from ..scoring import final_scores, winners
from ..state import GameState, Phase
from ..views import PlayerView, observe
from .common import check_output_dir, integer
from .games import check_game_count
from .maps import map_named

__all__ = ["MAX_ENTRIES", "configure", "run"]

#: A menu numbers at most this many entries; a longer list is shown by name, to be typed.
MAX_ENTRIES = 40

HELP = """\
commands:
  NUMBER        choose the entry with this number (Enter: the first, the suggested one)
  NAME          a route (`Berlin-Wien`) or a city (`Berlin`: its routes, or its station)
  NOTATION      any action in notation, e.g. `draw blind`, `draw faceup 2`,
                `claim Berlin-Wien green+1L`, `station Berlin black`, `tickets draw`,
                `tickets keep 3,17`, `tunnel pay 1L`, `tunnel decline` (see docs/notation.md)
  back          return to the first menu
  show          show the position again
  hint          what a good player would do here, and why (ranked suggestions)
  svg [FILE]    write the board as you see it to FILE (default board.svg), for a browser
  ?  help       this help
  quit          leave the game (also Ctrl-C or the end of the input)"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play a game in the terminal against agents: choose what to do, then the route or "
        "city, then the payment; or type an action in notation (? for help)."
    )
    parser.add_argument("--map", default="europe", help="an installed map (default: europe)")
    parser.add_argument(
        "--players", type=integer, default=2, help="the number of players, you included (default 2)"
    )
    parser.add_argument("--seat", type=integer, default=0, help="your seat (default 0: you begin)")
    parser.add_argument(
        "--agents",
        default="greedy",
        help="the agents in the other seats, in seat order, comma-separated (the last one "
        "fills the remaining seats; default: greedy); see `ttr play --list-agents`",
    )
    parser.add_argument(
        "--seed",
        type=integer,
        default=None,
        help="the deal's seed (default: a random one, printed at the start and kept in the record)",
    )
    parser.add_argument(
        "--record",
        metavar="DIR",
        default=".",
        help="where the game record and an SVG of the final board go (default: the current "
        "directory; an existing file is never overwritten)",
    )
    parser.add_argument(
        "--no-record", action="store_true", help="write no record at the end of the game"
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
    seed = random.SystemRandom().randrange(10**6) if args.seed is None else args.seed
    check_game_count(1, seed)
    game_map = map_named(args.map)
    try:
        check_player_count(args.players, game_map.rules)
    except ValueError as exc:
        raise ValueError(f"--{exc}") from None
    state = new_game(game_map, args.players, seed=seed)
    if not 0 <= args.seat < state.num_players:
        raise ValueError(f"--seat must be from 0 to {state.num_players - 1}, got {args.seat}")
    agents = _agents(args.agents, state.num_players, args.seat, seed)
    if not args.no_record:  # a folder that cannot be written is refused before the game
        check_output_dir(args.record, force=True)
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
    if not args.no_record:
        _save(Path(args.record), game, output)
    return 0


def _agents(spec: str, players: int, human: int, seed: int) -> dict[int, Agent]:
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise ValueError("--agents needs at least one agent name")
    others = [seat for seat in range(players) if seat != human]
    if len(names) > len(others):
        raise ValueError(
            f"{counted(len(names), 'agent')} named for {counted(len(others), 'other seat')}"
        )
    names += [names[-1]] * (len(others) - len(names))
    return {
        seat: make_agent(name, seed=seed + seat) for seat, name in zip(others, names, strict=True)
    }


def _free_path(directory: Path, stem: str, suffixes: Sequence[str]) -> Path:
    """``directory/stem`` with a number added until no file with any of ``suffixes`` exists."""
    candidate = directory / stem
    number = 1
    while any(candidate.with_suffix(s).exists() for s in suffixes):
        number += 1
        candidate = directory / f"{stem}-{number}"
    return candidate


def _save(directory: Path, game: _Game, output: _Output) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    start = game.start
    base = _free_path(directory, f"ttr-play-{start.map.name}-seed{start.seed}", (".json", ".svg"))
    record_path = base.with_suffix(".json")
    board_path = base.with_suffix(".svg")
    write_record(record_path, record_game(start, game.actions))
    board_path.write_text(svg(game.state, highlight=game.actions[-1:]), encoding="utf-8")
    output.line(f"the game record is in {record_path} (ttr replay {record_path} replays it)")
    output.line(f"the final board is in {board_path}")


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


class _Back(Exception):
    """The person asked to return to the first menu."""


class _Leave(Exception):
    """The person left the game (quit or the end of the input)."""


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
        self.last_move: dict[int, str] = {}
        self._groups: tuple[ActionGroup, ...] = ()

    def play(self) -> bool:
        """Play to the end (True) or until the person leaves (False)."""
        names = ", ".join(self._who(s) for s in sorted(self.agents))
        self.out.line(
            f"{self.state.map.title or self.state.map.name}, seed {self.state.seed} "
            f"(--seed {self.state.seed} deals this game again). You are P{self.human}; "
            f"against {names}. Type ? for help.",
            style="bold",
        )
        while self.state.phase is not Phase.GAME_OVER:
            seat = self.state.current
            if seat == self.human:
                try:
                    action = self._ask()
                except _Leave:
                    return False
            else:
                action = self.agents[seat].act(observe(self.state, seat))
            self._apply(seat, action)
        self.out.line("")
        self.out.line(text(observe(self.state, self.human)))
        self.out.line(self._verdict(), style="bold")
        return True

    def _verdict(self) -> str:
        """Who won, in a sentence: ``P1 (greedy) wins with 134 points; you scored 24``."""
        scores = final_scores(self.state)
        best = winners(self.state)
        mine = counted(scores[self.human].total, "point")
        if best == (self.human,):
            return f"you win with {mine}"
        names = " and ".join(self._who(seat) for seat in best)
        verb = "win" if len(best) > 1 else "wins"
        top = counted(scores[best[0]].total, "point")
        tie = " (you share the win)" if self.human in best else f"; you scored {mine}"
        return f"{names} {verb} with {top}{tie}"

    def _who(self, seat: int) -> str:
        return "you" if seat == self.human else f"P{seat} ({self.agents[seat].name})"

    def _apply(self, seat: int, action: Action) -> None:
        phase = self.state.phase
        result = step(self.state, action)
        self.state = result.state
        self.actions.append(action)
        said = [
            describe_event(e, self.state.map, viewer=self.human, names=self._who)
            for e in result.events
        ]
        told = "; ".join(s for s in said if s)
        if not told:
            return
        self.out.line(told, style=None if seat == self.human else "dim")
        earlier = self.last_move.get(seat) if phase is not Phase.START else None
        self.last_move[seat] = told if earlier is None else f"{earlier}; {told}"

    # ----------------------------------------------------------------- the decisions

    def _ask(self) -> Action:
        view = observe(self.state, self.human)
        if view.phase in (Phase.START, Phase.INITIAL_TICKETS):
            self._show(view)
        groups = self._groups = group_actions(view, legal_actions(self.state))
        while True:
            try:
                if len(groups) == 1:
                    return self._choose_target(view, groups[0])
                return self._choose_kind(view, groups)
            except _Back:
                continue

    def _choose_kind(self, view: PlayerView, groups: Sequence[ActionGroup]) -> Action:
        entries = [_kind_entry(view, g) for g in groups]
        claims = next((g for g in groups if g.kind == "claim"), None)
        # a route or a city typed here goes straight to the routes it names
        chosen = self._pick("what do you do?", entries, groups, view, group=claims)
        if isinstance(chosen, ActionGroup):
            return self._choose_target(view, chosen)
        if isinstance(chosen, Target):
            return self._pay(view, chosen)
        return cast(Action, chosen)

    def _choose_target(self, view: PlayerView, group: ActionGroup) -> Action:
        targets = group.targets
        if len(targets) == 1 and len(targets[0].choices) == 1 and group.kind != "keep":
            if len(self._groups) == 1:  # nothing else is legal: say so rather than ask
                self.out.line(f"the only thing you can do: {targets[0].label}", style="bold")
            return targets[0].choices[0].action
        useful = _useful_routes(view)
        cities = {c for r in useful if r is not None for c in _ends(view, r)}
        targets = tuple(
            sorted(targets, key=lambda t: t.route not in useful and t.city not in cities)
        )
        numbered, named = targets[:MAX_ENTRIES], targets[MAX_ENTRIES:]
        question = _QUESTION.get(group.kind, f"{group.heading}:")
        if named:
            what = "a route or a city" if group.kind == "claim" else "a city"
            question += f" ({len(named)} more by name below: type {what})"
        entries = [_target_entry(t, t.route in useful or t.city in cities) for t in numbered]
        chosen = self._pick(question, entries, numbered, view, group=group, named=named)
        if not isinstance(chosen, Target):
            return cast(Action, chosen)
        return self._pay(view, chosen)

    def _pay(self, view: PlayerView, target: Target) -> Action:
        """The action of a chosen target: its payment is asked only when there is a choice."""
        if len(target.choices) == 1:
            return target.choices[0].action
        shown = target.choices[:MAX_ENTRIES]
        entries = [c.label for c in shown]
        question = f"pay {target.label} with? (Enter: {shown[0].label})"
        chosen = self._pick(question, entries, [c.action for c in shown], view)
        if isinstance(chosen, Target | ActionGroup):
            raise _Back
        return cast(Action, chosen)

    def _pick(
        self,
        question: str,
        entries: Sequence[str],
        values: Sequence[Any],
        view: PlayerView,
        *,
        group: ActionGroup | None = None,
        named: Sequence[Target] = (),
    ) -> Any:
        """Show a numbered menu (and the ``named`` targets by name only) and return the value
        of the chosen entry, the target the person named, or the action typed in notation."""
        self.out.line(question, style="bold")
        for number, entry in enumerate(entries, 1):
            self.out.line(f"  {number:>2}. {entry}")
        if named:
            self.out.line("  " + ", ".join(_short(t) for t in named))
        while True:
            answer = self._read()
            if answer == "":
                return values[0]
            if answer.isdigit():
                number = int(answer)
                if 1 <= number <= len(values):
                    return values[number - 1]
                self._complain(f"there is no {number}: choose from 1 to {len(values)}")
                continue
            if group is not None:
                found = self._by_name(answer, group.targets, view)
                if isinstance(found, Target):
                    return found
                if isinstance(found, tuple):
                    if len(found) == 1:
                        return found[0]
                    entries = [_target_entry(t) for t in found]
                    again = _QUESTION.get(group.kind, question)
                    return self._pick(again, entries, found, view, group=group)
                if not isinstance(found, str):
                    return found
                self._complain(found)
                continue
            found = self._typed_action(answer)
            if isinstance(found, str):
                self._complain(found)
            else:
                return found

    def _read(self) -> str:
        """The next answer that is not a command (commands are done here)."""
        while True:
            answer = self.answers.read(f"P{self.human}> ")
            if answer is None:
                raise _Leave
            command = answer.strip()
            lower = command.lower()
            if lower in ("?", "help", "h"):
                self.out.line(HELP)
            elif lower in ("quit", "exit", "q"):
                raise _Leave
            elif lower in ("back", "b"):
                raise _Back
            elif lower in ("show", "view"):
                self._show(observe(self.state, self.human))
                raise _Back
            elif lower in ("hint", "hints"):
                self.out.line("\n".join(hint_lines(suggest(observe(self.state, self.human)))))
            elif lower == "svg" or lower.startswith("svg "):
                self._write_board(
                    observe(self.state, self.human), command[3:].strip() or "board.svg"
                )
            else:
                return command

    def _by_name(
        self, answer: str, targets: Sequence[Target], view: PlayerView
    ) -> Target | tuple[Target, ...] | Action | str:
        """The target(s) an answer names (a route ``A-B``, a city), else the action it writes
        in notation, else what is wrong with it."""
        action = self._typed_action(answer)
        if not isinstance(action, str):
            return action
        cities = _cities(answer, view)
        if cities is None:
            return action
        matching = tuple(
            t
            for t in targets
            if (t.city is not None and {t.city} == cities)
            or (t.route is not None and cities <= _ends(view, t.route))
        )
        if not matching:
            names = " and ".join(sorted(cities))
            return f"nothing here for {names} (type `back` to choose something else)"
        return matching[0] if len(matching) == 1 else matching

    def _typed_action(self, command: str) -> Action | str:
        """The legal action written in ``command``, or why it cannot be played."""
        try:
            action = parse_action(command, self.state)
        except InvalidActionError as exc:
            return f"{exc} (? for help)"
        if action in legal_actions(self.state):
            return action
        try:
            apply_action(self.state, action)
        except IllegalActionError as exc:
            return f"not allowed now: {exc}"
        return f"not allowed now: {format_action(action, self.state.map)}"

    # ----------------------------------------------------------------- showing

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

    def _show(self, view: PlayerView) -> None:
        self.out.line("")
        self.out.line(text(view))
        for seat in sorted(self.agents):
            if seat in self.last_move:
                move = self.last_move[seat].replace(self._who(seat) + " ", "")
                self.out.line(f"last move of {self._who(seat)}: {move}")
        for line in _ticket_lines(view):
            self.out.line(line)


_QUESTION = {
    "draw": "which card?",
    "claim": "which route?",
    "station": "a station in which city?",
    "keep": "which tickets do you keep?",
    "tunnel": "the tunnel asks for more cards:",
}


def _kind_entry(view: PlayerView, group: ActionGroup) -> str:
    count = len(group.targets)
    if group.kind == "claim":
        return f"Claim a route ({counted(count, 'route')} you can pay for)"
    if group.kind == "station":
        cost = len(view.seats[view.current].stations) + 1
        where = f"{count} cities" if count != 1 else "1 city"
        return f"Build a station ({where}; it costs {counted(cost, 'card')} of one colour)"
    if group.kind == "draw":
        row = ", ".join("-" if c is None else c.value for c in view.face_up)
        return f"Draw a card (face up: {row}; or the deck)"
    if count == 1:
        return group.targets[0].label
    return group.heading


def _target_entry(target: Target, useful: bool = False) -> str:
    if target.route is None and target.city is None:
        return target.label
    options = len(target.choices)
    more = f" (or {counted(options - 1, 'other payment')})" if options > 1 else ""
    cost = target.cost if target.payable else f"needs {target.cost}: you cannot pay"
    tag = "  <- on the way of your tickets" if useful else ""
    return f"{target.label}: pay {cost}{more}{tag}"


def _useful_routes(view: PlayerView) -> set[int | None]:
    """The open routes of the cheapest ways to finish the viewer's tickets."""
    if view.player is None or view.seats[view.player].tickets is None:
        return set()
    return {route for status in ticket_status(view) for route in status.missing}


def _short(target: Target) -> str:
    if target.city is not None:
        return target.city
    return target.label.split(",")[0].replace(" – ", "-")


def _cities(answer: str, view: PlayerView) -> set[str] | None:
    """The city or the two cities an answer names, or None."""
    parts = [p for p in re.split(r"\s*[-–]\s*", answer.strip()) if p]
    if not 1 <= len(parts) <= 2:
        return None
    try:
        return {resolve_city(p, view.map) for p in parts}
    except InvalidActionError:
        return None


def _ends(view: PlayerView, route: int) -> set[str]:
    r = view.map.routes[route]
    return {r.a, r.b}


def _ticket_lines(view: PlayerView) -> list[str]:
    seat = view.player
    if seat is None or view.seats[seat].tickets is None:
        return []
    statuses = ticket_status(view)
    if not statuses:
        return []
    lines = ["your tickets:"]
    for status in statuses:
        t = status.ticket
        lines.append(f"  {t.a} – {t.b} ({counted(t.points, 'point')}): {status.progress}")
    needed = cards_needed(view)
    if needed:
        parts = [
            f"{n} of one colour (gray routes)" if c is None else f"{n} {c.value}"
            for c, n in sorted(needed.items(), key=lambda kv: -kv[1])
        ]
        lines.append("cards you still need for them: " + ", ".join(parts))
    return lines
