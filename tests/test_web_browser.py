"""The page in a real browser: Playwright drives Debian's headless Chromium (``/usr/bin/chromium``;
Playwright never downloads a browser here). A human seat plays a whole two-player game against
the ``greedy`` agent by clicking, and the final score table appears."""

from __future__ import annotations

import os

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, play_until, running_server

from ttr_rules import final_scores, winners
from ttr_rules.web import create_app
from ttr_rules.web.games import GameStore

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"missing system program: {CHROMIUM} (apt-get install -y chromium)",
)


def test_a_human_plays_a_whole_game_against_greedy_by_clicking() -> None:
    from playwright.sync_api import sync_playwright

    app = create_app()
    store: GameStore = app.state.store
    errors: list[str] = []
    with running_server(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 950})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{base}/")
            page.wait_for_selector("#create-button")
            # the lobby offers the agents; seat 2 defaults to greedy
            assert page.locator("select[name=seat-1]").input_value() == "greedy"
            page.fill("#seed-input", "7")
            page.click("#create-button")
            page.wait_for_selector("#keep-tickets", timeout=30_000)
            assert page.locator("#ticket-choice input[type=checkbox]").count() == 4

            clicked = play_until(page, timeout=900)
            page.wait_for_selector("#scores:not([hidden])", timeout=30_000)
            rows = page.locator("#score-table tr")
            assert rows.count() == 3  # the header and one row per player
            table = page.locator("#score-table").inner_text()
            title = page.locator("#scores-title").text_content()
            record_href = page.locator("#record-link").get_attribute("href")
        finally:
            browser.close()
    assert errors == []
    (game,) = store.games.values()
    assert game.over and game.agents == {1: "greedy"}
    assert len(clicked) > 10 and sum(s.player == 0 for s in game.steps) == len(clicked)
    assert "keep tickets" in clicked
    assert any(c.startswith("Pay ") for c in clicked), "no route was claimed by clicking"
    totals = {s.player: s.total for s in final_scores(game.state)}
    for total in totals.values():
        assert str(total) in table
    expected = "You win!" if winners(game.state) == (0,) else "Player 2 (greedy) wins!"
    if len(winners(game.state)) == 1:
        assert title == expected
    assert record_href == f"/api/games/{game.id}/record"
