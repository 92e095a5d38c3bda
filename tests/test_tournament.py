"""Tournament statistics (schedule, Wilson intervals, ratings) and ``ttr tournament``."""

from __future__ import annotations

import json
import math

import pytest

from ttr_rules import cli
from ttr_rules.agents.tournament import (
    MatchResult,
    bradley_terry_elo,
    schedule,
    summarize,
    wilson_interval,
)


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4)
    assert math.isclose(high, 0.5962, abs_tol=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and math.isclose(high, 0.2775, abs_tol=1e-3)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and math.isclose(low, 0.7225, abs_tol=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_schedule_rotates_every_deal_through_every_seat() -> None:
    games = schedule(["a", "b", "c"], 3, 6, seed=10)
    assert [g.seed for g in games] == [10, 10, 10, 11, 11, 11]
    assert {g.seats for g in games[:3]} == {("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")}
    for seat in range(3):
        assert sorted(g.seats[seat] for g in games[:3]) == ["a", "b", "c"]


def test_schedule_with_fewer_agents_than_seats() -> None:
    games = schedule(["mcts", "greedy"], 4, 4)
    lineups = {tuple(sorted(g.seats)) for g in games}
    assert lineups == {("greedy", "greedy", "greedy", "mcts"), ("greedy", "mcts", "mcts", "mcts")}
    lone = [g.seats.index("mcts") for g in games[:4]]
    assert sorted(lone) == [0, 1, 2, 3]


def test_schedule_round_robin_of_pairs() -> None:
    games = schedule(["a", "b", "c"], 2, 2)
    assert len(games) == 6
    assert {frozenset(g.seats) for g in games} == {
        frozenset("ab"),
        frozenset("ac"),
        frozenset("bc"),
    }
    assert len({g.seed for g in games}) == 3


def test_schedule_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="two agents"):
        schedule(["a"], 2, 1)
    with pytest.raises(ValueError, match="twice"):
        schedule(["a", "a"], 2, 1)
    with pytest.raises(ValueError, match="games"):
        schedule(["a", "b"], 2, 0)


def test_summarize_counts_wins_ties_scores_and_margins() -> None:
    outcomes = [
        MatchResult(("a", "b"), (100, 80), (0,)),
        MatchResult(("b", "a"), (90, 90), (0, 1)),
        MatchResult(("a", "b"), (70, 75), (1,)),
    ]
    standings = summarize(outcomes)
    stats = {s.agent: s for s in standings.table}
    assert stats["a"].games == stats["b"].games == 3
    assert stats["a"].wins == 1.5 and stats["b"].wins == 1.5
    assert stats["a"].mean_score == pytest.approx(260 / 3)
    assert stats["a"].mean_margin == pytest.approx((20 + 0 - 5) / 3)
    assert stats["a"].mean_margin == -stats["b"].mean_margin
    assert standings.head_to_head[("a", "b")] == (1.5, 3)
    assert stats["a"].elo == pytest.approx(stats["b"].elo)


def test_ratings_order_and_scale() -> None:
    results = {("x", "y"): (90.0, 100), ("y", "x"): (10.0, 100)}
    elo = bradley_terry_elo(results, ["x", "y"])
    assert elo["x"] > elo["y"]
    assert (elo["x"] + elo["y"]) / 2 == pytest.approx(1500)
    # 9:1 odds are about 380 points apart (less a little for the virtual games).
    assert 330 < elo["x"] - elo["y"] < 382
    unbeaten = bradley_terry_elo({("x", "y"): (5.0, 5), ("y", "x"): (0.0, 5)}, ["x", "y"])
    assert math.isfinite(unbeaten["x"])


def test_ttr_tournament_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournament", "--agents", "greedy,random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["agent", "games", "wins"]
    assert lines[1].startswith("greedy")
    assert "2 games of 2 players on europe" in out


def test_ttr_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--agents", "greedy,random,mcts:iterations=1", "--players", "3"]
    assert cli.main([*args, "--games", "3", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 3 and data["games"] == 3
    names = {row["agent"] for row in data["agents"]}
    assert names == {"greedy", "random", "mcts:iterations=1"}
    for row in data["agents"]:
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
        assert row["games"] == 3


def test_ttr_tournament_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournament", "--agents", "greedy,nobody"]) == 1
    assert "no agent named 'nobody'" in capsys.readouterr().err
    assert cli.main(["tournament", "--agents", "greedy,random", "--players", "9"]) == 1
    assert "players" in capsys.readouterr().err
    assert cli.main(["tournament", "--agents", "random:depth=2,greedy"]) == 1
    assert "depth" in capsys.readouterr().err


def test_the_former_outcome_name_is_a_deprecated_alias() -> None:
    import ttr_rules
    from ttr_rules.agents import tournament

    with pytest.warns(DeprecationWarning, match="renamed MatchResult"):
        assert tournament.Outcome is MatchResult
    assert ttr_rules.Outcome.__module__ == "ttr_rules.scoring"  # one public Outcome: the ending
