"""A position, an event and a score breakdown as terminal text (what ``ttr show``, ``ttr
replay``, ``ttr simulate`` and ``ttr play`` print).

Like :func:`ttr_rules.render.svg`, :func:`text` accepts a full state (everything is shown) or a
player's view (only what the viewer knows).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import attrs

from ..cards import Color, Hand
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
    Termination,
    TicketsDrawn,
    TicketsKept,
    TunnelDeclined,
    TunnelRevealed,
    TurnEnded,
)
from ..frontend import route_name
from ..maps import GameMap, Ticket
from ..scoring import PlayerScore, final_scores, rank_winners
from ..scoring.bonuses import bonus_scorer
from ..state import GameState
from ..views import PlayerView, SeatView
from ..words import (
    agrees,
    counted,
    joined,
    minus,
    seat_name,
    signed,
    ticket_ends,
    with_article,
)
from .scene import as_view, end_scores, is_omniscient

__all__ = [
    "SCORE_COLUMNS",
    "card_text",
    "cards_text",
    "cards_words",
    "counted",
    "describe_event",
    "format_scores",
    "route_words",
    "score_table",
    "text",
    "ticket_text",
]


def text(state_or_view: GameState | PlayerView) -> str:
    """The position as text: the situation, the cards on the table, then every player.

    A state shows every hand and ticket; a view only what its viewer knows. At the end of the
    game the score table follows.

    >>> from ttr_rules import new_game, observe
    >>> print(text(observe(new_game("europe", 2, seed=3), 1)).splitlines()[0])
    europe 1.0: turn 0, Player 1 to act (initial tickets), seen by Player 2
    """
    view = as_view(state_or_view)
    m = view.map
    who = (
        "all players"
        if is_omniscient(view)
        else "a spectator"
        if view.player is None
        else seat_name(view.player)
    )
    acting = (
        "game over"
        if view.is_terminal
        else "your move"
        if view.current == view.player
        else f"{seat_name(view.current)} to act"
    )
    situation = "" if view.is_terminal else f" ({view.phase.value})"
    lines = [
        f"{m.name} {m.version}: turn {view.turn}, {acting}{situation}, seen by {who}",
        "face-up: " + ", ".join("-" if c is None else c.value for c in view.face_up),
        f"deck: {counted(view.deck_size, 'card')}; discard: {counted(len(view.discard), 'card')}"
        f" ({_pile(view.discard)}); tickets: {view.ticket_deck_size} in the deck,"
        f" {view.ticket_box_size} out of the game",
    ]
    if view.final_turns is not None and not view.is_terminal:
        lines.append(f"final round: {counted(view.final_turns, 'turn')} left")
    if view.tunnel is not None:
        t = view.tunnel
        lines.append(
            f"tunnel {route_name(m, t.route)}: revealed {cards_text(t.revealed)},"
            f" {counted(t.owed, 'extra card')} owed"
        )
    if view.payment is not None:
        picked = view.payment.cards
        shown = cards_text(picked) if picked else "none shown"
        lines.append(f"paying {route_name(m, view.payment.route)} with sets: picked {shown}")
    for seat, s in enumerate(view.seats):
        lines.extend(_seat_lines(view, seat, s))
    scored = end_scores(view)
    if scored is not None:
        lines.append("")
        lines.append(score_table(scored[0], winners=scored[1], game_map=m))
    return "\n".join(lines)


def _seat_lines(view: PlayerView, seat: int, s: SeatView) -> list[str]:
    m = view.map
    you = " (you)" if seat == view.player else ""
    routes = [route_name(m, r) for r, owner in enumerate(view.route_owner) if owner == seat]
    left = view.rules.stations_per_player - len(s.stations)
    stations = f", {counted(left, 'station')} left" if view.rules.stations_per_player else ""
    if s.stations:
        stations += f" (built: {', '.join(s.stations)})"
    offered = f", {s.offered_count} offered" if s.offered_count else ""
    lines = [
        f"{seat_name(seat)}{you}: {counted(s.trains, 'train')}{stations},"
        f" {counted(s.route_points, 'route point')}, {counted(s.hand_size, 'card')},"
        f" {counted(s.ticket_count, 'ticket')}{offered}",
        f"  routes: {', '.join(routes) or 'none'}",
    ]
    if s.hand is not None:
        lines.append(f"  hand: {s.hand}")
    if s.tickets is not None:
        lines.append(
            "  tickets: " + (", ".join(ticket_text(m.tickets[t]) for t in s.tickets) or "none")
        )
    if s.offered:
        lines.append(
            "  offered: " + ", ".join(f"#{t} {ticket_text(m.tickets[t])}" for t in s.offered)
        )
    return lines


def card_text(color: Color | None) -> str:
    """One card with its article: ``a red card``, ``an orange card``, ``a locomotive``, and
    ``a card`` when its colour is hidden.

    >>> card_text(Color.ORANGE), card_text(Color.LOCOMOTIVE), card_text(None)
    ('an orange card', 'a locomotive', 'a card')
    """
    if color is None:
        return "a card"
    if color is Color.LOCOMOTIVE:
        return "a locomotive"
    return with_article(f"{color.value} card")


def cards_text(cards: Iterable[Color]) -> str:
    """Cards in the given order: ``red, red, locomotive`` (``nothing`` when empty)."""
    return ", ".join(c.value for c in cards) or "nothing"


def ticket_text(ticket: Ticket) -> str:
    """A ticket's places, as the web page writes them (:func:`ttr_rules.words.ticket_ends`),
    and its points, or the points a ticket to several destinations loses (a true minus).

    >>> ticket_text(Ticket(0, "Paris", "Wien", 8))
    'Paris – Wien (8)'
    >>> places = (("France", 5), ("Italia", 11))
    >>> ticket_text(Ticket(1, "Bern", "", 11, destinations=places, penalty=5))
    'Bern – France 5 or Italia 11 (−5)'
    """
    worth = minus(ticket.penalty) if ticket.destinations else str(ticket.points)
    return f"{ticket_ends(ticket)} ({worth})"


def _pile(cards: Sequence[Color]) -> str:
    """A pile counted by colour, as a hand is: ``2 red, 2 locomotives`` (``empty``)."""
    return str(Hand.of(cards)) if cards else "empty"


# --------------------------------------------------------------------------- events


#: How each kind of ending reads after "game over:".
_ENDINGS: dict[Termination, str] = {
    Termination.TRAINS: "the final round is played",
    Termination.PASSES: "every player passed in one round",
}

#: Who a seat is in a sentence: :func:`ttr_rules.words.seat_name` by default (``Player 2``,
#: ``you`` for the reader, who is then spoken to: ``you have``); a front end may pass its own.
Names = Callable[[int], str]


def route_words(game_map: GameMap, route: int) -> str:
    """A route as people name it: ``Paris – Wien``.

    >>> from ttr_rules import load_map
    >>> route_words(load_map("europe"), 0)
    'Amsterdam – Bruxelles'
    """
    r = game_map.routes[route]
    return f"{r.a} – {r.b}"


def cards_words(cards: Iterable[Color]) -> str:
    """Cards counted by colour, in the order they first come: ``2 red and 1 locomotive``
    (``no cards`` when empty).

    >>> cards_words([Color.RED, Color.LOCOMOTIVE, Color.RED]), cards_words([])
    ('2 red and 1 locomotive', 'no cards')
    """
    counts: dict[Color, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    if not counts:
        return "no cards"
    return joined(
        counted(n, "locomotive") if c is Color.LOCOMOTIVE else f"{n} {c.value}"
        for c, n in counts.items()
    )


def _mountain_words(game_map: GameMap, route: int) -> str:
    """What a mountain route's X marks took: a train each, beside the cards (U27)."""
    marks = game_map.routes[route].mountain
    if not marks:
        return ""
    return f" ({counted(marks, 'X mark')}: {counted(marks, 'more train')})"


