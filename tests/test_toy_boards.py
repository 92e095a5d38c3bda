"""Toy boards (issue 48 B1): a small board without tickets serves ``scenario``, which deals
nothing; ``new_game`` checks the deal for the players at hand; ``ttr validate-map`` still
reports a board that cannot deal for the player counts it declares."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from map_samples import small_map_data, write_map

from ttr_rules import (
    GameMap,
    GameState,
    MapLoadError,
    Rules,
    cli,
    final_scores,
    from_json,
    longest_path,
    new_game,
    scenario,
    to_json,
)
from ttr_rules.maps import load_map_file, map_to_dict, validate_map
from ttr_rules.maps.check import deal_problems

Edge = tuple[str, str, int]


def _board(edges: list[Edge], max_players: int = 5) -> GameMap:
    cities = sorted({c for a, b, _ in edges for c in (a, b)})
    routes = [(a, b, n, None) for a, b, n in edges]
    return GameMap.create("toy", cities, routes, [], rules=Rules(max_players=max_players))


def _owned(board: GameMap, player: int, *route_ids: int) -> GameState:
    return scenario(board, 2, routes={r: player for r in route_ids})


def _brute_longest_trail(edges: list[Edge]) -> int:
    """The longest walk using each edge at most once (cities may repeat), by trying them all."""
    best = 0

    def walk(city: str, used: frozenset[int], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for i, (a, b, n) in enumerate(edges):
            if i not in used and city in (a, b):
                walk(b if city == a else a, used | {i}, length + n)

    for city in {c for a, b, _ in edges for c in (a, b)}:
        walk(city, frozenset(), 0)
    return best


@st.composite
def toy_boards(draw: st.DrawFn) -> tuple[list[Edge], list[int]]:
    """A connected board of 2 to 7 cities with at most one track per pair, and the ids of the
    routes player 0 owns (player 1 owns some of the rest)."""
    count = draw(st.integers(2, 7))
    names = list(string.ascii_uppercase[:count])
    lengths = st.integers(1, 6)
    # A random tree keeps the board connected; extra tracks make cycles.
    edges = {
        tuple(sorted((names[i], names[draw(st.integers(0, i - 1))]))): draw(lengths)
        for i in range(1, count)
    }
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    for pair in draw(st.lists(st.sampled_from(pairs), max_size=6, unique=True)):
        edges.setdefault(pair, draw(lengths))
    listed = [(a, b, n) for (a, b), n in sorted(edges.items())]
    owners = draw(
        st.lists(st.sampled_from([None, 0, 1]), min_size=len(listed), max_size=len(listed))
    )
    return listed, [i for i, owner in enumerate(owners) if owner == 0] + [
        -1 - i for i, owner in enumerate(owners) if owner == 1
    ]


@given(toy_boards())
def test_longest_path_on_random_toy_boards_matches_a_brute_force(
    board_and_owners: tuple[list[Edge], list[int]],
) -> None:
    edges, owners = board_and_owners
    board = _board(edges)
    mine = [r for r in owners if r >= 0]
    theirs = [-1 - r for r in owners if r < 0]
    state = scenario(board, 2, routes={**{r: 0 for r in mine}, **{r: 1 for r in theirs}})
    assert longest_path(state, 0) == _brute_longest_trail([edges[r] for r in mine])
    assert longest_path(state, 1) == _brute_longest_trail([edges[r] for r in theirs])
    assert len(final_scores(state)) == 2


# Small cases of the kind other engines test their longest-route code on.
CASES: list[tuple[str, list[Edge], list[int], int]] = [
    ("a single route", [("A", "B", 3)], [0], 3),
    ("a line", [("A", "B", 2), ("B", "C", 3), ("C", "D", 1)], [0, 1, 2], 6),
    ("a branch takes its longer arm", [("A", "B", 2), ("B", "C", 4), ("B", "D", 1)], [0, 1, 2], 6),
    ("a loop counts whole", [("A", "B", 1), ("B", "C", 1), ("C", "A", 1)], [0, 1, 2], 3),
    (
        "a figure eight passes its middle twice",
        [("A", "B", 1), ("B", "C", 1), ("C", "A", 1), ("C", "D", 1), ("D", "E", 1), ("E", "C", 1)],
        [0, 1, 2, 3, 4, 5],
        6,
    ),
    (
        "two pieces: the longer one",
        [("A", "B", 2), ("B", "C", 1), ("C", "D", 4), ("D", "E", 1)],
        [0, 3],
        2,
    ),
    ("nothing owned", [("A", "B", 2)], [], 0),
]


@pytest.mark.parametrize(
    ("edges", "mine", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_longest_path_cases_on_toy_boards(
    edges: list[Edge], mine: list[int], expected: int
) -> None:
    assert longest_path(_owned(_board(edges), 0, *mine), 0) == expected


def test_a_toy_board_state_round_trips_through_json() -> None:
    board = _board([("A", "B", 2), ("B", "C", 3)])
    state = _owned(board, 0, 0, 1)
    assert from_json(to_json(state), GameState, map=board) == state


def test_new_game_checks_the_deal_for_the_players_at_hand() -> None:
    regular = [(a, b, 3) for a, b in (("A", "B"), ("A", "C"), ("B", "C"))] * 2
    tickets = [(a, b, n + i) for i, (a, b, n) in enumerate(regular)]  # 6 regular tickets
    board = GameMap.create(
        "six",
        ["A", "B", "C"],
        [("A", "B", 2, None), ("B", "C", 2, None), ("A", "C", 2, None)],
        tickets,
        rules=Rules(initial_long_tickets=0),  # up to 5 players: 3 regular tickets each
    )
    assert new_game(board, players=2).players[1].offered  # 6 tickets deal 3 to each of 2
    with pytest.raises(MapLoadError) as error:
        new_game(board, players=3)
    assert str(error.value) == (
        "the map 'six' cannot deal 3 players:\n"
        "  tickets: 6 regular tickets are too few to deal 9 at setup (3 to each of 3 players)"
    )
    # validate_map still reports the largest count the rules declare.
    assert validate_map(board) == [
        "tickets: 6 regular tickets are too few to deal 15 at setup (3 to each of 5 players)"
    ]


def test_validate_map_reports_a_board_that_cannot_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = _board([("A", "B", 2), ("B", "C", 3)], max_players=3)
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(map_to_dict(board)), encoding="utf-8")
    assert scenario(load_map_file(path), 2).map == board  # the file loads and serves scenarios
    assert cli.main(["validate-map", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: tickets: 0 long tickets are too few to deal 3 at setup (1 to each of 3 players)",
        f"{path}: tickets: 0 regular tickets are too few to deal 9 at setup "
        "(3 to each of 3 players)",
    ]


def test_a_map_file_that_cannot_deal_loads_and_refuses_the_deal(tmp_path: Path) -> None:
    data = small_map_data()
    data["rules"]["max_players"] = 3  # 6 regular tickets: enough for 2 players, not 3
    game_map = load_map_file(write_map(tmp_path / "short.json", data))
    assert new_game(game_map, players=2).map is game_map
    with pytest.raises(MapLoadError, match="6 regular tickets are too few to deal 9"):
        new_game(game_map, players=3)


def test_a_single_ticket_short_of_the_deal_is_counted_in_the_singular() -> None:
    board = GameMap.create("toy", ["A", "B"], [("A", "B", 2, None)], [("A", "B", 2)])
    assert [str(p) for p in deal_problems(board, players=2)] == [
        "tickets: 0 long tickets are too few to deal 2 at setup (1 to each of 2 players)",
        "tickets: 1 regular ticket is too few to deal 6 at setup (3 to each of 2 players)",
    ]
