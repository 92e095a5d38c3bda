"""Examples that run (issue 31): every action written in notation in the README, the docs, the
docstrings, help texts and schemas of the package, and the examples, parses, and is legal in a
position built for it.

A claim or a station is tried against hands of one colour (and of locomotives only) so that an
omitted payment has one reading; a face-up draw against a row of plain cards; a ticket choice
after a ticket draw that offers the tickets named; a tunnel payment after a reveal that owes one
card; a pass when nothing else is possible. Texts that the docs show on purpose as refused are
listed in :data:`REFUSED_ON_PURPOSE`, and checked to be refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ttr_rules import (
    Action,
    AmbiguousActionError,
    ClaimRoute,
    Color,
    DrawTickets,
    GameState,
    InvalidActionError,
    apply_action,
    is_legal,
    legal_actions,
    load_map,
    parse_action,
    scenario,
)

ROOT = Path(__file__).parents[1]
SOURCES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "src").rglob("*.py")),
    *sorted((ROOT / "src").rglob("*.json")),
    *sorted((ROOT / "src").rglob("*.js")),
    *sorted((ROOT / "examples").rglob("*.py")),
    *sorted((ROOT / "examples").rglob("*.md")),
]
_SPAN = re.compile(r"(``|`|\"|')((?:claim|station|draw|tickets|tunnel|pass)\b[^`\"'\n\\]*)\\?\1")
#: What may follow each verb in an example (the rest of a span is prose, CSS or a template).
_ACTION = re.compile(
    r"(claim (#\d+|[A-Z]\S*-\S+)( \S+)?"
    r"|station [A-Z]\S*( \S+)?"
    r"|draw (blind|deck|tickets|faceup \d|face-up \d|face up \d|\d)"
    r"|tickets (draw|keep \d+(, ?\d+)*)"
    r"|tunnel (pay \d+L?|decline)"
    r"|pass)"
)
#: A grammar's placeholder (``station CITY PAYMENT``), not an example.
_PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b")

#: Texts the docs show as refused, on purpose, and the error they raise.
REFUSED_ON_PURPOSE: dict[str, type[Exception]] = {
    # docs/notation.md: "when both are legal ... the text is ambiguous"
    "claim Paris-Frankfurt 3L": AmbiguousActionError,
}


def notation_examples() -> Iterator[tuple[str, str]]:
    """``(where, text)`` of every action example."""
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in _SPAN.finditer(text):
            for part in match.group(2).split(", claim "):
                example = (
                    part
                    if part.startswith(("claim", "station", "draw", "tickets", "tunnel", "pass"))
                    else f"claim {part}"
                )
                if _ACTION.fullmatch(example.strip()) and not _PLACEHOLDER.search(example):
                    line = text.count("\n", 0, match.start()) + 1
                    yield f"{path.relative_to(ROOT)}:{line}", example.strip()


EXAMPLES = sorted(set(notation_examples()))
EUROPE = load_map("europe")
_EVERY_COLOUR = [c for c in Color if c is not Color.LOCOMOTIVE]


def _main_phase(hand: dict[Color, int], stations: dict[str, int] | None = None) -> GameState:
    face = Color.BLACK if hand.get(Color.WHITE, 0) > 7 else Color.WHITE
    return scenario(
        players=4, hands=[hand, {}, {}, {}], face_up=[face] * 5, stations=stations or {}
    )


def _positions(text: str) -> Iterator[GameState]:
    """Positions in which ``text`` may be legal, the likeliest first."""
    verb = text.split()[0].lower()
    if verb == "claim" and text.lower().endswith(" sets"):  # a board with substitute sets
        yield scenario("nordic", players=2, hands=[{c: 6 for c in Color}, {}])
    elif verb in ("claim", "station"):
        for built in range(EUROPE.rules.stations_per_player):
            stations = dict.fromkeys(["Lisboa", "Cadiz", "Madrid"][:built], 0)
            yield _main_phase({c: 6 for c in Color}, stations)
            for color in Color:
                yield _main_phase({color: 9}, stations)
    elif verb == "tickets" and "keep" in text.lower():
        wanted = [int(t) for t in re.findall(r"\d+", text)]
        rest = [t for t in range(len(EUROPE.tickets)) if t not in wanted and not _long(t)]
        start = scenario(players=2, ticket_deck=[*wanted, *rest])
        yield apply_action(start, DrawTickets())
    elif verb == "tunnel":
        yield _after_a_reveal_owing_one()
    elif verb == "pass":
        yield scenario(
            players=2, hands=[{}, {}], face_up=[None] * 5, deck=[], discard=[], ticket_deck=[]
        )
    else:
        yield _main_phase({})


def _long(ticket: int) -> bool:
    return EUROPE.tickets[ticket].long


def _after_a_reveal_owing_one() -> GameState:
    """Player 0 has tried a red tunnel paying red only; the reveal shows one red card."""
    tunnel = next(
        i
        for i, r in enumerate(EUROPE.routes)
        if r.tunnel and r.color in (Color.RED, None) and r.length <= 3
    )
    length = EUROPE.routes[tunnel].length
    state = scenario(
        players=2,
        hands=[{Color.RED: length + 2, Color.LOCOMOTIVE: 2}, {}],
        face_up=[Color.BLUE] * 5,
        deck=[Color.RED, Color.GREEN, Color.GREEN, Color.BLACK],
        discard=[],
    )
    return apply_action(state, ClaimRoute(tunnel, Color.RED, 0))


def _legal_reading(text: str) -> tuple[GameState, Action] | None:
    for state in _positions(text):
        try:
            action = parse_action(text, state)
        except InvalidActionError:
            continue
        if is_legal(state, action):
            return state, action
    return None


def test_the_examples_were_found() -> None:
    texts = {text for _, text in EXAMPLES}
    assert len(texts) >= 15
    assert {"draw blind", "tunnel decline", "station Berlin black"} <= texts


@pytest.mark.parametrize(("where", "text"), EXAMPLES, ids=[f"{w} {t}" for w, t in EXAMPLES])
def test_a_notation_example_is_a_legal_action(where: str, text: str) -> None:
    if text in REFUSED_ON_PURPOSE:
        with pytest.raises(REFUSED_ON_PURPOSE[text]):
            parse_action(text, _main_phase({c: 6 for c in Color}))
        return
    found = _legal_reading(text)
    assert found is not None, f"{where}: {text!r} is not a legal action in any test position"
    state, action = found
    assert action in legal_actions(state)


def test_the_tunnel_position_owes_one_card() -> None:
    state = _after_a_reveal_owing_one()
    assert state.tunnel is not None and state.tunnel.owed == 1


def test_scenario_reads_city_names_as_the_notation_does() -> None:
    """One resolver for every city name (issue 31): aliases, any case, no diacritics."""
    state = scenario("usa", players=2, tickets=[[("Montreal", "new york", 5)], []], stations={})
    ticket = state.map.tickets[state.players[0].tickets[0]]
    assert (ticket.a, ticket.b) == ("Montréal", "New York")
    europe = scenario(players=2, stations={"munich": 0, "Kiev": 1})
    assert europe.players[0].stations == ("München",)
    assert europe.players[1].stations == ("Kyiv",)
    with pytest.raises(ValueError, match="stations: München is named twice"):
        scenario(players=2, stations={"munich": 0, "München": 1})
    with pytest.raises(ValueError, match="did you mean Paris"):
        scenario(players=2, tickets=[[("Pariss", "Wien", 5)], []])
