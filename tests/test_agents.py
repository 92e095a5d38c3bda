"""The agents: the protocol and registry, legality from views, determinism, play_game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_rules import (
    GameMap,
    GameState,
    IllegalActionError,
    PlayerView,
    apply_action,
    available_maps,
    final_scores,
    is_terminal,
    legal_actions,
    load_map_file,
    new_game,
    observe,
    winners,
)
from ttr_rules.actions import Action, DrawBlind
from ttr_rules.agents import (
    Agent,
    AgentNotFoundError,
    GreedyAgent,
    RandomAgent,
    available_agents,
    make_agent,
    play_game,
)
from ttr_rules.testing import states

ALPINE = Path(__file__).parents[1] / "examples/custom_map_plugin/src/ttr_rules_alpine/alpine.json"
#: Small search budgets keep the tests fast; the agents behave the same way at any budget.
FAST_OPTIONS: dict[str, dict[str, object]] = {
    "mcts": {"iterations": 2, "depth": 2, "ticket_depth": 2}
}
BUILTIN = ("easy", "greedy", "mcts", "random")
#: Positions per agent and map: hundreds for the cheap agents, fewer for the search.
EXAMPLES = {"easy": 100, "greedy": 200, "random": 200, "mcts": 40}


def agent(name: str, seed: int = 0) -> Agent:
    return make_agent(name, seed=seed, **FAST_OPTIONS.get(name, {}))


def alpine() -> GameMap:
    return load_map_file(ALPINE)


def test_available_agents_lists_the_builtins_sorted() -> None:
    names = available_agents()
    assert set(BUILTIN) <= set(names)
    assert names == sorted(names)


def test_make_agent_builds_each_builtin_with_its_name() -> None:
    for name in BUILTIN:
        built = make_agent(name, seed=1)
        assert built.name == name
        assert isinstance(built, Agent)


def test_unknown_agent_names_the_available_ones() -> None:
    with pytest.raises(AgentNotFoundError, match=r"available agents: .*greedy.*random"):
        make_agent("grandmaster")
    assert issubclass(AgentNotFoundError, LookupError)


def test_bad_options_are_refused() -> None:
    with pytest.raises(TypeError):
        make_agent("random", depth=3)
    with pytest.raises(ValueError, match="ticket_weight"):
        make_agent("greedy", ticket_weight=-1)
    with pytest.raises(TypeError, match="seed"):
        make_agent("greedy", seed="seven")  # type: ignore[arg-type]


def check_agent_on(state: GameState, name: str) -> None:
    if is_terminal(state):
        return
    seat = state.current
    action = agent(name, seed=seat).act(observe(state, seat))
    assert action in legal_actions(state)


@pytest.mark.parametrize("name", BUILTIN)
def test_agents_return_legal_actions_on_europe(name: str) -> None:
    @settings(max_examples=EXAMPLES[name])
    @given(state=states("europe"))
    def check(state: GameState) -> None:
        check_agent_on(state, name)

    check()


@pytest.mark.parametrize("name", BUILTIN)
def test_agents_return_legal_actions_on_the_plugin_map(name: str) -> None:
    @settings(max_examples=EXAMPLES[name] // 2)
    @given(state=states(alpine()))
    def check(state: GameState) -> None:
        check_agent_on(state, name)

    check()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_game_ends_with_legal_play_and_scores(players: int) -> None:
    end = play_game(["greedy"] + ["random"] * (players - 1), seed=players)
    assert is_terminal(end)
    assert len(final_scores(end)) == players
    assert winners(end)


def test_same_seed_same_game() -> None:
    first = play_game([agent("greedy", 1), agent("random", 2)], seed=5)
    second = play_game([agent("greedy", 1), agent("random", 2)], seed=5)
    assert first == second
    other = play_game([agent("greedy", 1), agent("random", 3)], seed=5)
    assert other != first


def test_same_seed_same_search() -> None:
    first = play_game([agent("mcts", 1), agent("greedy", 2)], seed=8)
    second = play_game([agent("mcts", 1), agent("greedy", 2)], seed=8)
    assert first == second
    assert is_terminal(first)


def test_mcts_budget_options() -> None:
    assert make_agent("mcts", think_time=0.05).name == "mcts"
    bad_options: list[dict[str, Any]] = [
        {"iterations": 0},
        {"think_time": -1.0},
        {"think_time": 0},
        {"depth": -1},
        {"endgame": -2},
        {"candidates": 0},
    ]
    for bad in bad_options:
        with pytest.raises(ValueError):
            make_agent("mcts", **bad)
    with pytest.raises(TypeError):
        make_agent("mcts", exploration=2.0)


def test_mcts_with_a_think_time_plays_legally() -> None:
    state = new_game("europe", players=3, seed=4)
    mcts = make_agent("mcts", think_time=0.01, seed=2)
    for _ in range(30):
        if is_terminal(state):
            break
        action = mcts.act(observe(state, state.current))
        assert action in legal_actions(state)
        state = apply_action(state, action)


def test_play_game_on_a_map_object() -> None:
    end = play_game(["greedy", "greedy"], map=alpine(), seed=3)
    assert is_terminal(end)
    assert end.map.name == "alpine"


class Spy:
    """An agent that records what it is given and draws blind when it can."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[object] = []
        self.inner = GreedyAgent()

    def act(self, view: PlayerView) -> Action:
        self.seen.append(view)
        return self.inner.act(view)