def _draw(e: CardDrawn, who: Names) -> str:
    if e.slot is None:
        return f"{agrees(who(e.player), 'draw')} {card_text(e.color)} from the deck"
    return f"{agrees(who(e.player), 'take')} {card_text(e.color)} from the face-up row"


def _kept(e: TicketsKept, who: Names) -> str:
    returned = f" ({e.returned} returned)" if e.returned else ""
    return f"{agrees(who(e.player), 'keep')} {counted(e.kept, 'ticket')}{returned}"


_EventText = Callable[[Any, GameMap, Names], str]
_EVENT_TEXT: dict[type, _EventText] = {
    CardDrawn: lambda e, m, who: _draw(e, who),
    FaceUpReplaced: lambda e, m, who: f"{card_text(e.color)} is turned face up",
    FaceUpReset: lambda e, m, who: (
        f"three locomotives face up: the row is replaced ({cards_words(e.discarded)} discarded)"
    ),
    ResetCapReached: lambda e, m, who: (
        f"the face-up row is kept after {counted(e.resets, 'reset')}"
    ),
    DeckReshuffled: lambda e, m, who: (
        f"the discard pile is shuffled into a deck of {counted(e.cards, 'card')}"
    ),
    TunnelRevealed: lambda e, m, who: (
        f"the tunnel {route_words(m, e.route)} reveals {cards_words(e.cards)}:"
        f" {counted(e.owed, 'extra card')} owed"
    ),
    TunnelDeclined: lambda e, m, who: (
        f"{agrees(who(e.player), 'give')} up the tunnel {route_words(m, e.route)}"
    ),
    RouteClaimed: lambda e, m, who: (
        f"{agrees(who(e.player), 'claim')} {route_words(m, e.route)} with"
        f" {cards_words(e.cards)} for {counted(e.points, 'point')}{_mountain_words(m, e.route)}"
    ),
    StationBuilt: lambda e, m, who: (
        f"{agrees(who(e.player), 'build')} a station in {e.city} with {cards_words(e.cards)}"
    ),
    TicketsDrawn: lambda e, m, who: (
        f"{agrees(who(e.player), 'draw')} {counted(e.count, 'destination ticket')}"
    ),
    TicketsKept: lambda e, m, who: _kept(e, who),
    Passed: lambda e, m, who: agrees(who(e.player), "pass"),
    TurnEnded: lambda e, m, who: "",
    FinalRoundStarted: lambda e, m, who: (
        f"final round: {agrees(who(e.player), 'have')} {counted(e.trains, 'train')} left"
    ),
    GameOver: lambda e, m, who: f"game over: {_ENDINGS.get(e.reason, e.reason.value)}",
}


