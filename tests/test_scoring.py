"""Scoring, one test per entry E55–E60, E65, E71–E78 (issue 4).

Positions are built with ``scenario()``; route ids are read from the map data. Tickets given
as ``(city, city, points)`` are injected fixture tickets. Where an entry speaks of tied totals,
the position is made real and the tie is produced by a failed fixture ticket (Edinburgh–Lisboa,
a pair nobody can connect in these positions) on the higher scorer: that changes neither
completed tickets nor stations nor the longest path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest
from helpers import europe, route_id

from ttr_rules import (
    ClaimRoute,
    Color,
    DrawBlind,
    GameState,
    PlayerScore,
    Rules,
    apply_action,
    final_scores,
    longest_path,
    scenario,
    winners,
)
from ttr_rules.render import format_scores
from ttr_rules.scenario import InjectedTicket
from ttr_rules.scoring import rank_winners

A, B, C = 0, 1, 2


def rid(a: str, b: str, color: Color | None = None) -> int:
    return route_id(europe(), a, b, color)


def score(state: GameState, seat: int) -> PlayerScore:
    return final_scores(state)[seat]


def position(
    players: int,
    routes: Mapping[int, int] | None = None,
    stations: Mapping[str, int] | None = None,
    tickets: Sequence[Sequence[InjectedTicket]] | None = None,
    rules: Rules | None = None,
) -> GameState:
    return scenario(
        players=players,
        routes=routes,
        stations=stations,
        tickets=[list(t) for t in tickets] if tickets is not None else None,
        rules=rules,
    )


def tied(
    players: int,
    routes: Mapping[int, int],
    stations: Mapping[str, int],
    tickets: Sequence[Sequence[InjectedTicket]],
    rules: Rules | None = None,
) -> GameState:
    """The position, with a failed fixture ticket making A's and B's totals equal."""
    state = position(players, routes, stations, tickets, rules)
    diff = score(state, A).total - score(state, B).total
    if diff:
        higher = A if diff > 0 else B
        held = [list(t) for t in tickets]
        held[higher].append(("Edinburgh", "Lisboa", abs(diff)))
        state = position(players, routes, stations, held, rules)
    assert score(state, A).total == score(state, B).total
    return state


# -- E55–E60: stations --------------------------------------------------------------------


def test_e55_station_uses_one_opponent_route_only() -> None:
    state = position(
        3,
        routes={
            rid("Brest", "Paris"): A,
            rid("Paris", "Frankfurt", Color.ORANGE): B,
            rid("Frankfurt", "Berlin", Color.RED): C,
        },
        stations={"Frankfurt": A},
        tickets=[[("Brest", "Berlin", 9)], [], []],
    )
    result = score(state, A)
    assert (result.ticket_points, result.tickets_completed, result.tickets_failed) == (-9, 0, 1)


def test_e55_station_does_not_reach_a_city_on_its_own() -> None:
    state = position(
        3,
        routes={rid("Brest", "Paris"): A, rid("Paris", "Frankfurt", Color.ORANGE): B},
        stations={"Wien": A},
        tickets=[[("Paris", "Wien", 7)], [], []],
    )
    result = score(state, A)
    assert result.ticket_points == -7
    assert result.station_routes == (("Wien", None),)


def e56_state(tickets: list[InjectedTicket]) -> GameState:
    return position(
        3,
        routes={
            rid("Frankfurt", "Essen"): B,
            rid("Frankfurt", "München"): C,
            rid("Essen", "Berlin"): A,
            rid("München", "Wien"): A,
        },
        stations={"Frankfurt": A},
        tickets=[tickets, [], []],
    )


def test_e56a_best_assignment_for_every_ticket() -> None:
    state = e56_state([("Frankfurt", "Berlin", 5), ("Frankfurt", "Wien", 6)])
    result = score(state, A)
    assert result.station_routes == (("Frankfurt", rid("Frankfurt", "München")),)
    assert (result.ticket_points, result.tickets_completed) == (1, 1)


def test_e56b_equal_points_most_completed_tickets() -> None:
    state = e56_state(
        [("Frankfurt", "Berlin", 10), ("Frankfurt", "Wien", 4), ("Frankfurt", "München", 6)]
    )
    result = score(state, A)
    assert result.station_routes == (("Frankfurt", rid("Frankfurt", "München")),)
    assert (result.ticket_points, result.tickets_completed, result.tickets_failed) == (0, 2, 1)


def test_e57_routes_of_several_stations_chain() -> None:
    state = position(
        3,
        routes={
            rid("Brest", "Paris"): A,
            rid("Paris", "Frankfurt", Color.ORANGE): B,
            rid("Frankfurt", "Berlin", Color.RED): C,
        },
        stations={"Paris": A, "Frankfurt": A},
        tickets=[[("Brest", "Berlin", 9)], [], []],
    )
    result = score(state, A)
    assert (result.ticket_points, result.tickets_completed) == (9, 1)
    assert result.station_routes == (
        ("Paris", rid("Paris", "Frankfurt", Color.ORANGE)),
        ("Frankfurt", rid("Frankfurt", "Berlin", Color.RED)),
    )


def test_e57_path_of_station_routes_only() -> None:
    state = position(
        3,
        routes={rid("Zürich", "München"): B, rid("München", "Wien"): C},
        stations={"München": A, "Wien": A},
        tickets=[[("Zürich", "Wien", 6)], [], []],
    )
    result = score(state, A)
    assert (result.ticket_points, result.tickets_completed) == (6, 1)
    assert result.station_routes == (
        ("München", rid("Zürich", "München")),
        ("Wien", rid("München", "Wien")),
    )
    assert result.longest_path == 0


def test_e58_either_track_of_a_double_route_but_one_route() -> None:
    orange = rid("Paris", "Frankfurt", Color.ORANGE)
    white = rid("Paris", "Frankfurt", Color.WHITE)
    state = position(
        4,
        routes={orange: B, white: C, rid("Frankfurt", "Berlin", Color.RED): A},
        stations={"Paris": A},
        tickets=[[("Paris", "Berlin", 7)], [], [], []],
    )
    result = score(state, A)
    assert (result.ticket_points, result.tickets_completed) == (7, 1)
    # Either track would do; U9 reports the lowest id.
    assert result.station_routes == (("Paris", min(orange, white)),)


def test_e58_no_own_route_and_no_unclaimed_route_through_a_station() -> None:
    own = rid("Frankfurt", "Berlin", Color.RED)
    state = position(
        2,
        routes={own: A},
        stations={"Frankfurt": A, "Paris": A},
        tickets=[[("Paris", "Berlin", 7)], []],
    )
    result = score(state, A)
    assert result.ticket_points == -7  # Paris–Frankfurt is claimed by nobody
    assert result.station_routes == (("Frankfurt", None), ("Paris", None))


def test_e59_stations_in_reserve_score_four_each() -> None:
    state = position(
        2,
        routes={rid("Brest", "Paris"): A, rid("Paris", "Frankfurt", Color.ORANGE): B},
        stations={"Frankfurt": A},
        tickets=[[("Brest", "Paris", 5)], []],
    )
    result = score(state, A)
    assert result.station_bonus == 8  # the built station helps no ticket and scores nothing
    assert result.station_routes == (("Frankfurt", None),)
    assert score(state, B).station_bonus == 12


def test_e60_stations_in_the_tie_breaker_are_stations_built() -> None:
    # A's one station completes a ticket; B's two stations help nothing. "Used" = built, so
    # A (1) beats B (2); counting only stations that helped would give B (0) the win.
    state = tied(
        2,
        routes={
            rid("Brest", "Paris"): A,
            rid("Frankfurt", "Berlin", Color.RED): A,
            rid("Paris", "Frankfurt", Color.ORANGE): B,
        },
        stations={"Paris": A, "Sofia": B, "Athina": B},
        tickets=[[("Brest", "Berlin", 9)], [("Paris", "Frankfurt", 4)]],
    )
    a, b = final_scores(state)
    assert a.tickets_completed == b.tickets_completed == 1
    assert a.station_routes[0][1] is not None
    assert all(route is None for _, route in b.station_routes)
    assert winners(state) == (A,)


# -- E65: tickets on the final network ---------------------------------------------------


def test_e65_tickets_checked_on_the_final_network() -> None:
    state = scenario(
        players=2,
        hands=[{Color.BLUE: 2, Color.ORANGE: 3}, {}],
        tickets=[[("Lisboa", "Madrid", 5), ("Paris", "Wien", 8)], []],
    )
    assert score(state, A).ticket_points == -13  # both kept before any claim
    state = apply_action(state, ClaimRoute(rid("Lisboa", "Cadiz"), Color.BLUE, 0))
    state = apply_action(apply_action(state, DrawBlind()), DrawBlind())
    state = apply_action(state, ClaimRoute(rid("Madrid", "Cadiz"), Color.ORANGE, 0))
    result = score(state, A)
    assert (result.ticket_points, result.tickets_completed, result.tickets_failed) == (-3, 1, 1)


# -- E71–E76: routes, longest path, Express, totals ---------------------------------------


def test_e71_route_table_and_europe_lengths() -> None:
    game_map = europe()
    lengths = sorted({r.length for r in game_map.routes})
    assert lengths == [1, 2, 3, 4, 6, 8]
    six = {frozenset((r.a, r.b)) for r in game_map.routes if r.length == 6}
    assert six == {frozenset(("Smyrna", "Palermo")), frozenset(("Budapest", "Kyiv"))}
    assert sum(r.length == 6 for r in game_map.routes) == 2
    eight = [frozenset((r.a, r.b)) for r in game_map.routes if r.length == 8]
    assert eight == [frozenset(("Stockholm", "Petrograd"))]
    one_of_each = {
        rid("Amsterdam", "Bruxelles"): A,  # 1 -> 1
        rid("Amsterdam", "Frankfurt"): A,  # 2 -> 2
        rid("Amsterdam", "Essen"): A,  # 3 -> 4
        rid("Athina", "Sarajevo"): A,  # 4 -> 7
        rid("Budapest", "Kyiv"): A,  # 6 -> 15
        rid("Stockholm", "Petrograd"): A,  # 8 -> 21
    }
    assert score(position(2, routes=one_of_each), A).route_points == 50


def e72_routes() -> dict[int, int]:
    return {
        rid("Brest", "Paris"): A,
        rid("Paris", "Frankfurt", Color.ORANGE): A,
        rid("Frankfurt", "Bruxelles"): A,
        rid("Bruxelles", "Paris", Color.YELLOW): A,
    }


def test_e72_longest_trail_may_revisit_a_city() -> None:
    state = position(2, routes=e72_routes())
    assert longest_path(state, A) == 10
    assert score(state, A).longest_path == 10
    more = position(2, routes={**e72_routes(), rid("Frankfurt", "München"): A})
    assert longest_path(more, A) == 10  # 4 odd-degree cities: no trail uses all five


def test_e73_stations_neither_count_nor_bridge_the_path() -> None:
    state = position(
        2,
        routes={
            rid("Brest", "Paris"): A,
            rid("Frankfurt", "Berlin", Color.RED): A,
            rid("Paris", "Frankfurt", Color.ORANGE): B,
        },
        stations={"Paris": A},
    )
    assert longest_path(state, A) == 3
    assert score(state, A).longest_path == 3


def test_e74_tied_longest_paths_all_get_the_bonus() -> None:
    state = position(
        3,
        routes={
            # A: Brest–Paris–Frankfurt–Berlin, 9
            rid("Brest", "Paris"): A,
            rid("Paris", "Frankfurt", Color.ORANGE): A,
            rid("Frankfurt", "Berlin", Color.RED): A,
            # B: Kyiv–Smolensk–Wilno–Warszawa, 9
            rid("Kyiv", "Smolensk"): B,
            rid("Smolensk", "Wilno"): B,
            rid("Wilno", "Warszawa"): B,
            # C: Edinburgh–London–Amsterdam–Bruxelles, 7
            rid("Edinburgh", "London", Color.BLACK): C,
            rid("London", "Amsterdam"): C,
            rid("Amsterdam", "Bruxelles"): C,
        },
    )
    scores = final_scores(state)
    assert [s.longest_path for s in scores] == [9, 9, 7]
    assert [s.express_bonus for s in scores] == [10, 10, 0]


def test_e75_nobody_has_a_route_nobody_gets_the_bonus() -> None:
    state = position(3)
    scores = final_scores(state)
    assert [s.longest_path for s in scores] == [0, 0, 0]
    assert [s.express_bonus for s in scores] == [0, 0, 0]
    assert winners(state) == (A, B, C)  # 12 each, nobody ahead on any tie-breaker (U11)


def test_e76_score_composition_and_negative_total() -> None:
    state = position(
        2,
        routes={
            rid("Brest", "Paris"): A,  # 4
            rid("Paris", "Frankfurt", Color.ORANGE): A,  # 4
            rid("Frankfurt", "München"): A,  # 2
            rid("Kyiv", "Smolensk"): B,
            rid("Smolensk", "Wilno"): B,
            rid("Wilno", "Warszawa"): B,
        },
        tickets=[[("Edinburgh", "Lisboa", 30)], []],
    )
    result = score(state, A)
    assert (result.route_points, result.ticket_points) == (10, -30)
    assert (result.station_bonus, result.express_bonus) == (12, 0)
    assert result.total == -8


# -- E77, E78: winners and tie-breakers ---------------------------------------------------

#: A: Brest–Paris–Frankfurt–Berlin (9); B: Kyiv–Smolensk–Wilno–Warszawa (9).
A_ROUTES = {
    rid("Brest", "Paris"): A,
    rid("Paris", "Frankfurt", Color.ORANGE): A,
    rid("Frankfurt", "Berlin", Color.RED): A,
}
B_ROUTES = {rid("Kyiv", "Smolensk"): B, rid("Smolensk", "Wilno"): B, rid("Wilno", "Warszawa"): B}
A_EXTRA = {rid("Berlin", "Essen"): A}  # A alone holds the Express (11)
B_EXTRA = {rid("Warszawa", "Wien"): B}  # B alone holds the Express (13)


def completed(cities: Sequence[str], count: int) -> list[InjectedTicket]:
    """``count`` fixture tickets between cities of one connected network."""
    pairs = [(a, b) for i, a in enumerate(cities) for b in cities[i + 1 :]]
    return [(a, b, 3 + i) for i, (a, b) in enumerate(pairs[:count])]


A_CITIES = ("Brest", "Paris", "Frankfurt", "Berlin")
B_CITIES = ("Kyiv", "Smolensk", "Wilno", "Warszawa")


def test_e77a_most_completed_tickets_wins() -> None:
    state = tied(
        2,
        routes={**A_ROUTES, **B_ROUTES},
        stations={},
        tickets=[completed(A_CITIES, 5), completed(B_CITIES, 4)],
    )
    assert [s.tickets_completed for s in final_scores(state)] == [5, 4]
    assert winners(state) == (A,)


def test_e77b_then_fewest_stations_built() -> None:
    state = tied(
        2,
        routes={**A_ROUTES, **B_ROUTES, **B_EXTRA},
        stations={"Sofia": A, "Athina": B, "Smyrna": B},
        tickets=[completed(A_CITIES, 5), completed(B_CITIES, 5)],
    )
    assert [s.express_bonus for s in final_scores(state)] == [0, 10]
    assert winners(state) == (A,)


def test_e77c_then_the_express_holder() -> None:
    state = tied(
        2,
        routes={**A_ROUTES, **A_EXTRA, **B_ROUTES},
        stations={"Sofia": A, "Athina": B},
        tickets=[completed(A_CITIES, 5), completed(B_CITIES, 5)],
    )
    assert [s.express_bonus for s in final_scores(state)] == [10, 0]
    assert winners(state) == (A,)


def test_e77d_shared_express_is_a_shared_victory() -> None:
    state = tied(
        2,
        routes={**A_ROUTES, **B_ROUTES},
        stations={"Sofia": A, "Athina": B},
        tickets=[completed(A_CITIES, 5), completed(B_CITIES, 5)],
    )
    assert [s.express_bonus for s in final_scores(state)] == [10, 10]
    assert winners(state) == (A, B)


def test_e77e_variant_without_the_stations_step() -> None:
    # (Any-typed: the field's converter=tuple gives mypy no usable parameter type)
    changes: dict[str, Any] = {"tie_breakers": ("tickets", "express")}
    variant = attrs.evolve(europe().rules, **changes)
    state = tied(
        2,
        routes={**A_ROUTES, **B_ROUTES, **B_EXTRA},
        stations={"Sofia": A, "Athina": B, "Smyrna": B},
        tickets=[completed(A_CITIES, 5), completed(B_CITIES, 5)],
        rules=variant,
    )
    assert winners(state) == (B,)  # the Express decides instead of the stations (test b)
    assert rank_winners(final_scores(state), europe().rules) == (A,)


def test_an_unknown_tie_breaker_is_refused_even_without_a_tie() -> None:
    changes: dict[str, Any] = {"tie_breakers": ("tickets", "coins")}
    variant = attrs.evolve(europe().rules, **changes)
    scores = final_scores(position(2, A_ROUTES, {}, [(), ()]))
    assert scores[0].total != scores[1].total
    with pytest.raises(ValueError, match="coins"):
        rank_winners(scores, variant)


def test_e78_stations_assigned_before_the_tie_breakers() -> None:
    # E56b for A (station at Frankfurt: 0 points either way, 2 completed with München);
    # B completes 1 ticket. Totals tie at 24; greedy (Essen, 1 completed) would tie on tickets
    # and hand B the win on stations built (0 < 1).
    state = position(
        3,
        routes={
            rid("Frankfurt", "Essen"): B,
            rid("Frankfurt", "München"): C,
            rid("Essen", "Berlin"): A,
            rid("München", "Wien"): A,
        },
        stations={"Frankfurt": A},
        tickets=[
            [("Frankfurt", "Berlin", 10), ("Frankfurt", "Wien", 4), ("Frankfurt", "München", 6)],
            [("Frankfurt", "Essen", 10)],
            [],
        ],
    )
    a, b, c = final_scores(state)
    assert a.total == b.total == 24 and c.total < 24
    assert (a.tickets_completed, b.tickets_completed) == (2, 1)
    assert winners(state) == (A,)


# -- the printable breakdown -------------------------------------------------------------


def test_format_scores_lists_every_player_and_marks_the_winner() -> None:
    state = e56_state([("Frankfurt", "Berlin", 5), ("Frankfurt", "Wien", 6)])
    text = format_scores(state)
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["player", "routes"]
    # (seats named as people count them, from 1)
    rows = {" ".join(line.split()[:2]): line for line in lines[1:4]}
    assert set(rows) == {"Player 1", "Player 2", "Player 3"}
    assert [seat for seat, line in rows.items() if line.endswith("*")] == [
        f"Player {w + 1}" for w in winners(state)
    ]
    assert "Player 1's stations: Frankfurt -> Frankfurt – München" in text
    # The station columns say what they count: stations built and the unbuilt-station bonus.
    header = lines[0].split()
    built = header.index("built")
    p0 = rows["Player 1"].split()[1:]
    assert p0[built] == "1" and p0[built + 1] == "+8"
    words = " ".join(text.split())
    assert "built: stations built" in words and "unbuilt+: bonus for the stations" in words
