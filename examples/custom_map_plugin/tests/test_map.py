"""The plugin's own conformance test: the map loads, is registered, plays by the rules, and
scores the plugin's own bonus (``summit``, registered under ``ttr_rules.bonuses``)."""

from __future__ import annotations

from importlib.resources import files

from ttr_rules_alpine.bonus import SUMMIT_POINTS, summit

import ttr_rules
from ttr_rules.agents import play_game
from ttr_rules.render import format_scores
from ttr_rules.scoring.bonuses import bonus_scorer
from ttr_rules.testing import check_map


def test_the_plugin_is_registered() -> None:
    assert "alpine" in ttr_rules.available_maps()
    assert bonus_scorer("summit") is summit


def test_the_house_rules_are_applied() -> None:
    rules = ttr_rules.load_map("alpine").rules
    assert (rules.trains_per_player, rules.max_players) == (24, 3)
    assert rules.bonuses == ("express", "summit")


def test_the_map_conforms() -> None:
    game_map = ttr_rules.load_map_file(files("ttr_rules_alpine").joinpath("alpine.json"))
    report = check_map(game_map, games=5)
    assert report.ok, str(report)
    report = check_map(ttr_rules.load_map("alpine"), games=5)
    assert report.ok, str(report)


def test_a_game_scores_the_summit_bonus_under_its_name() -> None:
    for seed in range(20):
        end = play_game(["greedy"] * 3, map="alpine", seed=seed)
        points = summit(end)
        if any(points):
            break
    else:
        raise AssertionError("no greedy game claimed a tunnel")
    scores = ttr_rules.final_scores(end)
    assert [dict(s.bonuses)["summit"] for s in scores] == list(points)
    assert set(points) <= {0, SUMMIT_POINTS}
    for s in scores:
        rest = s.route_points + s.ticket_points + s.station_bonus + s.express_bonus
        assert s.total == rest + dict(s.bonuses)["summit"]
    table = format_scores(end).splitlines()
    header = table[0].split()
    assert header[-2:] == ["summit+", "total"]
    column = header.index("summit+")
    shown = [line.split()[column + 1] for line in table[1:4]]  # a row begins "Player N"
    assert shown == [f"+{p}" if p else "0" for p in points]
    legend = " ".join(" ".join(table[4:]).split())
    assert "summit+: The Summit bonus, 5 points to every player tied for the most tunnel" in legend