def describe_event(
    event: Event,
    game_map: GameMap,
    *,
    viewer: int | str | None = "all",
    names: Names | None = None,
) -> str:
    """One line for an event (empty for the end of a turn, which a layout shows by itself).

    ``viewer`` says who reads it: ``"all"`` (the default) sees everything, a seat or None (a
    spectator) does not see the colour of another player's blind draw, the only private fact
    an event carries. ``names`` names the seats (default :func:`ttr_rules.words.seat_name`:
    ``Player N`` counted from 1, ``you`` for a seat reading); a seat named ``you`` is spoken to
    (``you have``, ``Player 2 has``).

    >>> from ttr_rules import Color, load_map
    >>> from ttr_rules.events import CardDrawn, FinalRoundStarted
    >>> drawn = CardDrawn(player=1, color=Color.ORANGE, slot=None)
    >>> describe_event(drawn, load_map("europe"))
    'Player 2 draws an orange card from the deck'
    >>> describe_event(drawn, load_map("europe"), viewer=0)
    'Player 2 draws a card from the deck'
    >>> describe_event(FinalRoundStarted(player=0, trains=1), load_map("europe"), viewer=0)
    'final round: you have 1 train left'
    """
    if (
        isinstance(event, CardDrawn)
        and event.slot is None
        and viewer != "all"
        and viewer != event.player
    ):
        event = attrs.evolve(event, color=None)
    reader = viewer if isinstance(viewer, int) else None
    return _EVENT_TEXT[type(event)](event, game_map, names or partial(seat_name, reader=reader))


# --------------------------------------------------------------------------- scores


#: The score table's columns: (heading, what it counts).
SCORE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("player", "the seat (P0 is seat 0)"),
    ("routes", "points for the claimed routes (E71)"),
    ("mountains", "of the route points, those of mountain routes' X marks (U27)"),
    ("tickets", "points of completed tickets minus points of failed ones (E65)"),
    ("done", "tickets completed"),
    ("failed", "tickets not completed"),
    ("built", "stations built (E60)"),
    ("unbuilt+", "bonus for the stations left unbuilt (E59)"),
    ("path", "spaces in the longest continuous path (E72)"),
    ("express+", "the bonus for the longest path (E72, E74)"),
    ("total", "the final score; * marks the winners (E76, E77)"),
)


def score_table(
    scores: Sequence[PlayerScore],
    *,
    winners: Iterable[int] = (),
    game_map: GameMap | None = None,
    legend: bool = True,
) -> str:
    """An aligned table of score breakdowns, the winners marked ``*``; with ``legend`` a line
    explaining each column follows, and with ``game_map`` the route each station uses.

    Each bonus other than the longest path (``PlayerScore.bonuses``: the Globetrotter, a
    plugin's scorer) has a column under its name, explained by its scorer's docstring. With
    ``game_map``, the columns its rules cannot fill are left out: the station columns when
    nobody has stations, ``express+`` when the longest path earns no bonus (``path`` stays: it
    breaks ties).

    >>> from ttr_rules import PlayerScore
    >>> print(score_table([PlayerScore(0, 12, 8, 2, 0, 8, 6, 10, 38)], winners=[0], legend=False))
    player  routes  tickets  done  failed  built  unbuilt+  path  express+  total
    Player 1        12       +8     2       0      0        +8     6       +10     38  *
    >>> globetrotter = PlayerScore(1, 12, 8, 2, 0, 0, 6, 0, 30, bonuses=(("globetrotter", 10),))
    >>> print(score_table([globetrotter], legend=False))
    player  routes  tickets  done  failed  built  unbuilt+  path  express+  globetrotter+  total
    Player 2        12       +8     2       0      0         0     6         0            +10     30
    """
    top = set(winners)
    skip = _unused_columns(game_map)
    if not any(s.mountain_points for s in scores) and (
        game_map is None or not any(r.mountain for r in game_map.routes)
    ):
        skip |= {"mountains"}
    names = [name for name, _ in scores[0].bonuses] if scores else []
    columns = [
        (name, _express_meaning(game_map) if name == "express+" else meaning)
        for name, meaning in SCORE_COLUMNS
        if name not in skip
    ]
    columns[-1:-1] = [(f"{name}+", _bonus_meaning(name, game_map)) for name in names]
    header = tuple(name for name, _ in columns) + ("",)
    rows = [header] + [_score_row(s, skip, s.player in top) for s in scores]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [_row(row, widths) for row in rows]
    if game_map is not None:
        lines.extend(_station_lines(game_map, scores))
    if legend:
        explained = "; ".join(f"{name}: {meaning}" for name, meaning in columns[1:])
        lines.extend(textwrap.wrap("columns: " + explained, width=100, subsequent_indent="  "))
    return "\n".join(lines)