def test_an_agent_receives_only_its_own_view() -> None:
    spy = Spy()
    play_game([spy, RandomAgent(seed=1)], seed=2)
    assert spy.seen
    for view in spy.seen:
        assert isinstance(view, PlayerView)
        assert view.player == 0
        assert view.seats[1].hand is None
        assert view.seats[1].offered is None
        assert not hasattr(view, "deck")


class Cheater:
    name = "cheater"

    def act(self, view: PlayerView) -> Action:
        return DrawBlind()


def test_an_illegal_action_names_the_agent_and_seat() -> None:
    with pytest.raises(IllegalActionError, match="'cheater' in seat 1"):
        play_game([RandomAgent(), Cheater()], seed=0)


def test_greedy_beats_random_clearly() -> None:
    wins = 0.0
    for game in range(6):
        seats = ["greedy", "random"] if game % 2 == 0 else ["random", "greedy"]
        end = play_game([agent(n, game) for n in seats], seed=game)
        best = winners(end)
        if seats.index("greedy") in best:
            wins += 1 / len(best)
    assert wins >= 5


@pytest.mark.parametrize("map_name", available_maps())
def test_agents_play_every_installed_map(map_name: str) -> None:
    end = play_game([agent("greedy", 1), agent("mcts", 2), agent("random", 3)], map=map_name)
    assert is_terminal(end)
    assert end.map.name == map_name


def test_agent_options_are_typed_by_the_factory_signature() -> None:
    from ttr_rules.agents import make_agent

    with pytest.raises(ValueError, match=r"agent 'greedy': option ticket_weight must be a number"):
        make_agent("greedy", ticket_weight="abc")
    with pytest.raises(
        ValueError, match=r"agent 'mcts': option iterations must be an integer or null"
    ):
        make_agent("mcts", iterations=True)
    with pytest.raises(
        TypeError, match=r"agent 'random' has no option 'depth'; its options are: none"
    ):
        make_agent("random", depth=3)
    assert make_agent("greedy", ticket_weight=2).ticket_weight == 2.0  # type: ignore[attr-defined]


