"""Issue 29's hostile sweep of the command line: every command and every file it reads, fed
absurd counts, non-numbers, paths that are folders, devices, links or the output itself, and
files that are truncated, garbled, deeply nested, not UTF-8, of the wrong shape or lying.

Each case must end with the documented exit status (1 for a refused input, 2 for a command
line that does not parse), ONE line on stderr for a refusal (argparse's usage lines for a
command line that does not parse), never a traceback, no game started, and every input file
unchanged. The file doors are also fuzzed with hypothesis around valid files."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_messages import breaches

from ttr_rules import GameRecord, new_game, observe, to_json
from ttr_rules.cli import games as cli_games
from ttr_rules.cli import main
from ttr_rules.notation import NUMBER_FIELDS, NumberField
from ttr_rules.sim import BalanceStats, GameSpec, play_spec

# --------------------------------------------------------------------------- the files


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Valid inputs (a finished record, a view, a state, aggregates) and hostile ones."""
    folder = tmp_path_factory.mktemp("hostile")
    assert (
        main(["simulate", "--players", "2", "--games", "1", "--quiet", "--record", str(folder)])
        == 0
    )
    record = folder / "game-000000.json"
    data = json.loads(record.read_text())
    state = new_game("europe", 2, seed=3)
    paths = {"record": record, "folder": folder}
    written: dict[str, str | bytes] = {
        "view": to_json(observe(state, 0)),
        "state": to_json(state),
        "aggregates": json.dumps({"note": "", "aggregates": _aggregates()}),
        "non_utf8": b'{"map": "\xff\xfe"}',
        "bom": b"\xef\xbb\xbf" + record.read_bytes(),
        "utf16": record.read_text().encode("utf-16"),
        "empty": "",
        "truncated": record.read_text()[:200],
        "deep_array": "[" * 100_000 + "]" * 100_000,
        "deep_object": '{"a":' * 50_000 + "1" + "}" * 50_000,
        "array": "[]",
        "null": "null",
        "nan": record.read_text().replace('"seed": 0', '"seed": NaN'),
        "long_number": record.read_text().replace('"seed": 0', '"seed": ' + "9" * 5000),
        "players_huge": json.dumps({**data, "players": 10**9}),
        "players_text": json.dumps({**data, "players": "2"}),
        "players_bool": json.dumps({**data, "players": True}),
        "actions_text": json.dumps({**data, "actions": "draw"}),
        "actions_numbers": json.dumps({**data, "actions": [1, 2]}),
        "action_illegal": json.dumps({**data, "actions": ["claim Paris-Madrid", *data["actions"]]}),
        "action_control": json.dumps({**data, "actions": ["draw\nblind\x00\u202e"]}),
        "action_long": json.dumps({**data, "actions": ["x" * 100_000]}),
        "digest_lie": json.dumps({**data, "final_digest": "0" * 64}),
        "digest_number": json.dumps({**data, "final_digest": 5}),
        "scores_lie": json.dumps({**data, "scores": [1, 2]}),
        "cut": json.dumps({**data, "actions": data["actions"][:-1]}),
        "map_unknown": json.dumps({**data, "map": "nowhere\nelse"}),
        "map_digest_lie": json.dumps({**data, "map_digest": "abc"}),
        "rules_negative": json.dumps({**data, "rules": {"trains_per_player": -1}}),
        "extra_field": json.dumps({**data, "zzz": 1}),
        "first_player_out": json.dumps({**data, "first_player": 7}),
        "view_deck_bomb": json.dumps(
            {**json.loads(to_json(observe(state, 0))), "deck_size": 10**9}
        ),
        "view_seat_out": json.dumps({**json.loads(to_json(observe(state, 0))), "player": 9}),
    }
    for name, content in written.items():
        path = folder / f"{name}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        paths[name] = path
    paths["link"] = folder / "link.json"
    paths["link"].symlink_to(record)
    paths["dangling"] = folder / "dangling.json"
    paths["dangling"].symlink_to(folder / "nowhere.json")
    return paths


