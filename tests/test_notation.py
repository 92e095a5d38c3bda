"""The text notation of actions: format_action and parse_action (issue 5)."""

from __future__ import annotations

import ast
import inspect
import tracemalloc

import pytest
from helpers import europe, hand, route_id
from hypothesis import given
from random_games import random_game

from ttr_rules import (
    AmbiguousActionError,
    BuildStation,
    ClaimRoute,
    Color,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    InvalidActionError,
    KeepTickets,
    Pass,
    PayTunnel,
    PlayerView,
    apply_action,
    format_action,
    legal_actions,
    new_game,
    notation,
    observe,
    parse_action,
    scenario,
)
from ttr_rules.notation import NUMBER_FIELDS, NumberField, fold_name
from ttr_rules.testing.strategies import states


@given(states())
def test_every_legal_action_reads_back(state: GameState) -> None:
    for action in legal_actions(state):
        assert parse_action(str(action), state) == action
        text = format_action(action, state.map)
        assert parse_action(text, state) == action
        assert parse_action(f"  {text.upper()} ", state) == action


def test_every_action_of_random_games_reads_back() -> None:
    for seed in range(2):
        start, actions, _ = random_game(seed)
        state = start
        for action in actions:
            assert parse_action(format_action(action, state.map), state) == action
            assert parse_action(str(action), state) == action
            state = apply_action(state, action)


def _rich_position(players: int = 4) -> GameState:
    cards = hand(red=5, white=3, locomotive=5, black=3)
    return scenario(players=players, hands=[cards] + [{}] * (players - 1))


def test_canonical_texts() -> None:
    m = europe()
    madrid = route_id(m, "Madrid", "Pamplona", Color.BLACK)
    assert str(ClaimRoute(madrid, Color.BLACK, 1)) == f"claim #{madrid} black+1L"
    assert format_action(ClaimRoute(madrid, Color.BLACK, 1), m) == "claim Madrid-Pamplona black+1L"
    assert format_action(ClaimRoute(madrid, Color.LOCOMOTIVE, 3), m) == (
        "claim Madrid-Pamplona#1 3L"
    )
    dieppe = sorted(r.id for r in m.route_between("Dieppe", "London"))
    assert format_action(ClaimRoute(dieppe[1], Color.RED, 1), m) == ("claim Dieppe-London#2 red+1L")
    assert str(DrawFaceUp(3)) == "draw faceup 3"
    assert str(DrawBlind()) == "draw blind"
    assert str(DrawTickets()) == "tickets draw"
    assert str(KeepTickets(frozenset({40, 12}))) == "tickets keep 12,40"
    assert str(BuildStation("Wien", Color.RED, 1)) == "station Wien red+1L"
    assert str(PayTunnel(1)) == "tunnel pay 1L"
    assert str(DeclineTunnel()) == "tunnel decline"
    assert str(Pass()) == "pass"


def test_lenient_reading() -> None:
    state = _rich_position()
    m = state.map
    kyiv_warszawa = route_id(m, "Kyiv", "Warszawa")
    assert parse_action("CLAIM kiev-WARSAW 4l", state) == ClaimRoute(
        kyiv_warszawa, Color.LOCOMOTIVE, 4
    )
    wien = route_id(m, "München", "Wien")
    assert parse_action("claim Wien-Munich red+1L", state) == ClaimRoute(wien, Color.RED, 1)
    assert parse_action("claim Munchen - Wien  red+1L", state) == ClaimRoute(wien, Color.RED, 1)
    assert parse_action(f"claim #{wien} red", state) == ClaimRoute(wien, Color.RED, 0)
    assert parse_action("station København pink", state) == BuildStation(
        "Kobenhavn", Color.PURPLE, 0
    )
    assert parse_action("station Rostov-on-Don locomotive", state) == BuildStation(
        "Rostov", Color.LOCOMOTIVE, 1
    )
    sochi = route_id(m, "Rostov", "Sochi")
    assert parse_action("claim Rostov-on-Don-Sochi red", state) == ClaimRoute(sochi, Color.RED, 0)
    assert parse_action("draw face-up 2", state) == DrawFaceUp(2)
    assert parse_action("tickets keep 3, 17 4", state) == KeepTickets(frozenset({3, 4, 17}))
    assert parse_action("tunnel pay 2", state) == PayTunnel(2)
    assert fold_name("  İzmir ") == "izmir"
    assert fold_name("København") == "kobenhavn"


def test_a_claim_without_payment_takes_the_only_legal_one() -> None:
    state = scenario(players=2, hands=[hand(red=1), {}])
    budapest_wien = route_id(europe(), "Budapest", "Wien", Color.RED)
    assert parse_action("claim Budapest-Wien", state) == ClaimRoute(budapest_wien, Color.RED, 0)
    with pytest.raises(InvalidActionError, match="no legal payment"):
        parse_action("claim Madrid-Pamplona", state)


