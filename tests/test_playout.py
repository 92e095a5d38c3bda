"""The one playout loop (``ttr_rules.playout``, re-exported by the testing kit)."""

from __future__ import annotations

import random
from itertools import pairwise

from ttr_rules import (
    Action,
    DrawBlind,
    DrawFaceUp,
    GameState,
    Phase,
    apply_action,
    legal_actions,
    new_game,
)
from ttr_rules.simulate import random_playout
from ttr_rules.testing import chooser, play, playout, random_chooser
from ttr_rules.testing.play import preferred_actions


def test_a_playout_ends_with_the_game_and_chains_its_steps() -> None:
    start = new_game(players=3, seed=4)
    steps = list(playout(start, random_chooser(random.Random(4))))
    assert steps[0].state is start and steps[-1].after.is_terminal
    for step, following in pairwise(steps):
        assert following.state is step.after
    for step in steps[:20]:
        assert step.legal == legal_actions(step.state)
        assert step.action in step.legal
        assert step.after == apply_action(step.state, step.action)


def test_max_steps_and_stop_end_a_playout_early() -> None:
    start = new_game(players=2, seed=1)
    assert len(list(playout(start, random_chooser(random.Random(1)), max_steps=7))) == 7
    assert list(playout(start, random_chooser(random.Random(1)), max_steps=0)) == []
    main_phase = list(playout(start, lambda n: 0, stop=lambda s: s.phase is Phase.START))
    assert len(main_phase) == 2  # both initial ticket choices, then the stop
    assert main_phase[-1].after.phase is Phase.START


def test_play_random_playout_and_playout_agree() -> None:
    start = new_game(players=4, seed=9)
    steps = list(playout(start, random_chooser(random.Random(9))))
    game = play(start, chooser((), 9))
    end, actions = random_playout(start, random.Random(9))
    assert game.actions == actions == tuple(s.action for s in steps)
    assert game.final == end == steps[-1].after
    assert game.states == tuple(s.after for s in steps)


def test_a_policy_chooses_among_its_preferred_actions() -> None:
    start = new_game(players=2, seed=2)
    for step in playout(start, random_chooser(random.Random(2)), policy="draws", max_steps=60):
        assert step.action in preferred_actions(step.legal, "draws")
        draws = [a for a in step.legal if isinstance(a, DrawBlind | DrawFaceUp)]
        assert isinstance(step.action, DrawBlind | DrawFaceUp) or not draws


def test_the_engine_calls_can_be_wrapped() -> None:
    calls: list[str] = []

    def traced_legal(state: GameState) -> tuple[Action, ...]:
        calls.append("legal")
        return legal_actions(state)

    def traced_apply(state: GameState, action: Action) -> GameState:
        calls.append("apply")
        return apply_action(state, action)

    start = new_game(players=2, seed=5)
    steps = list(
        playout(
            start, lambda n: 0, max_steps=10, legal_actions=traced_legal, apply_action=traced_apply
        )
    )
    assert len(steps) == 10 and calls == ["legal", "apply"] * 10
