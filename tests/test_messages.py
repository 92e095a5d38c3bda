"""One voice for every sentence the library writes for a person (issue 31).

The rules, each a pattern that must not match (:data:`RULES`):

- no Python reprs: tuples, lists, bare quoted keys, error numbers, class names with their
  brackets, exception names, ``None``,
  ``True``/``False``, object addresses, enum members, ``0..2`` ranges;
- correct plurals: no ``1 cards``, no ``(s)``;
- correct articles: no ``a orange``, no ``an red``;
- one line, no traceback.

The sentences come from the places a person reads them: the refusal of thousands of illegal
actions in random games on every shipped map, every event as each viewer reads it, notation
that cannot be read, and the command line's errors for hostile calls.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from ttr_rules import (
    Action,
    BuildStation,
    ClaimRoute,
    Color,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    IllegalActionError,
    InvalidActionError,
    KeepTickets,
    Pass,
    PayTunnel,
    Phase,
    apply_action,
    available_maps,
    is_terminal,
    legal_actions,
    load_map,
    new_game,
    parse_action,
    step,
)
from ttr_rules.cli import main
from ttr_rules.render import describe_event

_COUNTED = (
    "card|ticket|game|train|station|locomotive|point|player|route|decision|turn|seat|space"
    "|extra card|city|cities|action|option|agent|worker|second|file|record"
)

#: Each rule of the house style, as a pattern no message may match.
RULES: dict[str, re.Pattern[str]] = {
    # (a JSON path's index, $.seats[1], is not a list: it follows a name)
    "a tuple or list repr": re.compile(r"\(\d+, \d+|(?<![\w\]])\[-?\d|\[\]|\(\)|\[['\"]"),
    "a bare quoted key (a KeyError's text)": re.compile(r"^'[^']*'$"),
    "an error number": re.compile(r"\[Errno \d+\]"),
    "a class name with brackets": re.compile(r"\b[A-Z][a-z]+[A-Z]\w*\(|\b[A-Z]\w+\(\w*="),
    "a Python exception name": re.compile(r"\b[A-Z]\w*(Error|Exception)\b"),
    "a Python constant": re.compile(r"\b(None|True|False)\b"),
    "an object address": re.compile(r"<\w[\w.]* object|at 0x[0-9a-f]+"),
    "an enum member": re.compile(r"\b(Color|Reason|Phase|Termination)\.[A-Z_]+"),
    "a range written as 0..2": re.compile(r"\d\.\.\d"),
    "a singular count with a plural noun": re.compile(rf"(?<![\d.,])1 ({_COUNTED})s\b"),
    "a plural written with (s)": re.compile(r"\w\(s\)"),
    "a plural count with a singular noun": re.compile(
        r"(?<![\d.,#-])(?:0|[2-9]|\d\d+) (?:card|ticket|train|station|locomotive|point|route)"
        r"(?![\w-]| (?:points?|cards?|spaces?)\b)"
    ),
    "a before a vowel": re.compile(r"\b[Aa] (?:[aeio]|u[^sn])\w*"),
    # (not the end of a name such as Xi'an)
    "an before a consonant": re.compile(r"(?<!['’])\b[Aa]n (?![aeiouAEIOU8])[a-z]\w*"),
    "a line break or a traceback": re.compile(r"\n|Traceback|File \""),
    "a verb that disagrees with 'you'": re.compile(
        r"\b[Yy]ou (?:has|is|was|\w+(?<!ha)(?<![^s]s)s)\b(?<!\bthis)"
    ),
    # (prose names seats as the web page does, "Player 1" for seat 0: words.seat_name; the
    # notation, JSON and options count from 0)
    "a seat named as a program counts it": re.compile(r"\bP\d+\b|\bplayer \d|\bPlayer 0\b"),
    "a verb that disagrees with a player": re.compile(
        r"\b(?:[Pp]layer \d+|P\d+)(?: \([\w -]+\))? "
        r"(?:have|are|draw|claim|keep|take|build|pass|give|win)\b"
    ),
}

#: What a sentence for a player must not show: the action notation, which is for programs.
NOTATION = re.compile(
    r"draw faceup|draw blind|tickets (?:keep|draw)\b|claim [^ ]+-[^ ]|\b\d+L\b|expected margin"
)


def breaches(message: str, *, for_players: bool = False) -> list[str]:
    """The names of the rules ``message`` breaks; ``for_players``: also no notation (a
    sentence of the game log, a hint, ``ttr play``'s narration)."""
    broken = [name for name, pattern in RULES.items() if pattern.search(message)]
    if for_players and NOTATION.search(message):
        broken.append("raw notation")
    return broken


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ticket not offered (offered (3, 20, 15, 18))", "a tuple or list repr"),
        ("1 games of 4 players", "a singular count with a plural noun"),
        ("3 station(s)", "a plural written with (s)"),
        ("You drew a orange card", "a before a vowel"),
        ("kept 1 tickets", "a singular count with a plural noun"),
        ("discard: 5 purple, 2 locomotive", "a plural count with a singular noun"),
        ("'aggregates'", "a bare quoted key (a KeyError's text)"),
        ("[Errno 2] No such file or directory: 'x'", "an error number"),
        ("unexpected TypeError: f() got an unexpected keyword", "a Python exception name"),
        ("locomotives must be 0..2 with a colour", "a range written as 0..2"),
        ("You has 1 trains left", "a verb that disagrees with 'you'"),
        ("final round: you draws", "a verb that disagrees with 'you'"),
        ("Player 2 (medium) have 3 trains left", "a verb that disagrees with a player"),
        ("owned by player 1", "a seat named as a program counts it"),
        ("P1 (greedy) keeps 2 tickets", "a seat named as a program counts it"),
        ("last move of P0", "a seat named as a program counts it"),
        ("Player 0 draws a card", "a seat named as a program counts it"),
    ],
)
def test_the_rules_catch_the_messages_of_the_issue(message: str, rule: str) -> None:
    assert rule in breaches(message)


