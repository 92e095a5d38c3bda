"""Latency of a plain GET while agents play on the same ``ttr serve`` (issue 29, R5).

Starts ``ttr serve`` on a free 127.0.0.1 port with the given ``--agent-workers``, creates
``--games`` games of five ``mcts`` seats each (as the issue's reproducer did), then times
``--requests`` ``GET /api/games/{id}/info`` one after the other and prints the median and the
90th percentile in milliseconds, next to the same figures on an idle server. A script, not a
test: wall-clock figures on a shared machine are noise; compare runs made in the same minutes.

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


def _times(client: httpx.Client, path: str, requests: int) -> list[float]:
    out = []
    for _ in range(requests):
        start = time.perf_counter()
        client.get(path).raise_for_status()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _summary(label: str, times: list[float]) -> str:
    p90 = statistics.quantiles(times, n=10)[-1]
    return f"{label}: p50 {statistics.median(times):.1f} ms, p90 {p90:.1f} ms ({len(times)} GETs)"


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
        first = client.post("/api/games", json={"players": 2, "seed": 1}).json()["id"]
        idle = _times(client, f"/api/games/{first}/info", args.requests)
        agents = {str(seat): "mcts" for seat in range(5)}
        for seed in range(args.games):
            client.post("/api/games", json={"players": 5, "agents": agents, "seed": seed})
        time.sleep(2.0)  # let the agents start thinking
        busy = _times(client, f"/api/games/{first}/info", args.requests)
        moves = sum(g["seq"] for g in client.get("/api/games").json())
        print(f"--agent-workers {args.agent_workers}, {args.games} games of 5 mcts seats")
        print(_summary("idle server", idle))
        print(_summary("agents playing", busy))
        print(f"agent moves made meanwhile: {moves}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
