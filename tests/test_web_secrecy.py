"""The general guard of per-seat secrecy (issue 29, R1): what a seat gets from the server,
status and body, from every endpoint (reads, actions, errors, the stream, the record, the
board), is the same in two games that differ only in facts hidden from that seat (the other
hands, the deck's order, the others' tickets), while every seat posts hypothesis-written texts.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ttr_rules import (
    GameState,
    apply_action,
    determinize,
    format_action,
    is_terminal,
    legal_actions,
    new_game,
    observe,
    public_view,
)
from ttr_rules.web import create_app
from ttr_rules.web.games import Game, GameStore

_TOKENS = ("token-of-seat-0", "token-of-seat-1", "token-of-seat-2")
_READS = ("", "/info", "/legal", "/tickets", "/log", "/scores", "/record", "/board.svg")
_ids = itertools.count()


@pytest.fixture(scope="module")
def worlds() -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers: one holds each game as dealt, the other its double."""
    options: dict[str, Any] = {"agent_workers": 0, "games_per_minute": 0}
    with (
        TestClient(create_app(**options), raise_server_exceptions=False) as a,
        TestClient(create_app(**options), raise_server_exceptions=False) as b,
    ):
        yield a, b


def _install(client: TestClient, game_id: str, state: GameState) -> None:
    """Put a game in ``state`` on the server, its seats holding :data:`_TOKENS`."""
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    digests = {
        seat: hashlib.sha256(_TOKENS[seat].encode()).hexdigest()
        for seat in range(state.num_players)
    }
    store.games[game_id] = Game(
        game_id, state, agents={}, token_digests=digests, created=0.0, agent_seed=0
    )


def _headers(seat: int | None) -> dict[str, str]:
    return {} if seat is None else {"Authorization": f"Bearer {_TOKENS[seat]}"}


def _seen(client: TestClient, game_id: str, seat: int | None) -> list[tuple[str, int, str]]:
    """Every read of the game as ``seat`` gets it (the stream: its first update)."""
    out = []
    for path in _READS:
        response = client.get(f"/api/games/{game_id}{path}", headers=_headers(seat))
        out.append((path, response.status_code, response.text))
    with client.stream("GET", f"/api/games/{game_id}/stream", headers=_headers(seat)) as response:
        first = ""
        for line in response.iter_lines():
            if line.startswith("data:"):
                first = line
                break
    out.append(("/stream", response.status_code, first))
    return out


_CITIES = ("Wien", "Paris", "Berlin", "Madrid", "Pamplona", "Brest", "Dieppe", "London")
_NOISE = st.one_of(
    st.sampled_from(["draw blind", "tickets draw", "pass", "tunnel decline", "tunnel pay 1L"]),
    st.builds(lambda c: f"station {c}", st.sampled_from(_CITIES)),
    st.builds(
        lambda a, b, pay: f"claim {a}-{b}{pay}",
        st.sampled_from(_CITIES),
        st.sampled_from(_CITIES),
        st.sampled_from(["", " red", " black+1L", " 2L", " locomotive"]),
    ),
    st.builds(
        lambda n, pay: f"claim #{n}{pay}",
        st.integers(0, 100),
        st.sampled_from(["", " red", " blue+1L", " 1L", " locomotive"]),
    ),
    st.builds(lambda i: f"draw faceup {i}", st.integers(0, 6)),
    st.builds(lambda ids: "tickets keep " + ",".join(map(str, ids)), st.lists(st.integers(0, 50))),
    st.text(max_size=30),
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 3),
    prefix=st.integers(0, 40),
    other_seed=st.integers(0, 10**6),
    observer=st.integers(-1, 2),
    posts=st.lists(
        st.tuples(st.integers(-2, 2), st.one_of(st.integers(0, 10**6), _NOISE)), max_size=8
    ),
)
def test_a_seat_gets_the_same_answers_whatever_it_cannot_see(
    worlds: tuple[TestClient, TestClient],
    seed: int,
    players: int,
    prefix: int,
    other_seed: int,
    observer: int,
    posts: list[tuple[int, int | str]],
) -> None:
    seat = None if observer < 0 else observer
    assume(seat is None or seat < players)
    rnd = random.Random(seed)
    state = new_game("europe", players, seed)
    for _ in range(prefix):
        if is_terminal(state):
            break
        state = apply_action(state, rnd.choice(legal_actions(state)))
    assume(not is_terminal(state))
    view = public_view(state) if seat is None else observe(state, seat)
    double = determinize(view, other_seed)
    game_id = f"g{next(_ids)}"
    first, second = worlds
    _install(first, game_id, state)
    _install(second, game_id, double)
    assert _seen(first, game_id, seat) == _seen(second, game_id, seat)
    for who, text in posts:
        poster = who % players if who >= 0 or seat is None else seat  # half of them: the seat
        if isinstance(text, int):  # the text of a legal action of the seat to act
            text = _legal_text(_game_state(first, game_id), text)
        answers = [
            c.post(
                f"/api/games/{game_id}/actions",
                headers=_headers(poster),
                json={"action": text},
            )
            for c in worlds
        ]
        if poster == seat:
            assert answers[0].status_code == answers[1].status_code, text
            if answers[0].status_code != 200:
                assert answers[0].text == answers[1].text, text
        elif answers[0].status_code != answers[1].status_code:
            break  # another seat's own cards decided: the worlds part openly
        if not _same_to(seat, *(_game_state(c, game_id) for c in worlds)):
            break  # the seat drew a card or tickets: it now knows what tells the worlds apart
        assert _seen(first, game_id, seat) == _seen(second, game_id, seat)