def _aggregates() -> dict[str, Any]:
    stats = None
    for seed in range(2):
        result = play_spec(GameSpec(seed=seed, map="europe", players=2))
        if stats is None:
            stats = BalanceStats.for_result(result, 101, 46)
        stats.add(result)
    assert stats is not None
    return stats.to_dict()


HOSTILE_FILES = [
    "non_utf8", "utf16", "empty", "truncated", "deep_array", "deep_object", "array", "null",
    "nan", "long_number", "players_huge", "players_text", "players_bool", "actions_text",
    "actions_numbers", "action_illegal", "action_control", "action_long", "digest_lie",
    "digest_number", "scores_lie", "cut", "map_unknown", "map_digest_lie", "rules_negative",
    "extra_field", "first_player_out", "view_deck_bomb", "view_seat_out", "aggregates",
    "folder", "dangling",
]  # fmt: skip
#: Paths that are not files: a device, a path under a file, a name with a newline.
ODD_PATHS = ["/dev/null", "/dev/zero", "/dev/null/x", "no\nsuch.json", "", "-"]


# --------------------------------------------------------------------------- the checks


def _digests(folder: Path) -> dict[str, str]:
    return {
        entry.name: hashlib.sha256(Path(entry.path).read_bytes()).hexdigest()
        for entry in os.scandir(folder)
        if entry.is_file(follow_symlinks=False)
    }


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Iterator[Any]:
        raise AssertionError("games were started before the check")

    monkeypatch.setattr(cli_games, "run_games", refuse)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], status: int = 1) -> str:
    """Run ``ttr argv``; it must refuse with ``status`` and one error line. Returns the line."""
    capsys.readouterr()
    got = main(argv)
    _, err = capsys.readouterr()
    assert "Traceback" not in err and "error: unexpected" not in err, err
    assert got == status, (argv, got, err)
    if status == 2:  # argparse: its usage lines, then one error line
        line = err.rstrip("\n").splitlines()[-1]
        assert line.startswith("ttr"), err
    else:
        assert err.startswith("ttr: error: ") and err.count("\n") == 1, err
        line = err
    assert breaches(line.rstrip("\n").split(" error: ", 1)[1]) == [], line
    return line


def _expand(argv: list[str], files: dict[str, Path]) -> list[str]:
    return [str(files[a[1:]]) if a.startswith("@") else a for a in argv]


# --------------------------------------------------------------------------- counts


NUMBERS_NOT_PARSED = ["x", "2.5", "٣", " 3", "1_000", "1e3", "0x10", "nan", "", "9" * 31]
GAME_COMMANDS = [["simulate"], ["stats", "-o", "{out}"], ["tournament"]]


@pytest.mark.parametrize("command", GAME_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--players", "0", "--players must be between 2 and 5, got 0"),
        ("--players", "-1", "--players must be between 2 and 5"),
        ("--players", str(10**12), "--players must be between 2 and 5"),
        ("--games", "0", "--games must be at least 1"),
        ("--games", "-1", "--games must be at least 1"),
        ("--games", str(10**12), "at most 1,000,000,000 games"),
        ("--seed", "-1", "--seed must be between 0 and"),
        ("--seed", str(2**63), "--seed must be between 0 and"),
        ("--workers", "0", "--workers must be at least 1"),
        ("--workers", str(10**12), "--workers must be at most"),
        ("--batch-size", "0", "--batch-size must be between 1 and 10,000"),
        ("--batch-size", str(10**12), "--batch-size must be between 1 and 10,000"),
        ("--agents", "", "names no agent"),
        ("--agents", "nosuch", "nosuch"),
        ("--agents", "random:seed=5", "the option 'seed' cannot be set"),
        ("--agents", "mcts:bogus=1", "has no option 'bogus'"),
        ("--agents", "mcts:iterations=x", "iterations"),
        ("--agents", "rand\nom", "rand\\nom"),
        ("--agents", "a" * 5000, "aaaa"),
        ("--map", "", ""),
        ("--map", "nosuch", "nosuch"),
        ("--map", "a\nb", "a\\nb"),
        ("--map", "x" * 5000, ""),
        ("--map", "/dev/null", "/dev/null"),
        ("--map", "@folder", ""),
        ("--map", "@record", "invalid map file"),
        ("--map", "@deep_array", "nested too deeply"),
        ("--map", "@non_utf8", "not UTF-8"),
        ("--ray", "nowhere", "expected auto, host:port or ray://host:port"),
        ("--ray", "127.0.0.1:99999", "expected auto, host:port"),
        ("--ray", "a\nb:1", ""),
    ],
)
def test_absurd_options_are_refused_before_any_game(
    command: list[str],
    option: str,
    value: str,
    words: str,
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_games: None,
) -> None:
    if command[0] == "tournament" and option == "--agents" and value == "":
        words = "agent"
    argv = [a.replace("{out}", str(tmp_path / "out")) for a in command]
    before = _digests(files["folder"])
    err = _refused([*argv, *_expand([option, value], files), "--quiet"], capsys)
    assert words in err, (words, err)
    assert _digests(files["folder"]) == before


