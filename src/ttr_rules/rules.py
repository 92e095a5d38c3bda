"""Rule variants as data (docs/rules.md, "Rule variants").

Every number and every rule choice on which the four seed rulebooks disagree is a field of
:class:`Rules`. The defaults are the official *Ticket to Ride Europe* rules; a map file may
override any of them, and ``new_game(..., rules=...)`` may override the map's defaults.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from typing import Literal

from attrs import field, frozen

from .cards import CARD_COLORS
from .words import counted

__all__ = ["BONUSES", "BONUS_GROUP", "ROUTE_KINDS", "TIE_BREAKERS", "Rules", "installed_bonuses"]

#: The kinds of route, for :attr:`Rules.wild_locomotives`: a "ferry" has locomotive symbols, a
#: "tunnel" reveals cards, a "plain" route is neither.
ROUTE_KINDS = ("plain", "tunnel", "ferry")
#: The built-in end-of-game bonuses (:mod:`ttr_rules.scoring.bonuses`); a plugin may register
#: more under the entry-point group ``ttr_rules.bonuses``.
BONUSES = ("express", "globetrotter", "asian_explorer", "grand_tour")
#: The entry-point group of bonus scorers (:mod:`ttr_rules.scoring.bonuses`).
BONUS_GROUP = "ttr_rules.bonuses"


@functools.cache
def installed_bonuses() -> frozenset[str]:
    """The names of the bonus scorers installed under :data:`BONUS_GROUP` (read, not loaded:
    a map's bonuses are checked at load without importing the scorers).

    >>> {"express", "globetrotter"} <= installed_bonuses()
    True
    """
    return frozenset(entry.name for entry in entry_points(group=BONUS_GROUP))


#: The names accepted in :attr:`Rules.tie_breakers` (E77).
TIE_BREAKERS = ("tickets", "stations", "express")
#: The rules catalogue's longer names for the tie-breakers, accepted as aliases.
_TIE_BREAKER_ALIASES = {
    "completed_tickets": "tickets",
    "fewest_stations_built": "stations",
    "european_express": "express",
    "longest_path": "express",
}


def _tie_breakers(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(_TIE_BREAKER_ALIASES.get(name, name) for name in names)


def _points(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _kinds(values: Iterable[str]) -> tuple[str, ...]:
    found = tuple(values)
    return ROUTE_KINDS if found == ROUTE_KINDS else found  # the default, shared: an ``is`` test


def _names(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


#: Points for a route of each length (index = length). The official table covers lengths
#: 1, 2, 3, 4, 6 and 8; the values for 5 and 7 follow the series table (E71).
DEFAULT_ROUTE_SCORES = (0, 1, 2, 4, 7, 10, 15, 18, 21)


#: The largest "any N cards" set, for ferries and for single routes.
MAX_SUBSTITUTE = 6

#: A player chooses among 2**n subsets of the tickets offered: offers are kept small.
MAX_TICKETS_OFFERED = 10
#: Upper bounds that keep the number of legal actions and the engine's tables small:
#: ``(field, bound, reason)``.
_BOUNDS = (
    ("tickets_drawn", MAX_TICKETS_OFFERED, "the keep choices number 2**tickets_drawn"),
    ("stations_per_player", 20, "the n-th station costs n cards"),
    ("trains_per_player", 1000, "far beyond any board"),
    ("max_players", 10, "far beyond any board"),
    ("tunnel_reveal_cards", 10, "far beyond any board"),
    ("max_consecutive_resets", 1000, "a safety cap"),
)


@frozen(cache_hash=True)
class Rules:
    """The rules of a game. Defaults are the official Europe rules (see "Rule variants" in
    docs/rules.md)."""

    #: Plastic trains each player starts with (E1; 45 on Legendary Asia too, U28).
    trains_per_player: int = 45
    #: Stations each player may build; the n-th station costs n cards (E52, E53).
    stations_per_player: int = 3
    #: Train cards in the face-up row (E2, E6, E12).
    face_up_size: int = 5
    #: Face-up locomotives that force the row to be reset; None disables the reset (E12, §1 #7;
    #: Switzerland and India keep 3, U33).
    face_up_locomotive_limit: int | None = 3
    #: Safety cap on consecutive resets of the face-up row (E15, U2).
    max_consecutive_resets: int = 10
    #: Long tickets dealt to each player at setup (E3; 0 for the pt/cs "regular3" variant).
    initial_long_tickets: int = 1
    #: Regular tickets dealt to each player at setup (E3).
    initial_regular_tickets: int = 3
    #: Tickets each player must keep from the initial deal (E4; the variant decks' deals: U30).
    initial_keep_at_least: int = 2
    #: Where unkept initial tickets go (E4): "box" (official) or "bottom" of the ticket deck
    #: (the pt/cs variant).
    initial_discard: Literal["box", "bottom"] = "box"
    #: Where tickets returned during play go (E61, U7): the "bottom" of the ticket deck
    #: (official) or the "box" (out of the game: the Nordic Countries rule).
    returned_ticket_discard: Literal["box", "bottom"] = "bottom"
    #: Both tracks of a double route are open only with at least this many players (E32, E33).
    double_route_min_players: int = 4
    #: A tunnel reveal may reshuffle the discard when the deck runs short (E47, U14).
    tunnel_reveal_uses_discard: bool = True
    #: Tie-breakers for the win, in order (E77): "tickets" (most completed), "stations"
    #: (fewest built), "express" (holds the longest-path bonus: the European Express, or the
    #: USA's longest continuous path; Nordic, Switzerland and India: tickets then express, U24,
    #: U34); the catalogue's "completed_tickets", "fewest_stations_built"
    #: and "european_express", and "longest_path", are accepted too. Without a longest-path
    #: bonus, "express" still measures the path (U24).
    tie_breakers: tuple[str, ...] = field(default=TIE_BREAKERS, converter=_tie_breakers)
    #: Train cards dealt to each player at setup (E2).
    starting_hand: int = 4
    #: Cards of each of the eight colours, and locomotives, in the train deck (E1).
    cards_per_color: int = 12
    locomotive_cards: int = 14
    #: Cards revealed when attempting a tunnel (E39).
    tunnel_reveal_cards: int = 3
    #: Tickets drawn by the ticket action, and how many of them must be kept (E61).
    tickets_drawn: int = 3
    tickets_keep_at_least: int = 1
    #: The final round starts when a player ends a turn with at most this many trains (E66;
    #: the same on a 40-train board, U25).
    end_trigger_trains: int = 2
    #: Points for each station left in reserve at the end (E59).
    station_bonus: int = 4
    #: The European Express bonus, given to every player tied for the longest path (E74),
    #: only when that path has at least ``longest_path_min_length`` spaces (E75, U10).
    longest_path_bonus: int = 10
    longest_path_min_length: int = 1
    #: Points by route length (index = length) (E71).
    route_scores: tuple[int, ...] = field(default=DEFAULT_ROUTE_SCORES, converter=_points)
    #: Allowed player counts (E1).
    min_players: int = 2
    max_players: int = 5
    #: The kinds of route ("plain", "tunnel", "ferry") on which locomotives are wild (E25).
    #: Elsewhere a payment holds no locomotive, except the ferry's required ones and the cards
    #: of a substitute set (docs/rules.md, "Payments").
    wild_locomotives: tuple[str, ...] = field(default=ROUTE_KINDS, converter=_kinds)
    #: Any this many cards may stand in for one required ferry locomotive; 0: nothing may.
    locomotive_substitute: int = 0
    #: Whether a face-up locomotive is the first and only card of a draw (E8, E9); when False
    #: it counts as one card, first or second, like any other (U26).
    face_up_locomotive_ends_draw: bool = True
    #: The end-of-game bonuses, by name, scored in this order (``express``: the longest-path
    #: bonus; ``globetrotter``: the most completed tickets; or a plugin's scorer).
    bonuses: tuple[str, ...] = field(default=("express",), converter=_names)
    #: The Globetrotter bonus, given to every player tied for the most completed tickets.
    globetrotter_bonus: int = 10
    #: Points for each train a mountain route's X marks take from the supply (``Route.mountain``),
    #: scored with the route when it is claimed (U27).
    mountain_points: int = 2
    #: The Asian Explorer bonus, given to every player tied for the most cities joined in one
    #: network of their own routes (U29).
    asian_explorer_bonus: int = 10
    #: Whether a payment can differ from a plain "one colour, locomotives wild" set: derived
    #: from the fields above, so that the engine's hot path asks one question.
    general_payments: bool = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        general = self.wild_locomotives is not ROUTE_KINDS or self.locomotive_substitute != 0
        object.__setattr__(self, "general_payments", general)

    def route_score(self, length: int) -> int:
        """Points for claiming a route of ``length`` spaces (E29, E71).

        >>> [Rules().route_score(n) for n in (1, 2, 3, 4, 6, 8)]
        [1, 2, 4, 7, 15, 21]
        """
        return self.route_scores[length]

    def claim_points(self, length: int, mountain: int = 0) -> int:
        """Points for claiming a route of ``length`` spaces and ``mountain`` X marks: the
        route's score and ``mountain_points`` per X (E29, E71, U27).

        >>> Rules().claim_points(3), Rules().claim_points(3, mountain=2)
        (4, 8)
        """
        return self.route_scores[length] + mountain * self.mountain_points

    def problems(self) -> list[tuple[str, str]]:
        """Every inconsistency in these rules, as ``(field, message)`` pairs (empty when valid);
        ``new_game`` and ``scenario`` refuse rules that have any.

        >>> Rules().problems()
        []
        >>> Rules(tickets_drawn=0).problems()[0]
        ('tickets_drawn', 'must be >= 1')
        """
        found: list[tuple[str, str]] = []

        def need(ok: bool, name: str, message: str) -> None:
            if not ok:
                found.append((name, message))

        for name in (
            "face_up_size",
            "tickets_drawn",
            "tickets_keep_at_least",
            "min_players",
            "max_players",
            "trains_per_player",
            "stations_per_player",
            "max_consecutive_resets",
            "initial_long_tickets",
            "initial_regular_tickets",
            "initial_keep_at_least",
            "double_route_min_players",
            "starting_hand",
            "cards_per_color",
            "locomotive_cards",
            "tunnel_reveal_cards",
            "end_trigger_trains",
            "station_bonus",
            "longest_path_bonus",
            "longest_path_min_length",
            "locomotive_substitute",
            "globetrotter_bonus",
            "mountain_points",
            "asian_explorer_bonus",
        ):
            value = getattr(self, name)
            need(isinstance(value, int) and not isinstance(value, bool), name, "must be an integer")
            need(not isinstance(value, int) or value >= 0, name, "must be >= 0")
        if found:  # the relations below compare numbers
            return found
        for name, most, why in _BOUNDS:
            need(getattr(self, name) <= most, name, f"must be <= {most} ({why})")
        # A face_up_size that is not an integer is reported above and skipped below.
        row = self.face_up_size if isinstance(self.face_up_size, int) else None
        need(row is None or row >= 1, "face_up_size", "must be >= 1")
        limit = self.face_up_locomotive_limit
        need(
            limit is None
            or (isinstance(limit, int) and limit >= 1 and (row is None or limit <= row)),
            "face_up_locomotive_limit",
            "must be null or an integer from 1 to face_up_size",
        )
        need(
            self.initial_discard in ("box", "bottom"),
            "initial_discard",
            'must be "box" or "bottom"',
        )
        need(
            self.returned_ticket_discard in ("box", "bottom"),
            "returned_ticket_discard",
            'must be "box" or "bottom"',
        )
        need(
            isinstance(self.tunnel_reveal_uses_discard, bool),
            "tunnel_reveal_uses_discard",
            "must be a boolean",
        )
        dealt = self.initial_long_tickets + self.initial_regular_tickets
        need(
            dealt <= MAX_TICKETS_OFFERED,
            "initial_regular_tickets",
            f"initial_long_tickets + initial_regular_tickets must be <= {MAX_TICKETS_OFFERED} "
            "(the keep choices number 2**tickets dealt)",
        )
        need(
            self.initial_keep_at_least <= dealt,
            "initial_keep_at_least",
            f"cannot exceed the {counted(dealt, 'ticket')} dealt",
        )
        need(self.tickets_drawn >= 1, "tickets_drawn", "must be >= 1")
        need(
            1 <= self.tickets_keep_at_least <= self.tickets_drawn,
            "tickets_keep_at_least",
            "must be between 1 and tickets_drawn",
        )
        cards = len(CARD_COLORS) * self.cards_per_color + self.locomotive_cards
        need(
            self.starting_hand * self.max_players + (row or 0) <= cards,
            "starting_hand",
            f"{self.max_players} hands of {self.starting_hand} and a face-up row of {row} need "
            f"more than the {cards} train cards",
        )
        need(
            2 <= self.min_players <= self.max_players,
            "min_players",
            "must be >= 2 and <= max_players",
        )
        for i, name in enumerate(self.tie_breakers):
            need(
                name in TIE_BREAKERS,
                f"tie_breakers[{i}]",
                f"unknown tie-breaker {name!r}; expected one of {', '.join(TIE_BREAKERS)}",
            )
        need(
            len(set(self.tie_breakers)) == len(self.tie_breakers),
            "tie_breakers",
            "must not repeat a tie-breaker",
        )
        need(
            len(self.route_scores) >= 2 and all(isinstance(s, int) for s in self.route_scores),
            "route_scores",
            "must list integer points for lengths 0, 1, 2, ...",
        )
        # Index = length: a table copied without its leading 0 would score every route one
        # length too high, so the first entry (no route has length 0) must be 0.
        need(
            not self.route_scores or self.route_scores[0] == 0,
            "route_scores",
            "is indexed by route length and must start with 0 for length 0 "
            "(for example 0, 1, 2, 4, 7, 10, 15), not with the score of length 1",
        )
        self._payment_problems(need)
        return found

    def _payment_problems(self, need: Callable[[bool, str, str], None]) -> None:
        """The checks of the payment and bonus fields (docs/rules.md, "Payments")."""
        kinds = self.wild_locomotives
        for i, kind in enumerate(kinds):
            need(
                kind in ROUTE_KINDS,
                f"wild_locomotives[{i}]",
                f"unknown route kind {kind!r}; expected one of {', '.join(ROUTE_KINDS)}",
            )
        need(len(set(kinds)) == len(kinds), "wild_locomotives", "must not repeat a kind")
        need(
            self.locomotive_substitute != 1,
            "locomotive_substitute",
            "must be 0 (none) or at least 2 (one card for one locomotive is just any card)",
        )
        need(
            self.locomotive_substitute <= MAX_SUBSTITUTE,
            "locomotive_substitute",
            f"must be <= {MAX_SUBSTITUTE} (the payments of a hand grow with the set size)",
        )
        need(
            isinstance(self.face_up_locomotive_ends_draw, bool),
            "face_up_locomotive_ends_draw",
            "must be true or false",
        )
        known = installed_bonuses() | set(BONUSES)
        for i, name in enumerate(self.bonuses):
            need(
                name in known,
                f"bonuses[{i}]",
                f"no bonus scorer named {name!r} is installed; expected one of "
                f"{', '.join(sorted(known))} (or a plugin's, under {BONUS_GROUP})",
            )
        need(len(set(self.bonuses)) == len(self.bonuses), "bonuses", "must not repeat a bonus")
