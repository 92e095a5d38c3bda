"""Latency of a plain GET while agents play on the same ``ttr serve`` (issue 29, R5).

Starts ``ttr serve`` on a free 127.0.0.1 port with the given ``--agent-workers``, creates
``--games`` games of five ``mcts`` seats each (as the issue's reproducer did), then times
``--requests`` ``GET /api/games/{id}/info`` and ``GET /api/games/{id}`` (a seat's view) one
after the other on one keep-alive connection, and prints the median and the 95th percentile in
milliseconds, on an idle server and while the agents play. Each request is timed twice: until
its headers arrive and until its last byte does; a gap between the two is spent in TCP, not in
the server (it was Nagle's algorithm against the client's delayed acknowledgement: some 40 ms
per request, until ``ttr serve`` made its socket so that asyncio sets ``TCP_NODELAY``). A
script, not a test: wall-clock figures on a shared machine are noise; compare runs made in the
same minutes.

    python benchmarks/web_latency.py --agent-workers 2
    python benchmarks/web_latency.py --agent-workers 0   # agents in a thread of the server
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _times(
    client: httpx.Client, path: str, requests: int, headers: dict[str, str] | None = None
) -> tuple[list[float], list[float]]:
    """Milliseconds until the headers and until the last byte of each of ``requests`` GETs."""
    first: list[float] = []
    whole: list[float] = []
    for _ in range(requests):
        start = time.perf_counter()
        with client.stream("GET", path, headers=headers) as response:
            first.append((time.perf_counter() - start) * 1000)
            response.read()
            response.raise_for_status()
        whole.append((time.perf_counter() - start) * 1000)
    return first, whole


def _percentiles(times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20)[-1]
    return f"p50 {statistics.median(times):5.1f} ms, p95 {p95:5.1f} ms"


def _report(label: str, timed: dict[str, tuple[list[float], list[float]]]) -> None:
    for name, (first, whole) in timed.items():
        print(
            f"{label:<15} {name:<6} whole: {_percentiles(whole)};  "
            f"headers: {_percentiles(first)} ({len(whole)} GETs)"
        )


def _measure(
    client: httpx.Client, game: str, token: str, requests: int
) -> dict[str, tuple[list[float], list[float]]]:
    return {
        "info": _times(client, f"/api/games/{game}/info", requests),
        "view": _times(
            client, f"/api/games/{game}", requests, {"Authorization": f"Bearer {token}"}
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent-workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    port = _free_port()
    ttr = Path(sys.executable).with_name("ttr")
    server = subprocess.Popen(
        [str(ttr), "serve", "--port", str(port), "--agent-delay", "0"]
        + ["--agent-workers", str(args.agent_workers), "--games-per-minute", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
        for _ in range(200):
            try:
                client.get("/api/maps")
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        created = client.post("/api/games", json={"players": 2, "seed": 1}).json()
        first, token = created["id"], created["seats"][0]["token"]
        _measure(client, first, token, 20)  # warm up (imports, caches) before timing
        idle = _measure(client, first, token, args.requests)
        agents = {str(seat): "mcts" for seat in range(5)}
        for seed in range(args.games):
            client.post("/api/games", json={"players": 5, "agents": agents, "seed": seed})
        time.sleep(2.0)  # let the agents start thinking
        busy = _measure(client, first, token, args.requests)
        moves = sum(g["seq"] for g in client.get("/api/games").json())
        print(f"--agent-workers {args.agent_workers}, {args.games} games of 5 mcts seats")
        _report("idle server", idle)
        _report("agents playing", busy)
        print(f"agent moves made meanwhile: {moves}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
