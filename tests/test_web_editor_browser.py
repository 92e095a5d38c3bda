"""The workbench's page in a real browser (Playwright + Debian's Chromium): a board built from
blank by clicking, a problem clicked to its place, undo by the keyboard, the warning before
leaving with unsaved changes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, running_server

from ttr_rules.web.editor import create_editor_app, open_workbench

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"missing system program: {CHROMIUM} (apt-get install -y chromium)",
)

#: Where the test clicks its cities, as fractions of the board.
PLACES = [(0.15, 0.2), (0.45, 0.15), (0.75, 0.3), (0.4, 0.7)]


def click_board(page: Any, x: float, y: float) -> None:
    box = page.locator("#board").bounding_box()
    page.mouse.click(box["x"] + box["width"] * x, box["y"] + box["height"] * y)


def test_a_board_is_built_by_clicking(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    bench = open_workbench("alps.json", tmp_path)
    errors: list[str] = []
    with running_server(create_editor_app(bench)) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 860})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/")
        page.click("text=Add city")
        for n, (x, y) in enumerate(PLACES, 1):
            click_board(page, x, y)
            page.wait_for_selector(f'g.city[data-city="City {n}"]', state="attached")
        page.click("text=Add route")
        for a, b in [(1, 2), (2, 3), (3, 4), (4, 1)]:
            page.click(f'g.city[data-city="City {a}"] circle')
            page.click(f'g.city[data-city="City {b}"] circle')
            page.wait_for_function(f"state && state.map.routes.length === {a}")
        page.select_option("#route-color", "blue")
        page.fill("#route-length", "4")
        page.click("#form >> text=Apply")
        page.wait_for_function("state.map.routes[3].color === 'blue'")
        # A problem, found by clicking it in the list, and fixed in the form.
        page.fill("#route-ferry", "9")
        page.click("#form >> text=Apply")
        problem = page.locator("#problems li", has_text="routes[3]")
        problem.wait_for()
        page.click('g.city[data-city="City 1"] circle')  # select something else first
        problem.click()
        assert page.locator("#form").inner_text().startswith("route City 4 – City 1")
        page.fill("#route-ferry", "0")
        page.click("#form >> text=Apply")
        problem.wait_for(state="detached")
        # Too few tickets: the problem is listed; a ticket by clicking, and it is still listed.
        assert "tickets" in page.locator("#problems").inner_text()
        page.click("text=Add ticket")
        page.click('g.city[data-city="City 1"] circle')
        page.click('g.city[data-city="City 3"] circle')
        page.wait_for_function("state.map.tickets.length === 1")
        assert "shortest path" in page.locator("#tickets").inner_text()
        # Dragging moves a city; Ctrl+Z puts it back.
        page.click("text=Select")
        box = page.locator("#board").bounding_box()
        city = page.locator('g.city[data-city="City 4"] circle').bounding_box()
        assert box is not None and city is not None
        page.mouse.move(city["x"] + city["width"] / 2, city["y"] + city["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.8, steps=5)
        page.mouse.up()
        page.wait_for_function("state.map.cities[3].position[1] > 0.75")
        page.keyboard.press("Control+z")
        page.wait_for_function("state.map.cities[3].position[1] < 0.75")
        assert page.locator("#unsaved").is_visible()
        csv = tmp_path / "routes.csv"
        csv.write_text("a,b,length,color\nCity 1,Lyon,3,green\n", encoding="utf-8")
        page.set_input_files("#import", files=[csv])
        page.wait_for_selector('g.city[data-city="Lyon"]', state="attached")
        unsaved = page.evaluate(
            "() => { const e = new Event('beforeunload', {cancelable: true});"
            " window.dispatchEvent(e); return e.defaultPrevented; }"
        )
        assert unsaved
        page.click("#save")
        page.wait_for_function("!state.unsaved")
        browser.close()
    assert not errors, errors
    saved = (tmp_path / "alps.json").read_text()
    assert '"City 4"' in saved and '"blue"' in saved
    assert bench.document["cities"][3]["position"] == pytest.approx([0.4, 0.7], abs=0.01)


def test_a_play_test_is_run_and_read_on_the_page(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with (
        running_server(create_editor_app(open_workbench("europe", tmp_path))) as base,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 860})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/")
        page.wait_for_selector("g.city", state="attached")
        page.fill("#pt-games", "20")
        page.fill("#pt-agents", "greedy,random")
        page.click("#pt-start")
        page.wait_for_function("playtest && playtest.status === 'finished'", timeout=120_000)
        result = page.locator("#pt-result").inner_text()
        assert "finished: 20 of 20 games" in result and "first player's advantage" in result
        page.check("#pt-heat")
        fills = page.eval_on_selector_all(
            "g.route rect", "rs => rs.map(r => r.getAttribute('fill'))"
        )
        assert all(f.startswith("hsl(") for f in fills)
        browser.close()
    assert not errors, errors
