"""Shared by the web tests: a real uvicorn server on a free 127.0.0.1 port, in a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def running_server(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 (a free port) and yield its base URL."""
    import uvicorn

    from ttr_rules.web.server import listening_socket

    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=2, lifespan="on", access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


#: Debian's Chromium, which Playwright drives (it never downloads a browser of its own here).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def browser_page(errors: list[str]) -> Iterator[Any]:
    """A Playwright page in headless Chromium (1400 x 950); the page's uncaught exceptions and
    console errors are appended to ``errors``. The browser is closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 950})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            yield page
        finally:
            browser.close()


def _version(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.version || 0)"))


def _wait_rendered_after(page: Any, version: int, timeout: float = 30_000) -> None:
    page.wait_for_function(
        f"Number(document.body.dataset.version || 0) > {version}", timeout=timeout
    )


def click_one_move(page: Any) -> str:
    """Make one move in the page by clicking, as a person would; returns what was clicked.

    Prefers, in order: keeping the offered tickets, paying a tunnel, claiming a highlighted
    route (click the route, then its first payment), drawing from the deck, a face-up card,
    passing.
    """
    version = _version(page)
    keep = page.locator("#keep-tickets")
    if keep.is_visible():
        keep.click()
        what = "keep tickets"
    elif page.locator(".tunnel-option:visible").count():
        option = page.locator(".tunnel-option:visible").first
        what = option.inner_text()
        option.click()
    elif page.locator("#board g.route.claimable").count():
        route = page.locator("#board g.route.claimable").first
        spaces = route.locator(".space")
        target = spaces.nth(spaces.count() // 2)
        try:
            target.click(timeout=2_000)
        except Exception:  # covered by a city label: click where it is drawn anyway
            target.click(force=True)
        if not page.locator("#route-menu .claim-option").first.is_visible():
            route.dispatch_event("click")
        option = page.locator("#route-menu .claim-option").first
        option.wait_for(state="visible", timeout=5_000)
        what = option.inner_text()
        option.click()
    elif page.locator("#draw-blind").is_enabled():
        page.locator("#draw-blind").click()
        what = "deck"
    elif page.locator("#face-up button.playable").count():
        page.locator("#face-up button.playable").first.click()
        what = "face-up card"
    else:
        page.locator("#other-actions button").first.click()
        what = "pass"
    _wait_rendered_after(page, version)
    return what


def play_until(page: Any, *, moves: int | None = None, timeout: float = 600.0) -> list[str]:
    """Click moves whenever it is the page's turn until the final score table shows (or
    ``moves`` moves were made); returns what was clicked, move by move."""
    clicked: list[str] = []
    made = 0
    deadline = time.monotonic() + timeout
    while moves is None or made < moves:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the game did not end within {timeout} s ({made} moves)")
        page.wait_for_function(
            "['mine', 'over'].includes(document.body.dataset.turn)"
            " && document.body.dataset.busy !== '1'",
            timeout=60_000,
        )
        if page.evaluate("document.body.dataset.turn") == "over":
            break
        clicked.append(click_one_move(page))
        made += 1
    return clicked


@contextmanager
def server_process(*args: str) -> Iterator[str]:
    """``uvicorn ttr_rules.web:app`` in a subprocess listening on a free 127.0.0.1 port; yields
    its base URL. (The port is found by binding port 0 and released just before uvicorn binds
    it: ``--fd`` would make uvicorn treat the socket as a Unix socket, without TCP_NODELAY.)"""
    import subprocess
    import sys
    import urllib.request

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "uvicorn", "ttr_rules.web:app"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    # A long keep-alive: with uvicorn's 5 s default, a client could send on a connection the
    # server was just closing ("Server disconnected without sending a response").
    command += ["--log-level", "warning", "--no-access-log", "--timeout-keep-alive", "120", *args]
    process = subprocess.Popen(command)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/maps", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the uvicorn server did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


#: In the page, for one button: its name, text and contrast ratio when its text contrasts less
#: than 3:1 (WCAG's least for large text) with the background colour it is drawn on (its own,
#: or the nearest ancestor's), else null; a button on a gradient or picture is not judged.
_LOW_CONTRAST_ONE = """(b) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      if (getComputedStyle(el).backgroundImage !== "none") return null;
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  if (b.disabled || !b.offsetParent || !b.innerText.trim()) return null;
  const behind = background(b);
  if (!behind) return null;
  const a = lum(rgb(getComputedStyle(b).color)), c = lum(behind);
  const ratio = (Math.max(a, c) + 0.05) / (Math.min(a, c) + 0.05);
  const name = b.id || b.className;
  return ratio < 3 ? `${name}: "${b.innerText.trim()}" ${ratio.toFixed(2)}:1` : null;
}"""

_LOW_CONTRAST_JS = f"""() => {{
  const one = {_LOW_CONTRAST_ONE};
  return [...document.querySelectorAll("button")].map(one).filter((x) => x);
}}"""


def low_contrast_buttons(page: Any, *, hover: bool = False) -> list[str]:
    """The page's visible buttons whose text is hard to read on their background; with
    ``hover``, each is also judged with the pointer over it."""
    found: list[str] = page.evaluate(_LOW_CONTRAST_JS)
    if not hover:
        return found
    buttons = page.locator("button:visible")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        try:
            button.hover(force=True, timeout=2_000)
        except Exception:  # drawn off screen, or gone since it was counted
            continue
        problem = button.evaluate(_LOW_CONTRAST_ONE)
        if problem:
            found.append(f"{problem} (hover)")
    page.mouse.move(0, 0)
    return found
