"""The workbench's page in a real browser (Playwright + Debian's Chromium): a board built from
blank by clicking, a problem clicked to its place, undo by the keyboard, the warning before
leaving with unsaved changes."""

from __future__ import annotations

import functools
import json
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


def _small_board(tmp_path: Path) -> Any:
    """A workbench on four cities and four routes (one double), with car spaces laid and a
    background."""
    from ttr_rules.web.editor import edits

    bench = open_workbench("alps.json", tmp_path)
    places = {"Bern": (0.15, 0.5), "Zug": (0.5, 0.3), "Land 1": (0.85, 0.2), "Land 2": (0.8, 0.8)}
    for name, (x, y) in places.items():
        bench.apply(functools.partial(edits.add_city, name=name, x=x, y=y))
    for a, b in [("Bern", "Zug"), ("Bern", "Zug"), ("Zug", "Land 1"), ("Zug", "Land 2")]:
        bench.apply(functools.partial(edits.add_route, a=a, b=b, fields={"length": 5}))
    bench.apply(functools.partial(edits.lay_spaces, on=True))
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="7">'
    bench.set_background(svg + b'<rect width="10" height="7" fill="#9cf"/></svg>')
    return bench


def drag(page: Any, selector: str, dx: float, dy: float) -> None:
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=4)
    page.mouse.up()


def test_bends_countries_background_and_shortcuts_on_the_page(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    bench = _small_board(tmp_path)
    errors: list[str] = []
    with running_server(create_editor_app(bench)) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 860})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/")
        page.wait_for_selector("g.city", state="attached")
        # The toolbar is one row at 1366 px and at 1024 px.
        for width in (1366, 1024):
            page.set_viewport_size({"width": width, "height": 860})
            tops = page.eval_on_selector_all(
                "header button, header label, header select",
                "nodes => new Set(nodes.map(n => Math.round(n.getBoundingClientRect().top)))",
            )
            assert (
                len(tops) <= 2
                and page.evaluate("document.querySelector('header').offsetHeight") < 50
            )
        page.set_viewport_size({"width": 1366, "height": 860})
        # A route bent by its handle: both tracks of the double follow; undo straightens them.
        page.click("g.route[data-route='0'] .hit", force=True)
        drag(page, "#bend-handle", 0, -90)
        page.wait_for_function("state.map.routes[0].bend !== undefined")
        bends = page.evaluate("state.map.routes.slice(0, 2).map(r => r.bend)")
        assert bends[0] == bends[1] and bends[0] < -0.1
        assert page.locator("#problem-count").inner_text() != "" and not [
            p for p in bench.problems() if ".spaces" in p["message"]
        ]
        page.wait_for_selector("#form >> text=Straighten")
        page.keyboard.press("Control+z")
        page.wait_for_function("state.map.routes[0].bend === undefined")
        # A country, then a ticket to it, then a second destination, by the forms.
        page.click("#country-new")
        page.fill("#country-name", "Land")
        page.select_option("#country-places", ["Land 1", "Land 2"])
        page.click("#form >> text=Add country")
        page.wait_for_function("state.map.countries && state.map.countries.length === 1")
        assert page.locator(".country-ring").count() == 2
        page.select_option("#ticket-from", "Bern")
        page.select_option("#ticket-to", "Land")
        page.click("#ticket-add")
        page.wait_for_function("state.map.tickets.length === 1")
        assert "shortest path 10 spaces; points equal to it" in page.locator("#form").inner_text()
        page.click("#form >> text=Add destination")
        page.locator("#ticket-destinations select").nth(1).select_option("Zug")
        page.locator("#ticket-destinations input").nth(1).fill("7")
        page.click("#form >> text=Apply")
        page.wait_for_function("state.map.tickets[0].destinations.length === 2")
        assert bench.document["tickets"][0]["penalty"] == 7
        assert "points 2 more than it" in page.locator("#tickets").inner_text()
        # Delete removes the selected ticket; Escape cancels the first click of a route.
        page.keyboard.press("Delete")
        page.wait_for_function("state.map.tickets.length === 0")
        page.keyboard.press("3")
        page.click('g.city[data-city="Bern"] circle')
        page.wait_for_selector("g.city.picked", state="attached")
        page.keyboard.press("Escape")
        page.wait_for_selector("g.city.picked", state="detached")
        page.click('g.city[data-city="Land 1"] circle')
        page.click('g.city[data-city="Land 2"] circle')
        page.wait_for_function("state.map.routes.length === 5")
        assert {bench.document["routes"][4]["a"], bench.document["routes"][4]["b"]} == {
            "Land 1",
            "Land 2",
        }
        # The help opens with ? and closes with Escape.
        page.keyboard.press("Escape")
        page.keyboard.press("?")
        assert page.locator("#help").is_visible()
        page.keyboard.press("Escape")
        assert not page.locator("#help").is_visible()
        # The background: moved and scaled by its handles, then locked (the handles go).
        page.click("text=Select")
        drag(page, ".bg-handle.move", 40, 30)
        page.wait_for_function("state.background_place.x > 0.02")
        drag(page, ".bg-handle.scale", -60, -60)
        page.wait_for_function("state.background_place.scale < 0.95")
        page.check("#bg-lock")
        page.wait_for_function("state.background_place.locked")
        assert page.locator(".bg-handle").count() == 0 and page.locator("#bg-x").is_disabled()
        browser.close()
    assert not errors, errors
    place = json.loads((tmp_path / "alps.background.json").read_text())
    assert place["locked"] and place["x"] > 0.02 and place["scale"] < 0.95
