"""The page in a real browser: Playwright drives Debian's headless Chromium (``/usr/bin/chromium``;
Playwright never downloads a browser here). A human seat plays a whole two-player game against
the ``medium`` level (``greedy``) by clicking, and the final score table appears."""

from __future__ import annotations

import os

import pytest
from web_helpers import CHROMIUM, browser_page, play_until, running_server

from ttr_rules import final_scores, winners
from ttr_rules.web import create_app
from ttr_rules.web.games import GameStore

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"missing system program: {CHROMIUM} (apt-get install -y chromium)",
)


def test_a_human_plays_a_whole_game_against_medium_by_clicking() -> None:
    app = create_app()
    store: GameStore = app.state.store
    errors: list[str] = []
    with running_server(app) as base, browser_page(errors) as page:
        page.goto(f"{base}/")
        page.wait_for_selector("#create-button")
        # the lobby offers the levels first; seat 2 defaults to the middle one
        options = page.locator("select[name=seat-1] option").all_inner_texts()
        assert options[:4] == [
            "Human (you or a friend)",
            "easy",
            "medium",
            "hard",
        ]
        assert page.locator("select[name=seat-1]").input_value() == "medium"
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
    assert errors == []
    (game,) = store.games.values()
    assert game.over and game.agents == {1: "medium"}
    assert len(clicked) > 10 and sum(s.player == 0 for s in game.steps) == len(clicked)
    assert "keep tickets" in clicked
    assert any(c.startswith("Pay ") for c in clicked), "no route was claimed by clicking"
    totals = {s.player: s.total for s in final_scores(game.state)}
    for total in totals.values():
        assert str(total) in table
    expected = "You win!" if winners(game.state) == (0,) else "Player 2 (medium) wins!"
    if len(winners(game.state)) == 1:
        assert title == expected
    assert record_href == f"/api/games/{game.id}/record"


def test_the_page_is_busy_while_an_action_is_posted_and_sends_one_at_a_time() -> None:
    """A second click before the server answers (a double click, or a click on a control drawn
    for the position before) must send nothing: it would act on a position that is gone."""
    from playwright.sync_api import Route

    app = create_app()
    store: GameStore = app.state.store
    errors: list[str] = []
    held: list[Route] = []
    posts: list[str] = []
    with running_server(app) as base, browser_page(errors) as page:
        page.on(
            "request",
            lambda r: posts.append(r.post_data or "") if r.method == "POST" else None,
        )
        page.goto(f"{base}/")
        page.fill("#seed-input", "3")
        page.click("#create-button")
        page.wait_for_selector("#keep-tickets", timeout=30_000)
        page.wait_for_function("document.body.dataset.busy !== '1'")
        posts.clear()  # the game's creation
        # the action is held on its way to the server until released below
        page.route("**/actions", lambda route: held.append(route))
        page.click("#keep-tickets")
        for _ in range(1500):
            if held:
                break
            page.wait_for_timeout(20)
        assert held, "the page sent no action"
        assert page.evaluate("document.body.dataset.busy") == "1"
        page.click("#keep-tickets")  # still drawn: the answer has not come
        page.wait_for_timeout(300)
        assert len(posts) == 1 and len(held) == 1
        held[0].continue_()
        page.wait_for_function("document.body.dataset.busy !== '1'")
        page.unroute("**/actions")
    assert errors == []
    (game,) = store.games.values()
    assert [s.player for s in game.steps][:1] == [0]
    assert sum(s.player == 0 for s in game.steps) == 1
