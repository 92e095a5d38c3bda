"""Speed internals of the agents, each checked against the plain computation it replaces:
the memo of shortest connections gives exactly the answers of a fresh search (the same paths,
with the same ties), kept plans are the plans made afresh, and the rollouts' split of the legal
actions is the split of a full scan."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_rules import GameState, Phase, apply_action, legal_actions, load_map, new_game, observe
from ttr_rules.actions import BuildStation
from ttr_rules.agents import play_game
from ttr_rules.agents.greedy import (
    Options,
    _rank_claims,
    greedy_action,
    rank_claims,
    start_action_fast,
)
from ttr_rules.agents.planning import (
    INF,
    PlanKeeper,
    Situation,
    _shortest_memo,
    make_plan,
    make_plans,
    map_tables,
    shortest,
)

TABLES = map_tables(load_map("europe"))
ROUTES = len(TABLES.length)
CITIES = len(TABLES.adjacent)
#: Small integer weights (many ties), free routes and gone routes.
WEIGHT = st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, INF])


@given(
    st.lists(st.lists(WEIGHT, min_size=ROUTES, max_size=ROUTES), min_size=1, max_size=4),
    st.lists(
        st.tuples(st.integers(0, CITIES - 1), st.integers(0, CITIES - 1)),
        min_size=1,
        max_size=6,
    ),
    st.data(),
)
def test_the_memo_answers_as_a_fresh_search(
    starts: list[list[float]], pairs: list[tuple[int, int]], data: st.DataObject
) -> None:
    """Sequences of weights that mostly rise (routes taken by others) with a few falls
    (routes claimed, stations): every memo answer is the fresh Dijkstra's, path and all."""
    memo: dict[tuple[int, int, int], list[tuple[tuple[float, ...], float, list[int]]]] = {}
    for weights in starts:
        for _ in range(6):
            for a, b in pairs:
                fresh = shortest(TABLES, a, b, weights)
                assert _shortest_memo(memo, 0, TABLES, a, b, weights) == fresh
            changes = data.draw(st.lists(st.tuples(st.integers(0, ROUTES - 1), WEIGHT), max_size=5))
            weights = list(weights)
            for route, weight in changes:
                weights[route] = max(weights[route], weight) if route % 4 else weight


def test_a_rise_off_the_path_reuses_the_answer() -> None:
    """The memo's point: a weight rising off the found path needs no new search."""
    weights = list(TABLES.open_weight)
    a, b = TABLES.ticket_a[0], TABLES.ticket_b[0]
    memo: dict[tuple[int, int, int], list[tuple[tuple[float, ...], float, list[int]]]] = {}
    _cost, path = _shortest_memo(memo, 0, TABLES, a, b, weights)
    off = next(r for r in range(ROUTES) if r not in path)
    weights[off] = INF
    assert _shortest_memo(memo, 0, TABLES, a, b, weights)[1] is path
    weights[path[0]] = INF
    again = _shortest_memo(memo, 0, TABLES, a, b, weights)
    assert again == shortest(TABLES, a, b, weights)
    assert again[1] is not path


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_a_kept_plan_is_the_plan_made_afresh(players: int, seed: int) -> None:
    """Along random games (claims, stations, double routes closed at 2-3 players), the plan
    a :class:`PlanKeeper` keeps for each player is always the one ``make_plan`` makes."""
    rnd = Random(seed)
    keeper = PlanKeeper(players)
    state = new_game("europe", players, seed=seed)
    kept = 0
    while not state.is_terminal:
        for seat in range(players):
            situation = Situation.of_state(state, seat)
            player = state.players[seat]
            key = (player.tickets, player.stations, player.trains)
            before = keeper._entries[seat]
            plan = keeper.plan(situation, key, 1)
            assert plan == make_plan(situation, situation.tickets, reserve=1)
            kept += before is not None and plan is before[2]
        options = legal_actions(state)
        state = apply_action(state, options[rnd.randrange(len(options))])
    assert kept > 0