@pytest.mark.parametrize("command", GAME_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("option", ["--players", "--games", "--seed", "--workers", "--batch-size"])
@pytest.mark.parametrize("value", NUMBERS_NOT_PARSED)
def test_a_count_that_is_not_a_whole_number_is_a_usage_error(
    command: list[str],
    option: str,
    value: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_games: None,
) -> None:
    argv = [a.replace("{out}", str(tmp_path / "out")) for a in command]
    line = _refused([*argv, option, value], capsys, status=2)
    assert f"argument {option}" in line and "\\n" not in line


# --------------------------------------------------------------------------- output paths


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--games", "1", "--record", "/dev/null/x"], "/dev/null is not a folder"),
        (["simulate", "--games", "1", "--record", "@record"], "is not a folder"),
        (["stats", "--games", "1", "-o", "/dev/null/x"], "/dev/null is not a folder"),
        (["stats", "--games", "1", "-o", "@record"], "is not a folder"),
        (["play", "--seed", "1", "--record", "/dev/null/x"], "/dev/null is not a folder"),
        (["play", "--seed", "1", "--record", "@record"], "exists; name a new file or a folder"),
        (["render", "@record", "-o", "@record", "--force"], "is the input file"),
        (["render", "@record", "-o", "@link", "--force"], "is the input file"),
        (["render", "@link", "-o", "@record", "--force"], "is the input file"),
        (["render", "@record", "-o", "@folder"], "is a folder"),
        (["render", "@record", "-o", "@view"], "exists; pass --force to replace it"),
        (["render", "@record", "-o", "/dev/null/x.svg"], "/dev/null is not a folder"),
        (["render", "@record", "-o", ""], "-o names no file"),
        (["render", "@record", "--size", "0", "-o", "{out}"], "at least 100 pixels"),
        (["render", "@record", "--size", "1000000", "-o", "{out}"], "at most 10,000 pixels"),
        (["render", "@view", "--player", "1", "-o", "{out}"], "view of seat 0"),
        (["render", "@view", "--turn", "1", "-o", "{out}"], "--turn applies to game records"),
        (["render", "@state", "--player", "5", "-o", "{out}"], "seat"),
        (["stats", "--merge", "@aggregates", "-o", "@folder", "--force"], "is one of the inputs"),
    ],
)
def test_outputs_that_would_lose_or_fail_are_refused(
    argv: list[str],
    words: str,
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_games: None,
) -> None:
    if argv[0] == "stats" and "--merge" in argv:  # the aggregates' folder is the output
        merged = tmp_path / "aggregates.json"
        merged.write_bytes(files["aggregates"].read_bytes())
        argv = ["stats", "--merge", str(merged), "-o", str(tmp_path), "--force"]
    before = _digests(files["folder"])
    expanded = [a.replace("{out}", str(tmp_path / "b.svg")) for a in _expand(argv, files)]
    err = _refused(expanded, capsys)
    assert words in err, (words, err)
    assert _digests(files["folder"]) == before


