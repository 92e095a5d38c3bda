"""Positions built by hand, for tests, puzzles and front ends.

Every argument is validated here, at the boundary, with a :class:`ValueError` naming the
offending argument, and the position built must keep the invariants of
:mod:`ttr_rules.invariants` (no contradictory position); the engine itself trusts the states it
is given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from .cards import COLORS, Color, Hand, parse_color
from .game import check_player_count, check_rules, full_deck
from .invariants import state_problems
from .maps import GameMap, Ticket, resolve_map
from .maps.index import resolve_city
from .piles import fisher_yates
from .rules import Rules
from .state import GameState, Phase, PlayerState

__all__ = ["InjectedTicket", "scenario"]

#: A ticket that is not on the map, given as ``(city, city, points)``; it is added to a copy
#: of the map for this scenario ("injected" tickets of the rules catalogue).
InjectedTicket = tuple[str, str, int]


def _card(value: object, where: str) -> Color:
    if isinstance(value, Color):
        return value
    if isinstance(value, str):
        try:
            return parse_color(value)
        except ValueError:
            pass
    raise ValueError(f"{where}: {value!r} is not a train card colour")


def _cards(values: Iterable[object] | None, name: str) -> tuple[Color, ...] | None:
    if values is None:
        return None
    return tuple(_card(v, f"{name}[{i}]") for i, v in enumerate(values))


def _hands(hands: Sequence[Mapping[Color, int]] | None, count: int) -> list[Hand]:
    if hands is None:
        return [Hand() for _ in range(count)]
    if len(hands) != count:
        raise ValueError(f"hands: expected {count} hands (one per player), got {len(hands)}")
    built = []
    for seat, hand in enumerate(hands):
        counts = [0] * len(COLORS)
        for color, n in hand.items():
            if not isinstance(n, int) or n < 0:
                raise ValueError(f"hands[{seat}][{color}]: {n!r} is not a card count")
            counts[_card(color, f"hands[{seat}]").code] += n
        built.append(Hand(tuple(counts)))
    return built


def _per_player(values: Sequence[int] | None, count: int, name: str) -> list[int] | None:
    if values is None:
        return None
    if len(values) != count:
        raise ValueError(f"{name}: expected {count} values (one per player), got {len(values)}")
    return list(values)


def _check_seat(seat: object, count: int, name: str) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < count:
        raise ValueError(f"{name}: {seat!r} is not a seat from 0 to {count - 1}")
    return seat


def _injected(item: tuple[object, ...], seat: int) -> InjectedTicket:
    """An injected ticket ``(city, city, points)``: two different cities, points >= 1."""
    if len(item) != 3:
        raise ValueError(f"tickets[{seat}]: {item!r} is not (city, city, points)")
    a, b, points = item
    if type(points) is not int or points < 1:
        raise ValueError(f"tickets[{seat}]: {item!r}: points must be an integer >= 1")
    if not isinstance(a, str) or not isinstance(b, str) or a == b:
        raise ValueError(f"tickets[{seat}]: {item!r} must join two different cities")
    return a, b, points


def _city(name: str, game_map: GameMap, where: str) -> str:
    """The map's city called ``name``, by the notation's resolver (aliases, any case, no
    diacritics needed)."""
    try:
        return resolve_city(name, game_map)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _check_position(state: GameState) -> GameState:
    """Refuse a position no game can reach (trains may be set below the start, not above)."""
    problems = [v for v in state_problems(state, check_trains=False) if v.invariant not in _FREE]
    if problems:
        raise ValueError("impossible position: " + "; ".join(str(v) for v in problems))
    return state


#: Invariants a hand-built position may break on purpose: a row of locomotives to reset.
_FREE = frozenset({"face-up locomotives"})


def _inject_tickets(
    game_map: GameMap, tickets: Sequence[Iterable[int | InjectedTicket]] | None
) -> tuple[GameMap, list[list[int]]]:
    """Resolve ticket ids, adding injected ``(a, b, points)`` tickets to a copy of the map."""
    extra: list[Ticket] = []
    kept: list[list[int]] = []
    for seat, held in enumerate(tickets or ()):
        ids = []
        for item in held:
            if isinstance(item, tuple):
                a, b, points = _injected(item, seat)
                a, b = (_city(city, game_map, f"tickets[{seat}]") for city in (a, b))
                extra.append(Ticket(len(game_map.tickets) + len(extra), a, b, points))
                ids.append(extra[-1].id)
            elif isinstance(item, int) and 0 <= item < len(game_map.tickets):
                ids.append(item)
            else:
                raise ValueError(f"tickets[{seat}]: {item!r} is not a ticket id of the map")
        kept.append(ids)
    if extra:
        game_map = game_map.with_tickets(game_map.tickets + tuple(extra))
    return game_map, kept


def scenario(
    map: str | GameMap = "europe",  # the contract's parameter name
    players: int = 2,
    *,
    current: int = 0,
    hands: Sequence[Mapping[Color, int]] | None = None,
    face_up: Sequence[Color | None] | None = None,
    deck: Sequence[Color] | None = None,
    discard: Sequence[Color] | None = None,
    routes: Mapping[int, int] | None = None,
    stations: Mapping[str, int] | None = None,
    tickets: Sequence[Iterable[int | InjectedTicket]] | None = None,
    ticket_deck: Sequence[int] | None = None,
    trains: Sequence[int] | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    shuffle: Literal["random", "identity"] = "random",
) -> GameState:
    """A position at the start of ``current``'s turn in the main phase.

    ``hands``: one ``{Color: count}`` per player; ``face_up``: ``rules.face_up_size`` (5) items,
    a Color or None (an empty slot); ``deck``: top card first; ``discard``: oldest first;
    ``routes``: ``{route id: player}``; ``stations``: ``{city: player}``; ``tickets``: kept
    ticket ids per player (an ``(a, b, points)`` tuple injects a ticket that is not on the
    map); ``ticket_deck``: top first; ``trains``: trains left per player;
    ``shuffle="identity"`` makes every reshuffle keep the discard's order, oldest card on top.

    Placed routes count as claimed: each owner scores the table over them and, unless ``trains``
    is given, has the starting trains minus the trains they take (length and X marks). Cards not
    placed form the deck (shuffled by ``seed``) when ``deck`` is omitted, go to the discard when
    only ``deck`` is given, and are set aside out of play when both are given. When ``face_up``
    is omitted the row is dealt from those unplaced cards. Tickets not placed form the ticket
    deck (regular ones) and the box (long ones) when ``ticket_deck`` is omitted, else the box.

    >>> from ttr_rules import Color, DrawBlind, legal_actions
    >>> state = scenario(
    ...     players=2,
    ...     hands=[{Color.BLACK: 3}, {}],
    ...     routes={0: 1},
    ...     face_up=[Color.RED] * 5,
    ...     deck=[Color.GREEN],
    ...     discard=[],
    ... )
    >>> str(state.players[0].hand), state.route_owner[0], state.players[1].trains
    ('3 black', 1, 44)
    >>> len(state.out_of_play)  # neither placed nor in a pile
    101
    >>> DrawBlind() in legal_actions(state)
    True
    >>> scenario(players=2, hands=[{Color.BLACK: 13}, {}])
    Traceback (most recent call last):
    ...
    ValueError: cards: 13 black cards placed (hands, face_up, deck, discard) but only 12 exist
    """
    game_map = resolve_map(map)
    rules = check_rules(rules, game_map)
    players = check_player_count(players, rules)
    current = _check_seat(current, players, "current")
    if shuffle not in ("random", "identity"):
        raise ValueError(f'shuffle: must be "random" or "identity", got {shuffle!r}')
    game_map, kept = _inject_tickets(game_map, tickets)
    if len(kept) not in (0, players):
        raise ValueError(f"tickets: expected {players} lists (one per player), got {len(kept)}")
    kept = kept or [[] for _ in range(players)]
    rnd = random.Random(seed)

    hand_list = _hands(hands, players)
    row_slots: tuple[Color | None, ...] | None = None
    if face_up is not None:
        if len(face_up) != rules.face_up_size:
            raise ValueError(
                f"face_up: expected {rules.face_up_size} slots (face_up_size), got {len(face_up)}"
            )
        row_slots = tuple(
            None if c is None else _card(c, f"face_up[{i}]") for i, c in enumerate(face_up)
        )
    deck_cards = _cards(deck, "deck")
    discard_cards = _cards(discard, "discard")

    unplaced = _unplaced_cards(rules, hand_list, row_slots, deck_cards, discard_cards)
    unplaced = fisher_yates(unplaced, rnd)
    if row_slots is None:
        size = rules.face_up_size
        row_slots = tuple(unplaced[:size]) + (None,) * (size - len(unplaced[:size]))
        unplaced = unplaced[size:]
    out_of_play: tuple[Color, ...] = ()
    if deck_cards is None:
        deck_cards = unplaced
    elif discard_cards is None:
        discard_cards = tuple(sorted(unplaced, key=lambda c: c.code))
    else:
        out_of_play = tuple(sorted(unplaced, key=lambda c: c.code))
    discard_cards = discard_cards or ()

    owners, points, used = _place_routes(game_map, rules, routes, players)
    built = _place_stations(game_map, rules, stations, players)
    train_list = _per_player(trains, players, "trains")
    if train_list is None:
        train_list = [rules.trains_per_player - used[s] for s in range(players)]
    for seat, n in enumerate(train_list):
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"trains[{seat}]: {n!r} is not a number of trains")
    ticket_pile, box = _ticket_piles(game_map, kept, ticket_deck)

    state = GameState(
        map=game_map,
        rules=rules,
        players=tuple(
            PlayerState(
                hand=hand_list[s],
                trains=train_list[s],
                stations=tuple(built[s]),
                tickets=tuple(kept[s]),
                route_points=points[s],
            )
            for s in range(players)
        ),
        current=current,
        phase=Phase.START,
        face_up=row_slots,
        deck=deck_cards,
        discard=discard_cards,
        ticket_deck=ticket_pile,
        ticket_box=box,
        route_owner=owners,
        first_player=current,
        seed=seed,
        rng=int(rnd.random() * 2**53),
        identity_shuffle=shuffle == "identity",
        out_of_play=out_of_play,
    )
    return _check_position(state)


def _unplaced_cards(
    rules: Rules,
    hands: list[Hand],
    row: tuple[Color | None, ...] | None,
    deck: tuple[Color, ...] | None,
    discard: tuple[Color, ...] | None,
) -> tuple[Color, ...]:
    """The cards of the full deck that the scenario does not place; more cards of a colour
    than exist is an error naming the colour."""
    available = Counter(full_deck(rules))
    placed: Counter[Color] = Counter()
    for hand in hands:
        for code, n in enumerate(hand.counts):
            placed[COLORS[code]] += n
    for pile in (row or (), deck or (), discard or ()):
        placed.update(c for c in pile if c is not None)
    for color, n in placed.items():
        if n > available[color]:
            raise ValueError(
                f"cards: {n} {color.value} cards placed (hands, face_up, deck, discard) "
                f"but only {available[color]} exist"
            )
    available.subtract(placed)
    return tuple(
        color for color, n in sorted(available.items(), key=lambda kv: kv[0].code) for _ in range(n)
    )


def _place_routes(
    game_map: GameMap, rules: Rules, routes: Mapping[int, int] | None, players: int
) -> tuple[tuple[int | None, ...], list[int], list[int]]:
    owners: list[int | None] = [None] * len(game_map.routes)
    points = [0] * players
    used = [0] * players
    for route, seat in (routes or {}).items():
        if not isinstance(route, int) or not 0 <= route < len(game_map.routes):
            raise ValueError(f"routes: {route!r} is not a route id of the map")
        seat = _check_seat(seat, players, f"routes[{route}]")
        owners[route] = seat
        track = game_map.routes[route]
        points[seat] += rules.claim_points(track.length, track.mountain)
        used[seat] += track.trains
    for track in game_map.routes:
        other = track.double_of
        if other is not None and owners[track.id] is not None and owners[track.id] == owners[other]:
            raise ValueError(f"routes: player {owners[other]} owns both tracks {track.id}, {other}")
    return tuple(owners), points, used


def _place_stations(
    game_map: GameMap, rules: Rules, stations: Mapping[str, int] | None, players: int
) -> list[list[str]]:
    built: list[list[str]] = [[] for _ in range(players)]
    for name, seat in (stations or {}).items():
        city = _city(name, game_map, "stations")
        seat = _check_seat(seat, players, f"stations[{city}]")
        if any(city in cities for cities in built):
            raise ValueError(f"stations: {city} is named twice")
        built[seat].append(city)
        if len(built[seat]) > rules.stations_per_player:
            raise ValueError(
                f"stations: player {seat} has more than {rules.stations_per_player} stations"
            )
    return built


def _ticket_piles(
    game_map: GameMap, kept: list[list[int]], ticket_deck: Sequence[int] | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    seen: dict[int, str] = {}
    for seat, ids in enumerate(kept):
        for t in ids:
            if t in seen:
                raise ValueError(f"tickets[{seat}]: ticket {t} is also in {seen[t]}")
            seen[t] = f"tickets[{seat}]"
    if ticket_deck is not None:
        for t in ticket_deck:
            if not isinstance(t, int) or not 0 <= t < len(game_map.tickets):
                raise ValueError(f"ticket_deck: {t!r} is not a ticket id of the map")
            if t in seen:
                raise ValueError(f"ticket_deck: ticket {t} is also in {seen[t]}")
            seen[t] = "ticket_deck"
        box = tuple(t.id for t in game_map.tickets if t.id not in seen)
        return tuple(ticket_deck), box
    rest = [t for t in game_map.tickets if t.id not in seen]
    return tuple(t.id for t in rest if not t.long), tuple(t.id for t in rest if t.long)
