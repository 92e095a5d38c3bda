"""Hints (``suggest``), the difficulty levels and the search's budget: behaviour only (legal,
ranked, secret-free, deterministic, budget respected), never strength or timing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import ttr_rules.agents.mcts as mcts_module
from ttr_rules import (
    GameState,
    PlayerView,
    apply_action,
    determinize,
    is_terminal,
    legal_actions,
    new_game,
    observe,
    public_view,
)
from ttr_rules.agents import LEVELS, MctsAgent, Suggestion, available_agents, make_agent, suggest
from ttr_rules.testing import states


def played(players: int, turns: int, seed: int = 3) -> GameState:
    """A game after ``turns`` decisions of greedy play."""
    state = new_game("europe", players=players, seed=seed)
    greedy = make_agent("greedy")
    for _ in range(turns):
        if is_terminal(state):
            break
        state = apply_action(state, greedy.act(observe(state, state.current)))
    return state


def check_hints(state: GameState) -> list[Suggestion]:
    hints = suggest(observe(state, state.current))
    legal = legal_actions(state)
    assert hints
    assert all(h.action in legal for h in hints)
    assert len({h.action for h in hints}) == len(hints)
    assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)
    assert all(h.reason and h.text for h in hints)
    return hints


@settings(max_examples=8, deadline=None)
@given(state=states("europe"))
def test_hints_are_legal_distinct_and_ranked(state: GameState) -> None:
    if not is_terminal(state):
        check_hints(state)


@pytest.mark.parametrize("turns", [0, 5, 30])
def test_hints_at_the_start_and_in_play(turns: int) -> None:
    hints = check_hints(played(3, turns))
    assert all(isinstance(h.tickets, tuple) and isinstance(h.points, int) for h in hints)


def hidden_variants(view: PlayerView, seat: int) -> list[GameState]:
    """Full states that show ``seat`` the same view but differ in what it cannot see."""
    worlds = [determinize(view, seed) for seed in (1, 2, 3)]
    assert all(observe(world, seat) == view for world in worlds)
    assert len({world.deck for world in worlds}) > 1  # the hidden facts do differ
    return worlds


@pytest.mark.parametrize("turns", [0, 12])
def test_hints_see_only_the_view(turns: int) -> None:
    state = played(2, turns)
    seat = state.current
    view = observe(state, seat)
    first, *others = hidden_variants(view, seat)
    expected = suggest(observe(first, seat))
    for world in others:
        assert suggest(observe(world, seat)) == expected


def test_hints_from_another_agent_include_its_choice() -> None:
    state = played(2, 10)
    view = observe(state, state.current)
    pick = make_agent("random", seed=0).act(view)
    assert pick in [h.action for h in suggest(view, agent="random")]


def test_hints_refuse_bad_think_time_and_spectators() -> None:
    state = new_game("europe", players=2, seed=0)
    with pytest.raises(ValueError, match="think_time"):
        suggest(observe(state, 0), think_time=0)
    with pytest.raises(ValueError):
        suggest(public_view(state))


def test_a_think_time_hint_is_legal() -> None:
    state = played(2, 20)
    hints = suggest(observe(state, state.current), think_time=0.01)
    assert all(h.action in legal_actions(state) for h in hints)


def test_difficulty_levels_are_registered_weakest_first() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    assert set(LEVELS) <= set(available_agents())
    assert make_agent("easy").name == "easy"
    # a level is the agent it names, and is called what the player chose
    assert make_agent("medium").name == "medium"
    assert isinstance(make_agent("medium"), type(make_agent("greedy")))
    assert make_agent("hard").name == "hard"
    assert isinstance(make_agent("hard"), type(make_agent("mcts")))
    with pytest.raises(ValueError, match="slip"):
        make_agent("easy", slip=2)


def test_easy_is_deterministic_for_a_seed() -> None:
    state = played(3, 0)
    actions = []
    for _ in range(2):
        easy = make_agent("easy", seed=5)
        s = state
        moves = []
        for _ in range(40):
            if is_terminal(s):
                break
            action = easy.act(observe(s, s.current))
            moves.append(action)
            s = apply_action(s, action)
        actions.append(moves)
    assert actions[0] == actions[1]


def counting_determinize(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def counted(view: PlayerView, seed: Any) -> GameState:
        calls.append(1)
        return determinize(view, seed)

    monkeypatch.setattr(mcts_module, "determinize", counted)
    return calls


@pytest.mark.parametrize("iterations", [1, 3, 5])
def test_an_iteration_budget_bounds_the_worlds(
    monkeypatch: pytest.MonkeyPatch, iterations: int
) -> None:
    calls = counting_determinize(monkeypatch)
    state = new_game("europe", players=3, seed=1)
    agent = MctsAgent(seed=0, iterations=iterations, ticket_depth=2)
    agent.act(observe(state, 0))  # a ticket choice is always searched
    assert 1 <= len(calls) <= iterations


def test_a_turn_cap_stops_the_search_early(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting_determinize(monkeypatch)
    state = new_game("europe", players=3, seed=1)
    MctsAgent(seed=0, iterations=50, max_turns=1).act(observe(state, 0))
    assert len(calls) == 1


def test_iteration_budgets_are_deterministic() -> None:
    state = played(3, 40, seed=6)
    view = observe(state, state.current)
    first = [MctsAgent(seed=4, iterations=6, endgame=60).act(view) for _ in range(2)]
    assert first[0] == first[1]


def test_ttr_play_prints_hints(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ttr_rules", "play", "--seed", "1"],
        input="hint\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert "1. Keep " in result.stdout and "(the best of these)" in result.stdout
    assert "tickets keep" not in result.stdout and "margin" not in result.stdout
