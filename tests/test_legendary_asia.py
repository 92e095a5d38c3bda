"""The Legendary Asia board: the map against the reference data, its mountain routes and the
Asian Explorer as general rule data, and random games keeping every invariant (docs/maps.md,
policies U27–U29)."""

from __future__ import annotations

import heapq
import random
from collections import Counter
from typing import Any

import pytest
from helpers import assert_routes_equal_reference, reference_data, route_id
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import (
    ClaimRoute,
    Color,
    GameMap,
    IllegalActionError,
    Reason,
    apply_action,
    final_scores,
    legal_actions,
    load_map,
    new_game,
    outcome,
    scenario,
    why_illegal,
)
from ttr_rules.invariants import check_invariants
from ttr_rules.scoring.bonuses import asian_explorer, largest_network
from ttr_rules.testing import check_map, playout, random_chooser


@pytest.fixture(scope="module")
def asia() -> GameMap:
    return load_map("legendary-asia")


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return reference_data("legendary_asia")


# ------------------------------------------------------------------ the map against the data


def test_cities_and_spellings_equal_the_reference(asia: GameMap, reference: dict[str, Any]) -> None:
    assert list(asia.cities) == reference["cities"]
    for detail in reference["city_details"]:
        mine = {alias for alias, city in asia.aliases if city == detail["name"]}
        expected = set(detail["aliases"])
        if detail["ticket_card_label"] != detail["name"]:
            expected.add(detail["ticket_card_label"])
        assert mine == expected
    assert len(asia.locations) == 39


def test_routes_equal_the_reference_field_by_field(
    asia: GameMap, reference: dict[str, Any]
) -> None:
    assert len(asia.routes) == 100
    assert_routes_equal_reference(asia, reference["routes"])
    assert [r.mountain for r in asia.routes] == [ref["mountains"] for ref in reference["routes"]]


def test_tickets_equal_the_reference(asia: GameMap, reference: dict[str, Any]) -> None:
    mine = [(t.a, t.b, t.points, t.long) for t in asia.tickets]
    assert mine == [(t["a"], t["b"], t["points"], t["long"]) for t in reference["tickets"]]


def test_totals(asia: GameMap) -> None:
    routes = asia.routes
    mountains = [r for r in routes if r.mountain]
    doubles = [r for r in routes if r.double_of is not None and r.id < r.double_of]
    assert (len(asia.cities), len(routes), len(doubles)) == (39, 100, 30)
    assert (len(mountains), sum(r.mountain for r in routes)) == (31, 39)
    assert Counter(r.mountain for r in mountains) == {1: 23, 2: 8}
    assert sum(r.color is None for r in mountains) == 2
    assert (sum(r.is_ferry for r in routes), sum(r.tunnel for r in routes)) == (15, 0)
    assert not any(r.is_ferry and r.mountain for r in routes)
    assert sum(r.length for r in routes) == 268
    assert (sum(t.long for t in asia.tickets), len(asia.tickets)) == (6, 36)
    assert sum(t.points for t in asia.tickets) == 339


def test_every_ticket_is_worth_its_cheapest_path_counting_the_x_marks(asia: GameMap) -> None:
    """The reference's own check: spaces plus X marks, 36 of 36."""
    near: dict[str, list[tuple[str, int]]] = {c: [] for c in asia.cities}
    for r in asia.routes:
        near[r.a].append((r.b, r.trains))
        near[r.b].append((r.a, r.trains))

    def cheapest(a: str, b: str) -> int:
        best = {a: 0}
        queue = [(0, a)]
        while queue:
            cost, city = heapq.heappop(queue)
            if city == b:
                return cost
            for other, step in near[city]:
                if cost + step < best.get(other, 1 << 30):
                    best[other] = cost + step
                    heapq.heappush(queue, (cost + step, other))
        raise AssertionError(f"{a} and {b} are not joined")

    assert [t.points for t in asia.tickets] == [cheapest(t.a, t.b) for t in asia.tickets]


def test_rules_as_data(asia: GameMap, reference: dict[str, Any]) -> None:
    rules = asia.rules
    assert (rules.min_players, rules.max_players, rules.double_route_min_players) == (2, 5, 4)
    assert (rules.trains_per_player, rules.stations_per_player) == (45, 0)  # U28
    assert (rules.initial_long_tickets, rules.initial_regular_tickets) == (1, 3)
    assert (rules.initial_keep_at_least, rules.initial_discard) == (2, "box")
    assert (rules.tickets_drawn, rules.tickets_keep_at_least) == (3, 1)
    assert rules.returned_ticket_discard == "bottom"
    assert rules.bonuses == ("asian_explorer",)  # no longest path, no Globetrotter
    assert (rules.asian_explorer_bonus, rules.mountain_points) == (10, 2)
    scoring = reference["components"]["route_scoring"]
    assert {str(n): rules.route_score(n) for n in range(1, 7)} == scoring
    assert rules.tie_breakers == ("tickets", "express")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_map(asia: GameMap, players: int) -> None:
    report = check_map(asia, games=1, players=[players], seed=players)
    assert report.ok, report


# ------------------------------------------------------------------ mountains (U27)


def test_a_mountain_claim_takes_the_x_trains_and_scores_them(asia: GameMap) -> None:
    lhasa = route_id(asia, "Lhasa", "Mandalay")  # black 2, 2 X
    state = scenario(asia, players=2, hands=[{Color.BLACK: 2}, {}])
    after = apply_action(state, ClaimRoute(lhasa, Color.BLACK, 0))
    assert after.players[0].trains == 45 - 2 - 2
    assert after.players[0].route_points == 2 + 2 * 2
    assert final_scores(after)[0].mountain_points == 4


