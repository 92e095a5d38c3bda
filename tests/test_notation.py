"""The text notation of actions: format_action and parse_action (issue 5)."""

from __future__ import annotations

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
    apply_action,
    format_action,
    legal_actions,
    parse_action,
    scenario,
)
from ttr_rules.notation import fold_name
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
        ("claim #999 red", "no route #999"),
        ("claim Paris red", "expected CITY-CITY"),
        ("claim Paris-Frankfurt#3 red", "has 2 track"),
        ("claim Paris-Frankfurt green", "no track of Paris-Frankfurt takes green"),
        ("draw faceup 5", "SLOT 0-4"),
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