def test_ordered_options_split_as_a_scan_does() -> None:
    """The rollouts' binary-search split of ``legal_actions`` gives the parts a full scan
    gives, and the claims of planned routes found by binary search are the ones a scan
    finds, along random games at every player count."""
    for players in (2, 3, 4, 5):
        rnd = Random(players)
        state = new_game("europe", players, seed=players)
        while not state.is_terminal:
            legal = legal_actions(state)
            if state.phase in (Phase.START, Phase.SECOND_CARD):
                fast, slow = Options.ordered(legal), Options.scan(legal)
                assert list(fast.draws) == slow.draws
                assert list(fast.claims) == slow.claims
                assert list(fast.tickets) == slow.tickets
                assert [a for a in fast.stations if isinstance(a, BuildStation)] == slow.stations
                situation = Situation.of_state(state, state.current)
                plan = make_plan(situation, situation.tickets, reserve=1)
                ranked = _rank_claims(situation, fast.claims, plan, None, fast.by_route)
                assert ranked == rank_claims(situation, legal, plan)
            state = apply_action(state, legal[rnd.randrange(len(legal))])


def test_plans_made_together_are_the_plans_made_one_by_one() -> None:
    """``make_plans`` (shared beginnings planned once) gives each set's ``make_plan``: ticket
    choices with and without held tickets, along random games."""
    tickets = len(TABLES.points)
    for players in (2, 4):
        rnd = Random(players)
        state = new_game("europe", players, seed=players)
        while not state.is_terminal:
            situation = Situation.of_state(state, rnd.randrange(players))
            held = rnd.sample(range(tickets), rnd.randrange(4))
            offered = rnd.sample(range(tickets), 4)
            sets = [held] + [[*held, *rnd.sample(offered, rnd.randint(1, 4))] for _ in range(6)]
            reserve = rnd.randrange(2)
            together = make_plans(situation, sets, reserve=reserve)
            assert together == [make_plan(situation, s, reserve=reserve) for s in sets]
            legal = legal_actions(state)
            state = apply_action(state, legal[rnd.randrange(len(legal))])


def test_a_situation_reads_the_same_from_a_state_and_from_the_players_view() -> None:
    """``Situation.of_state`` (the rollouts' fast path, fields set directly) and
    ``Situation.of_view`` (the agents' path, through the constructor) agree field by field."""
    rnd = Random(5)
    state = new_game("europe", 3, seed=5)
    while not state.is_terminal:
        for seat in range(3):
            fast = Situation.of_state(state, seat)
            slow = Situation.of_view(observe(state, seat))
            for name in Situation.__slots__:
                assert getattr(fast, name) == getattr(slow, name), name
        legal = legal_actions(state)
        state = apply_action(state, legal[rnd.randrange(len(legal))])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_fast_start_of_a_turn_is_the_greedy_choice(players: int) -> None:
    """Wherever the rollouts' shortcut applies it picks what the greedy policy picks from the
    whole list of legal actions: at the start of every turn of greedy games (the rollouts'
    positions) and of random ones (odd hands and boards), at every player count."""
    states: list[GameState] = []
    for seed in range(3):
        play_game(["greedy"] * players, seed=seed, on_decision=lambda s, a: states.append(s))
        rnd = Random(seed)
        state = new_game("europe", players, seed=seed)
        while not state.is_terminal:
            states.append(state)
            legal = legal_actions(state)
            state = apply_action(state, legal[rnd.randrange(len(legal))])
    applied = 0
    for state in states:
        if state.phase is not Phase.START:
            continue
        situation = Situation.of_state(state, state.current)
        plan = make_plan(situation, situation.tickets, reserve=1)
        fast = start_action_fast(state, situation, plan)
        if fast is not None:
            applied += 1
            assert fast == greedy_action(situation, legal_actions(state), plan=plan)
    assert applied > 100
