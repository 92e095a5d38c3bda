"""Playing on the page (issue 47, the play half), in headless Chromium: every legal claim is
opened by clicking its route on every installed map (substitute sets included), on a phone the
controls of each decision are on screen without scrolling and every button stays readable with
the pointer over it, an unknown game says so, and a seed out of range is refused in words."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, low_contrast_buttons, running_server

from ttr_rules import Color, apply_action, available_maps, legal_actions, scenario
from ttr_rules.actions import (
    Action,
    ClaimRoute,
    ClaimWithSets,
    KeepTickets,
    PayTunnel,
)
from ttr_rules.notation import format_action
from ttr_rules.state import GameState, Phase
from ttr_rules.web import create_app
from ttr_rules.web.games import Game, GameStore

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"missing system program: {CHROMIUM} (apt-get install -y chromium)",
)

PHONE = (390, 844)


def _claimer(seed: int) -> Callable[[GameState], Action]:
    """A random player that claims when it can (and keeps whatever is offered)."""
    rnd = random.Random(seed)

    def act(state: GameState) -> Action:
        actions = legal_actions(state)
        claims = [a for a in actions if isinstance(a, ClaimRoute | PayTunnel | KeepTickets)]
        return rnd.choice(claims) if claims and rnd.random() < 0.8 else rnd.choice(actions)

    return act


def _moves(state: GameState, until: Callable[[GameState, int], bool]) -> list[str]:
    """The claimer's moves from ``state`` up to the first position where ``until(state, n)``."""
    act = _claimer(3)
    texts: list[str] = []
    while not until(state, len(texts)):
        assert state.phase is not Phase.GAME_OVER, "the game ended before the position"
        action = act(state)
        texts.append(format_action(action, state.map))
        state = apply_action(state, action)
    return texts


def _mine(phase: Phase, after: int = 0) -> Callable[[GameState, int], bool]:
    return lambda s, n: n >= after and s.phase is phase and s.current == 0


