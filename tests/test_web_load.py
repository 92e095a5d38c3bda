"""Load: 50 concurrent games played by agents through the HTTP API of a real uvicorn server on
127.0.0.1. Every game finishes, every response is a success, every final state replays from its
record; the p50/p99 latencies of a view and an action are printed (never asserted)."""

from __future__ import annotations

import asyncio
import statistics
import time

import httpx
from web_helpers import server_process

from ttr_rules import GameRecord, PlayerView, from_json, public_view, replay, to_json
from ttr_rules.agents import make_agent

GAMES = 50


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _play(
    http: httpx.AsyncClient, seed: int, latencies: dict[str, list[float]], failures: list[str]
) -> str:
    async def call(kind: str, method: str, url: str, **kw: object) -> httpx.Response:
        start = time.perf_counter()
        response = await http.request(method, url, **kw)  # type: ignore[arg-type]
        latencies[kind].append(time.perf_counter() - start)
        if response.status_code >= 400:
            failures.append(f"{method} {url}: {response.status_code} {response.text[:200]}")
        return response

    created = await call("create", "POST", "/api/games", json={"players": 2, "seed": seed})
    game_id = str(created.json()["id"])
    tokens = {s["seat"]: s["token"] for s in created.json()["seats"]}
    agents = {seat: make_agent("random", seed=seed * 10 + seat) for seat in tokens}
    headers = {seat: {"Authorization": f"Bearer {t}"} for seat, t in tokens.items()}
    response = await call("view", "GET", f"/api/games/{game_id}", headers=headers[0])
    view = from_json(response.text, PlayerView)
    while not view.is_terminal:
        if view.player != view.current:
            response = await call(
                "view", "GET", f"/api/games/{game_id}", headers=headers[view.current]
            )
            view = from_json(response.text, PlayerView)
        action = agents[view.current].act(view)
        response = await call(
            "action",
            "POST",
            f"/api/games/{game_id}/actions",
            headers=headers[view.current],
            json={"action": str(action)},
        )
        if response.status_code != 200:
            break
        view = from_json(response.text, PlayerView)
    return game_id


async def _final(
    http: httpx.AsyncClient, game_id: str, failures: list[str]
) -> tuple[str, list[str]]:
    """The game's record and its final public view."""
    record = await http.get(f"/api/games/{game_id}/record")
    view = await http.get(f"/api/games/{game_id}")
    for response in (record, view):
        if response.status_code != 200:
            failures.append(f"{response.url}: {response.status_code}")
    return record.text, [view.text]


async def _run_all(
    base: str,
) -> tuple[list[str], dict[str, list[float]], list[str], list[tuple[str, list[str]]]]:
    latencies: dict[str, list[float]] = {"create": [], "view": [], "action": []}
    failures: list[str] = []
    limits = httpx.Limits(max_connections=GAMES, max_keepalive_connections=GAMES)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as http:
        ids = await asyncio.gather(
            *(_play(http, seed, latencies, failures) for seed in range(GAMES))
        )
        finals = [await _final(http, game_id, failures) for game_id in ids]
    return list(ids), latencies, failures, finals


def test_fifty_concurrent_games_over_http() -> None:
    with server_process() as base:
        start = time.perf_counter()
        ids, latencies, failures, finals = asyncio.run(_run_all(base))
        elapsed = time.perf_counter() - start
    assert failures == []
    assert len(set(ids)) == GAMES
    for record_text, (public,) in finals:
        replayed = replay(from_json(record_text, GameRecord))
        assert replayed.phase.value == "game over"
        assert to_json(public_view(replayed)) == public
    actions = latencies["action"]
    views = latencies["view"]
    print(
        f"\n{GAMES} games, {len(actions)} actions, {len(views)} views in {elapsed:.1f} s; "
        f"view p50 {1000 * statistics.median(views):.1f} ms "
        f"p99 {1000 * _percentile(views, 0.99):.1f} ms; "
        f"action p50 {1000 * statistics.median(actions):.1f} ms "
        f"p99 {1000 * _percentile(actions, 0.99):.1f} ms"
    )
