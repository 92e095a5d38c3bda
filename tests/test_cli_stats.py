"""``ttr stats``: the balance report (HTML page with embedded plots, raw aggregates as JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttr_rules import load_map
from ttr_rules.cli import main
from ttr_rules.sim import BalanceStats, game_specs, run_games
from ttr_rules.sim.report import report_data, write_report

pytest.importorskip("matplotlib")  # the stats extra, in the test extra: never skipped in CI


def test_stats_writes_a_self_contained_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["stats", "--agents", "greedy,random", "--games", "3", "--seed", "4", "-o"]
    assert main([*argv, str(tmp_path), "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games of 2 players on europe (greedy,random)")
    assert f"report: {tmp_path / 'index.html'}" in out
    page = (tmp_path / "index.html").read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert page.count('src="data:image/png;base64,') >= 5
    assert "<script" not in page and 'src="http' not in page  # nothing loaded from elsewhere
    for heading in (
        "win rate",
        "first-player advantage",
        "rarely used routes",
        "European Express",
        "Stations and tunnels",
        "Every route",
        "Every ticket",
    ):
        assert heading in page
    data = json.loads((tmp_path / "aggregates.json").read_text())
    europe = load_map("europe")
    rows = list(run_games(game_specs(3, seed=4, players=2, agents=["greedy", "random"])))
    expected = BalanceStats.of(rows, routes=len(europe.routes), tickets=len(europe.tickets))
    assert BalanceStats.from_dict(data["aggregates"]) == expected
    note = data.pop("note")
    assert note.startswith("Seeds 4–6, played in ") and note.endswith(" on 2 workers.")
    assert data == json.loads(json.dumps(report_data(expected, europe)))
    assert len(data["routes"]) == len(europe.routes) and len(data["tickets"]) == len(europe.tickets)


def test_the_json_option_prints_the_aggregates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["stats", "--agents", "random", "--players", "2", "--games", "2", "--json", "--quiet"]
    assert main([*argv, "-o", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2 and err == ""


def test_a_report_needs_games(tmp_path: Path) -> None:
    europe = load_map("europe")
    empty = BalanceStats("europe", 2, ("random", "random"), len(europe.routes), len(europe.tickets))
    with pytest.raises(ValueError, match="no games"):
        write_report(empty, europe, tmp_path)


def test_reports_of_several_runs_merge_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["stats", "--agents", "random", "--players", "2", "--quiet"]
    assert main([*base, "--games", "2", "--seed", "0", "-o", str(tmp_path / "a")]) == 0
    assert main([*base, "--games", "1", "--seed", "2", "-o", str(tmp_path / "b")]) == 0
    assert main([*base, "--games", "3", "--seed", "0", "-o", str(tmp_path / "all")]) == 0
    parts = [str(tmp_path / d / "aggregates.json") for d in ("a", "b")]
    assert main(["stats", "--merge", *parts, "-o", str(tmp_path / "merged")]) == 0
    assert "report: " in capsys.readouterr().out
    merged = json.loads((tmp_path / "merged" / "aggregates.json").read_text())
    whole = json.loads((tmp_path / "all" / "aggregates.json").read_text())
    assert merged.pop("note").startswith("Merged from 2 runs: Seeds 0–1, ")
    whole.pop("note")
    assert merged == whole
    assert (tmp_path / "merged" / "index.html").is_file()
