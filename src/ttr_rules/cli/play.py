"""``ttr play``: a person plays a game in the terminal against agents.

Each of the person's turns shows what their seat sees (:func:`ttr_rules.render.text`; in
colour through the optional ``rich`` when the output is a terminal: ``pip install
"ttr-rules[play]"``), the other players' last moves and the person's tickets with their
progress and the cards they still ask for. Then a short menu asks what to do (draw a card,
claim a route, draw tickets, build a station), then which route or city (with its cost), then
the payment when there is a real choice. Enter plays the suggested move (the hints' first,
:func:`ttr_rules.agents.suggest`), which the menus mark. Tickets are kept by typing their
numbers (``1 3``), a station's city by typing its name (Tab completes it in a terminal). Any
answer may instead be an action in notation (:func:`ttr_rules.parse_action`); ``?`` explains
the commands. The menus come from the front-end kit (:mod:`ttr_rules.frontend`), as the web
page's do. A wrong answer gets a one-line explanation and the prompt again.

The deal's seed is random unless ``--seed`` fixes it; it is printed at the start. Nothing is
written unless asked: ``--record PATH`` writes the game record (and an SVG of the final board
beside it) at the end, never over an existing file; without it a terminal asks at the end.

When standard input is not a terminal, one command is read per line (a game can be scripted);
the end of the input or Ctrl-C ends the game cleanly.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO, cast

from ..actions import Action, BuildStation, KeepTickets
from ..agents import Agent, available_agents, hint_lines, make_agent, suggest
from ..cards import CARD_COLORS, Color
from ..errors import IllegalActionError, InvalidActionError
from ..frontend import (
    ActionGroup,
    Target,
    TicketStatus,
    action_label,
    cards_needed,
    choose_tickets,
    find_place,
    group_actions,
    keep_prompt,
    ticket_status,
    verdict,
)
from ..game import apply_action, check_player_count, legal_actions, new_game, step
from ..maps import map_groups
from ..notation import parse_action, resolve_city
from ..records import record_game, write_record
from ..render import counted, describe_event, svg, text
from ..scoring import final_scores, winners
from ..state import GameState, Phase
from ..views import PlayerView, observe, view_legal_actions
from ..words import clipped, seat_name, sentence
from .common import check_output_dir, check_output_file, integer, shown
from .games import check_game_count
from .maps import map_named

__all__ = ["MAX_ENTRIES", "configure", "run"]

#: A menu numbers at most this many entries; a longer list is shown by name, to be typed.
MAX_ENTRIES = 40

HELP = """\
commands:
  Enter         play the suggested move (marked "<- suggested")
  NUMBER        choose the entry with this number; tickets: their numbers, e.g. `1 3`
  NAME          a route (`Berlin-Wien`) or a city (`Berlin`: its routes, or its station;
                Tab completes a city's name)
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
    parser.add_argument(
        "--map",
        default="europe",
        help="an installed map or variant (default: europe); see `ttr play --list-maps`",
    )
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
        metavar="PATH",
        default=None,
        help="write the game record to PATH at the end, and an SVG of the final board beside "
        "it (PATH may be a folder; an existing file is never overwritten). Without it nothing "
        "is written; a terminal asks at the end",
    )
    parser.add_argument(
        "--no-record", action="store_true", help="do not ask for a record at the end"
    )
    parser.add_argument(
        "--plain", action="store_true", help="no colour, even in a terminal (no rich)"
    )
    parser.add_argument(
        "--list-agents", action="store_true", help="list the available agents and exit"
    )
    parser.add_argument(
        "--list-maps",
        action="store_true",
        help="list the maps, each board with its variants (other ticket decks), and exit",
    )


def run(args: argparse.Namespace) -> int:
    if args.list_agents:
        print("\n".join(available_agents()))
        return 0
    if args.list_maps:
        for board, names in map_groups():
            variants = [name for name in names if name != board]
            print(board + (f"  (variants: {', '.join(variants)})" if variants else ""))
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
    if args.record is not None:  # a place that cannot be written is refused before the game
        _check_record_path(Path(args.record))
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
    elif not args.no_record and game.answers.tty:
        _offer_record(game, output)
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


def _check_record_path(path: Path) -> None:
    """Refuse, before the game, a record path that cannot be written."""
    if path.is_dir():
        check_output_dir(path, force=True)
    elif path.exists() or path.is_symlink():  # ttr play has no --force: a record is kept
        raise ValueError(f"{shown(path)} exists; name a new file or a folder")
    else:
        check_output_file(path, force=False)


