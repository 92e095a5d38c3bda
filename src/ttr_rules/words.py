"""Plain words for messages: counts with their nouns, articles and lists, so that every
sentence the library writes for a person reads the same way ("1 ticket", "an orange card",
"3, 15 and 24"), routes by their cities ("Paris – Wien") and points lost with a true minus
("−5")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the map model imports this module: its names are for the checker only)
    from .maps.model import GameMap, Ticket


def counted(number: int, noun: str) -> str:
    """A count with its noun in the singular or the plural.

    >>> counted(1, "point"), counted(2, "point"), counted(0, "extra card")
    ('1 point', '2 points', '0 extra cards')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def with_article(noun_phrase: str) -> str:
    """``a`` or ``an`` before a noun phrase, by its first letter.

    >>> with_article("orange card"), with_article("red card"), with_article("locomotive")
    ('an orange card', 'a red card', 'a locomotive')
    """
    article = "an" if noun_phrase[:1].lower() in {"a", "e", "i", "o", "u"} else "a"
    return f"{article} {noun_phrase}"


def clipped(text: str, limit: int = 80) -> str:
    """``text`` cut to a length fit for a message, saying how long it was.

    >>> clipped("Paris"), clipped("x" * 100, limit=5)
    ('Paris', 'xxxxx... (100 characters)')
    """
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def joined(items: Iterable[object], *, last: str = "and") -> str:
    """Items as a sentence lists them.

    >>> joined([3]), joined([3, 15]), joined([3, 15, 24]), joined(["red", "blue"], last="or")
    ('3', '3 and 15', '3, 15 and 24', 'red or blue')
    """
    texts = [str(item) for item in items]
    if len(texts) <= 1:
        return "".join(texts) or "none"
    return f"{', '.join(texts[:-1])} {last} {texts[-1]}"


def seat_name(seat: int, reader: int | None = None, agent: str = "") -> str:
    """How a sentence names a seat: ``Player 2`` (counted from 1, as people count seats; the
    notation, JSON, options and the API count them from 0), ``you`` for the ``reader``'s own
    seat, an ``agent`` playing it beside its name. Every sentence for a person names seats
    this way: the web page, ``ttr play``, the text views and the refusals.

    >>> seat_name(0), seat_name(1, reader=1), seat_name(2, reader=0, agent="medium")
    ('Player 1', 'you', 'Player 3 (medium)')
    """
    if seat == reader:
        return "you"
    return f"Player {seat + 1}" + (f" ({agent})" if agent else "")


#: Verbs whose third person is not the base form with ``s`` or ``es``.
_THIRD_PERSON = {"have": "has", "be": "is", "do": "does", "go": "goes"}

#: Subjects that take the base form of a verb ("you have", "they have").
_PLURAL_SUBJECTS = frozenset({"you", "we", "they", "i"})


def agrees(subject: str, verb: str) -> str:
    """``subject`` followed by ``verb`` (given in its base form) in the present tense,
    agreeing with it: the second person and plurals take the base form, a named player the
    third person.

    >>> agrees("You", "have"), agrees("Player 2", "have"), agrees("you", "be")
    ('You have', 'Player 2 has', 'you are')
    >>> agrees("Player 2 (greedy)", "pass"), agrees("you", "claim")
    ('Player 2 (greedy) passes', 'you claim')
    """
    if subject.strip().lower() in _PLURAL_SUBJECTS:
        return f"{subject} {'are' if verb == 'be' else verb}"
    return f"{subject} {third_person(verb)}"