def _legal_text(state: GameState, pick: int) -> str:
    """A legal action of the player to act (``pick`` chooses), written out; for an odd
    ``pick``, a claim or station without its payment (the server must then resolve it)."""
    options = legal_actions(state)
    if not options:
        return "pass"
    text = format_action(options[pick % len(options)], state.map)
    if pick % 2 and text.startswith(("claim", "station")):
        return text.rsplit(" ", 1)[0]
    return text


def _game_state(client: TestClient, game_id: str) -> GameState:
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    return store.get(game_id).state


def _same_to(seat: int | None, a: GameState, b: GameState) -> bool:
    if seat is None:
        return public_view(a) == public_view(b)
    return observe(a, seat) == observe(b, seat)


def test_the_cards_picked_for_a_payment_stay_private_until_the_claim(
    worlds: tuple[TestClient, TestClient],
) -> None:
    """Issue 44 T8: another seat and a spectator see a payment's picks as ``null`` in the log
    and the stream (as the view hides them); the claim shows the cards, once."""
    from ttr_rules import ClaimRoute, Color, scenario
    from ttr_rules.maps import load_map

    client, _ = worlds
    nordic = load_map("nordic")
    ferry = next(r.id for r in nordic.routes if {r.a, r.b} == {"Narvik", "Tromsø"})
    hand = {Color.YELLOW: 2, Color.RED: 2, Color.BLUE: 1}
    game_id = f"pay{next(_ids)}"
    _install(client, game_id, scenario(nordic, hands=[hand, {}]))
    picks = ["pay blue", "pay yellow", "pay yellow", "pay red", "pay red"]
    for text in [f"claim #{ferry} sets", *picks]:
        answer = client.post(
            f"/api/games/{game_id}/actions", json={"action": text}, headers=_headers(0)
        )
        assert answer.status_code == 200, answer.text
    for seat in (1, None):
        log = client.get(f"/api/games/{game_id}/log", headers=_headers(seat)).json()
        assert [step["action"] for step in log] == ["claim Narvik-Tromsø sets", *[None] * 5]
        seen = " ".join(text for _, _, text in _seen(client, game_id, seat))
        assert "pay " not in seen
    own = client.get(f"/api/games/{game_id}/log", headers=_headers(0)).json()
    assert [step["action"] for step in own][1:] == picks
    paid = ClaimRoute(ferry, Color.YELLOW, 0, (Color.RED, Color.RED, Color.BLUE))
    claim = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": format_action(paid, nordic)},
        headers=_headers(0),
    )
    assert claim.status_code == 200, claim.text
    log = client.get(f"/api/games/{game_id}/log?since=6", headers=_headers(1)).json()
    assert [step["action"] for step in log] == [format_action(paid, nordic)]