def _offer_record(game: _Game, output: _Output) -> None:
    """Ask at the end whether to keep the record, and where (Enter: no)."""
    while True:
        answer = game.answers.read("keep a record of this game? type a file name (Enter: no) ")
        if not answer or not answer.strip():
            return
        path = Path(answer.strip())
        try:
            _check_record_path(path)
        except ValueError as exc:
            output.line(str(exc), style="red")
            continue
        _save(path, game, output)
        return


def _save(path: Path, game: _Game, output: _Output) -> None:
    """The record at ``path`` (a folder: a new file named after the map and the seed) and the
    final board beside it."""
    start = game.start
    if path.is_dir():
        stem = f"ttr-play-{start.map.name}-seed{start.seed}"
        record_path = _free_path(path, stem, (".json", ".svg")).with_suffix(".json")
    else:
        record_path = path
    board_path = record_path.with_suffix(".svg")
    if board_path == record_path or board_path.exists():
        board_path = record_path.with_name(record_path.name + ".svg")
    write_record(record_path, record_game(start, game.actions))
    output.line(f"the game record is in {record_path} (ttr replay {record_path} replays it)")
    if not board_path.exists():
        board_path.write_text(svg(game.state, highlight=game.actions[-1:]), encoding="utf-8")
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

    def read(self, prompt: str, completions: Sequence[str] = ()) -> str | None:
        """The next answer, or None at the end of the input; in a terminal, Tab completes
        the ``completions`` (city names)."""
        if self.tty and self.stream is sys.stdin:
            with _completing(completions):
                try:
                    return input(prompt)
                except EOFError:
                    return None
        line = self.stream.readline()
        if not line:
            return None
        self.output.line(prompt + line.rstrip("\n"))
        return line