@pytest.mark.parametrize(
    "message",
    [
        "Player 2 draws an orange card from slot 2",
        "keep at least 1 ticket",
        "the offered tickets are 3, 15 and 24",
        "a European Express bonus",
        "an 8-card hand",
        "with a colour, at most 2 locomotives of the 3 cards",
        "You have 1 train left: final round",
        "you pass",
        "Player 2 has 3 trains left",
        "you keep 2 tickets (1 returned)",
    ],
)
def test_the_rules_let_plain_sentences_pass(message: str) -> None:
    assert breaches(message) == []


def _probes(state: GameState, rnd: random.Random) -> Iterator[Action]:
    """Actions of every kind, mostly illegal here: wrong phases, unknown routes and cities,
    payments that do not fit, tickets not offered."""
    game_map = state.map
    cities = sorted(game_map.cities)
    colors = list(Color)
    yield DrawFaceUp(rnd.randrange(0, 7))
    yield DrawBlind()
    yield DrawTickets()
    yield DeclineTunnel()
    yield PayTunnel(rnd.randrange(0, 4))
    yield Pass()
    for _ in range(3):
        yield ClaimRoute(
            rnd.randrange(len(game_map.routes) + 2), rnd.choice(colors), rnd.randrange(0, 5)
        )
    yield KeepTickets(frozenset(rnd.sample(range(len(game_map.tickets)), rnd.randrange(0, 3))))
    yield BuildStation(rnd.choice([*cities, "Atlantis"]), rnd.choice(colors), rnd.randrange(0, 4))


def _refusals_and_events(map_name: str, games: int) -> Iterator[str]:
    rnd = random.Random(map_name)
    game_map = load_map(map_name)
    for seed in range(games):
        players = rnd.randint(game_map.rules.min_players, game_map.rules.max_players)
        state = new_game(game_map, players=players, seed=seed)
        while not is_terminal(state):
            for action in _probes(state, rnd):
                try:
                    apply_action(state, action, player=rnd.choice([None, state.current, 0]))
                except IllegalActionError as exc:
                    yield str(exc)
            result = step(state, rnd.choice(legal_actions(state)))
            for event in result.events:
                for viewer in ("all", 0, None):
                    line = describe_event(event, game_map, viewer=viewer)
                    if line:
                        yield line
            state = result.state
        for action in _probes(state, rnd):
            try:
                apply_action(state, action)
            except IllegalActionError as exc:
                yield str(exc)


