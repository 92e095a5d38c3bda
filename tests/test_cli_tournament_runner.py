"""``ttr tournament`` runs on the sim runner like ``ttr simulate``: the same standings on every
backend, and Ctrl-C prints the standings of the finished games and exits 130."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pytest

from ttr_rules.cli import main

BASE = ["tournament", "--agents", "greedy,random", "--games", "2", "--seed", "3", "--json"]


def _standings(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    import json

    assert main(argv) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    data.pop("seconds")
    return data


def test_workers_and_ray_give_the_same_standings(capsys: pytest.CaptureFixture[str]) -> None:
    serial = _standings(BASE, capsys)
    assert _standings([*BASE, "--workers", "2", "--batch-size", "1"], capsys) == serial
    pytest.importorskip("ray")
    assert _standings([*BASE, "--ray", "--workers", "2"], capsys) == serial


def test_ctrl_c_prints_the_standings_so_far_and_exits_130() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_rules", "tournament", "--agents", "random,greedy"]
        + ["--games", "5000", "--workers", "2", "--batch-size", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(10)  # games finish every ~0.1 s on an idle machine
    process.send_signal(signal.SIGINT)
    watchdog = threading.Timer(60, process.kill)  # a liveness bound only
    watchdog.start()
    out, err = process.communicate()
    watchdog.cancel()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    if out:  # the standings of the games that finished
        assert "interrupted after " in out and " of 5000 games" in out and "win rate" in out
    else:  # a machine so busy that no game finished
        assert "interrupted before any of the 5000 games finished" in err
