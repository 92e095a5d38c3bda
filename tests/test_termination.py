"""The typed end of a game: ``Termination`` and ``GameOver.reason`` (E20, E66, U1)."""

from __future__ import annotations

import json
import random

import pytest

from ttr_rules import (
    Event,
    GameOver,
    Outcome,
    Pass,
    Phase,
    SerializationError,
    Termination,
    apply_action,
    final_scores,
    from_json,
    new_game,
    outcome,
    scenario,
    step,
    to_json,
    winners,
)
from ttr_rules.moves.turn import termination
from ttr_rules.testing import play


def test_termination_values_are_the_texts_records_carry() -> None:
    assert [t.value for t in Termination] == ["final round", "all passed"]
    assert str(Termination.TRAINS) == "final round"
    assert GameOver("all passed").reason is Termination.PASSES  # text is converted
    assert GameOver(Termination.TRAINS).reason is Termination.TRAINS
    with pytest.raises(ValueError, match="bored"):
        GameOver("bored")


@pytest.mark.parametrize("reason", list(Termination))
def test_game_over_round_trips_through_json(reason: Termination) -> None:
    event = GameOver(reason)
    text = to_json(event)
    assert json.loads(text) == {"type": "game_over", "reason": reason.value}
    for cls in (GameOver, Event):
        back = from_json(text, cls)
        assert back == event
        assert isinstance(back, GameOver) and back.reason is reason


def test_an_unknown_end_is_refused_with_its_path() -> None:
    with pytest.raises(SerializationError) as caught:
        from_json('{"type": "game_over", "reason": "boredom"}', GameOver)
    assert any(p.startswith("$.reason") for p in caught.value.problems)


def test_a_game_played_out_ends_by_trains_and_says_so() -> None:
    rnd = random.Random(5)
    game = play(new_game(players=2, seed=5), lambda n: int(rnd.random() * n), policy="claims")
    assert game.final.phase is Phase.GAME_OVER
    assert termination(game.final) is Termination.TRAINS


def test_a_round_of_passes_ends_the_game_by_passes() -> None:
    state = scenario(players=2, face_up=[None] * 5, deck=[], discard=[], ticket_deck=[])
    events: list[Event] = []
    while not state.is_terminal:
        assert termination(state) is None
        result = step(state, Pass())
        state = result.state
        events.extend(result.events)
    assert termination(state) is Termination.PASSES
    assert [e for e in events if isinstance(e, GameOver)] == [GameOver(Termination.PASSES)]


def test_outcome_is_none_until_the_end_then_reason_winners_scores() -> None:
    rnd = random.Random(11)
    game = play(new_game(players=3, seed=11), lambda n: int(rnd.random() * n), policy="claims")
    for state in list(game.positions())[:-1]:
        assert outcome(state) is None
    result = outcome(game.final)
    assert result is not None
    assert result.reason is Termination.TRAINS
    assert result.scores == final_scores(game.final)
    assert result.winners == winners(game.final)
    assert result.winner == (result.winners[0] if len(result.winners) == 1 else None)
    assert from_json(to_json(result), Outcome) == result


def test_outcome_after_a_round_of_passes() -> None:
    state = scenario(players=3, face_up=[None] * 5, deck=[], discard=[], ticket_deck=[])
    for _ in range(3):
        state = apply_action(state, Pass())
    result = outcome(state)
    assert result is not None and result.reason is Termination.PASSES
    assert result.winners == (0, 1, 2) and result.winner is None
    assert [s.station_bonus for s in result.scores] == [12, 12, 12]
