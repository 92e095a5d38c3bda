"""The Nordic Countries board downstream of the engine: its score table (the Globetrotter in a
column of its own, no columns its rules cannot fill) and its picture (every space and city)."""

from __future__ import annotations

import pytest

from ttr_rules import GameState, final_scores, load_map, new_game
from ttr_rules.agents import play_game
from ttr_rules.cli import main
from ttr_rules.render import format_scores, score_table, svg


@pytest.fixture(scope="module")
def nordic_end() -> GameState:
    return play_game(["greedy", "greedy"], map="nordic", seed=1)


def test_the_score_table_shows_the_globetrotter_under_its_name(nordic_end: GameState) -> None:
    scores = final_scores(nordic_end)
    lines = format_scores(nordic_end).splitlines()
    header = lines[0].split()
    # No stations and no longest-path bonus on this board: their columns are left out, and the
    # longest path stays (it breaks ties, U24).
    assert header == [
        "player",
        "routes",
        "tickets",
        "done",
        "failed",
        "path",
        "globetrotter+",
        "total",
    ]
    rows = [line.split()[1:] for line in lines[1:3]]  # "Player N" is two words
    for s, row in zip(scores, rows, strict=True):
        points = dict(s.bonuses)["globetrotter"]
        assert row[6] == (f"+{points}" if points else "0")
        assert s.total == s.route_points + s.ticket_points + points
    assert any(dict(s.bonuses)["globetrotter"] == 10 for s in scores)
    legend = " ".join(" ".join(lines[3:]).split())
    assert (
        "globetrotter+: the Globetrotter bonus, to every player tied for the most completed"
        in legend
    )
    assert "express+" not in legend and "unbuilt+" not in legend


def test_without_the_map_every_column_is_kept(nordic_end: GameState) -> None:
    header = score_table(final_scores(nordic_end), legend=False).splitlines()[0].split()
    assert header[-3:] == ["express+", "globetrotter+", "total"] and "built" in header


def test_the_usa_table_leaves_out_the_station_columns() -> None:
    end = play_game(["greedy", "greedy"], map="usa", seed=1)
    header = format_scores(end).splitlines()[0].split()
    assert header == ["player", "routes", "tickets", "done", "failed", "path", "express+", "total"]


def test_the_board_picture_has_every_space_and_city() -> None:
    nordic = load_map("nordic")
    doc = svg(new_game(nordic, 3, seed=0))
    assert doc.count('class="space"') == sum(r.length for r in nordic.routes) == 207
    assert all(f'data-city="{city}"' in doc for city in nordic.cities)


def test_map_info_says_the_rules_that_differ_from_europe(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["map-info", "nordic"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "any 4 cards for one: Lieksa-Murmansk (#50)" in out
    assert 'wild_locomotives ["tunnel", "ferry"], locomotive_substitute 3' in out
    assert 'bonuses ["globetrotter"]' in out
    assert main(["map-info", "europe"]) == 0
    assert "rules beside the Europe defaults: none" in capsys.readouterr().out
