"""JSON through one cattrs converter: exact round trips and located errors (issue 5)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from map_samples import small_map_data
from random_games import random_game

from ttr_rules import (
    Action,
    ClaimRoute,
    Color,
    DrawBlind,
    Event,
    GameRecord,
    GameState,
    Hand,
    KeepTickets,
    PlayerView,
    Rules,
    SerializationError,
    from_json,
    new_game,
    observe,
    public_view,
    record_game,
    step,
    to_json,
)
from ttr_rules.maps import map_from_dict
from ttr_rules.scoring import PlayerScore, final_scores
from ttr_rules.testing.strategies import states


@given(states())
def test_state_and_views_round_trip(state: GameState) -> None:
    assert from_json(to_json(state), GameState) == state
    for view in (observe(state, state.num_players - 1), public_view(state)):
        assert from_json(to_json(view), PlayerView) == view
    for score in final_scores(state):
        assert from_json(to_json(score), PlayerScore) == score


def test_actions_and_events_round_trip_along_games() -> None:
    for seed in range(3):
        start, actions, _ = random_game(seed)
        state = start
        for action in actions:
            text = to_json(action)
            assert from_json(text, Action) == action
            assert from_json(text, type(action)) == action
            result = step(state, action)
            for event in result.events:
                assert from_json(to_json(event), Event) == event
                assert from_json(to_json(event), type(event)) == event
            events = tuple(result.events)
            assert from_json(to_json(events, tuple[Event, ...]), tuple[Event, ...]) == events
            state = result.state


def test_record_round_trip() -> None:
    start, actions, _ = random_game(8, steps=50)
    record = record_game(start, actions, seed=8)
    assert from_json(to_json(record), GameRecord) == record
    custom = GameRecord(map="europe", players=2, seed=1, actions=("pass",), rules=Rules(1))
    assert from_json(to_json(custom), GameRecord) == custom


def test_json_shapes() -> None:
    assert json.loads(to_json(ClaimRoute(57, Color.BLACK, 1))) == {
        "type": "claim_route",
        "route": 57,
        "color": "black",
        "locomotives": 1,
    }
    assert json.loads(to_json(DrawBlind())) == {"type": "draw_blind"}
    assert json.loads(to_json(KeepTickets(frozenset({40, 12})))) == {
        "type": "keep_tickets",
        "tickets": [12, 40],
    }
    assert json.loads(to_json(Hand.of({Color.RED: 2, Color.LOCOMOTIVE: 1}))) == {
        "red": 2,
        "locomotive": 1,
    }
    data = json.loads(to_json(new_game(players=2)))
    assert set(data["map"]) == {"name", "version", "digest"}


def test_a_custom_map_is_embedded() -> None:
    toy = map_from_dict(small_map_data())
    state = new_game(toy, players=2, seed=3)
    data = json.loads(to_json(state))
    assert "embedded" in data["map"]
    assert from_json(to_json(state), GameState) == state


def _state_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(to_json(new_game(players=3, seed=2)))
    return data


def _problems(text: str, cls: Any) -> tuple[str, ...]:
    with pytest.raises(SerializationError) as info:
        from_json(text, cls)
    assert isinstance(info.value, ValueError)
    return info.value.problems


def test_truncated_json() -> None:
    text = to_json(new_game(players=2))
    (problem,) = _problems(text[: len(text) // 2], GameState)
    assert problem.startswith("$: invalid JSON")


def test_wrong_types_name_their_path() -> None:
    data = _state_data()
    data["players"][1]["hand"]["red"] = "2"
    data["players"][0]["trains"] = True
    data["deck"][3] = "blu"
    data["phase"] = 7
    problems = _problems(json.dumps(data), GameState)
    assert '$.players[1].hand.red: expected int >= 0, got "2"' in problems
    assert "$.players[0].trains: expected int, got boolean" in problems
    assert any(p.startswith("$.deck[3]: expected one of") for p in problems)
    assert any(p.startswith("$.phase: expected one of") for p in problems)


def test_missing_and_extra_fields() -> None:
    data = _state_data()
    del data["current"]
    data["secret"] = 1
    data["players"][0]["hand"]["gold"] = 1
    problems = _problems(json.dumps(data), GameState)
    assert "$.current: required field missing" in problems
    assert "$: unexpected fields secret" in problems
    assert any(p.startswith("$.players[0].hand.gold: unknown colour") for p in problems)


def test_map_reference_problems() -> None:
    data = _state_data()
    data["map"]["digest"] = "0" * 64
    (problem,) = _problems(json.dumps(data), GameState)
    assert problem.startswith("$.map: map 'europe' has digest")
    data["map"] = {"name": "atlantis", "version": "1", "digest": "0" * 64}
    (problem,) = _problems(json.dumps(data), GameState)
    assert problem.startswith("$.map: map 'atlantis' cannot be loaded")


def test_action_tags() -> None:
    (problem,) = _problems('{"type": "teleport"}', Action)
    assert problem.startswith('$: unknown action type "teleport"; expected one of draw_face_up')
    (problem,) = _problems('{"route": 3}', Action)
    assert "unknown action type null" in problem
    (problem,) = _problems('{"type": "draw_blind"}', ClaimRoute)
    assert problem == '$.type: expected "claim_route", got "draw_blind"'
    problems = _problems('{"type": "claim_route", "route": "1", "color": "pink"}', Action)
    assert problems[0] == "$.route: expected int, got string"
    assert problems[1].startswith("$.color: expected one of 'purple'")
    assert _problems("[1]", Event) == ("$: expected event object, got array",)
    assert _problems("NaN", GameState)[0].startswith("$: invalid JSON")


@pytest.mark.parametrize(
    ("phase", "documented"),
    [
        ("tunnel", "phase is tunnel and no tunnel is pending"),
        ("keep tickets", "phase is keep tickets and player 0 is offered no ticket"),
        ("initial tickets", "player 0 still chooses initial tickets and is offered none"),
        ("payment", "phase is payment and no payment with sets is being picked"),
    ],
)
def test_a_view_whose_phase_does_not_fit_what_it_holds_is_refused(
    phase: str, documented: str
) -> None:
    """Issue 44: a view's phase is checked as a state's (it was accepted, and determinize
    dealt a state that breaks the invariants)."""
    from ttr_rules import PlayerView, SerializationError, apply_action, from_json, new_game
    from ttr_rules import legal_actions as legal

    state = new_game("europe", 2, seed=3)
    for _ in range(2):
        state = apply_action(state, legal(state)[0])
    data = json.loads(to_json(observe(state, state.current)))
    data["phase"] = phase
    with pytest.raises(SerializationError) as refused:
        from_json(json.dumps(data), PlayerView)
    assert f"$.phase: {documented}" in refused.value.problems


def test_a_view_with_more_cards_of_a_colour_in_sight_than_dealt_is_refused() -> None:
    """The check of cards in sight answers in words (a name clash made it a TypeError)."""
    from ttr_rules import PlayerView, SerializationError, from_json, new_game

    data = json.loads(to_json(observe(new_game("europe", 2, seed=3), 0)))
    data["discard"] = ["red"] * 13
    data["deck_size"] -= 13
    with pytest.raises(SerializationError, match=r"\d+ red cards in sight; the rules deal 12"):
        from_json(json.dumps(data), PlayerView)
