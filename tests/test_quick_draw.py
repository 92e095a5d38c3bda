"""The cheap paths of card draws, claims, ticket draws and choices, tunnel refusals and
stations (``moves/quick.py``) agree with the general path: whenever one answers, the action is
legal and the state is the one ``step`` (always the general path, since it collects events)
builds (E4, E5–E12, E18, E23–E38, E45, E51–E54, E61–E64, U3, U5)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_rules import (
    Action,
    BuildStation,
    ClaimRoute,
    Color,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepTickets,
    PayTunnel,
    Rules,
    apply_action,
    available_maps,
    is_legal,
    legal_actions,
    new_game,
    scenario,
    step,
)
from ttr_rules.moves import quick as quick_module
from ttr_rules.moves.quick import QUICK
from ttr_rules.state import evolve


def quick_draw(state: GameState, action: object, player: int | None) -> GameState | None:
    """The cheap path's answer (None: the general path's turn, also for a class without one)."""
    quick = QUICK.get(type(action))
    return None if quick is None else quick(state, action, player)


_DRAWS: list[Action] = [DrawBlind(), *(DrawFaceUp(slot) for slot in range(-1, 6))]


def _check(state: GameState, actions: Iterable[object]) -> int:
    """Every one of ``actions`` (legal or not, with and without the right player) against the
    general path; the number of times the cheap path answered."""
    answered = 0
    for action in actions:
        for player in (None, state.current, (state.current + 1) % len(state.players)):
            quick = quick_draw(state, action, player)
            if quick is None:
                continue
            answered += 1
            assert is_legal(state, action, player)
            assert quick == step(state, action, player).state  # type: ignore[arg-type]
            assert apply_action(state, action, player) == quick  # type: ignore[arg-type]
    return answered


def _random_game_states(players: int, seeds: range, name: str = "europe") -> Iterator[GameState]:
    """Every state of one uniformly random game per seed."""
    for seed in seeds:
        rnd = Random(seed)
        state = new_game(name, players=players, seed=seed)
        while not state.is_terminal:
            yield state
            options = legal_actions(state)
            state = apply_action(state, options[rnd.randrange(len(options))])


@pytest.mark.parametrize("players", [2, 4, 5])
def test_quick_draws_match_the_general_path_in_random_games(players: int) -> None:
    answered = sum(_check(state, _DRAWS) for state in _random_game_states(players, range(3)))
    assert answered > 500  # the cheap path is the common one


def test_quick_draws_leave_the_unusual_cases_to_the_general_path() -> None:
    loco, red = Color.LOCOMOTIVE, Color.RED
    # A locomotive coming up makes three in the row: the general path resets it (E12).
    state = scenario(face_up=[loco, loco, red, red, red], deck=[loco, red, red, red, red, red])
    assert quick_draw(state, DrawFaceUp(2), None) is None
    assert quick_draw(state, DrawFaceUp(0), None) is not None  # two locomotives stay: no reset
    # A one-card deck: the second card may need the discard (E17, U5).
    state = scenario(face_up=[red] * 5, deck=[red], discard=[red, red])
    assert quick_draw(state, DrawBlind(), None) is None
    # An empty slot is filled by the general path (E13, U3).
    state = evolve(scenario(face_up=[red] * 5, deck=[red] * 3), face_up=(red, None, red, red, red))
    assert quick_draw(state, DrawBlind(), None) is None
    # No locomotive limit: any row is settled.
    state = scenario(
        face_up=[loco] * 5, deck=[loco, red, red], rules=Rules(face_up_locomotive_limit=None)
    )
    after = quick_draw(state, DrawFaceUp(1), None)
    assert after is not None and after == step(state, DrawFaceUp(1)).state
    assert after.phase is state.phase  # a face-up locomotive ends the draw: the next turn (E8)
    assert after.current == 1
    # Not a state: the general path raises.
    with pytest.raises(TypeError):
        apply_action("not a state", DrawBlind())  # type: ignore[arg-type]


def _claims_to_try(state: GameState) -> list[object]:
    """The legal claims and, for each, illegal neighbours: another colour, one locomotive
    more or less, the next route, a bad route id or payment."""
    legal = [a for a in legal_actions(state) if isinstance(a, ClaimRoute)]
    out: list[object] = list(legal)
    for a in legal[:12]:
        out += [
            ClaimRoute(a.route, Color.RED if a.color is not Color.RED else Color.BLUE, 0),
            ClaimRoute(a.route, a.color, a.locomotives + 1),
            ClaimRoute(a.route, a.color, a.locomotives - 1),
            ClaimRoute((a.route + 1) % len(state.route_owner), a.color, a.locomotives),
            ClaimRoute(a.route, Color.LOCOMOTIVE, a.locomotives),
        ]
    out += [ClaimRoute(-1, Color.RED, 0), ClaimRoute(True, Color.RED, 0)]
    out += [ClaimRoute(0, "red", 0), ClaimRoute(0, Color.RED, 0.0)]  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("players", [2, 3, 5])
def test_quick_claims_match_the_general_path_in_random_games(players: int) -> None:
    answered = sum(
        _check(state, _claims_to_try(state))
        for state in _random_game_states(players, range(2))
        if state.phase.value == "start"
    )
    assert answered > 300  # the cheap path is the common one


def test_quick_claims_of_tunnels_and_the_cases_left_to_the_general_path() -> None:
    loco, red, blue = Color.LOCOMOTIVE, Color.RED, Color.BLUE
    row = [blue, Color.GREEN, Color.BLACK, Color.WHITE, Color.YELLOW]
    routes = scenario(players=2).map.routes
    gray_tunnel = next(r.id for r in routes if r.tunnel and r.color is None and r.length <= 3)
    tunnel = ClaimRoute(gray_tunnel, red, 0)
    quick = QUICK[ClaimRoute]
    # Nothing to match in the reveal: claimed for the base payment (E46, E48).
    state = scenario(hands=[{red: 8, loco: 2}, {}], face_up=row, deck=[blue] * 5)
    after = quick(state, tunnel, None)
    assert after is not None and after == step(state, tunnel).state and after.current == 1
    # Red and a locomotive revealed: two extras owed, the same player continues (E40, E43).
    state = scenario(hands=[{red: 8, loco: 2}, {}], face_up=row, deck=[red, blue, loco, blue])
    after = quick(state, tunnel, None)
    assert after is not None and after == step(state, tunnel).state
    assert after.tunnel is not None and after.tunnel.owed == 2 and after.current == 0
    # A reveal that would reach the discard (E47, U14): the general path.
    state = scenario(hands=[{red: 8, loco: 2}, {}], face_up=row, deck=[blue] * 2)
    assert is_legal(state, tunnel) and quick(state, tunnel, None) is None
    plain = next(
        r.id for r in routes if not r.tunnel and not r.ferry_locomotives and r.color is red
    )
    claim = ClaimRoute(plain, red, 0)
    # An empty slot: the general path fills it from the discard the payment makes (U3, E17).
    unsettled = evolve(
        scenario(hands=[{red: 8}, {}], face_up=row, deck=[]), face_up=(*row[:4], None)
    )
    assert quick(unsettled, claim, None) is None
    assert apply_action(unsettled, claim).face_up[4] is not None


def _others_to_try(state: GameState) -> list[object]:
    """The legal ticket draws and choices, tunnel refusals and stations, and illegal
    neighbours: every action of those classes in the wrong phase, tickets not offered or of
    the wrong type, too few tickets, a station in a taken or unknown city or badly paid."""
    legal = [
        a
        for a in legal_actions(state)
        if isinstance(a, DrawTickets | KeepTickets | DeclineTunnel | BuildStation)
    ]
    out: list[object] = [*legal, DrawTickets(), DeclineTunnel(), KeepTickets(frozenset())]
    offered = state.players[state.current].offered
    if offered:
        out += [
            KeepTickets(frozenset(offered) | {-1}),
            KeepTickets(frozenset({offered[0]})),
            KeepTickets(frozenset({True} if offered[0] == 1 else {float(offered[0])})),  # type: ignore[arg-type]
        ]
    taken = [city for p in state.players for city in p.stations]
    for a in [a for a in legal if isinstance(a, BuildStation)][:6]:
        out += [
            BuildStation(a.city, a.color, a.locomotives + 1),
            BuildStation(a.city, Color.LOCOMOTIVE, a.locomotives),
            BuildStation("Atlantis", a.color, a.locomotives),
            *(BuildStation(city, a.color, a.locomotives) for city in taken[:2]),
        ]
    out += [BuildStation(state.map.cities[0], Color.RED, 0), PayTunnel(0)]
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_quick_tickets_tunnels_and_stations_match_the_general_path(players: int) -> None:
    answered = sum(
        _check(state, _others_to_try(state)) for state in _random_game_states(players, range(2))
    )
    assert answered > 200  # the cheap path is the common one


@pytest.mark.parametrize("name", [m for m in available_maps() if m != "europe"])
def test_quick_paths_match_the_general_path_on_every_shipped_map(name: str) -> None:
    """The other shipped boards: every cheap path that answers agrees with the general path
    (on the Nordic board, whose payments take the general path, claims and the steps of a
    payment with sets among the legal actions tried)."""
    answered = 0
    for state in _random_game_states(2, range(1), name):
        tries: list[object] = [*_DRAWS, *_others_to_try(state), *legal_actions(state)]
        if state.phase.value == "start":
            tries += _claims_to_try(state)
        answered += _check(state, tries)
    assert answered > 100


def test_quick_ticket_choices_follow_the_rules_variants() -> None:
    """Unkept initial tickets go to the bottom of the deck in the ``bottom`` variant (E4), and
    the last chooser hands the game to the first player (U21)."""
    for rules in (Rules(initial_discard="bottom"), Rules()):
        state = new_game(players=3, seed=4, rules=rules, first_player=2)
        while state.phase.value == "initial tickets":
            choice = legal_actions(state)[0]
            assert _check(state, [choice]) == 2  # no player and the right one
            state = apply_action(state, choice)
        assert state.current == 2


_ROWS = st.lists(st.sampled_from([*Color, None]), min_size=5, max_size=5).map(tuple)


@given(rows=st.lists(_ROWS, min_size=1, max_size=6), repeats=st.lists(st.integers(0, 5)))
def test_the_remembered_row_count_equals_a_fresh_count(
    rows: list[tuple[Color | None, ...]], repeats: list[int]
) -> None:
    """The cheap paths remember the last row counted (by identity): asked about rows in any
    order, again and again, and about equal rows that are other tuples, the count is always
    a fresh one (-1 with an empty slot)."""
    asked = rows + [rows[i % len(rows)] for i in repeats] + [tuple(list(r)) for r in rows]
    for row in asked:
        fresh = -1 if None in row else sum(card is Color.LOCOMOTIVE for card in row)
        assert quick_module._row_locomotives(row) == fresh
        assert quick_module._row_locomotives(row) == fresh
