"""The plugin's own conformance test: the map loads, is registered, and plays by the rules."""

from __future__ import annotations

from importlib.resources import files

import ttr_rules
from ttr_rules.testing import check_map


def test_the_plugin_is_registered() -> None:
    assert "alpine" in ttr_rules.available_maps()


def test_the_house_rules_are_applied() -> None:
    rules = ttr_rules.load_map("alpine").rules
    assert (rules.trains_per_player, rules.max_players) == (24, 3)


def test_the_map_conforms() -> None:
    game_map = ttr_rules.load_map_file(files("ttr_rules_alpine").joinpath("alpine.json"))
    report = check_map(game_map, games=5)
    assert report.ok, str(report)
