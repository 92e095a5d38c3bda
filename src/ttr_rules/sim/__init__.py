"""Many games at once: serial, on local worker processes, or on a Ray cluster.

A game is a :class:`GameSpec` (map, rules, players, agents, seed); :func:`run_games` plays a
stream of them on a backend and yields each :class:`GameResult` as it finishes. A result depends
only on its spec: the same seeds give the same rows whatever the backend, the number of
workers or the batching. :class:`BalanceStats` aggregates results (mergeable, so partial
aggregates can be combined) and :func:`ttr_rules.sim.report.write_report` turns it into an HTML
report (matplotlib, the ``stats`` extra).

>>> from ttr_rules.sim import game_specs, run_games
>>> [r.winners for r in run_games(game_specs(2, seed=1, players=2))]  # doctest: +SKIP
[(1,), (0,)]
"""

from __future__ import annotations

from .games import AgentSpec, GameResult, GameSpec, TunnelCounts, agent_seed, game_specs, play_spec
from .runner import BACKENDS, Backend, play_batch, run_games
from .stats import BalanceStats, wilson_interval

__all__ = [
    "BACKENDS",
    "AgentSpec",
    "Backend",
    "BalanceStats",
    "GameResult",
    "GameSpec",
    "TunnelCounts",
    "agent_seed",
    "game_specs",
    "play_batch",
    "play_spec",
    "run_games",
    "wilson_interval",
]
