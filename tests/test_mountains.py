"""Mountain routes as map data (``Route.mountain``, ``Rules.mountain_points``, U27) on a small
board built in memory: the claim's trains and points, the refusal in words, the end trigger,
both claim paths (the general one and ``moves.quick``), the file key and its validation."""

from __future__ import annotations

import json

import pytest

from ttr_rules import (
    ClaimRoute,
    Color,
    GameMap,
    IllegalActionError,
    Reason,
    Route,
    Rules,
    apply_action,
    is_legal,
    legal_actions,
    load_map,
    scenario,
    step,
    why_illegal,
)
from ttr_rules.events import RouteClaimed
from ttr_rules.maps import map_problems, map_to_dict, parse_map_text
from ttr_rules.moves import quick
from ttr_rules.render import describe_event

RED = Color.RED


def board(rules: Rules | None = None) -> GameMap:
    """Four cities; route 0 is a red 2 with 1 X, route 1 a gray 3 with 2 X, route 2 plain."""
    return GameMap.create(
        "peaks",
        ["A", "B", "C", "D"],
        [
            Route(0, "A", "B", 2, RED, mountain=1),
            Route(0, "B", "C", 3, None, mountain=2),
            Route(0, "C", "D", 2, RED),
        ],
        [("A", "C", 5), ("B", "D", 4), ("A", "D", 8), ("A", "B", 2), ("C", "D", 2), ("B", "C", 3)],
        rules=rules or Rules(initial_long_tickets=0, max_players=2),
    )


def test_a_mountain_claim_takes_trains_and_scores_for_each_x() -> None:
    state = scenario(board(), players=2, hands=[{RED: 5}, {}])
    after = apply_action(state, ClaimRoute(1, RED, 0))
    player = after.players[0]
    assert player.trains == 45 - 3 - 2
    assert player.route_points == 4 + 2 * 2
    assert after.players[0].hand[RED] == 2


def test_the_quick_path_and_the_general_path_agree_on_a_mountain_claim() -> None:
    state = scenario(board(), players=2, hands=[{RED: 5}, {}])
    fast = quick.claim(state, ClaimRoute(0, RED, 0), None)
    assert fast is not None
    slow = step(state, ClaimRoute(0, RED, 0)).state
    assert fast.players == slow.players and fast.route_owner == slow.route_owner


def test_a_claim_without_trains_for_the_x_marks_is_refused_in_words() -> None:
    state = scenario(board(), players=2, hands=[{RED: 5}, {}], trains=[4, 45])
    action = ClaimRoute(1, RED, 0)
    assert why_illegal(state, action) is Reason.NOT_ENOUGH_TRAINS
    assert action not in legal_actions(state)
    assert quick.claim(state, action, None) is None
    with pytest.raises(IllegalActionError) as refused:
        apply_action(state, action)
    words = "4 trains left, 5 needed: 3 for the track and 2 for its mountain X marks"
    assert words in str(refused.value)
    assert is_legal(state, ClaimRoute(0, RED, 0))  # 2 + 1 trains: enough


def test_the_end_trigger_counts_the_trains_left_after_the_x_marks() -> None:
    # 5 trains: the plain red 2 leaves 3 (no trigger), the red 2 with one X leaves 2 (trigger).
    state = scenario(board(), players=2, hands=[{RED: 5}, {}], trains=[5, 45])
    assert apply_action(state, ClaimRoute(2, RED, 0)).final_turns is None
    assert apply_action(state, ClaimRoute(0, RED, 0)).final_turns is not None


def test_scenario_routes_take_their_x_marks_and_points() -> None:
    state = scenario(board(), players=2, routes={1: 0})
    assert (state.players[0].trains, state.players[0].route_points) == (40, 8)


def test_mountain_points_are_a_rule_field() -> None:
    game_map = board(Rules(initial_long_tickets=0, max_players=2, mountain_points=3))
    state = scenario(game_map, players=2, routes={1: 0})
    assert state.players[0].route_points == 4 + 2 * 3
    assert Rules(mountain_points=-1).problems() == [("mountain_points", "must be >= 0")]


def test_the_map_file_key_round_trips_and_is_validated() -> None:
    data = map_to_dict(board())
    assert data["routes"][1]["mountain"] == 2 and "mountain" not in data["routes"][2]
    again = parse_map_text(json.dumps(data))
    assert again == board() and again.digest == board().digest
    data["routes"][0]["mountain"] = 3
    assert any("routes[0].mountain: must be from 0 to" in p for p in map_problems(data))
    data["routes"][0]["mountain"] = "one"
    assert any("routes[0].mountain: must be an integer" in p for p in map_problems(data))


def test_a_map_without_x_marks_keeps_its_digest() -> None:
    plain = GameMap.create("flat", ["A", "B"], [("A", "B", 2, RED)], [("A", "B", 2)])
    marked = GameMap.create(
        "flat", ["A", "B"], [Route(0, "A", "B", 2, RED, mountain=0)], [("A", "B", 2)]
    )
    assert plain.digest == marked.digest
    assert "mountain" not in json.dumps(map_to_dict(plain))


def test_the_claim_of_a_mountain_route_says_what_its_marks_took() -> None:
    """The log line of a claim counts the trains its X marks took beside the cards (U27); a
    route without marks reads as before."""
    asia = load_map("legendary-asia")
    marked = next(r for r in asia.routes if r.mountain == 2)
    plain = next(r for r in asia.routes if not r.mountain)
    claim = RouteClaimed(player=0, route=marked.id, cards=(Color.RED,) * marked.length, points=9)
    assert describe_event(claim, asia).endswith("for 9 points (2 X marks: 2 more trains)")
    plain_claim = RouteClaimed(player=0, route=plain.id, cards=(Color.RED,), points=1)
    assert describe_event(plain_claim, asia).endswith("with 1 red for 1 point")
