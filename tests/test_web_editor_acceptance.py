"""Issue 49's acceptance, by clicking in a real browser (Playwright + Debian's Chromium):
``ttr edit`` started on a blank board, a 10-city map built with the mouse and the keyboard, an
isolated city seen in the problem list, clicked and joined, a 20-game play-test of that map
read off the page, and the plugin exported by the page, installed offline in a fresh venv,
listed by ``ttr maps`` and played by ``ttr simulate --map``.

One flow, in steps that share the page (each step needs the one before); then the hostile
pass's second tab."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS

from ttr_rules.web.editor import edits

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"missing system program: {CHROMIUM} (apt-get install -y chromium)",
)

#: The checkout under test (built into the fresh venv beside the exported plugin).
ROOT = Path(__file__).resolve().parents[1]

#: Where the cities are clicked, as fractions of the board: City 1 to City 10.
PLACES = [
    (0.08, 0.14),
    (0.36, 0.08),
    (0.64, 0.16),
    (0.9, 0.1),
    (0.1, 0.5),
    (0.42, 0.46),
    (0.7, 0.5),
    (0.92, 0.58),
    (0.28, 0.86),
    (0.7, 0.88),
]
#: The routes clicked at first: City 10 is left out, the problem the flow fixes.
ROUTES = [(1, 2), (2, 3), (3, 4), (1, 5), (2, 6), (3, 7), (4, 8), (5, 6), (6, 7), (7, 8)]
ROUTES += [(5, 9), (6, 9)]
#: The routes that join City 10.
FIXES = [(7, 10), (9, 10)]
#: Tickets: two long (one each for 2 players) and six regular (three each).
LONG_TICKETS = [(1, 8), (4, 9)]
TICKETS = [(1, 3), (2, 7), (5, 7), (3, 6), (4, 6), (1, 9)]
COLOURS = {0: "red", 5: "blue", 9: "green"}
MAP_NAME = "ten-cities"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workbench")


@pytest.fixture(scope="module")
def address(folder: Path) -> Iterator[str]:
    """``ttr edit`` run in an empty folder (a blank board) on a free port."""
    server = subprocess.Popen(
        [sys.executable, "-m", "ttr_rules", "edit", "--port", "0"],
        cwd=folder,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line
        assert "new-map.json" in line
        yield found.group(0)
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def page(address: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1366, "height": 860}, accept_downloads=True)
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.goto(address)
            tab.wait_for_selector("#problem-count:has-text('(')")
            yield tab
        finally:
            browser.close()
    assert not errors, errors


def click_board(page: Any, x: float, y: float) -> None:
    box = page.locator("#board").bounding_box()
    page.mouse.click(box["x"] + box["width"] * x, box["y"] + box["height"] * y)


def click_city(page: Any, n: int) -> None:
    page.click(f'g.city[data-city="City {n}"] circle')


def routes_drawn(page: Any) -> int:
    return int(page.locator("#board g.route").count())


def join(page: Any, pairs: list[tuple[int, int]]) -> None:
    """Click the pairs of cities in the *Add route* mode."""
    page.click("#modes >> text=Add route")
    for a, b in pairs:
        before = routes_drawn(page)
        click_city(page, a)
        click_city(page, b)
        page.wait_for_function(f"document.querySelectorAll('#board g.route').length > {before}")


def problems(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#problems li").all_inner_texts()]


def test_a_blank_board_becomes_ten_cities_and_routes_by_clicking(page: Any) -> None:
    assert page.locator("#problem-count").inner_text() == "(2)"  # no cities, no routes
    page.click("#modes >> text=Add city")
    for n, (x, y) in enumerate(PLACES, 1):
        click_board(page, x, y)
        page.wait_for_selector(f'g.city[data-city="City {n}"]', state="attached")
    join(page, ROUTES)
    page.click("#modes >> text=Select")
    for index, colour in COLOURS.items():
        page.click(f'g.route[data-route="{index}"] line.hit', force=True)
        page.select_option("#route-color", colour)
        page.click("#form >> text=Apply")
        page.wait_for_selector(f"#form >> text=route City {ROUTES[index][0]} – ")
    assert page.locator("#board g.city").count() == 10
    assert routes_drawn(page) == len(ROUTES)
    assert problems(page) == [
        "routes: the board is not connected: City 10 cannot be reached from City 1"
    ]


def test_tickets_and_rules_are_set_in_the_page(page: Any) -> None:
    page.click("#modes >> text=Add ticket")
    for a, b in [*LONG_TICKETS, *TICKETS]:
        count = page.locator("#tickets li").count()
        click_city(page, a)
        click_city(page, b)
        page.wait_for_function(f"document.querySelectorAll('#tickets li').length > {count}")
        if (a, b) in LONG_TICKETS:
            page.check("#ticket-long")
            page.click("#form >> text=Apply")
            page.wait_for_function("document.querySelector('#ticket-long').checked")
    tickets = page.locator("#tickets").inner_text()
    assert tickets.count("shortest path") == 8 and "points equal to it" in tickets
    # Two players: 2 long and 6 regular tickets deal (five would need 20); typed in the rules.
    page.click("#rules summary")
    page.fill('[data-rule="max_players"]', "2")
    page.keyboard.press("Tab")
    page.wait_for_selector("#rule-fields >> text=max players *")
    page.fill("#map-name", MAP_NAME)
    page.fill("#map-title", "Ten Cities")
    page.click("#map-details")
    page.wait_for_function(f"state.map.name === '{MAP_NAME}'")


def test_the_isolated_city_is_found_by_its_problem_and_joined(page: Any) -> None:
    (problem,) = problems(page)
    assert "City 10 cannot be reached" in problem
    page.click("#modes >> text=Select")
    page.click("#problems li")
    assert page.locator("#city-name").input_value() == "City 10"
    join(page, FIXES)
    page.wait_for_selector("#problem-count >> text=(0)")
    assert problems(page) == []
    page.click("#save")
    page.wait_for_selector("#unsaved", state="hidden")


def test_a_play_test_of_twenty_games_is_read_on_the_page(page: Any) -> None:
    page.fill("#pt-games", "20")
    page.fill("#pt-agents", "greedy,greedy")
    page.click("#pt-start")
    page.wait_for_selector("#pt-result >> text=finished: 20 of 20 games", timeout=120_000)
    result = page.locator("#pt-result").inner_text()
    advantage = re.search(r"first player's advantage: [+−](\d+)% wins", result)
    length = re.search(r"game length: (\d+\.\d) turns on average", result)
    completed = re.findall(r"completed (\d+)% \(kept", result)
    assert advantage and 0 <= int(advantage.group(1)) <= 50, result
    assert length and float(length.group(1)) > 10, result
    assert len(completed) == len(LONG_TICKETS) + len(TICKETS), result
    assert all(0 <= int(c) <= 100 for c in completed)
    assert re.search(r"seat 1 \(greedy\): wins \d+%, mean score \d+\.\d", result)
    assert "never completed:" in result


def test_the_exported_plugin_installs_in_a_fresh_venv_and_plays(
    page: Any, folder: Path, tmp_path: Path
) -> None:
    with page.expect_download() as download:
        page.click("#export-plugin")
    archive = tmp_path / download.value.suggested_filename
    download.value.save_as(archive)
    assert archive.name == f"ttr-rules-{MAP_NAME}.zip"
    assert page.locator("#message.note").inner_text() == (
        f"{archive.name} downloaded: pip install {archive.name}, then ttr maps lists {MAP_NAME}"
    )
    shipped = json.loads(
        zipfile.ZipFile(archive).read(
            f"ttr-rules-{MAP_NAME}/src/ttr_rules_map_ten_cities/{MAP_NAME}.json"
        )
    )
    assert shipped == json.loads((folder / "new-map.json").read_text(encoding="utf-8"))
    assert len(shipped["cities"]) == 10 and len(shipped["routes"]) == 14
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv)
    python = venv / "bin" / "python"
    offline: list[str | Path] = [
        "--disable-pip-version-check",
        "--no-index",
        "--no-deps",
        "--no-build-isolation",
    ]
    pip: list[str | Path] = [sys.executable, "-m", "pip", "--python", python]
    run(*pip, "wheel", *offline, "-q", "-w", tmp_path / "dist", ROOT)  # ttr-rules itself
    (wheel,) = (tmp_path / "dist").glob("ttr_rules-*.whl")
    run(*pip, "install", *offline, "-q", wheel, archive)
    ttr = venv / "bin" / "ttr"
    assert MAP_NAME in [m["name"] for m in json.loads(run(ttr, "maps", "--json"))]
    played = run(ttr, "simulate", "--map", MAP_NAME, "--games", "2", "--players", "2", "--json")
    games = [json.loads(line) for line in played.splitlines()]
    assert [g["map"] for g in games] == [MAP_NAME, MAP_NAME]
    assert all(len(g["scores"]) == 2 for g in games)


def run(*argv: str | Path) -> str:
    done = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, timeout=300, cwd=ROOT.parent
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_second_tab_neither_wipes_typing_nor_moves_a_selection(page: Any, tmp_path: Path) -> None:
    """The hostile pass's second tab (in the flow's browser, on a server of its own): its
    edits wait while this tab types in the side form,
    and a route it deletes is no longer this tab's selection (the next route took its place in
    the list: an Apply would have changed that one)."""
    from web_helpers import running_server

    from ttr_rules.web.editor import create_editor_app, open_workbench

    bench = open_workbench("alps.json", tmp_path)
    for name, x in [("Aosta", 0.2), ("Brig", 0.5), ("Chur", 0.8)]:
        bench.apply(functools.partial(edits.add_city, name=name, x=x, y=0.5))
    for a, b in [("Aosta", "Brig"), ("Brig", "Chur")]:
        bench.apply(functools.partial(edits.add_route, a=a, b=b, fields={"length": 2}))
    errors: list[str] = []
    with running_server(create_editor_app(bench)) as base:
        context = page.context.browser.new_context(viewport={"width": 1366, "height": 860})
        mine, other = context.new_page(), context.new_page()
        for tab in (mine, other):
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.goto(base + "/")
            tab.wait_for_selector("g.city", state="attached")
        mine.click('g.city[data-city="Aosta"] circle')
        mine.fill("#city-name", "Aosta Valley")
        other.click('g.route[data-route="1"] .hit', force=True)
        other.click("#form >> text=Delete route")
        other.wait_for_function("state.map.routes.length === 1")
        mine.bring_to_front()  # back to the first tab, its text still in the field
        mine.wait_for_timeout(2500)  # the other tab's edit is taken every 2 s, not while typing
        assert mine.locator("#city-name").input_value() == "Aosta Valley"
        mine.press("#city-name", "Enter")  # Enter renames
        mine.wait_for_selector('g.city[data-city="Aosta Valley"]', state="attached")
        assert len(bench.document["routes"]) == 1  # the other tab's delete was kept
        mine.click('g.route[data-route="0"] .hit', force=True)
        assert mine.locator("#form p").inner_text() == "route Aosta Valley – Brig"
        other.click("#modes >> text=Add route")
        other.click('g.city[data-city="Brig"] circle')
        other.click('g.city[data-city="Chur"] circle')
        other.wait_for_function("state.map.routes.length === 2")
        other.keyboard.press("Escape")
        other.click("#modes >> text=Select")
        other.click('g.route[data-route="0"] .hit', force=True)
        other.click("#form >> text=Delete route")  # the route selected in the first tab
        mine.wait_for_selector("#form >> text=Click a city or a route.")
        context.close()
    assert not errors, errors
    assert [(r["a"], r["b"]) for r in bench.document["routes"]] == [("Brig", "Chur")]