def test_a_gray_mountain_route_takes_any_one_colour(asia: GameMap) -> None:
    rangoon = route_id(asia, "Mandalay", "Rangoon")  # gray 1, 1 X
    state = scenario(asia, players=2, hands=[{Color.GREEN: 1}, {}])
    after = apply_action(state, ClaimRoute(rangoon, Color.GREEN, 0))
    assert (after.players[0].trains, after.players[0].route_points) == (43, 3)


def test_a_claim_without_trains_for_the_x_marks_is_refused(asia: GameMap) -> None:
    karachi = route_id(asia, "Karachi", "Samarkand")  # white 4, 1 X
    state = scenario(asia, players=2, hands=[{Color.WHITE: 4}, {}], trains=[4, 45])
    action = ClaimRoute(karachi, Color.WHITE, 0)
    assert why_illegal(state, action) is Reason.NOT_ENOUGH_TRAINS
    assert action not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="5 needed: 4 for the track and 1 for its"):
        apply_action(state, action)
    plain = route_id(asia, "Agra", "Bombay")  # orange 2, no X: 4 trains are plenty
    state = scenario(asia, players=2, hands=[{Color.ORANGE: 2}, {}], trains=[4, 45])
    assert why_illegal(state, ClaimRoute(plain, Color.ORANGE, 0)) is None


def test_the_end_trigger_counts_the_trains_after_the_x_marks(asia: GameMap) -> None:
    # 5 trains: a 2-space route with 1 X leaves 2 (the final round starts); without the X
    # it would leave 3.
    agra = route_id(asia, "Agra", "Kathmandu")  # purple 2, 1 X
    state = scenario(asia, players=2, hands=[{Color.PURPLE: 2}, {}], trains=[5, 45])
    after = apply_action(state, ClaimRoute(agra, Color.PURPLE, 0))
    assert after.players[0].trains == 2 and after.final_turns is not None
    plain = route_id(asia, "Agra", "Bombay")  # orange 2
    state = scenario(asia, players=2, hands=[{Color.ORANGE: 2}, {}], trains=[5, 45])
    assert apply_action(state, ClaimRoute(plain, Color.ORANGE, 0)).final_turns is None


# ------------------------------------------------------------------ the Asian Explorer (U29)


def test_the_explorer_goes_to_every_player_tied_for_the_largest_network(asia: GameMap) -> None:
    a = route_id(asia, "Agra", "Bombay")
    b = route_id(asia, "Bombay", "Colombo", Color.BLACK)
    c = route_id(asia, "Hanoi", "Saigon", Color.ORANGE)
    d = route_id(asia, "Bangkok", "Saigon", Color.RED)
    tied = scenario(asia, players=3, routes={a: 0, b: 0, c: 1, d: 1})
    assert [largest_network(tied, s) for s in range(3)] == [3, 3, 0]
    assert asian_explorer(tied) == (10, 10, 0)
    scores = final_scores(tied)
    assert [dict(s.bonuses)["asian_explorer"] for s in scores] == [10, 10, 0]
    e = route_id(asia, "Bangkok", "Rangoon", Color.GREEN)
    alone = scenario(asia, players=3, routes={a: 0, b: 0, c: 1, d: 1, e: 1})
    assert asian_explorer(alone) == (0, 10, 0)
    assert asian_explorer(scenario(asia, players=2)) == (0, 0)  # nobody has a route


def test_a_network_counts_cities_not_routes_nor_loops(asia: GameMap) -> None:
    pair = [r.id for r in asia.routes if {r.a, r.b} == {"Bombay", "Calcutta"}]
    state = scenario(asia, players=4, routes={pair[0]: 0, route_id(asia, "Agra", "Bombay"): 1})
    assert largest_network(state, 0) == largest_network(state, 1) == 2


def test_no_longest_path_bonus(asia: GameMap) -> None:
    long_one = route_id(asia, "Dihua", "Peking")
    state = scenario(asia, players=2, routes={long_one: 0})
    score = final_scores(state)[0]
    assert score.express_bonus == 0 and score.longest_path == 6
    assert [name for name, _ in score.bonuses] == ["asian_explorer"]


# ------------------------------------------------------------------ games


def test_random_games_end_and_score(asia: GameMap) -> None:
    for players, seed in ((2, 1), (5, 2)):
        steps = list(
            playout(new_game(asia, players, seed=seed), random_chooser(random.Random(seed)))
        )
        result = outcome(steps[-1].after)
        assert result is not None
        assert all(s.express_bonus == 0 for s in result.scores)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_random_games_keep_every_invariant(seed: int, players: int) -> None:
    asia = load_map("legendary-asia")
    chooser = random_chooser(random.Random(seed))
    for n, step in enumerate(playout(new_game(asia, players, seed=seed), chooser)):
        if n % 7 == 0 or step.after.final_turns is not None:
            check_invariants(step.after)
        placed = [r.trains for r in asia.routes if step.after.route_owner[r.id] is not None]
        assert sum(p.trains for p in step.after.players) + sum(placed) == 45 * players


def test_map_info_counts_the_mountains(capsys: pytest.CaptureFixture[str]) -> None:
    from ttr_rules.cli import main

    assert main(["map-info", "legendary-asia"]) == 0
    assert "  mountains: 31 (39 X marks)" in capsys.readouterr().out.splitlines()
    assert main(["map-info", "usa-1910"]) == 0
    assert "a variant of the usa board" in capsys.readouterr().out