def _unused_columns(game_map: GameMap | None) -> frozenset[str]:
    """The columns of :data:`SCORE_COLUMNS` that ``game_map``'s rules never fill."""
    if game_map is None:
        return frozenset()
    rules = game_map.rules
    skip = set()
    if not rules.stations_per_player:
        skip |= {"built", "unbuilt+"}
    if "express" not in rules.bonuses:
        skip.add("express+")
    return frozenset(skip)


def _score_row(s: PlayerScore, skip: frozenset[str], winner: bool) -> tuple[str, ...]:
    cells = {
        "player": seat_name(s.player),
        "routes": str(s.route_points),
        "mountains": str(s.mountain_points),
        "tickets": signed(s.ticket_points),
        "done": str(s.tickets_completed),
        "failed": str(s.tickets_failed),
        "built": str(len(s.station_routes)),
        "unbuilt+": signed(s.station_bonus),
        "path": str(s.longest_path),
        "express+": signed(s.express_bonus),
    }
    fixed = [cell for name, cell in cells.items() if name not in skip]
    bonuses = [signed(points) for _, points in s.bonuses]
    return (*fixed, *bonuses, str(s.total), "*" if winner else "")


#: What the built-in bonuses other than the longest path count, for the score table's legend
#: (after the bonus's name on the map).
_BONUS_MEANINGS = {
    "globetrotter": "bonus, to every player tied for the most completed tickets (U23)",
    "grand_tour": "bonus, by the completed tickets joined by two paths without a common route "
    "(U35)",
    "asian_explorer": "bonus, to every player tied for the most cities joined in one network "
    "of their own routes (U29)",
}


def _express_meaning(game_map: GameMap | None) -> str:
    title = "" if game_map is None else game_map.bonus_title("express")
    if not title or title == "the longest-path bonus":
        return "the bonus for the longest path (E72, E74)"
    return f"{title}, the bonus for the longest path (E72, E74)"


def _bonus_meaning(name: str, game_map: GameMap | None = None) -> str:
    """What a bonus column counts: said here for the built-in ones (under the map's name for
    the bonus), else the first sentence of its scorer's docstring (a plugin's scorer explains
    itself)."""
    if name in _BONUS_MEANINGS:
        title = game_map.bonus_title(name) if game_map is not None else f"the {name} bonus"
        return f"{title.removesuffix(' bonus')} {_BONUS_MEANINGS[name]}"
    doc = " ".join((bonus_scorer(name).__doc__ or "").split())
    first = doc.split(". ")[0].rstrip(".")
    return first or f"the {name} bonus"


def format_scores(state: GameState) -> str:
    """The score table of :func:`~ttr_rules.final_scores` for ``state``, the winners marked
    ``*``, each built station's route, and what each column means.

    >>> from ttr_rules import new_game
    >>> print(format_scores(new_game(players=2, seed=1)).splitlines()[0])
    player  routes  tickets  done  failed  built  unbuilt+  path  express+  total
    """
    scores = final_scores(state)
    return score_table(scores, winners=rank_winners(scores, state.rules), game_map=state.map)


def _row(row: Sequence[str], widths: Sequence[int]) -> str:
    cells = [
        cell.ljust(w) if i == 0 else cell.rjust(w)
        for i, (cell, w) in enumerate(zip(row, widths, strict=True))
    ]
    return "  ".join(cells).rstrip()


def _station_lines(game_map: GameMap, scores: Sequence[PlayerScore]) -> list[str]:
    """One line per player with stations: each station's city and the route it uses (U9)."""
    lines = []
    for s in scores:
        if s.station_routes:
            used = ", ".join(
                f"{city} (no route)" if rid is None else f"{city} -> {route_name(game_map, rid)}"
                for city, rid in s.station_routes
            )
            lines.append(f"  {seat_name(s.player)}'s stations: {used}")
    return lines
