"""The board in a real browser (Playwright + Debian's Chromium): a click anywhere on a route
lands on that route, the page never scrolls sideways, and the tunnel, ticket-choice and end
states say what they mean in words."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, low_contrast_buttons, running_server

from ttr_rules import apply_action, legal_actions
from ttr_rules.actions import (
    Action,
    ClaimRoute,
    ClaimWithSets,
    DrawTickets,
    KeepTickets,
    PayTunnel,
)
from ttr_rules.frontend import route_name
from ttr_rules.notation import format_action
from ttr_rules.state import GameState, Phase
from ttr_rules.web import create_app
from ttr_rules.web.games import Game, GameStore
from ttr_rules.words import signed

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"missing system program: {CHROMIUM} (apt-get install -y chromium)",
)


def _policy_moves(state: GameState, moves: int | None, seed: int, stop: str = "") -> list[str]:
    """Moves of a claim-loving random player: ``moves`` of them, or to the end (None), or up to
    the first position of phase ``stop`` with seat 0 to act."""
    rnd = random.Random(seed)
    texts: list[str] = []

    while state.phase is not Phase.GAME_OVER and (moves is None or len(texts) < moves):
        if stop and state.phase.value == stop and state.current == 0:
            break
        actions = legal_actions(state)
        claims = [a for a in actions if isinstance(a, ClaimRoute | PayTunnel | KeepTickets)]
        tickets = [a for a in actions if isinstance(a, DrawTickets)]
        action: Action
        if stop == "keep tickets" and tickets and state.current == 0:
            action = tickets[0]
        else:
            action = rnd.choice(claims) if claims and rnd.random() < 0.8 else rnd.choice(actions)
        texts.append(format_action(action, state.map))
        state = apply_action(state, action)
    return texts


@contextmanager
def board_page(
    map_name: str, moves: int | None, *, stop: str = "", width: int = 1400, height: int = 950
) -> Iterator[tuple[Any, Game]]:
    """The page of seat 0 of a two-player game of ``map_name`` after ``moves`` moves."""
    from playwright.sync_api import sync_playwright

    app = create_app()
    store: GameStore = app.state.store
    game, tokens = store.create(map_name, 2, seed=11)
    game.replay_texts(_policy_moves(game.state, moves, seed=3, stop=stop))
    with running_server(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{base}/#game/{game.id}?token={tokens[0]}")
            page.wait_for_function("Number(document.body.dataset.version || 0) > 0")
            page.wait_for_function("document.body.dataset.busy !== '1'")
            if game.over:
                page.wait_for_selector("#scores:not([hidden])")
            yield page, game
        finally:
            browser.close()


#: For every space of every route, three points along its middle: which route does
#: document.elementFromPoint find there? Returns the misses.
_PROBE = """() => {
  const svg = document.querySelector('#board svg');
  const misses = [];
  for (const g of svg.querySelectorAll('g.route')) {
    for (const rect of g.querySelectorAll('rect.space')) {
      const x = +rect.getAttribute('x'), y = +rect.getAttribute('y');
      const w = +rect.getAttribute('width'), h = +rect.getAttribute('height');
      const m = /rotate\\(([-\\d.]+)/.exec(rect.getAttribute('transform'));
      const a = (m ? +m[1] : 0) * Math.PI / 180;
      const cx = x + w / 2, cy = y + h / 2;
      for (const t of [-0.35, 0, 0.35]) {
        const p = svg.createSVGPoint();
        p.x = cx + Math.cos(a) * w * t; p.y = cy + Math.sin(a) * w * t;
        let s = p.matrixTransform(svg.getScreenCTM());
        if (s.y < 80 || s.y > innerHeight - 10 || s.x < 0 || s.x > innerWidth) {
          window.scrollBy(s.x - innerWidth / 2, s.y - innerHeight / 2);
          s = p.matrixTransform(svg.getScreenCTM());
        }
        const hit = document.elementFromPoint(s.x, s.y);
        const route = hit && hit.closest('g.route');
        if (!route || route.dataset.route !== g.dataset.route) {
          const what = hit ? `${hit.tagName}.${hit.getAttribute('class')}` : 'nothing';
          misses.push(`${g.dataset.route}: ${what}${route ? ' of ' + route.id : ''}`);
        }
      }
    }
  }
  return misses;
}"""

_SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("map_name", ["europe", "usa"])
@pytest.mark.parametrize("moves", [0, 60, None], ids=["start", "mid", "end"])
def test_every_point_of_every_route_space_clicks_that_route(
    map_name: str, moves: int | None
) -> None:
    with board_page(map_name, moves) as (page, game):
        if game.over:
            page.click("#close-scores")
        spaces = page.locator("#board rect.space").count()
        assert spaces == sum(r.length for r in game.state.map.routes)
        misses = page.evaluate(_PROBE)
    assert misses == []


@pytest.mark.parametrize("size", [(1366, 850), (1024, 700), (390, 844)])
def test_the_page_never_scrolls_sideways(size: tuple[int, int]) -> None:
    with board_page("europe", 60, width=size[0], height=size[1]) as (page, _):
        assert page.evaluate(_SIDEWAYS) <= 0
        assert low_contrast_buttons(page) == []
        # every column of the players' table in view (the route points were scrolled away)
        table = "document.querySelector('#player-table').parentElement"
        assert page.evaluate(f"{table}.scrollWidth <= {table}.clientWidth")
        board = page.evaluate("document.querySelector('#board').getBoundingClientRect().width")
        if size[0] == 1024:
            assert board > 0.6 * size[0]  # the board takes most of the width


def test_the_end_says_which_tickets_failed_and_the_final_totals() -> None:
    with board_page("europe", None) as (page, game):
        assert page.evaluate(_SIDEWAYS) <= 0
        page.click("#close-scores")
        from ttr_rules import final_scores

        scores = {s.player: s for s in final_scores(game.state)}
        players = page.locator("#player-table").inner_text()
        assert "Final score" in players and "Stations left" in players
        assert "Points\t" not in players
        for s in scores.values():
            assert signed(s.total, plus=False) in players  # a true minus
        tickets = page.locator("#my-tickets").inner_text()
        assert "open" not in tickets
        if scores[0].tickets_failed:
            assert "✗ failed" in tickets
        if scores[0].tickets_completed:
            assert "✓ completed" in tickets
        assert not page.locator("#hint-button").is_visible()  # nothing left to hint at


def test_the_ticket_choice_shows_the_offered_tickets_on_the_board() -> None:
    with board_page("europe", None, stop="keep tickets") as (page, game):
        assert game.state.phase.value == "keep tickets"
        assert page.locator("#keep-tickets").is_visible()
        assert low_contrast_buttons(page) == []  # the keep button was white on white
        offered = page.locator("#board .page-ticket.ticket-offered").count()
        assert offered == len(game.state.players[0].offered)
        assert "Keep at least" in page.locator("#ticket-choice").inner_text()


def test_the_tunnel_panel_names_colour_count_and_whether_the_hand_can_pay() -> None:
    with board_page("europe", None, stop="tunnel") as (page, game):
        tunnel = game.state.tunnel
        assert tunnel is not None
        text = page.locator("#tunnel .tunnel-text").inner_text()
        assert f"Tunnel {route_name(game.state.map, tunnel.route)}: " in text
        if tunnel.owed:
            assert f"{tunnel.owed} more {tunnel.color.value} card" in text
            assert "Your hand can pay." in text or "Your hand cannot pay" in text
        assert page.locator(f'#board g.route.tunnel-pending[data-route="{tunnel.route}"]').count()
        assert low_contrast_buttons(page) == []


def test_the_last_moves_line_names_the_opponents_move() -> None:
    with board_page("usa", 41) as (page, game):
        page.wait_for_function(
            "document.querySelector('#last-moves').innerText.includes('Player 2')"
        )
        line = page.locator("#last-moves").inner_text()
        assert line.startswith("Last moves:")
        # the USA has no stations: no column says "0 stations left"
        assert "Stations left" not in page.locator("#player-table").inner_text()
        last = game.steps[-1] if game.steps[-1].player == 1 else game.steps[-2]
        claimed = [e.route for e in last.events if hasattr(e, "route")]
        for route in claimed:
            assert page.locator(f'#board g.route.last-move[data-route="{route}"]').count()


def test_the_api_docs_render_with_every_request_off_the_host_blocked() -> None:
    from playwright.sync_api import sync_playwright

    blocked: list[str] = []
    with running_server(create_app()) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()

            def gate(route: Any) -> None:
                if route.request.url.startswith(base):
                    route.continue_()
                else:
                    blocked.append(route.request.url)
                    route.abort()

            page.route("**/*", gate)
            page.goto(f"{base}/api/docs")
            page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
            title = page.locator(".swagger-ui .info .title").inner_text()
            operations = page.locator(".opblock").count()
        finally:
            browser.close()
    assert "ttr-rules web API" in title
    assert operations > 5
    assert blocked == []


def test_the_final_scores_fit_a_phone() -> None:
    with board_page("europe", None, width=390, height=844) as (page, game):
        table = page.locator("#score-table-narrow")
        assert table.is_visible() and not page.locator("#score-table").is_visible()
        box = table.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
        from ttr_rules import final_scores

        text = table.inner_text()
        assert "Final score" in text
        for s in final_scores(game.state):
            assert signed(s.total, plus=False) in text  # a true minus


def test_a_phone_pans_the_board_to_a_pending_tunnel() -> None:
    with board_page("europe", None, stop="tunnel", width=390, height=844) as (page, game):
        assert game.state.tunnel is not None
        inside = page.evaluate(
            """(route) => {
              const frame = document.querySelector('#board').getBoundingClientRect();
              const box = document.querySelector(`g.route[data-route="${route}"]`)
                .getBoundingClientRect();
              return box.left >= frame.left && box.right <= frame.right;
            }""",
            game.state.tunnel.route,
        )
        assert inside
        assert page.evaluate(_SIDEWAYS) <= 0


def _greedy_moves_to_a_payment(state: GameState) -> list[str]:
    """Greedy players' moves up to seat 0's first payment with substitute sets (Nordic)."""
    from ttr_rules import observe
    from ttr_rules.agents import make_agent

    agents = [make_agent("greedy", seed=seat) for seat in range(len(state.players))]
    texts: list[str] = []
    while not (state.phase is Phase.PAYMENT and state.current == 0):
        assert state.phase is not Phase.GAME_OVER, "no payment with sets in this game"
        action = agents[state.current].act(observe(state, state.current))
        texts.append(format_action(action, state.map))
        state = apply_action(state, action)
    return texts[:-1]  # seat 0 starts the payment from the route's menu


def test_a_payment_with_substitute_sets_is_picked_card_by_card_on_the_page() -> None:
    from playwright.sync_api import sync_playwright

    app = create_app()
    store: GameStore = app.state.store
    game, tokens = store.create("nordic", 2, seed=11)
    game.replay_texts(_greedy_moves_to_a_payment(game.state))
    start = next(a for a in legal_actions(game.state) if isinstance(a, ClaimWithSets))
    route = game.state.map.routes[start.route]
    with running_server(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 950})
            page.goto(f"{base}/#game/{game.id}?token={tokens[0]}")
            page.wait_for_function("document.body.dataset.turn === 'mine'")
            click = "new MouseEvent('click', {bubbles: true, clientX: 300, clientY: 300})"
            page.evaluate(
                f"""() => document.querySelector('#board g.route[data-route="{route.id}"]')
                .dispatchEvent({click})"""
            )
            page.get_by_role("button", name="sets", exact=False).first.click()
            page.wait_for_selector("#payment:not([hidden])")
            text = page.locator("#payment .tunnel-text").inner_text()
            assert low_contrast_buttons(page) == []
            assert f"Paying for {route_name(game.state.map, route.id)} with substitute sets" in text
            for _ in range(60):  # pick cards until the claim is offered, then claim
                if page.locator("#payment .payment-claim").count():
                    break
                version = page.evaluate("document.body.dataset.version")
                page.locator("#payment .payment-picks button").first.click()
                page.wait_for_function(f"document.body.dataset.version !== '{version}'")
            page.locator("#payment .payment-claim").first.click()
            page.wait_for_selector("#payment", state="hidden")
            assert game.state.route_owner[route.id] == 0
        finally:
            browser.close()
