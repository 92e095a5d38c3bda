"""Every installed map through the surfaces a user reaches first (the integration sweep of the
boards added together: Switzerland, India, Legendary Asia and the ticket-deck variants). Each
check is cheap and parametrised over ``available_maps()``, so a map added later is covered."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from ttr_rules import (
    Action,
    GameRecord,
    GameState,
    IllegalActionError,
    InvalidActionError,
    PlayerView,
    apply_action,
    available_maps,
    determinize,
    final_scores,
    format_action,
    from_json,
    legal_actions,
    load_map,
    new_game,
    observe,
    parse_action,
    record_game,
    render,
    replay,
    to_json,
    winners,
)
from ttr_rules.cli import main
from ttr_rules.frontend import ticket_status
from ttr_rules.testing import check_map


@pytest.mark.parametrize("map_name", available_maps())
def test_simulate_defaults_to_a_player_count_the_map_takes(
    map_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --players, four players, or the nearest count the board seats (Nordic and
    Switzerland stop at three): `ttr simulate --map nordic` refused its own default."""
    rules = load_map(map_name).rules
    expected = min(max(4, rules.min_players), rules.max_players)
    status = main(["simulate", "--map", map_name, "--games", "1", "--quiet"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert out.startswith(f"1 game of {expected} players on {map_name} ")


@pytest.mark.parametrize("map_name", available_maps())
def test_a_game_passes_through_every_door_of_the_library(map_name: str) -> None:
    """A seeded random game at the board's most players: at sampled steps every seat's view
    survives JSON, a world dealt from it (determinize) shows that seat the same view, and the
    legal actions survive notation; at the end the scores, each seat's tickets (countries and
    several destinations included) and the text and SVG pictures are drawn, and the record
    replays by the map's name."""
    game_map = load_map(map_name)
    players = game_map.rules.max_players
    rnd = random.Random(players)
    start = state = new_game(map_name, players, seed=players)
    actions: list[Action] = []
    while not state.is_terminal:
        legal = legal_actions(state)
        if len(actions) % 40 == 0:
            _check_doors(state, legal)
        action = rnd.choice(legal)
        actions.append(action)
        state = apply_action(state, action)
    record = from_json(to_json(record_game(start, actions, seed=players)), GameRecord)
    assert record.map == map_name and replay(record) == state
    table = render.score_table(final_scores(state), winners=winners(state), game_map=game_map)
    assert table.count("\n") >= players
    for seat in range(players):
        view = observe(state, seat)
        assert len(ticket_status(view)) == len(state.players[seat].tickets)
        assert render.text(view) and render.svg(view, tickets_of=seat).startswith("<svg")


def _check_doors(state: GameState, legal: Sequence[Action]) -> None:
    for seat in range(state.num_players):
        view = observe(state, seat)
        assert from_json(to_json(view), PlayerView) == view
        assert observe(determinize(view, seed=seat), seat) == view
    for action in legal[:: max(1, len(legal) // 20)]:
        assert parse_action(format_action(action, state.map), state) == action


@pytest.fixture(scope="module")
def web() -> Iterator[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from ttr_rules.web import create_app

    with TestClient(create_app(), raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize("map_name", available_maps())
def test_a_game_on_the_web_api(map_name: str, web: Any) -> None:
    """A game of two people created on each map: each seat's view is its library view, the
    legal actions' notation is played, and hints, tickets and the board answer."""
    created = web.post("/api/games", json={"map": map_name, "players": 2, "seed": 3})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created.json()["seats"]}
    state = new_game(map_name, 2, seed=3)
    rnd = random.Random(3)
    for move in range(12):
        seat = state.current
        assert seat is not None
        view = web.get(f"/api/games/{game_id}", headers=auth[seat])
        assert view.status_code == 200 and view.text == to_json(observe(state, seat))
        if move % 4 == 0:
            for page in ("hint", "tickets"):
                answer = web.get(f"/api/games/{game_id}/{page}", headers=auth[seat])
                assert answer.status_code == 200, answer.text
        legal = web.get(f"/api/games/{game_id}/legal", headers=auth[seat]).json()
        text = rnd.choice(legal)["action"]
        played = web.post(
            f"/api/games/{game_id}/actions", headers=auth[seat], json={"action": text}
        )
        assert played.status_code == 200, played.text
        state = apply_action(state, parse_action(text, state))
    board = web.get(f"/api/games/{game_id}/board.svg")
    assert board.status_code == 200 and board.text.startswith("<svg")


@pytest.mark.parametrize("map_name", available_maps())
def test_the_command_line_on_every_map(
    map_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """map-info, validate-map (in words, not a Python repr), the bare board, and a recorded
    game of greedy players replayed, shown and drawn at a turn by its map's name."""
    assert main(["map-info", map_name]) == 0
    assert capsys.readouterr().out.startswith(f"{map_name} ")
    assert main(["validate-map", map_name]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok: {map_name}: {map_name} ") and "GameMap(" not in out
    assert main(["render", map_name, "-o", str(tmp_path / "board.svg")]) == 0
    players = str(load_map(map_name).rules.min_players)
    argv = ["simulate", "--map", map_name, "--players", players, "--games", "1"]
    assert main([*argv, "--agents", "greedy", "--quiet", "--record", str(tmp_path)]) == 0
    record = str(tmp_path / "game-000000.json")
    assert main(["replay", record]) == 0
    assert "total" in capsys.readouterr().out
    assert main(["show", record, "--turn", "5", "--player", "0", "--json"]) == 0
    view = from_json(capsys.readouterr().out, PlayerView)
    assert view.map.name == map_name and view.player == 0
    drawn = tmp_path / "turn.svg"
    assert main(["render", record, "--turn", "9", "--player", "1", "-o", str(drawn)]) == 0
    assert drawn.read_text("utf-8").startswith("<svg")


def test_one_game_is_counted_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    """'1 game of 2 players', not '1 games' (ttr tournament, the conformance report)."""
    assert main(["tournament", "--games", "1", "--agents", "random,greedy", "--quiet"]) == 0
    assert "\n1 game of 2 players on europe in " in capsys.readouterr().out
    report = check_map(load_map("nordic"), games=1, players=[2])
    assert str(report).startswith("map 'nordic': 1 game, ")


@pytest.mark.parametrize(
    "map_name",
    [name for name in available_maps() if not load_map(name).rules.stations_per_player],
)
def test_a_station_on_a_board_without_stations_says_so(map_name: str) -> None:
    """Not 'no legal payment; write one, e.g. 'red+1L'' nor 'all 0 stations built'."""
    state = new_game(map_name, 2, seed=0)
    while state.phase.value != "start":
        state = apply_action(state, legal_actions(state)[0])
    city = state.map.cities[0]
    for position in (state, observe(state, state.current)):
        with pytest.raises(InvalidActionError, match=f"station {city}: this game has no stations"):
            parse_action(f"station {city}", position)
    with pytest.raises(IllegalActionError, match=r"no stations left \(this game has no stations\)"):
        apply_action(state, parse_action(f"station {city} 1L", state))
