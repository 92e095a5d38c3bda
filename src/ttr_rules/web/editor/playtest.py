"""Play-tests of the map being edited: N games between chosen agents in a background thread,
with progress and cancel, summed up by the same code as ``ttr stats`` (:class:`BalanceStats`
and :func:`report_data`)."""

from __future__ import annotations

import threading
from typing import Any

from ...maps import GameMap
from ...sim import BalanceStats, game_specs, run_games
from ...sim.report import report_data

__all__ = ["MAX_GAMES", "PlayTest"]

#: The most games one play-test may ask for.
MAX_GAMES = 500


class PlayTest:
    """One play-test: started once, read any time, cancelled between two games."""

    def __init__(self, game_map: GameMap, games: int, agents: tuple[str, ...], seed: int) -> None:
        self.map = game_map
        self.games = games
        self.agents = agents
        self.seed = seed
        self.done = 0
        self.status = "running"
        self.error = ""
        self.stats: BalanceStats | None = None
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="ttr-edit-playtest", daemon=True)

    def start(self) -> PlayTest:
        self._thread.start()
        return self

    def cancel(self) -> None:
        self._cancel.set()

    def join(self, seconds: float | None = None) -> None:
        self._thread.join(seconds)

    def _run(self) -> None:
        specs = game_specs(
            self.games,
            seed=self.seed,
            map=self.map,
            players=len(self.agents),
            agents=self.agents,
        )
        results = run_games(specs)
        try:
            for result in results:
                with self._lock:
                    if self.stats is None:
                        self.stats = BalanceStats.for_result(
                            result, len(self.map.routes), len(self.map.tickets)
                        )
                    self.stats.add(result)
                    self.done += 1
                if self._cancel.is_set():
                    self.status = "cancelled"
                    return
            self.status = "finished"
        except Exception as exc:  # a game that fails is reported, never raised in the thread
            self.error = str(exc)[:300] or type(exc).__name__
            self.status = "failed"
        finally:
            results.close()

    def summary(self) -> dict[str, Any]:
        """Progress, and the figures of the games played so far (those of ``ttr stats``):
        each seat's win rate and mean score, the first player's advantage, game length, each
        route's claim rate (the heat map), each ticket's completion rate, the tickets never
        completed."""
        with self._lock:
            out: dict[str, Any] = {
                "status": self.status,
                "done": self.done,
                "games": self.games,
                "agents": list(self.agents),
                "error": self.error,
            }
            if self.stats is None or not self.stats.games:
                return out
            data = report_data(self.stats, self.map)
            seats = data["seats"]
            out.update(
                seats=[
                    {k: s[k] for k in ("seat", "agent", "win_rate", "win_rate_95", "mean_score")}
                    for s in seats
                ],
                first_player_advantage=seats[0]["win_rate"] - 1 / len(seats),
                mean_turns=self.stats.mean_turns(),
                route_claim_rates=[r["claim_rate"] for r in data["routes"]],
                tickets=[
                    {k: t[k] for k in ("id", "text", "kept_per_game", "completion_rate")}
                    for t in data["tickets"]
                ],
                never_completed=[
                    t["text"]
                    for t in data["tickets"]
                    if t["kept_per_game"] and not t["completion_rate"]
                ],
            )
            return out
