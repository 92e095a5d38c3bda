"""The USA 1910 and Europa 1912 variants as installed maps on their boards (docs/maps.md,
policy U30): each deck equals the reference card by card, the deal, keep and draw counts and
the bonuses are rule data, the board is shared, and a game of each is played and replayed
from its record."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import reference_data

from ttr_rules import load_map, new_game, outcome
from ttr_rules.maps import (
    map_from_dict,
    map_problems,
    map_to_dict,
    variant_from_dict,
)
from ttr_rules.records import read_record, record_game, replay, write_record
from ttr_rules.simulate import random_playout

USA = reference_data("usa1910")
EUROPE = reference_data("europe1912")

#: Each variant: its board, its reference data and the reference's name for it.
VARIANTS: dict[str, tuple[str, dict[str, Any], str]] = {
    "usa-1910": ("usa", USA, "1910"),
    "usa-mega": ("usa", USA, "mega_game"),
    "usa-big-cities": ("usa", USA, "big_cities"),
    "europe-1912": ("europe", EUROPE, "europe_expanded"),
    "europe-1912-mega": ("europe", EUROPE, "mega_europe"),
    "europe-1912-big-cities": ("europe", EUROPE, "big_cities_of_europe"),
}

#: ``(long dealt, regular dealt, keep at least, drawn, keep of a draw, bonuses, Globetrotter)``.
DEALS = {
    "usa-1910": (0, 3, 2, 3, 1, ("globetrotter",), 15),
    "usa-mega": (0, 5, 3, 4, 1, ("express", "globetrotter"), 15),
    "usa-big-cities": (0, 4, 2, 4, 1, (), 10),
    "europe-1912": (1, 3, 2, 3, 1, ("express",), 10),
    "europe-1912-mega": (2, 5, 3, 3, 1, ("express",), 10),
    "europe-1912-big-cities": (0, 5, 2, 4, 1, ("express",), 10),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_the_deck_equals_the_reference_card_by_card(name: str) -> None:
    _, reference, key = VARIANTS[name]
    variant = load_map(name)
    expected = [
        (t["a"], t["b"], t["points"], t["long"])
        for t in reference["tickets"]
        if key in t["variants"]
    ]
    assert [(t.a, t.b, t.points, t.long) for t in variant.tickets] == expected
    assert len(expected) == reference["totals"]["tickets_per_variant"][key]
    assert (
        sum(t.points for t in variant.tickets)
        == (reference["totals"]["ticket_points_sum_per_variant"][key])
    )


@pytest.mark.parametrize("name", VARIANTS)
def test_the_variant_is_played_on_its_board(name: str) -> None:
    board_name = VARIANTS[name][0]
    variant, board = load_map(name), load_map(board_name)
    assert (variant.board, board.board) == (board_name, "")
    assert (variant.cities, variant.routes) == (board.cities, board.routes)
    assert (variant.locations, variant.aliases) == (board.locations, board.aliases)
    assert variant.digest != board.digest


@pytest.mark.parametrize("name", VARIANTS)
def test_deal_keep_draw_and_bonuses(name: str) -> None:
    rules = load_map(name).rules
    board_rules = load_map(VARIANTS[name][0]).rules
    long, regular, keep, drawn, kept, bonuses, globetrotter = DEALS[name]
    assert (rules.initial_long_tickets, rules.initial_regular_tickets) == (long, regular)
    assert (rules.initial_keep_at_least, rules.tickets_drawn) == (keep, drawn)
    assert rules.tickets_keep_at_least == kept
    assert (rules.bonuses, rules.globetrotter_bonus) == (bonuses, globetrotter)
    # Everything else is the board's: trains, stations, scoring, discards, tie-breakers.
    for field in ("trains_per_player", "stations_per_player", "route_scores", "tie_breakers"):
        assert getattr(rules, field) == getattr(board_rules, field)
    assert rules.initial_discard == board_rules.initial_discard
    state = new_game(name, 5 if rules.max_players >= 5 else 2, seed=1)
    assert all(len(p.offered) == long + regular for p in state.players)
    assert all(sum(state.map.tickets[t].long for t in p.offered) == long for p in state.players)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_game_is_played_and_replayed_from_its_record(name: str, tmp_path: Path) -> None:
    start = new_game(name, 3, seed=5)
    end, actions = random_playout(start, random.Random(5))
    result = outcome(end)
    assert result is not None
    bonus_names = {bonus for score in result.scores for bonus, _ in score.bonuses}
    assert bonus_names == set(load_map(name).rules.bonuses) - {"express"}
    record = record_game(start, actions)
    assert (record.map, record.map_digest) == (name, load_map(name).digest)
    write_record(tmp_path / "game.json", record)
    again = replay(read_record(tmp_path / "game.json"))
    assert again.route_owner == end.route_owner and outcome(again) == result


#: The digests of the boards before mountains, bonuses and variants were added.
BOARD_DIGESTS = {
    "europe": "da289ae913b8eab91287bfd179f9b362a3c38cb195a352ba5f93962e575c5729",
    "usa": "f49190be25a589ce7e250ef283d02b32ed2e18e4f60a3c5e55daf69fd0a83355",
    "nordic": "a59fe4f63cd3cd9fb2743a51aa3d224c4b283ccffdaea87a62ab40e58f0b19a1",
}


@pytest.mark.parametrize("name", BOARD_DIGESTS)
def test_the_base_boards_are_unchanged(name: str) -> None:
    assert load_map(name).digest == BOARD_DIGESTS[name]
    assert load_map(name).board == ""


def test_a_variant_map_file_round_trips_with_its_board() -> None:
    variant = load_map("usa-1910")
    data = map_to_dict(variant)
    assert data["board"] == "usa"
    again = map_from_dict(data)
    assert again == variant and again.board == "usa" and again.digest == variant.digest


def test_a_variant_file_names_its_board_and_is_checked() -> None:
    base = {"format": "ttr-rules-variant", "format_version": 1, "name": "x", "version": "1"}
    with pytest.raises(Exception, match="board: is required"):
        variant_from_dict({**base, "tickets": []})
    tickets = [{"a": "Boston", "b": "Nowhere", "points": 3}]
    with pytest.raises(Exception, match=r"tickets\[0\]"):
        variant_from_dict({**base, "board": "usa", "tickets": tickets})
    assert map_problems({**map_to_dict(load_map("usa")), "board": 7}) == ["board: must be a string"]


def test_variants_are_grouped_under_their_board() -> None:
    from ttr_rules.maps import map_groups

    groups = dict(map_groups())
    assert groups["usa"] == ("usa", "usa-1910", "usa-big-cities", "usa-mega")
    assert groups["europe"][0] == "europe" and "europe-1912-mega" in groups["europe"]
    assert groups["legendary-asia"] == ("legendary-asia",)


@pytest.mark.parametrize("name", VARIANTS)
def test_check_map(name: str) -> None:
    from ttr_rules.testing import check_map

    report = check_map(load_map(name), games=1, players=[4], seed=3)
    assert report.ok, report