# --------------------------------------------------------------------------- the file doors


@pytest.mark.parametrize("name", HOSTILE_FILES)
@pytest.mark.parametrize("command", ["replay", "show", "render", "merge", "map-info"])
def test_every_file_door_refuses_hostile_files_in_one_line(
    command: str,
    name: str,
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(files[name])
    argv = {
        "replay": ["replay", path],
        "show": ["show", path],
        "render": ["render", path, "-o", str(tmp_path / "b.svg")],
        "merge": ["stats", "--merge", path, "-o", str(tmp_path / "report")],
        "map-info": ["map-info", path],
    }[command]
    if command == "merge" and name == "aggregates":  # the valid aggregates merge
        assert main(argv) == 0
        return
    before = _digests(files["folder"])
    _refused(argv, capsys)
    assert _digests(files["folder"]) == before


@pytest.mark.parametrize("path", ODD_PATHS)
@pytest.mark.parametrize("command", ["replay", "show", "render", "merge", "map-info", "validate"])
def test_paths_that_are_not_files_are_refused_in_one_line(
    command: str, path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = {
        "replay": ["replay", path],
        "show": ["show", path],
        "render": ["render", path, "-o", str(tmp_path / "b.svg")],
        "merge": ["stats", "--merge", path, "-o", str(tmp_path / "report")],
        "map-info": ["map-info", path],
        "validate": ["validate-map", path],
    }[command]
    if command == "validate":  # its problems are its output, on stdout; stderr stays clean
        capsys.readouterr()
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert err == "" and out.strip() and "Traceback" not in out
        return
    _refused(argv, capsys)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["show", "@record", "--turn", "-1"], "--turn must be >= 0"),
        (["show", "@record", "--turn", str(10**12)], "there is no turn 1000000000000"),
        (["show", "@record", "--player", "9"], "seat"),
        (["show", "@record", "--player", "-1"], "seat"),
        (["replay", "@record", "--map", "@record"], "ttr validate-map lists them"),
        (["replay", "@record", "--map", "nosuch"], "nosuch"),
        (["replay", "@record", "--map", "/dev/zero"], "/dev/zero"),
        (["play", "--players", "0", "--no-record"], "--players must be between 2 and 5, got 0"),
        (["play", "--players", str(10**12), "--no-record"], "--players must be between 2 and 5"),
        (["play", "--seat", "5", "--no-record"], "--seat must be from 0 to 1, got 5"),
        (["play", "--seed", "-1", "--no-record"], "--seed must be between 0 and"),
        (["play", "--agents", "nosuch", "--no-record"], "nosuch"),
        (["play", "--agents", ",", "--no-record"], "--agents needs at least one agent name"),
        (["play", "--map", "nosuch", "--no-record"], "nosuch"),
    ],
)
def test_records_views_and_play_options(
    argv: list[str], words: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    err = _refused(_expand(argv, files), capsys)
    assert words in err, (words, err)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["serve", "--port", "99999"], "--port must be 0-65535"),
        (["serve", "--port", "x"], "argument --port"),
        (["serve", "--agent-delay", "nan"], "--agent-delay"),
        (["serve", "--data", "/dev/null/x"], "/dev/null/x"),
    ],
)
def test_serve_refuses_its_bad_options_before_serving(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _refused(argv, capsys, status=2)
    assert words in line


def test_a_valid_merge_still_works(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "--merge", str(files["aggregates"]), "-o", str(tmp_path / "r")]) == 0
    assert "2 games of 2 players on europe" in capsys.readouterr().out


# --------------------------------------------------------------------------- fuzzing


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every JSON path in ``value``: its object keys and the first items of its arrays."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _paths(item, (*path, index))