_BAD_NOTATION = [
    "",
    "claim",
    "claim Paris",
    "claim Paris-Atlantis red",
    "claim Paris-Wien red+1L",
    "claim #999 red",
    "claim #-1 red",
    "station",
    "station Atlantis red",
    "draw faceup 9",
    "draw faceup x",
    "tickets keep a,b",
    "tickets keep 1,,2",
    "tunnel pay xL",
    "fly to the moon",
    "claim Paris-Frankfurt" + " red" * 20,
    "\x00\x01",
    "claim Amsterdam-Bruxelles 9L",
]


def _notation_errors() -> Iterator[str]:
    for map_name in available_maps():
        state = new_game(map_name, players=2, seed=3)
        while not is_terminal(state) and state.turn < 6:
            for text in _BAD_NOTATION:
                try:
                    parse_action(text, state)
                except (InvalidActionError, IllegalActionError) as exc:
                    yield str(exc)
            state = apply_action(state, legal_actions(state)[0])


_HOSTILE_CALLS = [
    ["simulate", "--players", "9"],
    ["simulate", "--map", "atlantis"],
    ["simulate", "--games", "-3"],
    ["simulate", "--agents", "nobody"],
    ["map-info", "atlantis"],
    ["replay", "/nonexistent/record.json"],
    ["render", "/nonexistent/record.json"],
    ["validate-map", "/nonexistent/map.json"],
    ["tournament", "--agents", "random,nobody", "--games", "1"],
]


def _cli_errors(capsys: pytest.CaptureFixture[str]) -> Iterator[str]:
    for argv in _HOSTILE_CALLS:
        status = main(argv)
        captured = capsys.readouterr()
        assert status != 0, argv
        # argparse's usage line comes first for usage errors; the message is the last line
        last = (captured.err.strip() or captured.out.strip()).splitlines()[-1]
        yield last.removeprefix("ttr: error: ")


def test_every_message_speaks_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    messages: list[str] = []
    for map_name in available_maps():
        messages.extend(_refusals_and_events(map_name, games=3))
    messages.extend(_notation_errors())
    messages.extend(_cli_errors(capsys))
    assert len(messages) >= 2000
    broken = {m: breaches(m) for m in messages if breaches(m)}
    assert broken == {}


# --------------------------------------------------------------------------- what players read


def _log_sentences(map_name: str, games: int) -> Iterator[str]:
    """The web page's log (the server's words for each step), as each seat and a spectator
    read it, with an agent named in a seat; and the hints, in words."""
    from ttr_rules import observe
    from ttr_rules.agents import compared, suggest
    from ttr_rules.web.labels import score_words, step_words

    rnd = random.Random(map_name)
    game_map = load_map(map_name)
    for seed in range(games):
        state = new_game(game_map, players=game_map.rules.min_players + seed % 2, seed=seed)
        agents = {1: "medium"}
        while not is_terminal(state):
            if rnd.random() < 0.02:
                hints = suggest(observe(state, state.current))
                for hint in hints:
                    yield f"{hint.label} ({compared(hint, hints[0])}): {hint.reason}"
            result = step(state, rnd.choice(legal_actions(state)))
            for viewer in (0, 1, None):
                yield step_words(result.events, game_map, viewer, agents)
            state = result.state
            if rnd.random() < 0.1 or state.tunnel is not None or state.phase is Phase.PAYMENT:
                yield from _page_words(state, agents)
        yield from _page_words(state, agents)
        for viewer in (0, 1, None):
            said = score_words(state, viewer, agents)
            yield said["headline"]
            yield from said["columns"]
            yield from (row["cells"][0] for row in said["rows"])


