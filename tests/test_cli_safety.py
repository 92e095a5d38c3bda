"""Issue 29, the command line and records: records that prove their end (R2), counts checked
before memory is spent (R6), output paths checked before the work (R7), no overwrite without
``--force`` (R8), clear one-line errors (R9), views checked against map and rules (R10) and
records of map files that replay (R12). Each reproducer of the issue is a test here."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sized
from pathlib import Path
from typing import Any

import pytest

from ttr_rules import (
    GameRecord,
    PlayerView,
    SerializationError,
    new_game,
    observe,
    read_record,
    to_json,
)
from ttr_rules.cli import games as cli_games
from ttr_rules.cli import main
from ttr_rules.errors import RecordError
from ttr_rules.records import replay, with_result
from ttr_rules.serialization import from_json
from ttr_rules.sim import GameSpec, play_spec

EUROPE = Path(__file__).parents[1] / "maps/ttr_rules_europe/europe.json"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _one_line_error(err: str, *words: str) -> None:
    assert err.startswith("ttr: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played from here on fails the test: the command must refuse before."""

    def refuse(*args: Any, **kwargs: Any) -> Iterator[Any]:
        raise AssertionError("games were started before the check")

    monkeypatch.setattr(cli_games, "run_games", refuse)


# --------------------------------------------------------------------------- R2


def test_simulate_records_carry_the_end_and_a_cut_record_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--players", "2", "--games", "1", "--quiet", "--record", str(tmp_path)]
    assert main(argv) == 0
    path = tmp_path / "game-000000.json"
    record = read_record(path)
    assert record.final_digest is not None and record.scores is not None
    assert main(["replay", str(path)]) == 0
    data = json.loads(path.read_text())
    data["actions"] = data["actions"][:-1]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(data))
    capsys.readouterr()
    status, _, err = _run(["replay", str(cut)], capsys)
    assert status == 1
    _one_line_error(err, "claims a finished game", "actions are missing")