def _claims_open(after: int) -> Callable[[GameState, int], bool]:
    """Seat 0 starting a turn with a route it can claim."""
    start = _mine(Phase.START, after)
    return lambda s, n: start(s, n) and any(isinstance(a, ClaimRoute) for a in legal_actions(s))


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, GameStore, Any]]:
    """One server and one browser for the module's pages (each test adds its own game)."""
    from playwright.sync_api import sync_playwright

    app = create_app()
    with running_server(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield base, app.state.store, browser
        finally:
            browser.close()


@contextmanager
def _page(
    site: tuple[str, GameStore, Any],
    game_of: Callable[[GameStore], tuple[Game, str]],
    size: tuple[int, int],
) -> Iterator[Any]:
    """Seat 0's page of the game ``game_of`` puts in the server's store."""
    base, store, browser = site
    game, token = game_of(store)
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.goto(f"{base}/#game/{game.id}?token={token}")
        page.wait_for_function("Number(document.body.dataset.version || 0) > 0")
        page.wait_for_function("document.body.dataset.busy !== '1'")
        yield page, game
    finally:
        page.close()


def _played(map_name: str, until: Callable[[GameState, int], bool], seed: int = 11) -> Any:
    def make(store: GameStore) -> tuple[Game, str]:
        game, tokens = store.create(map_name, 2, seed=seed)
        game.replay_texts(_moves(game.state, until))
        return game, tokens[0]

    return make


def _then(make: Any, *texts: str) -> Any:
    """``make``'s game with seat 0's ``texts`` played on."""

    def more(store: GameStore) -> tuple[Game, str]:
        game, token = make(store)
        game.replay_texts(list(texts))
        return game, token

    return more


def _nordic_sets(store: GameStore) -> tuple[Game, str]:
    """Nordic, seat 0 holding 8 red and 4 blue: ten routes (ferries among them) that only
    substitute sets can pay (the game's position is set by hand: a scenario)."""
    game, tokens = store.create("nordic", 2, seed=11)
    game.state = scenario("nordic", hands=[{Color.RED: 8, Color.BLUE: 4}, {}])
    return game, tokens[0]


def _nordic_payment(store: GameStore) -> tuple[Game, str]:
    """The same, with seat 0 paying Lieksa – Murmansk with substitute sets."""
    game, token = _nordic_sets(store)
    start = next(a for a in legal_actions(game.state) if isinstance(a, ClaimWithSets))
    game.state = apply_action(game.state, start)
    return game, token


def _nordic_paid(store: GameStore) -> tuple[Game, str]:
    """The same, the cards picked until the claim can be made."""
    game, token = _nordic_payment(store)
    while not any(isinstance(a, ClaimRoute) for a in legal_actions(game.state)):
        game.state = apply_action(game.state, legal_actions(game.state)[0])
    return game, token


# --------------------------------------------------------------------------- clicking claims

#: The screen point of the middle car of route ``id``, brought into view first (the page
#: scrolled, the board panned as the page pans it), or null when it is not drawn.
_ROUTE_POINT = """(id) => {
  const g = document.querySelector(`#board g.route[data-route="${id}"]`);
  if (!g) return null;
  const spaces = g.querySelectorAll('rect.space');
  const space = spaces[Math.floor(spaces.length / 2)];
  const centre = () => {
    const box = space.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  };
  const hits = () => {
    const hit = document.elementFromPoint(...centre());
    return hit && hit.closest('g.route') === g;
  };
  document.querySelector('#board').scrollIntoView({ block: 'start' });
  if (!hits()) bringIntoView(document.querySelector('#board'), space);
  return centre();
}"""


def _legal_claims(page: Any) -> dict[int, tuple[str, set[str]]]:
    legal = page.evaluate(
        """async () => (await (await fetch(`/api/games/${G.id}/legal`,
        { headers: authHeaders() })).json())"""
    )
    claims: dict[int, tuple[str, set[str]]] = {}
    for a in legal:
        if a["type"] in ("claim_route", "claim_with_sets"):
            claims.setdefault(a["route"], (a["target"], set()))[1].add(a["action"])
    return claims


def _click_every_claim(page: Any) -> tuple[int, list[str]]:
    """Click each route with a legal claim where its middle car is drawn; returns how many
    were clicked and what went wrong (a menu that did not open, or offered other actions)."""
    claims = _legal_claims(page)
    wrong: list[str] = []
    for route, (words, actions) in sorted(claims.items()):
        point = page.evaluate(_ROUTE_POINT, route)
        if point is None:
            wrong.append(f"route {route} is not drawn")
            continue
        page.mouse.click(*point)
        menu = page.locator("#route-menu")
        if not menu.is_visible():
            wrong.append(f"route {route}: no menu")
            continue
        offered = set(
            menu.locator(".claim-option").evaluate_all("(b) => b.map((x) => x.dataset.action)")
        )
        if offered != actions:
            wrong.append(f"route {route}: the menu offers {sorted(offered)}, not {sorted(actions)}")
        title = menu.locator(".menu-title").inner_text()
        if title != words:  # the kit's words for the route (frontend.route_label)
            wrong.append(f"route {route}: the menu says {title!r}, not {words!r}")
        page.keyboard.press("Escape")
    return len(claims), wrong


@pytest.mark.parametrize("map_name", available_maps())
def test_every_legal_claim_is_opened_by_clicking_its_route(site: Any, map_name: str) -> None:
    with _page(site, _played(map_name, _claims_open(after=24)), (1366, 850)) as (page, game):
        assert game.state.phase is Phase.START
        clicked, wrong = _click_every_claim(page)
    assert clicked > 0
    assert wrong == []


@pytest.mark.parametrize("maker", [_nordic_sets, _nordic_paid], ids=["start", "payment"])
def test_routes_only_substitute_sets_pay_are_clicked_too(site: Any, maker: Any) -> None:
    with _page(site, maker, (1366, 850)) as (page, game):
        only_sets = {a.route for a in legal_actions(game.state) if isinstance(a, ClaimWithSets)} - {
            a.route for a in legal_actions(game.state) if isinstance(a, ClaimRoute)
        }
        if game.state.phase is Phase.START:
            assert len(only_sets) >= 5  # Nordic ferries among them
        clicked, wrong = _click_every_claim(page)
        assert low_contrast_buttons(page, hover=True) == []
    assert clicked > 0
    assert wrong == []


# --------------------------------------------------------------------------- the phone

#: Whether every element of a selector is drawn whole inside the window at the top of the
#: page, and is what a finger there would touch (nothing covers it).
_ON_SCREEN = """(selector) => {
  const nodes = [...document.querySelectorAll(selector)].filter((n) => n.offsetParent);
  if (!nodes.length) return [`nothing matches ${selector}`];
  const off = [];
  for (const n of nodes) {
    const b = n.getBoundingClientRect();
    const inside = b.left >= 0 && b.top >= 0 && b.right <= innerWidth && b.bottom <= innerHeight;
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    if (!inside || !(hit && (hit === n || n.contains(hit) || hit.contains(n))))
      off.push(`${selector} at ${Math.round(b.left)},${Math.round(b.top)}`);
  }
  return off;
}"""

_EUROPE_START = _played("europe", _claims_open(after=20))

#: Each decision: the game, what to do on the page first (if anything), and its controls.
DECISIONS: dict[str, tuple[Any, str, tuple[str, ...]]] = {
    "initial tickets": (
        _played("europe", lambda s, n: True),
        "",
        ("#keep-tickets", "#ticket-choice input"),
    ),
    "start": (_EUROPE_START, "", ("#face-up button", "#draw-blind", "#draw-tickets")),
    "claim menu": (_EUROPE_START, "claim", ("#route-menu .claim-option", "#route-menu .cancel")),
    "station": (_EUROPE_START, "", ("#station-city",)),
    "second card": (_then(_EUROPE_START, "draw blind"), "", ("#face-up button", "#draw-blind")),
    "keep tickets": (
        _then(_EUROPE_START, "tickets draw"),
        "",
        ("#keep-tickets", "#ticket-choice input"),
    ),
    "tunnel": (_played("europe", _mine(Phase.TUNNEL)), "", (".tunnel-option",)),
    "payment": (_nordic_payment, "", ("#payment .payment-picks button",)),
    "hints": (_EUROPE_START, "hint", ("#hints .hint-action",)),
}


@pytest.mark.parametrize("decision", list(DECISIONS))
def test_on_a_phone_the_controls_of_each_decision_are_on_screen(site: Any, decision: str) -> None:
    make, first, controls = DECISIONS[decision]
    with _page(site, make, PHONE) as (page, game):
        if first == "claim":
            route = next(a.route for a in legal_actions(game.state) if isinstance(a, ClaimRoute))
            page.mouse.click(*page.evaluate(_ROUTE_POINT, route))
        elif first == "hint":
            page.click("#hint-button")
            page.wait_for_selector("#hints .hint-action")
        page.evaluate("window.scrollTo(0, 0)")
        off = [problem for selector in controls for problem in page.evaluate(_ON_SCREEN, selector)]
        sideways = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        unreadable = low_contrast_buttons(page, hover=True)
        page.screenshot(path=f"/tmp/h47-phone-{decision.replace(' ', '-')}.png")
    assert off == []
    assert sideways <= 0
    assert unreadable == []


def test_on_a_phone_choosing_tickets_leaves_the_board_most_of_the_screen(site: Any) -> None:
    """The ticket sheet shows the offered tickets two to a row and no draws: India's board (a
    tall one) keeps most of the height with the whole sheet on screen; the handle folds the
    sheet down to its prompt and unfolds it."""
    with _page(site, _played("india", lambda s, n: True), PHONE) as (page, _):
        height = PHONE[1]
        board = page.locator("#board").bounding_box()
        sheet = page.locator("#turn-panel").bounding_box()
        assert board is not None and sheet is not None
        assert board["height"] >= 0.55 * height and sheet["height"] <= 0.3 * height
        zoom = page.locator(".zoom-controls").bounding_box()
        assert zoom is not None  # nothing of the board nor of its zoom buttons under the sheet
        assert (
            board["y"] + board["height"] <= zoom["y"] + 1
            and zoom["y"] + zoom["height"] <= sheet["y"]
        )
        assert page.evaluate(_ON_SCREEN, "#keep-tickets") == []
        assert not page.locator("#draw-blind").is_visible()
        page.click("#sheet-handle")
        folded = page.locator("#turn-panel").bounding_box()
        assert folded is not None and folded["height"] <= 0.08 * height
        assert (
            page.locator("#prompt").is_visible() and not page.locator("#keep-tickets").is_visible()
        )
        assert page.get_attribute("#sheet-handle", "aria-expanded") == "false"
        page.click("#sheet-handle")
        assert page.evaluate(_ON_SCREEN, "#keep-tickets") == []


def test_the_last_moves_bar_never_covers_the_board(site: Any) -> None:
    with _page(site, _EUROPE_START, PHONE) as (page, _):
        for y in (0, 200, 400):
            page.evaluate(f"window.scrollTo(0, {y})")
            bar = page.locator("#last-moves").bounding_box()
            board = page.locator("#board").bounding_box()
            assert bar is not None and board is not None
            assert bar["y"] + bar["height"] <= board["y"] + 1


# --------------------------------------------------------------------------- words


def test_hints_and_the_log_speak_in_words(site: Any) -> None:
    with _page(site, _EUROPE_START, (1366, 850)) as (page, _):
        page.click("#hint-button")
        page.wait_for_selector("#hints .hint-action")
        hints = page.locator("#hints").inner_text()
        log = page.locator("#log").inner_text()
    notation = re.compile(r"draw faceup|draw blind|tickets (keep|draw)|claim \S+-\S+|\d+L\b")
    assert not notation.search(hints) and not notation.search(log)
    assert "margin" not in hints and "the best of these" in hints
    assert "You keep" in log and "Player 2" in log
    assert "tickets keep" not in log


def test_an_unknown_game_says_so_and_offers_the_lobby(site: Any) -> None:
    base, _, browser = site
    page = browser.new_page()
    try:
        page.goto(f"{base}/#game/0123456789abcdef")
        page.wait_for_selector("#missing:not([hidden])")
        text = page.locator("#missing").inner_text()
        assert not page.locator("#hint-button").is_visible()
        assert not page.locator("#game").is_visible()
        page.click("#missing a")
        page.wait_for_selector("#create-button")
    finally:
        page.close()
    assert "There is no game" in text and "0123456789abcdef" in text


def test_a_seed_out_of_range_is_refused_in_words_and_a_long_seed_is_sent_exactly(
    site: Any,
) -> None:
    base, store, browser = site
    page = browser.new_page()
    try:
        page.goto(f"{base}/")
        page.wait_for_selector("#create-button")
        page.fill("#seed-input", "1" * 30)
        page.click("#create-button")
        page.wait_for_selector("#create-error:not([hidden])")
        error = page.locator("#create-error").inner_text()
        page.fill("#seed-input", "9007199254740993")  # 2^53 + 1: a float would round it
        page.click("#create-button")
        page.wait_for_selector("#game:not([hidden])")
        game_id = page.evaluate("G.id")
    finally:
        page.close()
    assert "whole number from 0 to 9223372036854775807" in error
    assert "Input should" not in error
    assert store.get(game_id).state.seed == 9007199254740993


def test_the_server_words_numbers_out_of_range() -> None:
    from fastapi.testclient import TestClient

    client = TestClient(create_app())
    for body in ('{"seed": 123456789012345678901234567890}', '{"seed": 1e29}', '{"seed": -1}'):
        answer = client.post(
            "/api/games", content=body, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 422
        assert answer.json()["message"] == (
            "seed must be a whole number from 0 to 9223372036854775807"
        )