def _page_words(state: GameState, agents: dict[int, str]) -> Iterator[str]:
    """What the web page says about a position to each seat and a spectator: the panels,
    status line, prompts, names and headings, the tickets, the buttons of the legal actions."""
    from ttr_rules import observe, public_view
    from ttr_rules.frontend import ticket_status
    from ttr_rules.web.labels import describe_legal_actions, panel_words, ticket_words

    for view in (observe(state, 0), observe(state, 1), public_view(state)):
        for value in panel_words(view, agents).values():
            if isinstance(value, str):
                yield value
            elif isinstance(value, list):
                yield from (text for item in value for text in item.values())
    for seat in (0, 1):
        view = observe(state, seat)
        for offered in (False, True):
            if offered and view.seats[seat].offered is None:
                continue
            for status in ticket_status(view, seat, offered=offered):
                yield " ".join(w for w in ticket_words(status, state.is_terminal).values() if w)
    if not state.is_terminal:
        for item in describe_legal_actions(state):
            yield item["caption"]


def test_the_tunnel_and_payment_panels_count_their_cards() -> None:
    """The web page's panels (the kit's words): 1 extra card in the singular, several in the
    plural, a watcher told who decides, all within the house rules."""
    from ttr_rules import ClaimRoute, ClaimWithSets, PayCard, observe, scenario
    from ttr_rules.web.labels import panel_words

    europe = load_map("europe")
    tunnel = europe.route_between("Madrid", "Pamplona")[0].id
    black, red = Color.BLACK, Color.RED
    said = []
    # (a tunnel that asks for nothing more is claimed at once: no panel)
    for owed, blacks, verdict in ((1, 4, "Your hand can pay."), (2, 4, "you can only give up.")):
        deck = [black] * owed + [red] * (5 - owed)
        start = scenario(europe, hands=[{black: blacks}, {}], deck=deck)
        state = step(start, ClaimRoute(tunnel, black, 0)).state
        assert state.tunnel is not None and state.tunnel.owed == owed
        mine = panel_words(observe(state, 0), {})["tunnel"]
        theirs = panel_words(observe(state, 1), {1: "medium"})["tunnel"]
        assert mine is not None and theirs is not None
        said += [mine, theirs]
        plural = "s" if owed > 1 else ""
        assert f"ask for {owed} more black card{plural} (or locomotives)." in mine
        assert mine.endswith(verdict)
        assert theirs.endswith("Player 1 chooses to pay or give up.")
    nordic = load_map("nordic")
    ferry = nordic.route_between("Lieksa", "Murmansk")[0].id
    state = step(scenario(nordic, hands=[{red: 8, Color.BLUE: 8}, {}]), ClaimWithSets(ferry)).state
    for picks in range(3):
        mine = panel_words(observe(state, 0), {})["payment"]
        theirs = panel_words(observe(state, 1), {})["payment"]
        assert mine is not None and theirs == (
            "Player 1 is paying for Lieksa – Murmansk with substitute sets."
        )
        said += [mine, theirs]
        expected = ["pick the first card", "1 card picked so far", "2 cards picked so far"]
        assert mine.endswith(f"with substitute sets: {expected[picks]}.")
        state = step(state, PayCard(Color.BLUE)).state
    assert {m: breaches(m, for_players=True) for m in said if breaches(m, for_players=True)} == {}


