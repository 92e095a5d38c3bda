"""Game records: recording, replaying, tampering, the schema and the CLI (issue 5)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import jsonschema
import pytest
from random_games import random_game

from ttr_rules import (
    GameRecord,
    PlayerScore,
    PlayerView,
    RecordError,
    SerializationError,
    final_scores,
    from_json,
    new_game,
    observe,
    public_view,
    read_record,
    record_game,
    replay,
    to_json,
    write_record,
)
from ttr_rules.cli import main
from ttr_rules.cli.records import state_at_turn
from ttr_rules.records import record_schema
from ttr_rules.render import format_scores, text
from ttr_rules.rules import Rules


def _recorded(seed: int, steps: int | None = None) -> GameRecord:
    start, actions, _ = random_game(seed, steps)
    return record_game(start, actions, seed=seed)


@pytest.mark.parametrize("seed", range(4))
def test_records_replay_to_the_same_state(seed: int) -> None:
    start, actions, end = random_game(seed)
    record = record_game(start, actions, seed=seed)
    assert record.map == "europe" and record.players == start.num_players
    assert record.map_digest == start.map.digest and record.rules is None
    assert len(record.actions) == len(actions)
    again = from_json(to_json(record), GameRecord)
    assert replay(again) == end
    jsonschema.validate(json.loads(to_json(record)), record_schema())


def test_custom_rules_and_first_player() -> None:
    rules = Rules(initial_discard="bottom", trains_per_player=20)
    start = new_game(players=3, seed=9, rules=rules, first_player=2)
    record = record_game(start, [], seed=9)
    assert record.rules == rules and record.first_player == 2
    assert replay(record) == start
    jsonschema.validate(json.loads(to_json(record)), record_schema())


def test_record_game_checks_its_start() -> None:
    start, actions, _ = random_game(1, steps=5)
    assert record_game(start, actions) == record_game(start, actions, seed=start.seed)
    with pytest.raises(ValueError, match="not new_game"):
        record_game(start, actions, seed=2)


def test_a_tampered_record_fails_at_the_right_index() -> None:
    record = _recorded(6, steps=40)
    for index, bad in ((0, "tickets keep 999"), (10, "pass"), (25, "claim Atlantis-Paris red")):
        actions = list(record.actions)
        actions[index] = bad
        with pytest.raises(RecordError) as info:
            replay(attrs.evolve(record, actions=tuple(actions)))
        assert info.value.index == index
        assert f"action {index}" in str(info.value)
    swapped = list(record.actions)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    if swapped != list(record.actions):
        with pytest.raises(RecordError):
            replay(attrs.evolve(record, actions=tuple(swapped)))


def test_another_map_is_refused() -> None:
    record = _recorded(2, steps=3)
    for changes, message in (
        ({"map_digest": "0" * 64}, "digest"),
        ({"map_version": "0.1"}, "version 0.1"),
        ({"format_version": 2}, "format version 2"),
        ({"map": "atlantis"}, "cannot be loaded"),
        ({"players": 9}, "setup is invalid"),
    ):
        with pytest.raises(RecordError, match=message) as info:
            replay(attrs.evolve(record, **changes))
        assert info.value.index is None


def test_files_and_malformed_records(tmp_path: Path) -> None:
    record = _recorded(3, steps=20)
    path = tmp_path / "game.json"
    write_record(path, record)
    assert read_record(path) == record
    path.write_text('{"map": "europe", "players": "4", "seed": 1, "actions": [3]}')
    with pytest.raises(SerializationError) as info:
        read_record(path)
    assert "$.players: expected int, got string" in info.value.problems
    assert "$.actions[0]: expected string, got integer" in info.value.problems
    path.write_text(to_json(record)[:-10])
    with pytest.raises(SerializationError, match="invalid JSON"):
        read_record(path)


def test_cli_replay_reproduces_the_final_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, end = random_game(0)
    path = tmp_path / "game.json"
    write_record(path, _recorded(0))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("europe 1.0, ")
    assert "setup\n  Player 1: tickets keep" in out
    assert "\nturn 0\n" in out and "game over" in out
    assert out.rstrip().endswith(format_scores(end).rstrip())


def test_cli_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _recorded(4)
    path = tmp_path / "game.json"
    write_record(path, record)
    assert main(["show", str(path), "--turn", "12", "--player", "1"]) == 0
    out = capsys.readouterr().out
    state = state_at_turn(record, 12)
    assert state.turn == 12
    assert out.strip() == text(observe(state, 1))
    assert "turn 12" in out and "Player 2 (you)" in out and "hand:" in out
    acting = "your move" if state.current == 1 else f"Player {state.current + 1} to act"
    assert acting in out.splitlines()[0]
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == text(public_view(replay(record)))
    header = out.splitlines()[0]
    assert header.count("game over") == 1, header  # not "game over, game over"
    assert main(["show", str(path), "--turn", "100000"]) == 1
    assert "there is no turn 100000" in capsys.readouterr().err


def test_cli_replay_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _recorded(0)
    path = tmp_path / "game.json"
    write_record(path, record)
    assert main(["replay", "--json", str(path)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    steps, last = rows[:-1], rows[-1]
    assert [row["action"] for row in steps] == list(record.actions)
    assert steps[0]["turn"] is None and steps[0]["player"] == 0
    turns = [row["turn"] for row in steps if row["turn"] is not None]
    assert turns[0] == 0 and turns == sorted(turns)
    assert all(row["events"] for row in steps)  # every action causes at least one event
    assert last["game_over"] is True
    scores = [from_json(json.dumps(s), PlayerScore) for s in last["scores"]]
    assert tuple(scores) == final_scores(replay(record))


def test_cli_show_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _recorded(4)
    path = tmp_path / "game.json"
    write_record(path, record)
    assert main(["show", str(path), "--turn", "12", "--player", "1", "--json"]) == 0
    view = from_json(capsys.readouterr().out, PlayerView)
    assert view == observe(state_at_turn(record, 12), 1)
    assert main(["show", str(path), "--json"]) == 0
    assert from_json(capsys.readouterr().out, PlayerView) == public_view(replay(record))
