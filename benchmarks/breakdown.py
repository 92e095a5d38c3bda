"""Where the time of a random 4-player playout goes, per decision (a script, not a test).

Records the states and actions of a few uniformly random games, then replays every call under
``cProfile`` and prints the inclusive time of the engine's parts per decision, as a share of
``legal_actions`` + ``apply_action``, and the view functions on the same states. Profiling
inflates small functions, so read the shares, not the µs; ``compare.sh --instructions`` gives
the stable totals.

    python benchmarks/breakdown.py [--games 6] [--players 4]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys

from games import decisions_of  # benchmarks/games.py, beside this script

import ttr_rules
from ttr_rules import apply_action, determinize, legal_actions, observe
from ttr_rules import view_legal_actions as view_legal

#: (label, module path suffix, function name) of the parts reported, in the engine's order.
PARTS = (
    ("legal_actions", "game.py", "legal_actions"),
    ("  start of turn (start_actions)", "moves/turn.py", "start_actions"),
    ("    claims (claim_actions)", "moves/claim.py", "claim_actions"),
    ("    stations (station_actions)", "moves/stations.py", "station_actions"),
    ("    card draws (draw_actions)", "moves/draw.py", "draw_actions"),
    ("  ticket choices (keep_actions)", "moves/tickets.py", "keep_actions"),
    ("apply_action", "game.py", "apply_action"),
    ("  rule check (_problem)", "game.py", "_problem"),
    ("  claim transition (claim)", "moves/claim.py", "claim"),
    ("  face-up draw (take_face_up)", "moves/draw.py", "take_face_up"),
    ("  blind draw (take_blind)", "moves/draw.py", "take_blind"),
    ("  end of action (finish)", "moves/turn.py", "finish"),
    ("    face-up refill (settle_row)", "moves/turn.py", "settle_row"),
    ("    end of turn (_end_turn)", "moves/turn.py", "_end_turn"),
    ("  state copying (evolve)", "state.py", "evolve"),
    ("observe", "views.py", "observe"),
    ("determinize", "views.py", "determinize"),
    ("view_legal_actions", "views.py", "view_legal_actions"),
)


def record(players: int, games: int) -> list[tuple[ttr_rules.GameState, ttr_rules.Action]]:
    return decisions_of(ttr_rules.load_map("europe"), players, range(games))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    pairs = record(args.players, args.games)
    core_profile, views_profile = cProfile.Profile(), cProfile.Profile()
    for state, action in pairs:  # the engine's calls and the views' in separate profiles
        core_profile.enable()
        legal_actions(state)
        apply_action(state, action)
        core_profile.disable()
        views_profile.enable()
        view = observe(state, state.current)
        determinize(view, 1)
        view_legal(view)
        views_profile.disable()
    cumulative: dict[str, float] = {}
    for profile in (core_profile, views_profile):
        stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
        for (path, _, name), (_, _, _, cum, _) in stats.items():
            for label, suffix, function in PARTS:
                if name == function and path.endswith(suffix) and label not in cumulative:
                    cumulative[label] = cum
    core = cumulative["legal_actions"] + cumulative["apply_action"]
    print(f"{len(pairs)} decisions; µs per decision under cProfile; share of legal + apply")
    for label, _, _ in PARTS:
        seconds = cumulative.get(label, 0.0)
        print(f"{label:34s} {seconds / len(pairs) * 1e6:8.2f} µs {seconds / core:7.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