def third_person(verb: str) -> str:
    """The third person singular of a verb given in its base form.

    >>> third_person("claim"), third_person("pass"), third_person("have"), third_person("try")
    ('claims', 'passes', 'has', 'tries')
    """
    if verb in _THIRD_PERSON:
        return _THIRD_PERSON[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in {"a", "e", "i", "o", "u"}:
        return verb[:-1] + "ies"
    return verb + "s"


def sentence(text: str) -> str:
    """``text`` with its first letter in capitals, as a sentence starts.

    >>> sentence("you keep 2 tickets"), sentence("")
    ('You keep 2 tickets', '')
    """
    return text[:1].upper() + text[1:]


#: The minus sign of points lost (U+2212), never the hyphen.
MINUS = "\u2212"


def minus(points: int) -> str:
    """Points lost, written with a true minus sign as every front end writes them.

    >>> minus(5), minus(0)
    ('−5', '0')
    """
    return f"{MINUS}{points}" if points else "0"


def signed(points: int, *, plus: bool = True) -> str:
    """A score that may be negative, its minus a true one (``plus``: a gain also signed).

    >>> signed(12), signed(-28), signed(0), signed(7, plus=False), signed(-7, plus=False)
    ('+12', '−28', '0', '7', '−7')
    """
    if points < 0:
        return minus(-points)
    return f"+{points}" if plus and points else str(points)


def route_name(game_map: GameMap, route: int) -> str:
    """A route as a person tells it from its neighbours: ``Paris – Wien``, and for one track of
    a double route its colour (``Berlin – Frankfurt (red)``), or which track when both tracks
    have one colour (``track 2``).

    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> [route_name(europe, r.id) for r in europe.route_between("Berlin", "Frankfurt")]
    ['Berlin – Frankfurt (black)', 'Berlin – Frankfurt (red)']
    >>> route_name(europe, 0)
    'Amsterdam – Bruxelles'
    """
    r = game_map.routes[route]
    which = _which_track(game_map, route)
    return f"{r.a} – {r.b} ({which})" if which else f"{r.a} – {r.b}"


def route_with_number(game_map: GameMap, route: int) -> str:
    """A route named by its cities with its number beside, as a refusal quotes it (the number
    is the one programs and the notation's ``#N`` use).

    >>> from ttr_rules import load_map
    >>> europe = load_map("europe")
    >>> route_with_number(europe, 0)
    'Amsterdam – Bruxelles (route 0)'
    >>> route_with_number(europe, europe.route_between("Berlin", "Frankfurt")[1].id)
    'Berlin – Frankfurt (red, route 17)'
    """
    r = game_map.routes[route]
    which = _which_track(game_map, route)
    return f"{r.a} – {r.b} ({which + ', ' if which else ''}route {route})"


def _which_track(game_map: GameMap, route: int) -> str:
    """One track of a double route told from the other: its colour, else its place."""
    r = game_map.routes[route]
    if r.double_of is None:
        return ""
    if game_map.routes[r.double_of].color != r.color:
        return "gray" if r.color is None else r.color.value
    return f"track {1 if route < r.double_of else 2}"


def action_text(action: object, game_map: GameMap) -> str:
    """An action as a refusal quotes it: its notation, with the route it names told by its
    cities rather than by its number alone.

    >>> from ttr_rules import ClaimRoute, Color, DrawBlind, load_map
    >>> europe = load_map("europe")
    >>> action_text(ClaimRoute(40, Color.RED, 1), europe)
    'claim Cadiz – Lisboa (route 40) red+1L'
    >>> action_text(DrawBlind(), europe)
    'draw blind'
    """
    text = clipped(str(action), 300)
    route = getattr(action, "route", None)
    if type(route) is int and 0 <= route < len(game_map.routes):
        return text.replace(f"#{route}", route_with_number(game_map, route), 1)
    return text


def ticket_ends(ticket: Ticket) -> str:
    """A ticket's places as the web page and the text views write them: ``Paris – Wien``, and
    for a ticket to several destinations each with its points (``Bern – France 5 or Italia
    11``).

    >>> from ttr_rules import Ticket
    >>> ticket_ends(Ticket(0, "Paris", "Wien", 8))
    'Paris – Wien'
    >>> ticket_ends(Ticket(1, "Bern", "", 11, destinations=(("France", 5), ("Italia", 11))))
    'Bern – France 5 or Italia 11'
    """
    if not ticket.destinations:
        return f"{ticket.a} – {ticket.b}"
    places = (f"{place} {points}" for place, points in ticket.destinations)
    return f"{ticket.a} – {joined(places, last='or')}"