@pytest.mark.parametrize("dropped", ["final_digest", "scores"])
def test_a_record_with_half_of_its_proof_is_refused(
    dropped: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = play_spec(GameSpec(seed=1, players=2, record=True)).record
    assert record is not None
    data = json.loads(to_json(record))
    del data[dropped]
    path = tmp_path / "half.json"
    path.write_text(json.dumps(data))
    status, _, err = _run(["replay", str(path)], capsys)
    assert status == 1
    _one_line_error(err, f"no {dropped}")


def test_with_result_fills_the_end_of_a_finished_game_only() -> None:
    result = play_spec(GameSpec(seed=4, players=3, record=True))
    assert result.record is not None
    bare = GameRecord(map="europe", players=3, seed=4, actions=result.record.actions)
    proven = with_result(bare, replay(bare))
    assert (proven.final_digest, proven.scores) == (
        result.record.final_digest,
        result.record.scores,
    )
    assert proven.scores == result.totals
    assert with_result(bare, new_game("europe", 3, seed=4)) is bare


# --------------------------------------------------------------------------- R6


def test_tournament_streams_its_schedule(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[GameSpec] = []

    def fake_run_games(specs: Any, **options: Any) -> Iterator[Any]:
        assert not isinstance(specs, Sized), "the schedule was built whole"
        for spec in specs:
            seen.append(spec)
            yield play_spec(spec)
            if len(seen) == 2:
                raise KeyboardInterrupt

    monkeypatch.setattr(cli_games, "run_games", fake_run_games)
    argv = ["tournament", "--agents", "random,greedy", "--games", "3000000", "--quiet"]
    status, out, _ = _run(argv, capsys)
    assert status == 130 and len(seen) == 2
    assert "interrupted after 2 of 3000000 games" in out, out[-300:]


@pytest.mark.parametrize("command", ["simulate", "stats", "tournament"])
def test_a_huge_player_count_is_refused_before_anything_is_built(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_games(monkeypatch)
    status, _, err = _run([command, "--players", "1000000000", "--games", "1"], capsys)
    assert status == 1
    _one_line_error(err, "--players must be between 2 and 5, got 1000000000")


def _aggregates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = tmp_path / "run"
    argv = ["stats", "--agents", "random", "--players", "2", "--games", "1", "--quiet"]
    assert main([*argv, "-o", str(out)]) == 0
    capsys.readouterr()
    data: dict[str, Any] = json.loads((out / "aggregates.json").read_text())
    return data


def test_merging_an_aggregate_claiming_a_billion_players_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _aggregates(tmp_path, capsys)
    data["aggregates"]["players"] = 10**9
    bomb = tmp_path / "bomb.json"
    bomb.write_text(json.dumps(data))
    status, _, err = _run(["stats", "--merge", str(bomb), "-o", str(tmp_path / "m")], capsys)
    assert status == 1
    _one_line_error(err, "bomb.json", "players: 1000000000 is not a player count")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("not json", "not the aggregates.json"),
        ("[1, 2]", "expected a JSON object"),
        ('{"note": "x"}', "no aggregates in it"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_malformed_merge_file_is_named(
    content: str | bytes, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content)
    status, _, err = _run(["stats", "--merge", str(bad), "-o", str(tmp_path / "m")], capsys)
    assert status == 1
    _one_line_error(err, str(bad), problem)


def test_merge_files_of_another_shape_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _aggregates(tmp_path, capsys)
    data["aggregates"]["wins"] = [0]  # two players
    bad = tmp_path / "short.json"
    bad.write_text(json.dumps(data))
    good = tmp_path / "run" / "aggregates.json"
    status, _, err = _run(
        ["stats", "--merge", str(good), str(bad), "-o", str(tmp_path / "m")], capsys
    )
    assert status == 1
    _one_line_error(err, "short.json", "wins: 1 entries, expected 2")


# --------------------------------------------------------------------------- R7


def test_stats_checks_its_output_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_games(monkeypatch)
    status, _, err = _run(["stats", "-o", "/dev/null/report", "--games", "2"], capsys)
    assert status == 1
    _one_line_error(err, "cannot write /dev/null/report: /dev/null is not a folder")


def test_simulate_checks_its_record_folder_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_games(monkeypatch)
    status, _, err = _run(["simulate", "--record", "/dev/null/r", "--games", "2"], capsys)
    assert status == 1
    _one_line_error(err, "/dev/null is not a folder")


def test_play_checks_its_record_folder_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5000))
    status, out, err = _run(["play", "--record", "/dev/null/x", "--plain"], capsys)
    assert status == 1 and out == ""
    _one_line_error(err, "cannot write /dev/null/x")


def test_render_checks_its_output_before_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json"
    state.write_text(to_json(new_game(players=2, seed=0)))
    status, _, err = _run(["render", str(state), "-o", "/dev/null/board.svg"], capsys)
    assert status == 1
    _one_line_error(err, "/dev/null is not a folder")
    status, _, err = _run(["render", str(state), "-o", str(tmp_path / "no" / "b.svg")], capsys)
    assert status == 1
    _one_line_error(err, "does not exist")


# --------------------------------------------------------------------------- R8


def test_simulate_refuses_a_folder_with_another_runs_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--players", "2", "--games", "2", "--quiet", "--record", str(tmp_path)]
    assert main(argv) == 0
    first = (tmp_path / "game-000001.json").read_text()
    capsys.readouterr()
    status, _, err = _run([*argv, "--agents", "greedy"], capsys)
    assert status == 1
    _one_line_error(err, "game-000000.json and 1 more already exist", "--force")
    assert (tmp_path / "game-000001.json").read_text() == first
    # Other seeds go in beside them; --force replaces.
    assert main([*argv, "--seed", "2"]) == 0
    assert main([*argv, "--agents", "greedy", "--force"]) == 0
    assert (tmp_path / "game-000001.json").read_text() != first
    assert len(list(tmp_path.iterdir())) == 4


def test_stats_refuses_to_replace_a_report_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "index.html").write_text("my page")
    argv = ["stats", "--agents", "random", "--players", "2", "--games", "1", "--quiet"]
    status, _, err = _run([*argv, "-o", str(tmp_path)], capsys)
    assert status == 1
    _one_line_error(err, "index.html", "--force")
    assert (tmp_path / "index.html").read_text() == "my page"
    assert main([*argv, "-o", str(tmp_path), "--force"]) == 0


def test_render_never_writes_over_its_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = play_spec(GameSpec(seed=0, players=2, record=True)).record
    assert record is not None
    path = tmp_path / "rec.json"
    path.write_text(to_json(record))
    before = path.read_text()
    for output in (str(path), str(tmp_path / "." / "rec.json")):
        status, _, err = _run(["render", str(path), "-o", output, "--force"], capsys)
        assert status == 1
        _one_line_error(err, "is the input file")
    assert path.read_text() == before
    board = tmp_path / "board.svg"
    board.write_text("mine")
    status, _, err = _run(["render", str(path), "-o", str(board)], capsys)
    assert status == 1 and board.read_text() == "mine"
    _one_line_error(err, "exists; pass --force")
    assert main(["render", str(path), "-o", str(board), "--force"]) == 0
    assert board.read_text().startswith("<svg")


# --------------------------------------------------------------------------- R9


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--players", "0"], ["--players must be between 2 and 5, got 0"]),
        (["stats", "--players", "0"], ["--players must be between 2 and 5, got 0"]),
        (["simulate", "--agents", "random:seed=5"], ["agent random:seed=5", "'seed'"]),
        (
            ["simulate", "--agents", "mcts:bogus=1"],
            ["agent 'mcts' has no option 'bogus'", "its options are: iterations"],
        ),
        (["tournament", "--agents", "mcts:bogus=1,random"], ["agent 'mcts' has no option 'bogus'"]),
        (["tournament", "--agents", "random:seed=5,greedy"], ["agent random:seed=5", "'seed'"]),
        (["simulate", "--map", "maps/europe\ncopy.json"], ["maps/europe\\ncopy.json"]),
        (["simulate", "--ray", "127.0.0.1:9"], ["cannot reach the Ray cluster at 127.0.0.1:9"]),
        (["simulate", "--ray", "nowhere"], ["Ray address 'nowhere'"]),
    ],
)
def test_clear_one_line_errors(
    argv: list[str],
    words: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if "--ray" not in argv:
        _no_games(monkeypatch)
    status, out, err = _run([*argv, "--games", "1", "--quiet"], capsys)
    assert status == 1 and out == ""
    _one_line_error(err, *words)
    assert "TypeError" not in err


# --------------------------------------------------------------------------- R10


def _view_data(players: int = 3, seat: int = 1) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(to_json(observe(new_game(players=players, seed=2), seat)))
    return data


def _refused(data: dict[str, Any], *words: str) -> None:
    with pytest.raises(SerializationError) as caught:
        from_json(json.dumps(data), PlayerView)
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))


