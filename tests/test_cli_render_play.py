"""``ttr render`` and ``ttr play`` (piped and under a pseudo-terminal)."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from ttr_rules import (
    apply_action,
    new_game,
    observe,
    read_record,
    record_game,
    replay,
    to_json,
    write_record,
)
from ttr_rules.agents import make_agent
from ttr_rules.cli import main
from ttr_rules.events import RouteClaimed, StationBuilt
from ttr_rules.records import replay_steps

SVG = "{http://www.w3.org/2000/svg}"


def _classes(path: Path, name: str) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    return [e for e in root.iter() if name in e.get("class", "").split()]


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    start = new_game("europe", 3, seed=4)
    agents = [make_agent("greedy", seed=s) for s in range(3)]
    state, actions = start, []
    while not state.is_terminal:
        action = agents[state.current].act(observe(state, state.current))
        actions.append(action)
        state = apply_action(state, action)
    path = tmp_path_factory.mktemp("records") / "game.json"
    write_record(path, record_game(start, actions))
    return path


def test_render_a_record_at_its_end_and_at_a_turn(record_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "end.svg"
    assert main(["render", str(record_file), "-o", str(out)]) == 0
    end = replay(read_record(record_file))
    owners = {e.get("id") for e in _classes(out, "claimed")}
    assert owners == {f"route-{r}" for r, o in enumerate(end.route_owner) if o is not None}
    claims = [e for step in replay_steps(read_record(record_file)) for e in step.events]
    last = [e for e in claims if isinstance(e, RouteClaimed | StationBuilt)][-1]
    marked = {e.get("id") for e in _classes(out, "highlight")}
    if isinstance(last, RouteClaimed):
        assert marked == {f"highlight-route-{last.route}"}
    else:
        assert marked == {f"highlight-city-{end.map.cities.index(last.city)}"}
    plain = tmp_path / "plain.svg"
    assert main(["render", str(record_file), "--no-highlight", "-o", str(plain)]) == 0
    assert not _classes(plain, "highlight")
    early = tmp_path / "early.svg"
    assert main(["render", str(record_file), "--turn", "5", "--player", "1", "-o", str(early)]) == 0
    text = " ".join(t.text or "" for t in ET.parse(early).getroot().iter(f"{SVG}text"))
    assert "Player 2 (you" in text and "turn 5" in text
    assert _classes(early, "ticket")  # the viewer's tickets are marked


def test_render_a_state_and_a_view(tmp_path: Path) -> None:
    state = new_game("europe", 2, seed=9)
    (tmp_path / "state.json").write_text(to_json(state))
    (tmp_path / "view.json").write_text(to_json(observe(state, 1)))
    for name, extra in (("state", []), ("view", ["--player", "1"])):
        out = tmp_path / f"{name}.svg"
        assert main(["render", str(tmp_path / f"{name}.json"), "-o", str(out), *extra]) == 0
        assert len(_classes(out, "space")) == 300
    assert main(["render", str(tmp_path / "view.json"), "--player", "0"]) == 1
    assert main(["render", str(tmp_path / "state.json"), "--turn", "3"]) == 1


def test_render_png(record_file: Path, tmp_path: Path) -> None:
    try:
        import cairosvg  # noqa: F401
    except OSError:
        pytest.skip("missing system program: the cairo library (apt-get install -y libcairo2)")
    out = tmp_path / "board.png"
    assert main(["render", str(record_file), "--png", "-o", str(out), "--size", "400"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_render_png_without_cairosvg(
    record_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg raises ImportError
    assert main(["render", str(record_file), "-o", str(tmp_path / "b.png")]) == 1
    assert 'pip install "ttr-rules[png]"' in capsys.readouterr().err


def _ttr(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ttr_rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )


def test_play_a_whole_game_from_piped_input(tmp_path: Path) -> None:
    # Tickets by their numbers; help, three kinds of bad input, a notation answer, then always
    # the first menu entry (and the tickets' first two).
    script = "1 2\n?\nfly to the moon\n999\ntickets keep 1\ndraw blind\nsvg mid.svg\n1\n"
    script += "1\n1 2\n1\n" * 1000
    (tmp_path / "out").mkdir()
    result = _ttr(
        "play",
        "--players",
        "2",
        "--agents",
        "greedy",
        "--seed",
        "3",
        "--record",
        "out",
        stdin=script,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "seed 3 (--seed 3 deals this game again)" in out
    assert "commands:" in out
    assert "'fly to the moon' is not a number, a city or a route here" in out
    assert "there is no 999: choose from 1 to" in out
    assert "not allowed now:" in out
    assert "wrote mid.svg" in out and len(_classes(tmp_path / "mid.svg", "space")) == 300
    assert "game over" in out and "total" in out and "express+" in out
    assert "you: player" not in out and "you keep" in out
    out_dir = tmp_path / "out"
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "ttr-play-europe-seed3.json",
        "ttr-play-europe-seed3.svg",
    ]
    assert f"the game record is in {Path('out', 'ttr-play-europe-seed3.json')}" in out
    end = replay(read_record(out_dir / "ttr-play-europe-seed3.json"))
    assert end.is_terminal
    # a second game with the same seed never overwrites the first record
    again = _ttr("play", "--seed", "3", "--record", "out", stdin=script, cwd=tmp_path)
    assert again.returncode == 0
    assert (out_dir / "ttr-play-europe-seed3-2.json").exists()


def test_play_picks_a_random_seed_and_keeps_it_in_the_record(tmp_path: Path) -> None:
    result = _ttr("play", "--record", ".", stdin="\n" * 3000, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    seed = int(result.stdout.split(", seed ", 1)[1].split(" ", 1)[0])
    assert read_record(tmp_path / f"ttr-play-europe-seed{seed}.json").seed == seed


def test_play_ends_cleanly_at_the_end_of_the_input(tmp_path: Path) -> None:
    result = _ttr("play", "--seed", "1", stdin="1\n", cwd=tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    assert "game left at turn 0" in result.stdout


def test_play_rejects_bad_options(tmp_path: Path) -> None:
    result = _ttr("play", "--agents", "nobody", stdin="", cwd=tmp_path)
    assert result.returncode == 1 and "nobody" in result.stderr
    result = _ttr("play", "--seat", "5", stdin="", cwd=tmp_path)
    assert result.returncode == 1 and "--seat" in result.stderr
    result = _ttr("play", "--agents", "random,random", stdin="", cwd=tmp_path)
    assert "2 agents named for 1 other seat" in result.stderr


_ENTRY = re.compile(r"^ +(\d+)\. ", re.M)


def _answer(screen: str) -> tuple[str, bool]:
    """A scripted person: claims whenever it can (what, which route, payment), else draws;
    returns the answer and whether it starts a claim."""
    question = screen.rsplit("\n", 1)[0].rsplit("?", 1)[0].rsplit("\n", 1)[-1]
    if "what do you do" in question:
        entries = dict(re.findall(r"^ +(\d+)\. (\w+)", screen, re.M))
        claim = [n for n, word in entries.items() if word == "Claim"]
        return (claim[0], True) if claim else ("1", False)
    if question.startswith("pay ") or "type their numbers" in screen:  # Enter: the suggested
        return "", False
    return "1", False


def test_play_a_whole_game_in_a_terminal_with_short_menus_and_short_claims(
    tmp_path: Path,
) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ttr_rules", "play", "--seed", "12", "--plain", "--no-record"],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=120,
        dimensions=(50, 200),
    )
    longest = claims = 0
    answers_of_claims: list[int] = []
    counting: int | None = None
    while child.expect(["Player 1> ", pexpect.EOF]) == 0:
        screen = child.before
        numbers = [int(n) for n in _ENTRY.findall(screen.rsplit("?", 1)[-1])]
        longest = max([longest, *numbers])
        if counting is not None and "you claim " in screen:
            answers_of_claims.append(counting)
            counting = None
        answer, starts_claim = _answer(screen)
        if starts_claim:
            counting = 0
        if counting is not None:
            counting += 1
        child.sendline(answer)
        claims += starts_claim
    assert "game over" in child.before and "total" in child.before
    child.close()
    assert child.exitstatus == 0
    assert 0 < longest <= 40
    assert claims > 5 and answers_of_claims and max(answers_of_claims) <= 3


def test_play_in_a_terminal_bad_input_and_ctrl_c(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ttr_rules", "play", "--players", "3", "--agents", "random", "--seed", "2"],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=120,
        dimensions=(50, 160),
    )
    child.expect(r"Keep at least \d+ of these \d+ tickets:")
    child.expect(r"1\. \w+ – \w+ \(\d+ points\)")
    child.expect("Player 1> ")
    child.sendline("xyzzy")
    child.expect("type the numbers of the tickets to keep")
    child.expect("Player 1> ")
    child.sendline("?")
    child.expect("commands:")
    child.expect("Player 1> ")
    child.sendline("1")
    child.expect("keep at least 2 tickets")
    child.expect("Player 1> ")
    child.sendline("1 2")
    child.expect("what do you do?")
    child.expect("Player 1> ")
    child.sendline("draw blind")
    child.expect(r"you draw")
    child.expect("Player 1> ")
    child.sendintr()
    child.expect("game interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_play_a_city_typed_at_the_first_question_lists_its_routes(tmp_path: Path) -> None:
    # keep tickets, two turns of drawing, then "Barcelona": its routes, Enter takes the
    # suggested one, which the menu marks
    script = "1 2\n1\n1\n1\n1\n1\n1\nBarcelona\n\n"
    result = _ttr("play", "--seed", "12", "--plain", "--no-record", stdin=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    after = result.stdout.split("Player 1> Barcelona", 1)[1]
    assert after.lstrip().startswith("which route?")
    assert "  <- suggested" in after.split("Player 1>", 1)[0]
    assert "you claim Barcelona – Marseille" in after


def _spawn_play(tmp_path: Path, *args: str) -> object:
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(
        sys.executable,
        ["-m", "ttr_rules", "play", "--plain", *args],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=120,
        dimensions=(50, 200),
    )


def test_play_a_whole_game_by_enter_alone_in_a_terminal_claims_routes_and_ends(
    tmp_path: Path,
) -> None:
    """Enter plays the suggested move (the menu marks it): a game of Enters claims routes,
    ends, and then asks whether to keep the record (Enter: no, nothing is written)."""
    pexpect = pytest.importorskip("pexpect")
    child: Any = _spawn_play(tmp_path, "--seed", "5")
    marked = 0
    said = ""
    while child.expect(["Player 1> ", "keep a record of this game"]) == 0:
        marked += "<- suggested" in child.before
        said += child.before
        child.sendline("")
    assert "game over" in child.before and "total" in child.before
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert marked > 10
    assert said.count("you claim ") >= 5
    assert list(tmp_path.iterdir()) == []  # nothing written unless asked


def test_play_keeps_the_tickets_typed_by_their_numbers_and_a_station_by_its_city(
    tmp_path: Path,
) -> None:
    pexpect = pytest.importorskip("pexpect")
    child: Any = _spawn_play(tmp_path, "--seed", "3", "--no-record")
    child.expect(r"Keep at least \d+ of these \d+ tickets:")
    child.expect(r" 4\. Brest – Marseille")
    child.expect("Player 1> ")
    child.sendline("1 3")
    child.expect("you keep 2 tickets")
    child.expect("what do you do")
    child.expect("Player 1> ")
    child.sendline("4")  # build a station: the city is typed, Tab completes it
    child.expect("a station in which city")
    child.expect("Player 1> ")
    child.send("Pari\t")
    child.sendline("")
    child.expect(r"pay Paris with\? \(Enter: 1 white\)")
    child.expect("Player 1> ")
    child.sendline("")
    child.expect("you build a station in Paris with 1 white")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_render_draws_a_bare_board_by_name_or_map_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ttr render MAP`` draws the bare board of an installed map or a map file; options that
    need a game are refused in words, and a name that is neither says what is installed."""
    from ttr_rules.cli import main

    out = tmp_path / "europe.svg"
    assert main(["render", "europe", "-o", str(out)]) == 0
    document = out.read_text(encoding="utf-8")
    assert document.count('class="space"') == 300 and 'class="train' not in document
    assert "<title>Ticket to Ride Europe: the board</title>" in document
    map_file = Path(__file__).parents[1] / "maps" / "ttr_rules_usa" / "usa.json"
    assert main(["render", str(map_file), "-o", str(tmp_path / "usa.svg")]) == 0
    assert main(["render", "europe", "--turn", "3", "-o", str(tmp_path / "x.svg")]) == 1
    assert "--turn applies to a game, not to a bare board" in capsys.readouterr().err
    assert main(["render", "europ", "-o", str(tmp_path / "y.svg")]) == 1
    assert "europ is neither a file nor an installed map (installed: " in capsys.readouterr().err