@contextmanager
def _completing(words: Sequence[str]) -> Iterator[None]:
    """Tab completes ``words`` while reading one answer (where readline exists)."""
    try:
        import readline
    except ImportError:  # Windows without pyreadline
        yield
        return
    previous = readline.get_completer()
    delims = readline.get_completer_delims()

    def complete(text: str, state: int) -> str | None:
        typed = text.casefold()
        found = [w for w in words if w.casefold().startswith(typed)]
        return found[state] if state < len(found) else None

    readline.set_completer(complete if words else None)
    readline.set_completer_delims("")  # a name with spaces completes as one word
    readline.parse_and_bind("tab: complete")
    try:
        yield
    finally:
        readline.set_completer(previous)
        readline.set_completer_delims(delims)


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
        self._suggested: Action | None = None

    def play(self) -> bool:
        """Play to the end (True) or until the person leaves (False)."""
        names = ", ".join(self._who(s) for s in sorted(self.agents))
        self.out.line(
            f"{self.state.map.title or self.state.map.name}, seed {self.state.seed} "
            f"(--seed {self.state.seed} deals this game again). You are {seat_name(self.human)}; "
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
        """Who won, as the kit's headline, and the points: ``Player 2 (greedy) wins! 134
        points to your 24.``"""
        scores = final_scores(self.state)
        best = winners(self.state)
        mine = counted(scores[self.human].total, "point")
        top = counted(scores[best[0]].total, "point")
        points = f"{mine}." if self.human in best else f"{top} to your {scores[self.human].total}."
        return f"{verdict(best, self._who)} {sentence(points)}"

    def _who(self, seat: int) -> str:
        agent = "" if seat == self.human else self.agents[seat].name
        return seat_name(seat, self.human, agent)

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
        self._suggested = _suggestion(view)
        while True:
            try:
                if len(groups) == 1:
                    return self._choose_target(view, groups[0])
                return self._choose_kind(view, groups)
            except _Back:
                continue

    def _enter(self, view: PlayerView) -> str:
        """What Enter plays, for a question."""
        if self._suggested is None:
            return ""
        return f" (Enter: {action_label(self._suggested, view)})"

    def _choose_kind(self, view: PlayerView, groups: Sequence[ActionGroup]) -> Action:
        entries = [_kind_entry(view, g) for g in groups]
        claims = next((g for g in groups if g.kind == "claim"), None)
        # a route or a city typed here goes straight to the routes it names
        question = "what do you do?" + self._enter(view)
        chosen = self._pick(question, entries, groups, view, group=claims)
        if isinstance(chosen, ActionGroup):
            return self._choose_target(view, chosen)
        if isinstance(chosen, Target):
            return self._pay(view, chosen)
        return cast(Action, chosen)

    def _choose_target(self, view: PlayerView, group: ActionGroup) -> Action:
        targets = group.targets
        if group.kind == "keep":
            return self._keep(view, group)
        if len(targets) == 1 and len(targets[0].choices) == 1:
            if len(self._groups) == 1:  # nothing else is legal: say so rather than ask
                self.out.line(f"the only thing you can do: {targets[0].label}", style="bold")
            return targets[0].choices[0].action
        if group.kind == "station":
            return self._station(view, group)
        useful = _useful_routes(view)
        cities = {c for r in useful if r is not None for c in _ends(view, r)}
        targets = tuple(
            sorted(targets, key=lambda t: t.route not in useful and t.city not in cities)
        )
        numbered, named = targets[:MAX_ENTRIES], targets[MAX_ENTRIES:]
        question = _QUESTION.get(group.kind, f"{group.heading}:")
        if any(_leads_to(t, self._suggested) for t in targets):
            question += self._enter(view)
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
        actions = [c.action for c in shown]
        first = self._suggested if self._suggested in actions else actions[0]
        question = f"pay {target.label} with? (Enter: {shown[actions.index(first)].label})"
        chosen = self._pick(question, entries, actions, view, default=first)
        if isinstance(chosen, Target | ActionGroup):
            raise _Back
        return cast(Action, chosen)

    def _keep(self, view: PlayerView, group: ActionGroup) -> Action:
        """The tickets to keep, typed by their numbers (``1 3``); Enter keeps the suggested."""
        offered = view.seats[self.human].offered or ()
        least = min(len(cast(KeepTickets, a).tickets) for a in group.actions)
        suggested = self._suggested if isinstance(self._suggested, KeepTickets) else None
        marked = [n for n, t in enumerate(offered, 1) if suggested and t in suggested.tickets]
        enter = f" (Enter: {' '.join(map(str, marked))})" if marked else ""
        self.out.line(keep_prompt(view) or f"Keep at least {least}:", style="bold")
        for number, status in enumerate(ticket_status(view, offered=True), 1):
            t = status.ticket
            tag = "  <- suggested" if number in marked else ""
            self.out.line(f"  {number:>2}. {t.words}: {status.progress}{_toward(status)}{tag}")
        self.out.line(f"type their numbers, e.g. 1 3{enter}", style="bold")
        while True:
            answer = self._read()
            if answer == "" and suggested is not None:
                return suggested
            numbers = [p for p in re.split(r"[\s,]+", answer) if p]
            if numbers and all(p.isdigit() for p in numbers):
                wrong = [p for p in numbers if not 1 <= int(p) <= len(offered)]
                if wrong:
                    self._complain(f"there is no ticket {wrong[0]}: from 1 to {len(offered)}")
                    continue
                try:
                    return choose_tickets(view, [offered[int(p) - 1] for p in numbers])
                except IllegalActionError as exc:
                    self._complain(exc.detail or exc.reason.value)
                except InvalidActionError as exc:
                    self._complain(str(exc))
                continue
            if answer.lower() == "all":
                return choose_tickets(view, offered)
            found = self._typed_action(answer)
            if isinstance(found, str):
                self._complain(
                    f"type the numbers of the tickets to keep, from 1 to {len(offered)}, "
                    "e.g. 1 3 (? for help)"
                )
            else:
                return found

    def _station(self, view: PlayerView, group: ActionGroup) -> Action:
        """A station's city, typed (Tab completes it); then its payment."""
        by_city = {t.city: t for t in group.targets if t.city is not None}
        names = sorted(by_city)
        suggested = self._suggested if isinstance(self._suggested, BuildStation) else None
        enter = f" (Enter: {suggested.city})" if suggested else ""
        self.out.line(
            f"a station in which city? type its name; Tab completes it{enter}", style="bold"
        )
        self.out.line(textwrap.fill(", ".join(names), initial_indent="  ", subsequent_indent="  "))
        while True:
            answer = self._read(completions=names)
            if answer == "" and suggested is not None:
                return suggested
            city = _find_city(view, answer, names)
            if city in by_city:
                return self._pay(view, by_city[city])
            found = self._typed_action(answer)
            if not isinstance(found, str):
                return found
            self._complain(
                f"no station can be built in {city} now" if city else _unknown_city(view, answer)
            )

    def _pick(
        self,
        question: str,
        entries: Sequence[str],
        values: Sequence[Any],
        view: PlayerView,
        *,
        group: ActionGroup | None = None,
        named: Sequence[Target] = (),
        default: Any = None,
    ) -> Any:
        """Show a numbered menu (and the ``named`` targets by name only) and return the value
        of the chosen entry, the target the person named, or the action typed in notation.
        Enter gives ``default``, else the suggested move, else the first entry; the entry that
        leads to the suggested move is marked."""
        self.out.line(question, style="bold")
        suggested = self._suggested
        for number, (entry, value) in enumerate(zip(entries, values, strict=True), 1):
            tag = "  <- suggested" if _leads_to(value, suggested) else ""
            self.out.line(f"  {number:>2}. {entry}{tag}")
        if named:
            self.out.line("  " + ", ".join(_short(t) for t in named))
        on_enter = default if default is not None else suggested
        if on_enter is None or not any(_leads_to(v, on_enter) for v in (*values, *named)):
            on_enter = values[0]
        while True:
            answer = self._read()
            if answer == "":
                return on_enter
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

    def _read(self, completions: Sequence[str] = ()) -> str:
        """The next answer that is not a command (commands are done here)."""
        while True:
            answer = self.answers.read(f"{seat_name(self.human)}> ", completions)
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
        cities = _cities(answer, view)
        if cities is None:
            return self._typed_action(answer)
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
        """The legal action written in ``command``, or why it cannot be played: in notation's
        terms only when the answer was written in notation."""
        try:
            action = parse_action(command, self.state)
        except InvalidActionError as exc:
            first = command.split(maxsplit=1)[0].lower() if command.split() else ""
            if first in _NOTATION_WORDS:
                return f"{exc} (? for help)"
            shown = clipped(command, 40)
            return f"'{shown}' is not a number, a city or a route here (? for help)"
        if action in legal_actions(self.state):
            return action
        try:
            apply_action(self.state, action)
        except IllegalActionError as exc:
            # the action as the library quotes it: its route by its cities (issue 47)
            why = exc.reason.value + (f" ({exc.detail})" if exc.detail else "")
            return f"{exc.said or clipped(command, 40)} is not allowed now: {why}"
        return "not allowed now"

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


#: The first words of the action notation: an answer starting so is read as notation.
_NOTATION_WORDS = frozenset({"draw", "claim", "station", "tickets", "tunnel", "pass", "pay"})


def _suggestion(view: PlayerView) -> Action | None:
    """The move Enter plays: the hints' first (None when nothing is to choose)."""
    if len(view_legal_actions(view)) < 2:
        return None
    hints = suggest(view)
    return hints[0].action if hints else None


def _leads_to(value: object, action: Action | None) -> bool:
    """Whether a menu entry's value (a group, a target or an action) leads to ``action``."""
    if action is None:
        return False
    if isinstance(value, ActionGroup):
        return action in value.actions
    if isinstance(value, Target):
        return any(c.action == action for c in value.choices)
    return bool(value == action)


def _find_city(view: PlayerView, answer: str, names: Sequence[str]) -> str:
    """The city an answer names: by name or alias (the kit's :func:`find_place`), else the one
    city among ``names`` it starts; empty when none."""
    try:
        return find_place(view.map, answer)
    except InvalidActionError:
        typed = answer.strip().casefold()
        starting = [n for n in names if typed and n.casefold().startswith(typed)]
        return starting[0] if len(starting) == 1 else ""


def _unknown_city(view: PlayerView, answer: str) -> str:
    try:
        find_place(view.map, answer)
    except InvalidActionError as exc:
        return f"{exc} (Tab completes a name)"
    return "type a city's name (Tab completes it)"


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
        lines.append(f"  {status.ticket.words}: {status.progress}{_toward(status)}")
    needed = cards_needed(view)
    if needed:
        parts = [
            f"{n} of one colour (gray routes)" if c is None else f"{n} {c.value}"
            for c, n in sorted(needed.items(), key=lambda kv: -kv[1])
        ]
        lines.append("cards you still need for them: " + ", ".join(parts))
    return lines


def _toward(status: TicketStatus) -> str:
    """Where a ticket to several destinations stands: the best one reached, else the nearest
    (U31); nothing for a two-city ticket."""
    if not status.ticket.destinations or not status.reachable:
        return ""
    return f" ({status.destination} for {counted(status.points, 'point')})"