def test_double_routes_need_a_track_only_when_both_fit() -> None:
    state = _rich_position()
    m = state.map
    orange, white = (route_id(m, "Paris", "Frankfurt", c) for c in (Color.ORANGE, Color.WHITE))
    assert parse_action("claim Paris-Frankfurt white", state) == ClaimRoute(white, Color.WHITE, 0)
    with pytest.raises(AmbiguousActionError, match="Frankfurt-Paris#1 3L"):
        parse_action("claim Paris-Frankfurt 3L", state)
    assert parse_action("claim Paris-Frankfurt#1 3L", state) == ClaimRoute(
        orange, Color.LOCOMOTIVE, 3
    )
    taken = scenario(players=4, hands=[hand(locomotive=5)] + [{}] * 3, routes={orange: 1})
    assert parse_action("claim Paris-Frankfurt 3L", taken) == ClaimRoute(white, Color.LOCOMOTIVE, 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected one of: draw faceup SLOT"),
        ("fly to Paris", "cannot read 'fly to Paris'"),
        ("claim Atlantis-Paris red", "unknown city 'Atlantis'"),
        ("claim Pariss-Frankfurt red", "did you mean Paris"),
        ("station Gondor red", "unknown city 'Gondor'"),
        ("claim Paris-Berlin red", "no route joins Paris and Berlin"),
        ("claim #999 red", "route id must be at most 100 on map europe, got 999"),
        ("claim Paris red", "expected CITY-CITY"),
        ("claim Paris-Frankfurt#3 red", "track must be at most 2 on map europe, got 3"),
        ("claim Brest-Paris#2 black", "Brest-Paris has 1 track; got track #2"),
        ("claim Paris-Frankfurt green", "no track of Paris-Frankfurt takes green"),
        ("draw faceup 5", "face-up slot must be at most 4 on map europe, got 5"),
        ("draw faceup x", "draw faceup SLOT"),
        ("tickets keep one", "ticket ids"),
        ("tunnel pay", "tunnel pay NL"),
        ("station", "station CITY PAYMENT"),
    ],
)
def test_malformed_text(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(text, _rich_position())


def test_parsing_does_not_judge_legality() -> None:
    state = scenario(players=2, hands=[{}, {}])
    madrid = route_id(europe(), "Madrid", "Pamplona", Color.BLACK)
    assert parse_action("claim Madrid-Pamplona black", state) == ClaimRoute(madrid, Color.BLACK, 0)


# --------------------------------------------------------------------------- numbers (issue 44)

BOUND_MAPS = ("europe", "usa", "nordic")


def _positions_of(name: str) -> list[GameState | PlayerView]:
    state = new_game(name, players=2, seed=1)
    return [state, observe(state, state.current)]


@pytest.mark.parametrize("name", BOUND_MAPS)
@pytest.mark.parametrize("field", NUMBER_FIELDS, ids=lambda f: f.name)
def test_every_number_past_its_bound_is_refused_in_words(field: NumberField, name: str) -> None:
    """Each number of the notation (the one table, ``NUMBER_FIELDS``), one past the bound and
    at the notation's nine digits, is refused naming the field and the bound, in a state and
    in a seat's view."""
    for position in _positions_of(name):
        bound = field.bound(position)
        assert 0 <= bound < 1000
        for number in (bound + 1, 99_999_999, 999_999_999):
            for text in field.written(number, position.map):
                with pytest.raises(InvalidActionError) as refused:
                    parse_action(text, position)
                message = str(refused.value)
                assert field.name in message and f"got {number}" in message, (text, message)
                assert (f"at most {bound} " if bound else "takes no") in message, message


@pytest.mark.parametrize("name", BOUND_MAPS)
@pytest.mark.parametrize("field", NUMBER_FIELDS, ids=lambda f: f.name)
def test_a_number_within_its_bound_is_not_refused_for_its_size(
    field: NumberField, name: str
) -> None:
    for position in _positions_of(name):
        for text in field.written(field.bound(position), position.map):
            try:
                parse_action(text, position)
            except InvalidActionError as refused:  # for another reason: legality, the map
                assert "must be at most" not in str(refused), (text, str(refused))


def test_the_issues_claim_is_refused_at_once_in_little_memory() -> None:
    """``any:99999999blue`` used to be a list of 99,999,999 cards (52 s, gigabytes)."""
    nordic = new_game("nordic", players=2, seed=1)
    parse_action("draw blind", nordic)  # the map's tables, built once
    for text in ("claim #3 red any:99999blue", "claim #3 red any:999999999blue"):
        tracemalloc.start()
        try:
            with pytest.raises(InvalidActionError, match="substitute cards must be at most 36"):
                parse_action(text, nordic)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 64 * 1024, peak
    many = "claim #3 red any:" + ",".join(["1blue"] * 150)  # counts that add up past the bound
    with pytest.raises(InvalidActionError, match="got 37"):
        parse_action(many, nordic)
    with pytest.raises(InvalidActionError, match="substitute cards are written like"):
        parse_action("claim #3 red any:٣blue", nordic)  # not an ASCII digit


def test_numbers_are_read_only_through_the_table() -> None:
    """Structure: the notation turns digits into a number in ``_number`` only, and each call
    of it names a field of ``NUMBER_FIELDS``; so a new number in the notation is bounded and
    swept by the tests above."""
    source = inspect.getsource(notation)
    tree = ast.parse(source)
    fields = {
        node.targets[0].id: node
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and getattr(node.value.func, "id", None) == "NumberField"
    }
    assert {getattr(notation, name) for name in fields} == set(NUMBER_FIELDS)
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for call in ast.walk(function):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            if call.func.id == "int":
                assert function.name == "_number", f"int() in {function.name}"
            if call.func.id == "_number":
                field = call.args[1]
                assert isinstance(field, ast.Name) and field.id in fields, ast.unparse(call)