def _play_output(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Every line ``ttr play`` prints in a game played by Enter, with a few wrong answers."""
    import io

    script = "xyzzy\n0 9\n1\n\nclaim Paris-Atlantis red\n999\n" + "\n" * 2000
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["play", "--seed", "4", "--plain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("you claim ") for line in lines)
    # (an answer is echoed after the prompt when the input is not a terminal: the person's words)
    return [line.strip() for line in lines if line.strip() and not line.startswith("Player 1> ")]


def _web_errors() -> Iterator[str]:
    from fastapi.testclient import TestClient

    from ttr_rules.web import create_app

    client = TestClient(create_app())
    for body in (
        '{"seed": 123456789012345678901234567890}',
        '{"seed": 1.5}',
        '{"seed": -1}',
        '{"players": 1}',
        '{"players": "two"}',
        '{"map": "atlantis"}',
        '{"agents": {"7": "medium"}}',
    ):
        answer = client.post(
            "/api/games", content=body, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code >= 400, body
        yield answer.json()["message"]


def test_what_players_read_speaks_plainly_without_notation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The web log, the hints and ``ttr play``'s lines (its menus, narration and complaints)
    keep the house rules and show no notation; the web API's errors keep the house rules."""
    said: list[str] = []
    for map_name in available_maps():
        said.extend(_log_sentences(map_name, games=2))
    said.extend(_play_output(monkeypatch, capsys))
    assert len(said) >= 1000
    broken = {m: breaches(m, for_players=True) for m in said if breaches(m, for_players=True)}
    assert broken == {}
    errors = list(_web_errors())
    assert {m: breaches(m) for m in errors if breaches(m)} == {}


def test_a_refused_claim_names_its_route_by_its_cities() -> None:
    """A refusal quotes the route by its cities, its number beside (issue 47), on every map;
    so does the detail that points at the other track of a double route."""
    from ttr_rules import ClaimWithSets, scenario
    from ttr_rules.words import route_with_number

    for map_name in available_maps():
        game_map = load_map(map_name)
        state = new_game(game_map, players=game_map.rules.min_players, seed=1)
        for route in game_map.routes:
            for action in (ClaimRoute(route.id, Color.RED, 0), ClaimWithSets(route.id)):
                with pytest.raises(IllegalActionError) as refused:
                    apply_action(state, action)
                message = str(refused.value)
                assert route_with_number(game_map, route.id) in message
                assert not re.search(r"#\d", message), message
    europe = load_map("europe")
    first, second = europe.route_between("Berlin", "Frankfurt")
    state = scenario(europe, hands=[{Color.BLACK: 9, Color.RED: 9}, {}], routes={first.id: 0})
    with pytest.raises(IllegalActionError) as refused:
        apply_action(state, ClaimRoute(second.id, Color.RED, 0))
    assert str(refused.value) == (
        "illegal action claim Berlin – Frankfurt (red, route 17) red: other track of double"
        " route already yours (the other track is Berlin – Frankfurt (black, route 16))"
    )


# --------------------------------------------------------------------------- the web page's script


def _js_literals(source: str) -> list[str]:
    """The string, template and regular-expression literals of a script, comments left out;
    a template's ``${...}`` reads as ``NAME`` (a word, so that words around it still count),
    a regular expression keeps its slashes."""
    out: list[str] = []
    i, n = 0, len(source)
    significant = ""  # the last character that is not a space: tells a regex from a division
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.index("\n", i) if "\n" in source[i:] else n
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif c in "'\"":
            end = i + 1
            while source[end] != c:
                end += 2 if source[end] == "\\" else 1
            out.append(source[i + 1 : end])
            i, significant = end + 1, c
        elif c == "`":
            text, i = _template(source, i + 1, out)
            out.append(text)
            significant = "`"
        elif c == "/" and (not significant or significant in "(,=:[!&|?{};"):
            end, in_class = i + 1, False
            while in_class or source[end] != "/":
                in_class = (in_class or source[end] == "[") and source[end] != "]"
                end += 2 if source[end] == "\\" else 1
            out.append(source[i : end + 1])
            i, significant = end + 1, "/"
        else:
            significant = c if not c.isspace() else significant
            i += 1
    return out


def _template(source: str, i: int, out: list[str]) -> tuple[str, int]:
    """A template literal from ``i`` (after its backquote): its text and where it ends; the
    literals inside its ``${...}`` are appended to ``out``."""
    text = []
    while source[i] != "`":
        if source.startswith("${", i):
            depth, start = 1, i + 2
            i += 2
            while depth:
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
            out.extend(_js_literals(source[start : i - 1]))
            text.append("NAME")
        else:
            text.append(source[i : i + 2] if source[i] == "\\" else source[i])
            i += 2 if source[i] == "\\" else 1
    return "".join(text), i + 1


#: Literals of app.js that hold words but are no sentence: phases and notation the server
#: reads or writes, class lists, selectors and headers.
_SCRIPT_WORDS = {
    "use strict",
    "xMidYMid meet",
    "game over",  # a phase, compared
    "tickets keep NAME",  # notation sent to the server
    "status mine",
    "primary payment-claim",
    "cards payment-picks",
    "tunnel-option",
}

#: Single capitalised words of app.js that are no sentence either: names of the platform.
_SCRIPT_NAMES = {"Bearer NAME", "Authorization", "Escape", "DOMContentLoaded", "HTTP NAME"}


def _sentence_like(literal: str) -> bool:
    """Two words side by side, or a capitalised word: what a sentence or a caption is made of;
    a regular expression with a word and a space (it would cut a sentence)."""
    if re.fullmatch(r"/.+/", literal) and re.search(r"[A-Za-z]{2,} ", literal):
        return True
    pairs = re.finditer(r"(?<![\w.#-])([A-Za-z]{2,})\s+(?=([A-Za-z]{2,})(?![\w-]))", literal)
    return any(pair.groups() != ("NAME", "NAME") for pair in pairs) or bool(
        re.fullmatch(r"\W*[A-Z][a-z]+\W*", literal)
    )


def test_the_web_page_script_writes_no_sentence_of_its_own() -> None:
    """app.js places the texts it is given (the server's words, the page's #texts) and builds
    none (issue 47): no literal of it reads like words beyond the few names above."""
    from importlib.resources import files

    source = files("ttr_rules.web").joinpath("static", "app.js").read_text("utf-8")
    literals = _js_literals(source)
    assert len(literals) > 200  # (the scanner read the whole script)
    worded = {t for t in literals if _sentence_like(t)} - _SCRIPT_WORDS - _SCRIPT_NAMES
    assert worded == set()


def test_the_scanner_finds_the_sentences_a_script_would_build() -> None:
    script = """
    const a = "Keep at least " + n; // a comment: never read
    const b = `${name} wins!`; const c = 'Cancel'; const d = x / 2 / y;
    const e = s.replace(/^Claim .* with /, "Pay "); /* Not a literal */ const f = "c-red";
    """
    found = [t for t in _js_literals(script) if _sentence_like(t)]
    assert found == ["Keep at least ", "NAME wins!", "Cancel", "/^Claim .* with /", "Pay "]


def test_the_page_words_take_the_reader_person_and_number() -> None:
    """The status line, the prompts and the names as the seat to act, another seat and a
    spectator read them; a ticket to several destinations shows its penalty with a minus."""
    from ttr_rules import DrawBlind, observe, public_view
    from ttr_rules.frontend import ticket_status
    from ttr_rules.web.labels import panel_words, ticket_words

    state = new_game("switzerland", players=3, seed=0)
    agents = {1: "medium"}
    mine, theirs, watching = (
        panel_words(view, agents)
        for view in (observe(state, 0), observe(state, 1), public_view(state))
    )
    assert mine["status"] == "Your turn: choose your destination tickets."
    assert mine["keep"] == "Keep at least 2 of these 5 tickets:" and theirs["keep"] is None
    assert theirs["status"] == "Player 1 is choosing destination tickets."
    assert watching["status"] == "Player 1 is choosing destination tickets; you are watching."
    assert [s["full"] for s in mine["seats"]] == ["You", "Player 2 (medium)", "Player 3"]
    assert [s["name"] for s in watching["seats"]] == ["Player 1", "Player 2", "Player 3"]
    assert (mine["title"], theirs["title"], watching["prompt"]) == ("Your move", "Table", "")
    worth = [
        ticket_words(s, False)["worth"] for s in ticket_status(observe(state, 0), offered=True)
    ]
    assert worth == ["5", "7", "15", "8", "3–12 (−3)"]
    while state.phase is not Phase.START:
        state = step(state, legal_actions(state)[0]).state
    state = step(state, DrawBlind()).state
    said = panel_words(observe(state, state.current), {})
    assert said["status"] == "Your turn: draw your second card."
    assert said["prompt"] == "Draw your second card."
