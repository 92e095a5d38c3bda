"""Rule variants as data (docs/rules.md, "Rule variants").

Every number and every rule choice on which the four seed rulebooks disagree is a field of
:class:`Rules`. The defaults are the official *Ticket to Ride Europe* rules; a map file may
override any of them, and ``new_game(..., rules=...)`` may override the map's defaults.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from attrs import field, frozen

from .cards import CARD_COLORS

__all__ = ["TIE_BREAKERS", "Rules"]

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


#: Points for a route of each length (index = length). The official table covers lengths
#: 1, 2, 3, 4, 6 and 8; the values for 5 and 7 follow the series table (E71).
DEFAULT_ROUTE_SCORES = (0, 1, 2, 4, 7, 10, 15, 18, 21)


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

    #: Plastic trains each player starts with (E1).
    trains_per_player: int = 45
    #: Stations each player may build; the n-th station costs n cards (E52, E53).
    stations_per_player: int = 3
    #: Train cards in the face-up row (E2, E6, E12).
    face_up_size: int = 5
    #: Face-up locomotives that force the row to be reset; None disables the reset (E12, §1 #7).
    face_up_locomotive_limit: int | None = 3
    #: Safety cap on consecutive resets of the face-up row (E15, U2).
    max_consecutive_resets: int = 10
    #: Long tickets dealt to each player at setup (E3; 0 for the pt/cs "regular3" variant).
    initial_long_tickets: int = 1
    #: Regular tickets dealt to each player at setup (E3).
    initial_regular_tickets: int = 3
    #: Tickets each player must keep from the initial deal (E4).
    initial_keep_at_least: int = 2
    #: Where unkept initial tickets go (E4): "box" (official) or "bottom" of the ticket deck
    #: (the pt/cs variant).
    initial_discard: Literal["box", "bottom"] = "box"
    #: Both tracks of a double route are open only with at least this many players (E32, E33).
    double_route_min_players: int = 4
    #: A tunnel reveal may reshuffle the discard when the deck runs short (E47, U14).
    tunnel_reveal_uses_discard: bool = True
    #: Tie-breakers for the win, in order (E77): "tickets" (most completed), "stations"
    #: (fewest built), "express" (holds the longest-path bonus: the European Express, or the
    #: USA's longest continuous path); the catalogue's "completed_tickets", "fewest_stations_built"
    #: and "european_express", and "longest_path", are accepted too.
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
    #: The final round starts when a player ends a turn with at most this many trains (E66).
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

    def route_score(self, length: int) -> int:
        """Points for claiming a route of ``length`` spaces (E29, E71).

        >>> [Rules().route_score(n) for n in (1, 2, 3, 4, 6, 8)]
        [1, 2, 4, 7, 15, 21]
        """
        return self.route_scores[length]

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
            f"cannot exceed the {dealt} tickets dealt",
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
            "(for example [0, 1, 2, 4, 7, 10, 15]), not with the score of length 1",
        )
        return found