def test_a_view_from_observe_reads_back() -> None:
    view = observe(new_game(players=3, seed=2), 1)
    assert from_json(to_json(view), PlayerView) == view


def test_a_view_with_a_huge_deck_is_refused() -> None:
    data = _view_data()
    data["deck_size"] = 10**9
    _refused(data, "$.deck_size", "the rules deal 110")


def test_a_view_with_an_unknown_ticket_is_refused() -> None:
    data = _view_data()
    data["seats"][1]["offered"][0] = 999
    _refused(data, "$.seats[1].offered[0]: 999 is not a ticket of the map")


def test_a_view_with_a_ticket_twice_is_refused() -> None:
    data = _view_data()
    offered = data["seats"][1]["offered"]
    offered[1] = offered[0]
    _refused(data, "is in two places")


def test_a_view_with_a_station_in_an_unknown_city_is_refused() -> None:
    data = _view_data()
    data["seats"][0]["stations"] = ["Atlantis"]
    _refused(data, "$.seats[0].stations[0]: 'Atlantis' is not a city of the map")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["seats"][0].update(hand_size=10**9), ["$.deck_size"]),
        (lambda d: d.update(ticket_deck_size=10**9), ["$.ticket_deck_size"]),
        (lambda d: d["seats"][2].update(trains=10**9), ["$.seats[2].trains"]),
        (lambda d: d["seats"][2].update(route_points=7), ["$.seats[2].route_points: 7"]),
        (lambda d: d["seats"][1].update(offered_count=2), ["$.seats[1].offered"]),
        (lambda d: d.update(face_up=["red"]), ["$.face_up: 1 slots"]),
        (
            lambda d: d.update(discard=["red"] * 13, deck_size=d["deck_size"] - 13),
            ["red cards in sight; the rules deal 12"],
        ),
        (lambda d: d.update(final_turns=9), ["$.final_turns"]),
    ],
)
def test_views_no_position_has_are_refused(change: Any, words: list[str]) -> None:
    data = _view_data()
    change(data)
    _refused(data, *words)


# --------------------------------------------------------------------------- R12


def test_records_of_a_map_file_replay_with_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(EUROPE.read_text())
    data["name"] = "europe-copy"
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(data))
    records = tmp_path / "records"
    argv = ["simulate", "--map", str(copy), "--players", "2", "--games", "1", "--quiet"]
    assert main([*argv, "--record", str(records)]) == 0
    record = records / "game-000000.json"
    capsys.readouterr()
    status, out, err = _run(["replay", str(record)], capsys)
    assert status == 1 and out == ""
    _one_line_error(err, "no map named 'europe-copy'", "--map FILE")
    status, out, _ = _run(["replay", str(record), "--map", str(copy)], capsys)
    assert status == 0 and "the record ends before" not in out
    assert _run(["show", str(record), "--map", str(copy), "--turn", "2"], capsys)[0] == 0
    board = tmp_path / "b.svg"
    assert main(["render", str(record), "--map", str(copy), "-o", str(board)]) == 0
    # Another map of the same name is not the record's map.
    data["routes"] = data["routes"][:-1]
    copy.write_text(json.dumps(data))
    capsys.readouterr()
    status, _, err = _run(["replay", str(record), "--map", str(copy)], capsys)
    assert status == 1
    _one_line_error(err, "digest")


def test_replay_takes_the_map_of_a_record() -> None:
    from ttr_rules import load_map_file

    result = play_spec(GameSpec(seed=3, players=2, record=True))
    assert result.record is not None
    with pytest.raises(RecordError, match="not 'usa'"):
        replay(
            result.record, map=load_map_file(EUROPE.parent.parent / "ttr_rules_usa" / "usa.json")
        )