@st.composite
def mutated(draw: st.DrawFn, original: Any) -> Any:
    """``original`` with one value replaced by arbitrary JSON, removed, or joined by a key."""
    data = json.loads(json.dumps(original))
    paths = [p for p in _paths(data) if p]
    path = draw(st.sampled_from(paths))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    how = draw(st.sampled_from(["replace", "remove", "add"]))
    if how == "replace":
        parent[path[-1]] = draw(JSON_VALUES)
    elif how == "remove":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=8))] = draw(JSON_VALUES)
    else:
        parent.append(draw(JSON_VALUES))
    return data


def _fuzz_door(argv: list[str], data: Any, path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    status = main(argv)
    _, err = capsys.readouterr()
    assert "Traceback" not in err and "error: unexpected" not in err, err
    assert status in (0, 1), (status, err)
    if status == 1:
        assert err.startswith("ttr: error: ") and err.count("\n") == 1, err
        assert breaches(err.rstrip("\n").removeprefix("ttr: error: ")) == [], err


FUZZ = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(data=st.data())
def test_fuzzed_records_are_replayed_or_refused_in_one_line(
    data: st.DataObject, files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = json.loads(files["record"].read_text())
    path = tmp_path / "fuzzed.json"
    _fuzz_door(["show", str(path)], data.draw(mutated(original)), path, capsys)


@FUZZ
@given(data=st.data())
def test_fuzzed_views_and_states_are_drawn_or_refused_in_one_line(
    data: st.DataObject, files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kind = data.draw(st.sampled_from(["view", "state"]))
    original = json.loads(files[kind].read_text())
    path = tmp_path / "fuzzed.json"
    out = tmp_path / "board.svg"
    argv = ["render", str(path), "-o", str(out), "--force"]
    _fuzz_door(argv, data.draw(mutated(original)), path, capsys)


@FUZZ
@given(data=st.data())
def test_fuzzed_aggregates_are_merged_or_refused_in_one_line(
    data: st.DataObject, files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = json.loads(files["aggregates"].read_text())
    path = tmp_path / "fuzzed.json"
    argv = ["stats", "--merge", str(path), "-o", str(tmp_path / "report"), "--force"]
    _fuzz_door(argv, data.draw(mutated(original)), path, capsys)


# --------------------------------------------------------------------------- Ray


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never says a word (where ``ray.init`` would wait
    for minutes)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for link in held:
        link.close()


def test_ray_at_an_address_that_is_not_ray_fails_in_one_line(silent_port: int) -> None:
    argv = ["simulate", "--games", "1", "--quiet", "--ray", f"127.0.0.1:{silent_port}"]
    done = subprocess.run(
        [sys.executable, "-m", "ttr_rules", *argv],
        capture_output=True,
        text=True,
        timeout=120,  # a hang guard, not a timing assertion
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"ttr: error: cannot reach the Ray cluster at 127.0.0.1:{silent_port}: "
        "something answers there, but not Ray\n"
    )


# --------------------------------------------------------------------------- docs/errors.md

ERRORS_DOC = Path(__file__).parents[1] / "docs" / "errors.md"


@pytest.mark.parametrize(
    ("argv", "documented"),
    [
        (["simulate", "--players", "0"], "--players must be between 2 and 5, got 0"),
        (["simulate", "--games", "0"], "--games must be at least 1"),
        (
            ["simulate", "--games", str(10**12)],
            "--games: at most 1,000,000,000 games, got 1,000,000,000,000",
        ),
        (["stats", "--batch-size", "0"], "--batch-size must be between 1 and 10,000, got 0"),
        (
            ["simulate", "--agents", "random:seed=5"],
            "agent random:seed=5: the option 'seed' cannot be set: each seat's agent is seeded "
            "from the game's seed (use --seed)",
        ),
        (
            ["simulate", "--agents", "mcts:iterations=-3"],
            "agent 'mcts': iterations must be a whole number from 1 to 1,000,000, got -3",
        ),
        (["simulate", "--ray", "127.0.0.1:9"], "cannot reach the Ray cluster at 127.0.0.1:9"),
        (["render", "@record", "-o", ""], "-o names no file"),
        (["render", "@view", "--turn", "1"], "--turn applies to game records only"),
        (["render", "@view", "--player", "1"], "the file holds the view of seat 0"),
        (["render", "@record", "--size", "1000000"], "--size must be at most 10,000 pixels"),
        (["show", "@record", "--turn", "-1"], "--turn must be >= 0, got -1"),
        (["replay", "/dev/zero"], "/dev/zero: not a regular file"),
        (["play", "--seat", "5"], "--seat must be from 0 to 1, got 5"),
        (["play", "--agents", ","], "--agents needs at least one agent name"),
        (["replay", "@scores_lie"], "the record says 1 and 2"),
        (["replay", "@record", "--map", "@record"], "ttr validate-map lists them)"),
    ],
)
def test_docs_errors_md_shows_the_real_messages(
    argv: list[str],
    documented: str,
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_games: None,
) -> None:
    """Each CLI row's message in docs/errors.md is what the command prints (status 1)."""
    assert documented in ERRORS_DOC.read_text(encoding="utf-8"), documented
    if argv[0] == "render" and "-o" not in argv:
        argv = [*argv, "-o", str(tmp_path / "board.svg")]
    err = _refused(_expand(argv, files), capsys)
    assert documented in err, (documented, err)


def test_a_bad_agent_value_names_the_agent_once(
    capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    """``make_agent`` names the agent in a bad value's message; the CLI adds no second name."""
    err = _refused(["simulate", "--agents", "mcts:iterations=-3"], capsys)
    assert err.strip() == (
        "ttr: error: agent 'mcts': iterations must be a whole number from 1 to 1,000,000, got -3"
    )


# --------------------------------------------------------------------------- notation numbers


def _record_acting(name: str, text: str) -> dict[str, Any]:
    """A record of ``name`` (seed 1) whose first action is ``text``."""
    state = new_game(name, 2, seed=1)
    record = GameRecord(
        map=name,
        players=2,
        seed=1,
        actions=(text,),
        map_digest=state.map.digest,
        map_version=state.map.version,
    )
    data: dict[str, Any] = json.loads(to_json(record))
    return data


@pytest.mark.parametrize("name", ["europe", "nordic"])
@pytest.mark.parametrize("field", NUMBER_FIELDS, ids=lambda f: f.name)
def test_replay_refuses_every_notation_number_past_its_bound(
    field: NumberField, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 T1: every number of the notation (the one table, so a new field is swept
    too), at nine digits in a record, is refused in one line naming the action and the
    field: never a list of that many cards built first."""
    state = new_game(name, 2, seed=1)
    for text in field.written(999_999_999, state.map):
        path = tmp_path / "record.json"
        path.write_text(json.dumps(_record_acting(name, text)), encoding="utf-8")
        line = _refused(["replay", str(path)], capsys)
        assert "action 0" in line and field.name in line and "got 999999999" in line, line
        _refused(["show", str(path)], capsys)


def test_the_issues_record_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bomb.json"
    path.write_text(
        json.dumps(_record_acting("nordic", "claim #3 red any:99999999blue")), encoding="utf-8"
    )
    line = _refused(["replay", str(path)], capsys)
    assert line == (
        "ttr: error: action 0 ('claim #3 red any:99999999blue') does not replay: "
        "substitute cards must be at most 36 on map nordic, got 99999999\n"
    )


# --------------------------------------------------------------------------- every option

#: At least one hostile value for every option and argument of every command that takes a
#: value: (command, option) -> (argv, exit status, words of the refusal). ``@name`` is one of
#: the ``files``; ``{out}`` a fresh path. :func:`test_every_option_of_every_command_is_swept`
#: fails when a command gains an option that is not here.
OPTION_SWEEP: dict[tuple[str, str], tuple[list[str], int, str]] = {
    ("maps", "--json"): (["maps", "--json", "x"], 2, "unrecognized arguments"),
    ("map-info", "name"): (["map-info", "no\nsuch"], 1, "no\\nsuch"),
    ("validate-map", "file"): (["validate-map", "--render"], 2, "required: MAP"),
    ("simulate", "--map"): (["simulate", "--map", "@deep_array"], 1, "nested too deeply"),
    ("simulate", "--players"): (["simulate", "--players", "0"], 1, "--players must be between"),
    ("simulate", "--games"): (["simulate", "--games", "0"], 1, "--games must be at least 1"),
    ("simulate", "--seed"): (["simulate", "--seed", "-1"], 1, "--seed must be between 0 and"),
    ("simulate", "--agents"): (["simulate", "--agents", "rand\nom"], 1, "rand\\nom"),
    ("simulate", "--jobs"): (["simulate", "--workers", "0"], 1, "--workers must be at least 1"),
    ("simulate", "--ray"): (["simulate", "--ray", "nowhere"], 1, "expected auto, host:port"),
    ("simulate", "--batch-size"): (["simulate", "--batch-size", "0"], 1, "--batch-size must be"),
    ("simulate", "--record"): (["simulate", "--record", "@record"], 1, "is not a folder"),
    ("stats", "--map"): (["stats", "-o", "{out}", "--map", "nosuch"], 1, "nosuch"),
    ("stats", "--players"): (["stats", "-o", "{out}", "--players", "-1"], 1, "--players must"),
    ("stats", "--games"): (["stats", "-o", "{out}", "--games", "0"], 1, "--games must be"),
    ("stats", "--seed"): (["stats", "-o", "{out}", "--seed", str(2**63)], 1, "--seed must be"),
    ("stats", "--agents"): (["stats", "-o", "{out}", "--agents", "mcts:bogus=1"], 1, "bogus"),
    ("stats", "--jobs"): (["stats", "-o", "{out}", "--workers", "0"], 1, "--workers must"),
    ("stats", "--ray"): (["stats", "-o", "{out}", "--ray", "a\nb:1"], 1, ""),
    ("stats", "--batch-size"): (["stats", "-o", "{out}", "--batch-size", "0"], 1, "--batch"),
    ("stats", "--record"): (["stats", "-o", "{out}", "--record", "/dev/null/x"], 1, "not a folder"),
    ("stats", "--output"): (["stats", "-o", "@record"], 1, "is not a folder"),
    ("stats", "--merge"): (["stats", "--merge", "@deep_object", "-o", "{out}"], 1, ""),
    ("replay", "file"): (["replay", "/dev/zero"], 1, "not a regular file"),
    ("replay", "--map"): (["replay", "@record", "--map", "/dev/zero"], 1, "/dev/zero"),
    ("show", "file"): (["show", "@nan"], 1, ""),
    ("show", "--turn"): (["show", "@record", "--turn", "-1"], 1, "--turn must be >= 0"),
    ("show", "--player"): (["show", "@record", "--player", "-1"], 1, "seat"),
    ("show", "--map"): (["show", "@record", "--map", "no\nsuch"], 1, "no\\nsuch"),
    ("render", "file"): (["render", "@folder", "-o", "{out}"], 1, ""),
    ("render", "--turn"): (["render", "@record", "--turn", "-1", "-o", "{out}"], 1, "--turn"),
    ("render", "--player"): (["render", "@record", "--player", "9", "-o", "{out}"], 1, "seat"),
    ("render", "--output"): (["render", "@record", "-o", ""], 1, "-o names no file"),
    ("render", "--map"): (["render", "@record", "--map", "nosuch", "-o", "{out}"], 1, "nosuch"),
    ("render", "--size"): (["render", "@record", "--size", "0", "-o", "{out}"], 1, "at least 100"),
    ("play", "--map"): (["play", "--map", "@non_utf8", "--no-record"], 1, "not UTF-8"),
    ("play", "--players"): (["play", "--players", "0", "--no-record"], 1, "--players must"),
    ("play", "--seat"): (["play", "--seat", "-1", "--no-record"], 1, "--seat must be"),
    ("play", "--agents"): (["play", "--agents", ",", "--no-record"], 1, "--agents needs"),
    ("play", "--seed"): (["play", "--seed", "-1", "--no-record"], 1, "--seed must be"),
    ("play", "--record"): (["play", "--record", "/dev/null/x"], 1, "/dev/null is not a folder"),
    ("tournament", "--agents"): (["tournament", "--agents", "random"], 1, "two agents"),
    ("tournament", "--games"): (["tournament", "--games", str(10**12)], 1, "at most"),
    ("tournament", "--players"): (["tournament", "--players", "9"], 1, "--players must"),
    ("tournament", "--seed"): (["tournament", "--seed", "-1"], 1, "--seed must be"),
    ("tournament", "--map"): (["tournament", "--map", "/dev/null"], 1, "/dev/null"),
    ("tournament", "--jobs"): (["tournament", "--workers", str(10**12)], 1, "--workers must"),
    ("tournament", "--ray"): (["tournament", "--ray", "127.0.0.1:99999"], 1, "expected auto"),
    ("tournament", "--batch-size"): (["tournament", "--batch-size", "0"], 1, "--batch-size"),
    ("serve", "--host"): (["serve", "--host", "bad\nhost", "--port", "0"], 1, "cannot listen"),
    ("serve", "--port"): (["serve", "--port", "٣"], 2, "argument --port"),
    ("serve", "--data"): (["serve", "--data", "@record"], 2, "is not a directory"),
    ("serve", "--agent-delay"): (["serve", "--agent-delay", "inf"], 2, "--agent-delay must"),
    ("serve", "--agent-workers"): (["serve", "--agent-workers", "65"], 2, "--agent-workers"),
    ("serve", "--move-seconds"): (["serve", "--move-seconds", "-1"], 2, "--move-seconds"),
    ("serve", "--idle-timeout"): (["serve", "--idle-timeout", "nan"], 2, "--idle-timeout"),
    ("serve", "--max-games"): (["serve", "--max-games", "1_000"], 2, "argument --max-games"),
    ("serve", "--games-per-minute"): (["serve", "--games-per-minute", "-1"], 2, "--games-per"),
    ("serve", "--allow-host"): (["serve", "--allow-host", "evil\nhost"], 2, "--allow-host"),
    ("edit", "map"): (["edit", "/dev/zero"], 1, "not a regular file"),
    ("edit", "--port"): (["edit", "--port", "70000"], 2, "--port must be 0-65535"),
}


def _options_taking_values() -> set[tuple[str, str]]:
    """Every (command, option) of ``ttr`` that takes a value (positionals by their name),
    and each command's first flag for commands that take none."""
    import argparse

    from ttr_rules.cli import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found = set()
    for name, sub in commands.choices.items():
        actions = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
        taking = [a for a in actions if a.nargs != 0]
        for action in taking or actions[:1]:
            found.add((name, action.option_strings[-1] if action.option_strings else action.dest))
    return found


def test_every_option_of_every_command_is_swept() -> None:
    options = _options_taking_values()
    assert ("serve", "--port") in options and ("render", "file") in options
    missing = sorted(options - set(OPTION_SWEEP))
    assert not missing, f"options without a hostile case in OPTION_SWEEP: {missing}"
    assert not set(OPTION_SWEEP) - options, "OPTION_SWEEP names options that do not exist"


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    list(OPTION_SWEEP.values()),
    ids=[" ".join(key) for key in OPTION_SWEEP],
)
def test_every_option_refuses_a_hostile_value_in_one_line(
    argv: list[str],
    status: int,
    words: str,
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_games: None,
) -> None:
    before = _digests(files["folder"])
    expanded = [a.replace("{out}", str(tmp_path / "out")) for a in _expand(argv, files)]
    line = _refused(
        [*expanded, "--quiet"] if argv[0] in ("simulate", "stats", "tournament") else expanded,
        capsys,
        status,
    )
    assert words in line, (words, line)
    assert _digests(files["folder"]) == before