def test_factory_errors_name_the_agent() -> None:
    from ttr_rules.agents import make_agent

    with pytest.raises(ValueError, match=r"^agent 'mcts': iterations must be a whole number"):
        make_agent("mcts", iterations=0)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("iterations", 10**11, "iterations must be a whole number from 1 to 1,000,000, got 1"),
        ("max_turns", 10**12, "max_turns must be a whole number from 1 to 100,000,000, got 1"),
        ("think_time", 1e12, "think_time must be a number of seconds above 0 and at most 3,600"),
        ("think_time", float("nan"), "think_time must be a number of seconds above 0"),
        ("depth", -1, "depth must be a whole number from 0 to 10,000, got -1"),
        ("candidates", 10**6, "candidates must be a whole number from 1 to 10,000, got 1000000"),
        ("prior", float("nan"), "prior must be a number from 0 to 1000, got nan"),
        ("confidence", -1, "confidence must be a number from 0 to 10, got -1"),
    ],
)
def test_search_budgets_that_would_never_end_are_refused(
    option: str, value: object, message: str
) -> None:
    from ttr_rules.agents import make_agent

    with pytest.raises(ValueError, match="^agent 'mcts': " + re.escape(message)):
        make_agent("mcts", **{option: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("points_weight", -1, "points_weight must be a number from 0 to 10, got -1"),
        ("claim_weight", float("nan"), "claim_weight must be a number from 0 to 10, got nan"),
        ("ticket_weight", True, "ticket_weight must be a number"),
        ("tickets_min_trains", 2.5, "tickets_min_trains must be an integer, got 2.5"),
        ("tickets_min_trains", 10**6, "tickets_min_trains must be a whole number from 0 to 1,000"),
        ("tunnel_weight", 11, "tunnel_weight must be a number from 0 to 10, got 11"),
        ("last_chance", -1, "last_chance must be a whole number from 0 to 1,000, got -1"),
    ],
)
def test_greedy_style_options_are_checked(option: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        make_agent("greedy", **{option: value})  # type: ignore[arg-type]


def test_the_strong_style_is_greedy_with_other_weights() -> None:
    """``mcts`` plays its own seat in :data:`STRONG_STYLE`: the same policy as a ``greedy``
    agent given those options, so the style is reproducible from the registry."""
    from ttr_rules.agents.planning import GREEDY_STYLE, STRONG_STYLE, Situation, style_tables

    strong = make_agent(
        "greedy",
        claim_weight=STRONG_STYLE.claim_weight,
        points_weight=STRONG_STYLE.points_weight,
        ticket_weight=STRONG_STYLE.ticket_weight,
        tickets_min_trains=STRONG_STYLE.tickets_min_trains,
        tunnel_weight=STRONG_STYLE.tunnel_weight,
        last_chance=STRONG_STYLE.last_chance,
    )
    assert strong.style == STRONG_STYLE  # type: ignore[attr-defined]
    assert make_agent("greedy").style is GREEDY_STYLE  # type: ignore[attr-defined]
    state = new_game("europe", players=3, seed=4)
    plain = Situation.of_state(state, 0)
    styled = Situation.of_state(state, 0, STRONG_STYLE)
    assert plain.tables is style_tables(state.map, state.rules, GREEDY_STYLE)
    weights = styled.tables.open_weight
    assert all(w > 0 for w in weights)
    # Long routes get cheaper for their points: an 8-space route now costs less than a 1-space one.
    length = styled.tables.length
    assert max(w for w, n in zip(weights, length, strict=True) if n == 8) < min(
        w for w, n in zip(weights, length, strict=True) if n == 1
    )
    assert plain.tables.paths is not styled.tables.paths  # memos of different weights apart


def test_mcts_style_option() -> None:
    """``style="greedy"`` plays the agent's own seat as ``greedy`` does; anything but the two
    styles is refused."""
    assert make_agent("mcts", style="greedy").style.points_weight == 0  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="style"):
        make_agent("mcts", style="wild")
    for style in ("strong", "greedy"):
        end = play_game(
            [make_agent("mcts", seed=1, style=style, **FAST_OPTIONS["mcts"]), agent("greedy")],
            seed=3,
        )
        assert is_terminal(end)


@given(
    st.lists(
        st.tuples(
            st.floats(-200, 200, allow_nan=False),
            st.floats(-200, 200, allow_nan=False),
        ),
        min_size=1,
        max_size=30,
    ),
    st.floats(0, 10, allow_nan=False),
)
def test_the_advantage_bound_is_never_above_the_mean_advantage(
    pairs: list[tuple[float, float]], confidence: float
) -> None:
    """``mcts`` plays another action than its default only when this bound clears the prior:
    never more optimistic than the mean, more cautious the more confidence is asked, and
    never trusting a single world."""
    from ttr_rules.agents.mcts import advantage_bound

    values = [a for a, _ in pairs]
    base = [b for _, b in pairs]
    mean = sum(a - b for a, b in pairs) / len(pairs)
    bound = advantage_bound(values, base, confidence)
    assert bound <= mean + 1e-9
    assert advantage_bound(values, base, 0.0) == pytest.approx(mean)
    assert advantage_bound(values, base, confidence + 1) <= bound + 1e-9
    if len(pairs) == 1 and confidence > 0:
        assert bound == float("-inf")
