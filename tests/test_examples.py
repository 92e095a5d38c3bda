"""The examples run (they are documentation, so they must not rot)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ttr_rules import Phase, final_scores

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_bots_play_a_full_game_from_their_views() -> None:
    bots = load_example("bots")
    end = bots.play([bots.greedy_bot, bots.random_bot, bots.random_bot], seed=3)
    assert end.phase is Phase.GAME_OVER
    assert len(final_scores(end)) == 3


def test_map_tour_prints_every_map(capsys: pytest.CaptureFixture[str]) -> None:
    load_example("map_tour").main()
    assert "europe" in capsys.readouterr().out


def test_rl_example_plays_greedy_against_masked_random(capsys: pytest.CaptureFixture[str]) -> None:
    wins = load_example("rl_random_vs_greedy").play(games=2, players=2)
    assert sum(wins.values()) <= 2 and wins["greedy"] >= 1  # greedy beats random play
    assert capsys.readouterr().out.count("scores") == 2


def test_maskable_ppo_example_parts_that_need_no_torch() -> None:
    import numpy as np

    ppo = load_example("maskable_ppo")
    made = ppo.make_env(seed=3)
    observation, info = made.reset(seed=3)
    assert (ppo.masks_of(made) == info["action_mask"].astype(bool)).all()
    assert made.observation_space.contains(observation)
    vec = ppo.vector_env(2)
    try:
        _, info = vec.reset(seed=1)
        for _ in range(5):
            actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
            _, _, _, _, info = vec.step(actions)
    finally:
        vec.close()


def test_pettingzoo_self_play_example_trains_and_measures() -> None:
    import numpy as np

    example = load_example("pettingzoo_self_play")
    policy = example.train(example.new_policy(2), games=2)
    assert policy.weights.any()  # it learned something from its games
    rate = example.win_rate(policy, example.masked_random(np.random.default_rng(0)), games=2)
    assert 0.0 <= rate <= 1.0


def test_openspiel_ismcts_example_plays_whole_games(capsys: pytest.CaptureFixture[str]) -> None:
    tally = load_example("openspiel_ismcts").play(games=1, simulations=2)
    assert sum(tally.values()) == 1
    assert "ISMCTS in seat 0" in capsys.readouterr().out


def test_self_play_example_parts_that_need_no_torch(capsys: pytest.CaptureFixture[str]) -> None:
    """The pool holds ``random``, ``greedy`` and past selves as picklable opponents; the
    evaluation plays any policy against ``greedy``; ``--help`` needs no torch (training
    does: it is measured in docs/rl.md, not here)."""
    import pickle

    import numpy as np

    from ttr_rules.rl import PolicyOpponent

    example = load_example("self_play")
    assert example.opponent_pool([]) == {"random": 1.0, "greedy": 2.0}
    pool = example.opponent_pool(["ttr_rules.agents:RandomAgent", "ttr_rules.agents:EasyAgent"])
    assert pool[PolicyOpponent("ttr_rules.agents:EasyAgent")] == 1.0
    assert pickle.loads(pickle.dumps(pool)) == pool

    def first_legal(observation: Any, mask: Any) -> int:
        return int(np.flatnonzero(mask)[0])

    tally = example.evaluate(first_legal, "nordic", games=2)
    assert sum(tally.values()) == 2
    # the warm start's lessons: greedy's legal choices, valued as its game ended
    shown = example.demonstrations("nordic", 1)
    decisions = np.arange(len(shown.actions))
    assert len(decisions) == len(shown.masks) == len(shown.values) > 0
    assert shown.masks[decisions, shown.actions].all()
    assert shown.values[-1] == example.demonstrations("nordic", 1).values[-1]  # seeded
    with pytest.raises(SystemExit):
        example.main(["--help"])
    out = capsys.readouterr().out
    assert "--minutes" in out
    assert "--imitate" in out
    assert "torch" not in sys.modules


def test_hot_seat_example_plays_with_the_kit(capsys: pytest.CaptureFixture[str]) -> None:
    hot_seat = load_example("hot_seat")
    ticket_answers = iter(["2 2", "9", "1 3"])  # a ticket twice, then too few, then a choice

    def ask(prompt: str) -> str:
        if prompt.startswith("keep which"):
            return next(ticket_answers, "")
        return ""  # Enter: the first option

    end = hot_seat.play(2, 4, ask=ask)
    assert end.phase is Phase.GAME_OVER
    out = capsys.readouterr().out
    assert "ticket 16 (Amsterdam – Pamplona) is named twice" in out
    assert "keep at least 2 tickets of the 4 offered" in out
    assert "Player 1 keeps 2 tickets" in out  # what Player 2 missed, before its choice
    assert "trains to lay, via" in out  # a ticket's cheapest way left


def test_hot_seat_example_reads_a_station_city_by_name() -> None:
    from ttr_rules import KeepTickets, apply_action, new_game, observe
    from ttr_rules.frontend import group_actions

    hot_seat = load_example("hot_seat")
    state = new_game("europe", 2, seed=1)
    state = apply_action(state, KeepTickets((4, 32)))
    state = apply_action(state, KeepTickets((2, 19)))
    view = observe(state, 0)
    (stations,) = [g for g in group_actions(view) if g.kind == "station"]
    answers = iter(["Atlantis", "munich"])
    target = hot_seat.choose_target(lambda prompt: next(answers), view, stations)
    assert target.city == "München"
