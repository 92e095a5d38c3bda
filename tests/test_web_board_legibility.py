"""Every installed board on the web page at 1024 and 1366 px (issue 47's acceptance, board
half), measured in a real browser (Playwright + Debian's Chromium) on the SVG as shown:

- no route ends further than one car from its city (from the outer end of its end car to the
  edge of the city's circle);
- no two cars of different routes overlap;
- no city label is under 11 px on the screen;
- no label's box (a city's or a country's, as the browser lays the text out) overlaps another
  label or a city's circle;
- every claimed route shows its owner's number, at least 11 px on the screen at the default
  zoom (each game has had a few claims played).

Boards a plugin installs are covered too: the test walks ``available_maps()``, drawing each
distinct board once (a variant drawn on its board's picture, such as ``usa-1910``, is the same
drawing as ``usa``). One browser, one page per width, one game per board.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, running_server

from ttr_rules import (
    ClaimRoute,
    GameState,
    apply_action,
    available_maps,
    format_action,
    legal_actions,
    load_map,
)
from ttr_rules.render.geometry import drawing_key
from ttr_rules.web import create_app

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"missing system program: {CHROMIUM} (apt-get install -y chromium)",
)

#: The cars, cities and labels of the board on the page, measured in screen pixels (a
#: function of ``ends``, each route's pair of cities by route id).
_MEASURE = (Path(__file__).parent / "data" / "board_measure.js").read_text(encoding="utf-8")


def _claims(state: GameState, moves: int) -> list[str]:
    """``moves`` moves of a player who claims a route whenever one is legal (else the first
    legal action: drawing cards, keeping the tickets offered)."""
    texts = []
    for _ in range(moves):
        actions = legal_actions(state)
        claims = [a for a in actions if isinstance(a, ClaimRoute)]
        action = claims[0] if claims else actions[0]
        texts.append(format_action(action, state.map))
        state = apply_action(state, action)
    return texts


@pytest.fixture(scope="module")
def games() -> Iterator[tuple[str, dict[str, tuple[str, str]]]]:
    """The server's base URL and, per installed map, the page of seat 0 of a fresh game."""
    app = create_app()
    store = app.state.store
    pages = {}
    drawn = set()
    for name in available_maps():
        game_map = load_map(name)
        drawing = (game_map.cities, tuple((r.a, r.b, r.length) for r in game_map.routes))
        if (drawing, drawing_key(game_map)) in drawn:
            continue
        drawn.add((drawing, drawing_key(game_map)))
        game, tokens = store.create(name, game_map.rules.min_players, seed=5)
        game.replay_texts(_claims(game.state, 24))
        pages[name] = (f"/#game/{game.id}?token={tokens[0]}", "")
    with running_server(app) as base:
        yield base, pages


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.mark.parametrize("width", [1024, 1366])
def test_every_board_is_legible_and_nothing_detaches_or_overlaps(
    width: int, games: tuple[str, dict[str, tuple[str, str]]], browser: Any
) -> None:
    base, pages = games
    page = browser.new_page(viewport={"width": width, "height": 768})
    problems: dict[str, list[str]] = {}
    try:
        for name, (path, _) in pages.items():
            game_map = load_map(name)
            page.goto(f"{base}{path}")
            page.reload()  # a new hash alone does not reload the page
            page.wait_for_function("Number(document.body.dataset.version || 0) > 0")
            page.wait_for_function("document.body.dataset.busy !== '1'")
            ends = [[r.a, r.b] for r in game_map.routes]
            found = page.evaluate(_MEASURE, ends)
            assert found["cars"] == sum(r.length for r in game_map.routes), name
            assert found["cities"] == len(game_map.cities), name
            assert found["claimed"] > 0, name
            lines = found["detached"] + found["overlaps"] + found["small"] + found["crowded"]
            lines += found["unmarked"]
            if lines:
                problems[name] = lines
    finally:
        page.close()
    assert problems == {}
