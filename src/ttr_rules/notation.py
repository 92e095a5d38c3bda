"""The text notation of actions: :func:`format_action` and :func:`parse_action`.

``str(action)`` is the canonical notation without a map (routes by id: ``claim #69 black+1L``);
:func:`format_action` writes routes by their cities (``claim Madrid-Pamplona black+1L``), adding
the track number only when the other track of a double route would take the same payment
(``claim Dieppe-London#2 red+1L``). Game records store :func:`format_action` text. Both forms,
and many lenient variants, are read back by :func:`parse_action`; see ``docs/notation.md`` for
the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeAlias, TypeVar

from attrs import frozen

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    ClaimWithSets,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayCard,
    PayTunnel,
    payment_text,
    substitutes_text,
)
from .cards import Color, parse_color
from .errors import AmbiguousActionError, InvalidActionError
from .game import is_legal, legal_actions
from .maps import GameMap, Route
from .maps.index import fold_name, map_index, resolve_city
from .maps.model import tracks_by_pair
from .moves.payments import payment_problem, route_kind, substitute_cards_at_most
from .rules import Rules
from .state import GameState
from .views import PlayerView, view_legal_actions
from .words import clipped, counted

__all__ = [
    "MAX_ACTION_TEXT",
    "NUMBER_FIELDS",
    "NumberField",
    "fold_name",
    "format_action",
    "parse_action",
    "resolve_city",
]

#: The longest action text :func:`parse_action` reads, in characters; longer text is refused at
#: once with :class:`InvalidActionError` (no action of any map comes near it).
MAX_ACTION_TEXT = 1000

A = TypeVar("A", ClaimRoute, BuildStation, ClaimWithSets)
Position: TypeAlias = GameState | PlayerView


@frozen
class NumberField:
    """A number the notation reads, and the largest the game allows of it.

    ``bound`` gives that largest value in a position (from its map, rules and face-up row); a
    greater number is refused before anything is built from it. ``examples`` are action texts
    with ``NUMBER`` where the number goes (``ROUTE`` stands for the map's first route as
    ``A-B``, ``CITY`` for its first city): the hostile suites write every field's examples
    with numbers past its bound.

    >>> from ttr_rules import new_game
    >>> state = new_game("europe", players=2)
    >>> [(field.name, field.bound(state)) for field in NUMBER_FIELDS][:4]
    [('face-up slot', 4), ('route id', 100), ('track', 2), ('locomotives', 8)]
    >>> NUMBER_FIELDS[4].name, NUMBER_FIELDS[4].written(99, state.map)[0]
    ('substitute cards', 'claim #0 red any:99blue')
    """

    name: str
    bound: Callable[[Position], int]
    examples: tuple[str, ...]

    def written(self, number: int | str, game_map: GameMap) -> tuple[str, ...]:
        """The examples with ``number`` (and the map's first route and city) written in."""
        route = game_map.routes[0]
        return tuple(
            example.replace("NUMBER", str(number))
            .replace("ROUTE", f"{route.a}-{route.b}")
            .replace("CITY", game_map.cities[0])
            for example in self.examples
        )


def _most_payment_cards(position: Position) -> int:
    """The most cards a payment of the map takes without sets: its longest route or its
    costliest station."""
    longest = max((route.length for route in position.map.routes), default=0)
    return max(longest, position.rules.stations_per_player)


def _most_substitute_cards(position: Position) -> int:
    rules = position.rules
    return max((substitute_cards_at_most(r, rules) for r in position.map.routes), default=0)


def _most_tracks(position: Position) -> int:
    return max((len(tracks) for tracks in tracks_by_pair(position.map.routes).values()), default=0)


_FACE_UP_SLOT = NumberField(
    "face-up slot", lambda p: len(p.face_up) - 1, ("draw faceup NUMBER", "draw NUMBER")
)
_ROUTE_ID = NumberField(
    "route id", lambda p: len(p.map.routes) - 1, ("claim #NUMBER red", "claim #NUMBER sets")
)
_TRACK_NUMBER = NumberField("track", _most_tracks, ("claim ROUTE#NUMBER red",))
_LOCOMOTIVES = NumberField(
    "locomotives",
    _most_payment_cards,
    (
        "claim #0 red+NUMBERL",
        "claim #0 NUMBERL",
        "station CITY red+NUMBERL",
        "station CITY NUMBERL",
    ),
)
_SUBSTITUTE_CARDS = NumberField(
    "substitute cards",
    _most_substitute_cards,
    ("claim #0 red any:NUMBERblue", "claim #0 red any:NUMBERL"),
)
_TUNNEL_LOCOMOTIVES = NumberField(
    "tunnel locomotives", lambda p: p.rules.tunnel_reveal_cards, ("tunnel pay NUMBERL",)
)
_TICKET_ID = NumberField("ticket id", lambda p: len(p.map.tickets) - 1, ("tickets keep 0,NUMBER",))
#: Every number the notation reads, each with its bound: ``parse_action`` reads numbers only
#: through this table (:func:`_number`), and the hostile suites sweep it, so that no count in
#: a text goes unchecked.
NUMBER_FIELDS: tuple[NumberField, ...] = (
    _FACE_UP_SLOT,
    _ROUTE_ID,
    _TRACK_NUMBER,
    _LOCOMOTIVES,
    _SUBSTITUTE_CARDS,
    _TUNNEL_LOCOMOTIVES,
    _TICKET_ID,
)

_SIMPLE: dict[str, Action] = {
    "draw blind": DrawBlind(),
    "draw deck": DrawBlind(),
    "tunnel decline": DeclineTunnel(),
    "tickets draw": DrawTickets(),
    "draw tickets": DrawTickets(),
    "pass": Pass(),
}
_FACE_UP = re.compile(r"draw\s+(?:face-?\s?up\s+)?(\S+)")
_TUNNEL_PAY = re.compile(r"tunnel\s+pay\s+([0-9]{1,9})\s*l?")
_KEEP = re.compile(r"tickets\s+keep\b(.*)")
_PAYMENT = re.compile(r"(?:(?P<color>[a-z]+)(?:\+(?P<locos>[0-9]{1,9})l?)?|(?P<all>[0-9]{1,9})l)")
_TRACK = re.compile(r"^(?P<route>.*?)\s*#\s*(?P<number>[0-9]{1,9})$")
_SUBSTITUTE = re.compile(r"([0-9]+)([a-z]+|L)", flags=re.IGNORECASE)
_GRAMMAR = (
    "expected one of: draw faceup SLOT | draw blind | claim ROUTE PAYMENT | claim ROUTE sets | "
    "pay CARD | tunnel pay NL | tunnel decline | tickets draw | tickets keep ID,ID,... | "
    "station CITY PAYMENT | pass"
)


# --------------------------------------------------------------------------- formatting


def format_action(action: Action, game_map: GameMap) -> str:
    """The notation of ``action`` with routes written by their cities.

    ``parse_action(format_action(a, state.map), state) == a`` for every legal action ``a``.
    Actions other than claims are written as ``str(action)``.

    >>> from ttr_rules import ClaimRoute, Color, DrawFaceUp, load_map
    >>> europe = load_map("europe")
    >>> action = ClaimRoute(23, Color.BLACK, 1)
    >>> str(action), format_action(action, europe)
    ('claim #23 black+1L', 'claim Brest-Paris black+1L')
    >>> format_action(DrawFaceUp(2), europe)
    'draw faceup 2'
    """
    if isinstance(action, ClaimWithSets):
        route = _route_of(action.route, game_map)
        track = "" if route.double_of is None else f"#{_track_number(game_map, route)}"
        return f"claim {route.a}-{route.b}{track} sets"
    if not isinstance(action, ClaimRoute):
        return str(action)
    route = _route_of(action.route, game_map)
    track = ""
    if route.double_of is not None and (
        action.substitutes
        or _fits(game_map.routes[route.double_of], action.color, action.locomotives)
    ):
        track = f"#{_track_number(game_map, route)}"
    payment = payment_text(action.color, action.locomotives)
    if action.substitutes:
        payment += " " + substitutes_text(action.substitutes)
    return f"claim {route.a}-{route.b}{track} {payment}"


def _route_of(route: object, game_map: GameMap) -> Route:
    if type(route) is not int or not 0 <= route < len(game_map.routes):
        raise InvalidActionError(f"no route #{clipped(repr(route))} on map {game_map.name}")
    return game_map.routes[route]


def _tracks(game_map: GameMap, a: str, b: str) -> tuple[Route, ...]:
    """The tracks between two cities, by route id (track 1 first)."""
    return tuple(sorted(game_map.route_between(a, b), key=lambda r: r.id))


def _track_number(game_map: GameMap, route: Route) -> int:
    return _tracks(game_map, route.a, route.b).index(route) + 1


def _fits(route: Route, color: Color, locomotives: int) -> bool:
    """Whether a payment has the right shape for ``route`` (whatever the hand holds)."""
    if locomotives < route.ferry_locomotives:
        return False
    if color is Color.LOCOMOTIVE:
        return locomotives == route.length
    return 0 <= locomotives < route.length and route.color in (None, color)


# --------------------------------------------------------------------------- city names


# --------------------------------------------------------------------------- parsing


def parse_action(text: str, state: GameState | PlayerView) -> Action:
    """The action written as ``text`` in ``state`` (see ``docs/notation.md``).

    ``state`` may be the :class:`~ttr_rules.PlayerView` of the player to act: the text is then
    read with what that player knows only (a server reads a seat's text this way, so that no
    answer, not even an error message, depends on another player's hidden cards).

    Lenient: any case and spacing, city aliases and names without diacritics, either city order,
    ``pink`` for purple, routes by id (``#57``). A claim or station without a payment stands for
    the only legal one. Parsing does not check legality (``apply_action`` does), except to pick
    the track of a double route when only one of them can take the payment.

    Raises :class:`~ttr_rules.InvalidActionError` for text that is not an action, saying what
    was expected (and at once for text longer than :data:`MAX_ACTION_TEXT` characters), and
    :class:`~ttr_rules.AmbiguousActionError` for text that fits several. Time is linear in the
    length of the text.

    >>> from ttr_rules import Color, scenario
    >>> state = scenario(players=2, hands=[{Color.BLACK: 3, Color.LOCOMOTIVE: 1}, {}])
    >>> parse_action("claim brest-paris black", state)
    ClaimRoute(route=23, color=<Color.BLACK: 'black'>, locomotives=0, substitutes=())
    >>> str(parse_action("Claim PARIS - Brest  black+1l", state))
    'claim #23 black+1L'
    >>> parse_action("draw faceup 0", state), parse_action("tickets keep 3,7", state)
    (DrawFaceUp(slot=0), KeepTickets(tickets=frozenset({3, 7})))
    >>> from ttr_rules import observe
    >>> parse_action("claim brest-paris black", observe(state, 0))
    ClaimRoute(route=23, color=<Color.BLACK: 'black'>, locomotives=0, substitutes=())
    >>> parse_action("fly to paris", state)
    Traceback (most recent call last):
    ...
    ttr_rules.errors.InvalidActionError: cannot read 'fly to paris': expected one of: ...
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"expected action text, got {type(text).__name__}")
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidActionError(
            f"action text of {len(text)} characters; the limit is {MAX_ACTION_TEXT}"
        )
    try:
        return _parse(text, state)
    except InvalidActionError:
        raise
    except ValueError as exc:  # int() of an odd digit, and the like: still not an action
        raise InvalidActionError(f"cannot read {clipped(repr(text))}: {exc}") from None


def _parse(text: str, state: GameState | PlayerView) -> Action:
    words = " ".join(text.split())
    lower = words.lower()
    if lower in _SIMPLE:
        return _SIMPLE[lower]
    keyword = lower.partition(" ")[0]
    rest = words[len(keyword) :].strip()
    if keyword == "draw":
        return _parse_face_up(lower, state)
    if keyword == "claim":
        return _parse_claim(rest, state)
    if keyword == "pay":
        return _parse_pay(rest)
    if keyword == "station":
        return _parse_station(rest, state)
    if keyword == "tunnel":
        return _parse_tunnel(lower, state)
    if keyword == "tickets":
        return _parse_keep(lower, state)
    raise InvalidActionError(f"cannot read {clipped(repr(text))}: {_GRAMMAR}")


def _parse_face_up(lower: str, state: GameState | PlayerView) -> DrawFaceUp:
    match = _FACE_UP.fullmatch(lower)
    if match is None or not _digits(match.group(1)):
        raise InvalidActionError(
            f"cannot read {clipped(repr(lower))}: expected 'draw faceup SLOT' "
            f"(SLOT 0-{len(state.face_up) - 1}) or 'draw blind'"
        )
    return DrawFaceUp(_number(match.group(1), _FACE_UP_SLOT, state))


def _digits(text: str) -> bool:
    """ASCII digits, not too many (``"²"`` and ``"٣"`` are ``isdigit()`` but not numbers here)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _number(
    digits: str, field: NumberField, position: Position, before: int = 0, bound: int | None = None
) -> int:
    """``digits`` (checked by :func:`_digits`) as a number of ``field``: the one place the
    notation turns digits into a number. It is refused when it, added to ``before`` (what the
    text counted of the field already), is more than the position allows (``bound``, when the
    caller has it already), before anything is built from it."""
    value = int(digits)
    bound = field.bound(position) if bound is None else bound
    if before + value > bound:
        name = position.map.name
        allowed = (
            f"map {name} takes no {field.name}"
            if bound <= 0
            else f"{field.name} must be at most {bound} on map {name}"
        )
        raise InvalidActionError(f"{allowed}, got {before + value}")
    return value


def _parse_tunnel(lower: str, state: GameState | PlayerView) -> PayTunnel:
    match = _TUNNEL_PAY.fullmatch(lower)
    if match is None:
        raise InvalidActionError(
            f"cannot read {clipped(repr(lower))}: expected 'tunnel pay NL' (N locomotives among "
            "the extra "
            "cards) or 'tunnel decline'"
        )
    return PayTunnel(_number(match.group(1), _TUNNEL_LOCOMOTIVES, state))


def _parse_keep(lower: str, state: GameState | PlayerView) -> KeepTickets:
    match = _KEEP.fullmatch(lower)
    items = [] if match is None else match.group(1).replace(",", " ").split()
    if match is None or not all(_digits(item) for item in items):
        raise InvalidActionError(
            f"cannot read {clipped(repr(lower))}: expected 'tickets draw' or "
            "'tickets keep ID,ID,...' (ticket ids)"
        )
    return KeepTickets(frozenset(_number(item, _TICKET_ID, state) for item in items))


def _split_payment(rest: str, position: Position) -> tuple[str, tuple[Color, int | None] | None]:
    """``"Madrid-Pamplona black+1L"`` -> (``"Madrid-Pamplona"``, (black, 1)); the payment is
    None when the last word is not one. A locomotive count of None means "all locomotives"."""
    head, _, last = rest.rpartition(" ")
    match = _PAYMENT.fullmatch(last.lower())
    if not head or match is None:
        return rest, None
    if match.group("all") is not None:
        return head, (Color.LOCOMOTIVE, _number(match.group("all"), _LOCOMOTIVES, position))
    try:
        color = parse_color(match.group("color"))
    except ValueError:
        return rest, None
    locos = match.group("locos")
    count = None if locos is None else _number(locos, _LOCOMOTIVES, position)
    if color is Color.LOCOMOTIVE:
        return head, (color, count)
    return head, (color, count or 0)


def _parse_station(rest: str, state: GameState | PlayerView) -> BuildStation:
    place, payment = _split_payment(rest, state)
    if not place:
        raise InvalidActionError("expected 'station CITY PAYMENT', e.g. 'station Wien red'")
    city = resolve_city(place, state.map)
    if payment is None:
        if not state.rules.stations_per_player:  # no payment to suggest: say why
            raise InvalidActionError(f"station {city}: this game has no stations")
        options = [a for a in _legal(state) if isinstance(a, BuildStation) and a.city == city]
        return _only(options, f"station {city}", state.map)
    color, locos = payment
    if locos is None:  # "locomotive": the whole cost in locomotives
        locos = _stations_built(state) + 1
    return BuildStation(city, color, locos)


def _split_substitutes(rest: str, position: Position) -> tuple[str, tuple[Color, ...]]:
    """``"Lieksa-Murmansk red any:4blue"`` -> (``"Lieksa-Murmansk red"``, four blue cards).

    The counts add up to at most the map's largest set payment, checked word by word before
    the cards are listed (``any:99999999blue`` is refused, not built)."""
    head, _, last = rest.rpartition(" ")
    if not head or not last.lower().startswith("any:"):
        return rest, ()
    counts: list[tuple[Color, int]] = []
    total, bound = 0, _SUBSTITUTE_CARDS.bound(position)
    for word in last[4:].split(","):
        match = _SUBSTITUTE.fullmatch(word.strip())
        if match is None or not _digits(match.group(1)):
            raise InvalidActionError(
                f"cannot read {clipped(repr(word))}: substitute cards are written like "
                "'any:2blue,1green,1L'"
            )
        name = match.group(2)
        color = Color.LOCOMOTIVE if name in ("L", "l") else parse_color(name)
        count = _number(match.group(1), _SUBSTITUTE_CARDS, position, total, bound)
        total += count
        counts.append((color, count))
    return head, tuple(color for color, count in counts for _ in range(count))


def _parse_pay(rest: str) -> PayCard:
    """``pay red``, ``pay L`` (or ``pay locomotive``): the next card of a payment with sets."""
    word = rest.strip().lower()
    try:
        return PayCard(Color.LOCOMOTIVE if word in ("l", "1l") else parse_color(word))
    except ValueError:
        raise InvalidActionError(
            f"cannot read {clipped(repr(rest))}: expected 'pay CARD' (a colour or L)"
        ) from None


def _parse_sets(route_text: str, state: GameState | PlayerView) -> ClaimWithSets:
    """``claim Lieksa-Murmansk sets``: start a payment with substitute sets."""
    claims = [ClaimWithSets(r.id) for r in _parse_route(route_text, state)]
    legal = [c for c in claims if _is_legal(state, c)]
    return _only(legal if legal else claims[:1], f"claim {route_text} sets", state.map)


def _parse_claim(rest: str, state: GameState | PlayerView) -> ClaimRoute | ClaimWithSets:
    head, _, last = rest.rpartition(" ")
    if head and last.lower() == "sets":
        return _parse_sets(head, state)
    rest, substitutes = _split_substitutes(rest, state)
    if substitutes:
        return _parse_claim_with_sets(rest, substitutes, state)
    route_text, payment = _split_payment(rest, state)
    tracks = _parse_route(route_text, state)
    if payment is None:
        ids = {r.id for r in tracks}
        options = [a for a in _legal(state) if isinstance(a, ClaimRoute) and a.route in ids]
        hint = _payment_hint(tracks[0], state.rules)
        return _only(options, f"claim {route_text}", state.map, hint)
    color, locos = payment
    claims = [ClaimRoute(r.id, color, r.length if locos is None else locos) for r in tracks]
    if len(claims) == 1:
        return claims[0]
    problems = [payment_problem(state.map.routes[c.route], state.rules, c) for c in claims]
    fitting = [c for c, problem in zip(claims, problems, strict=True) if problem is None]
    if len(fitting) == 1:
        return fitting[0]
    if not fitting:
        why = {p.detail for p in problems if p is not None and p.detail}
        raise InvalidActionError(
            f"no track of {route_text} takes {payment_text(color, claims[0].locomotives)}: "
            + ", ".join(str(r) for r in tracks)
            + (f" ({'; '.join(sorted(why))})" if why else "")
        )
    legal = [c for c in fitting if _is_legal(state, c)]
    return _only(legal if legal else fitting, f"claim {rest}", state.map)


def _parse_claim_with_sets(
    rest: str, substitutes: tuple[Color, ...], state: GameState | PlayerView
) -> ClaimRoute:
    """A claim with substitute sets: its base payment is written before them."""
    route_text, payment = _split_payment(rest, state)
    if payment is None:
        raise InvalidActionError("write the base payment before the substitute cards")
    tracks = _parse_route(route_text, state)
    color, locos = payment
    claims = [ClaimRoute(r.id, color, locos or 0, substitutes) for r in tracks]
    legal = [c for c in claims if _is_legal(state, c)]
    return _only(legal if legal else claims[:1], f"claim {rest}", state.map)


def _legal(position: GameState | PlayerView) -> tuple[Action, ...]:
    """The legal actions of the player to act, from the state or from that player's view."""
    if isinstance(position, PlayerView):
        return view_legal_actions(position)  # ValueError when the viewer is not to act
    return legal_actions(position)


def _is_legal(position: GameState | PlayerView, action: Action) -> bool:
    if isinstance(position, PlayerView):
        return action in view_legal_actions(position)
    return is_legal(position, action)


def _stations_built(position: GameState | PlayerView) -> int:
    """How many stations the player to act has built."""
    if isinstance(position, PlayerView):
        return len(position.seats[position.current].stations)
    return len(position.players[position.current].stations)


def _only(options: Sequence[A], what: str, game_map: GameMap, hint: str = "'red+1L' or '2L'") -> A:
    """The one option, or an error listing them all (``hint``: payments to show as examples
    when there is none)."""
    if len(options) == 1:
        return options[0]
    if not options:
        raise InvalidActionError(f"{what}: no legal payment; write one, e.g. {hint}")
    listed = ", ".join(format_action(a, game_map) for a in options)
    raise AmbiguousActionError(f"{what!r} is ambiguous; it may mean {listed}")


def _payment_hint(route: Route, rules: Rules) -> str:
    """Example payments for ``route`` in the notation: its colour (any one for gray) with the
    locomotives a ferry needs, and all locomotives only where they are wild on it
    (``Rules.wild_locomotives``)."""
    colour = "red" if route.color is None else route.color.value
    needed = route.ferry_locomotives
    cards = f"'{colour}+{needed}L'" if needed else f"'{colour}'"
    if route_kind(route) in rules.wild_locomotives:
        return f"{cards} or '{route.length}L'"
    return cards


def _parse_route(text: str, position: Position) -> tuple[Route, ...]:
    """The tracks a route text may mean: ``#57``, ``A-B`` (every track) or ``A-B#2``."""
    game_map = position.map
    number: int | None = None
    match = _TRACK.fullmatch(text)
    if match is not None:
        if not match.group("route"):
            return (game_map.routes[_number(match.group("number"), _ROUTE_ID, position)],)
        text, number = match.group("route"), _number(match.group("number"), _TRACK_NUMBER, position)
    a, b = _split_cities(text, game_map)
    tracks = _tracks(game_map, a, b)
    if not tracks:
        raise InvalidActionError(f"no route joins {a} and {b}")
    if number is None:
        return tracks
    if not 1 <= number <= len(tracks):
        raise InvalidActionError(
            f"{a}-{b} has {counted(len(tracks), 'track')}; got track #{number}"
        )
    return (tracks[number - 1],)


def _split_cities(text: str, game_map: GameMap) -> tuple[str, str]:
    """Two cities joined by ``-``; a city name may itself contain hyphens (Rostov-on-Don).

    Each split is a dictionary look-up of the folded halves; only the error message of a text
    that fits no split asks :func:`resolve_city` for its hints (once)."""
    names = map_index(game_map).names
    longest = max((len(n) for n in names), default=0)
    splits: list[tuple[str, str]] = []
    folded = [fold_name(part) for part in text.split("-")]
    total = sum(len(part) + 1 for part in folded) - 1
    left_length = -1
    for i in range(1, len(folded)):
        left_length += len(folded[i - 1]) + 1
        if left_length > longest:
            break
        if total - left_length - 1 > longest:
            continue
        a = names.get("-".join(folded[:i]))
        b = names.get("-".join(folded[i:]))
        if a is not None and b is not None:
            splits.append((a, b))
    if len(set(splits)) == 1:
        return splits[0]
    if not splits:
        reason = "no '-' between the cities"
        if "-" in text:
            left, _, right = text.partition("-")
            try:
                resolve_city(left, game_map)
                resolve_city(right, game_map)
            except InvalidActionError as exc:
                reason = str(exc)
        raise InvalidActionError(
            f"cannot read route {clipped(repr(text))}: expected CITY-CITY, CITY-CITY#TRACK or #ID "
            f"({reason})"
        )
    raise AmbiguousActionError(
        f"route {clipped(repr(text))} can be read as " + " or ".join(f"{a}-{b}" for a, b in splits)
    )
