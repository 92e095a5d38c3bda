"""Hostile inputs (issue 10): every bad input raises the documented exception, at once.

Each test is a reproducer of a defect found by throwing bad input at the public API; the
``D<n>`` in its name is the defect group of the issue. No timing assertions: a test that used to
take tens of seconds simply finishes.
"""

from __future__ import annotations

import gc
import json
import pickle
import random
import re
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from map_samples import small_map_data, write_map

from ttr_rules import (
    BuildStation,
    CardDrawn,
    ClaimRoute,
    Color,
    DrawBlind,
    DrawFaceUp,
    Event,
    GameRecord,
    GameState,
    IllegalActionError,
    InvalidActionError,
    KeepTickets,
    MapLoadError,
    MapNotFoundError,
    PlayerView,
    RecordError,
    Rules,
    SerializationError,
    apply_action,
    determinize,
    events_for,
    final_scores,
    format_action,
    from_json,
    is_legal,
    is_terminal,
    legal_actions,
    load_map,
    load_map_file,
    new_game,
    observe,
    parse_action,
    public_view,
    read_record,
    record_game,
    replay,
    scenario,
    step,
    to_json,
    why_illegal,
    write_record,
)
from ttr_rules.maps import map_to_dict
from ttr_rules.records import state_digest
from ttr_rules.simulate import random_playout

MAX_ACTION_TEXT = 1000  # ttr_rules.notation.MAX_ACTION_TEXT

STATE = new_game("europe", 2, seed=1)


# --------------------------------------------------------------------------- D1, D6 parse_action


def test_d1_long_claim_text_is_refused_at_once() -> None:
    with pytest.raises(InvalidActionError, match="limit"):
        parse_action("claim " + "-" * 12_800 + " red", STATE)


def test_d1_claims_under_the_limit_with_many_hyphens_are_linear() -> None:
    # 990 characters of hyphens: every split used to resolve both halves (with difflib hints).
    text = "claim " + "-" * (MAX_ACTION_TEXT - 10) + " red"
    with pytest.raises(InvalidActionError, match="cannot read route"):
        parse_action(text, STATE)
    text = "claim Paris-" + "x-" * 480 + "Brest red"
    with pytest.raises(InvalidActionError):
        parse_action(text, STATE)


def test_d1_hyphenated_city_names_still_parse() -> None:
    assert parse_action("claim brest - paris black", STATE) == ClaimRoute(23, Color.BLACK, 0)


def test_d1_a_replayed_record_with_a_huge_action_fails_at_its_index() -> None:
    record = GameRecord(
        map="europe", players=2, seed=1, actions=("claim " + "-" * 20_000 + " red",)
    )
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.index == 0
    assert len(str(info.value)) < 400  # the text is not echoed whole


@pytest.mark.parametrize(
    "text",
    [
        "draw faceup ²",
        "tickets keep ²",
        "tickets keep 1,٣",
        "tunnel pay ²L",
        "draw faceup " + "9" * 5000,
        "tickets keep " + "1" * 5000,
        "claim #" + "1" * 5000 + " red",
        "claim brest-paris red+" + "1" * 5000 + "L",
    ],
)
def test_d6_odd_digits_raise_invalid_action_error(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text, STATE)


def test_d6_replay_keeps_the_index_of_an_odd_digit() -> None:
    record = GameRecord(map="europe", players=2, seed=0, actions=("tickets keep ²",))
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.index == 0


def test_format_action_of_a_route_that_does_not_exist() -> None:
    europe = load_map("europe")
    for route in (-1, len(europe.routes), True):
        with pytest.raises(InvalidActionError, match="no route"):
            format_action(ClaimRoute(route, Color.RED, 0), europe)


# --------------------------------------------------------------------------- D4, D5 nesting, bytes


DEEP = "[" * 100_000 + "]" * 100_000


def test_d4_deep_json_is_a_serialization_error() -> None:
    for cls in (GameRecord, GameState):
        with pytest.raises(SerializationError, match="nested too deeply"):
            from_json(DEEP, cls)
    deep_object = '{"map": ' * 5_000 + "1" + "}" * 5_000
    with pytest.raises(SerializationError):
        from_json(deep_object, GameRecord)


def test_d4_deep_record_and_map_files(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP, encoding="utf-8")
    with pytest.raises(SerializationError, match="nested too deeply"):
        read_record(path)
    with pytest.raises(MapLoadError, match=r"deep\.json: JSON nested too deeply"):
        load_map_file(path)


def test_d5_record_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"map": "\xe9urope"}')
    with pytest.raises(SerializationError, match="not UTF-8"):
        read_record(path)
    with pytest.raises(MapLoadError, match="not UTF-8"):
        load_map_file(path)


def test_d5_a_byte_order_mark_is_accepted_for_records_and_maps(tmp_path: Path) -> None:
    import json

    record = GameRecord(map="europe", players=2, seed=0, actions=("tickets keep 3,15",))
    path = tmp_path / "bom.json"
    write_record(path, record)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert read_record(path) == record
    assert from_json(path.read_bytes(), GameRecord) == record
    assert from_json(path.read_bytes().decode("utf-8"), GameRecord) == record
    map_path = tmp_path / "map.json"
    map_path.write_text("\ufeff" + json.dumps(map_to_dict(load_map("europe"))), encoding="utf-8")
    assert load_map_file(map_path).digest == load_map("europe").digest


# --------------------------------------------------------------------------- D10 seeds


@pytest.mark.parametrize("seed", [None, "abc", 1.5, True, b"1"])
def test_d10_new_game_refuses_a_seed_that_is_not_an_int(seed: object) -> None:
    with pytest.raises(ValueError, match="seed must be an integer"):
        new_game("europe", 2, seed=seed)  # type: ignore[arg-type]


def test_d10_big_and_negative_int_seeds_are_fine() -> None:
    assert new_game("europe", 2, seed=-(10**30)) == new_game("europe", 2, seed=-(10**30))


# --------------------------------------------------------------------------- wrong types


def test_wrong_types_raise_the_documented_errors(tmp_path: Path) -> None:
    with pytest.raises(MapNotFoundError):
        load_map(None)  # type: ignore[arg-type]
    with pytest.raises(MapNotFoundError):
        new_game(None, 2)  # type: ignore[arg-type]
    with pytest.raises(MapLoadError):
        load_map_file(None)  # type: ignore[arg-type]
    with pytest.raises(SerializationError):
        from_json(None, GameState)  # type: ignore[call-overload]
    with pytest.raises(RecordError):
        replay(None)  # type: ignore[arg-type]
    for call in (
        lambda: legal_actions(None),  # type: ignore[arg-type]
        lambda: apply_action(None, DrawBlind()),  # type: ignore[arg-type]
        lambda: is_legal("state", DrawBlind()),  # type: ignore[arg-type]
        lambda: why_illegal(3, DrawBlind()),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError, match="expected a GameState"):
            call()
    with pytest.raises(ValueError, match="rules must be"):
        new_game("europe", 2, rules="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        observe(STATE, True)
    with pytest.raises(InvalidActionError):
        parse_action(None, STATE)  # type: ignore[arg-type]


def test_a_record_of_one_string_is_refused() -> None:
    with pytest.raises(TypeError, match="not one string"):
        GameRecord(map="europe", players=2, seed=0, actions="draw blind")
    with pytest.raises(SerializationError, match=r"\$\.actions"):
        from_json('{"map": "europe", "players": 2, "seed": 0, "actions": "draw blind"}', GameRecord)


@pytest.mark.parametrize("text", ["null", "[]", "3", '"x"', "true"])
def test_read_record_of_a_json_value_that_is_not_an_object(tmp_path: Path, text: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SerializationError, match=r"\$: expected object"):
        read_record(path)


def test_long_names_are_not_echoed_whole() -> None:
    name = "x" * 5_000_000
    with pytest.raises(MapNotFoundError) as info:
        load_map(name)
    assert len(str(info.value)) < 1_000
    with pytest.raises(InvalidActionError) as action_info:
        parse_action("station " + "y" * 900 + " red", STATE)
    assert len(str(action_info.value)) < 1_000


# --------------------------------------------------------------------------- D2 leak


def test_d2_maps_of_unpickled_states_are_freed() -> None:
    data = pickle.dumps(STATE)
    refs = []
    for _ in range(50):
        state = pickle.loads(data)
        parse_action("claim brest-paris black", state)
        refs.append(weakref.ref(state.map))
        del state
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 0


def test_d2_states_decoded_from_json_are_freed() -> None:
    text = to_json(STATE)
    refs = []
    for _ in range(20):
        state = from_json(text, GameState)
        parse_action("claim brest-paris black", state)
        refs.append(weakref.ref(state))
        del state
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 0


# --------------------------------------------------------------------------- D3 impossible states


def _mutated(change: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(to_json(new_game("europe", 2, seed=4)))
    change(data)
    return json.dumps(data)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *head, last = path.split(".")
        target: Any = data
        for key in head:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


IMPOSSIBLE = {
    "no players": (_set("players", []), "players"),
    "current 5": (_set("current", 5), "current is 5"),
    "current -1": (_set("current", -1), "current is -1"),
    "first player 7": (_set("first_player", 7), "first_player is 7"),
    "short route_owner": (_set("route_owner", [None] * 3), "route owners"),
    "40 locomotives": (_set("players.0.hand", {"locomotive": 40}), "locomotive cards"),
    "ticket 999": (_set("players.0.offered", [999, 1, 2, 3]), "999"),
    "negative trains": (_set("players.1.trains", -5), "-5 trains"),
    "too many trains": (_set("players.1.trains", 46), "started with 45"),
    "station in Atlantis": (_set("players.0.stations", ["Atlantis"]), "Atlantis"),
    "four slots": (_set("face_up", ["red", "red", "red", "red"]), "slots"),
    "owner 9": (_set("route_owner.0", 9), "not a seat"),
    "duplicate deck card": (lambda d: d["deck"].append("red"), "red cards"),
    "ticket twice": (lambda d: d["ticket_deck"].append(d["ticket_deck"][0]), "places"),
    "final turns 9": (_set("final_turns", 9), "final round"),
    "bad rules": (_set("rules.route_scores", [0, 1]), "route_scores"),
}


@pytest.mark.parametrize("case", sorted(IMPOSSIBLE))
def test_d3_from_json_refuses_impossible_states(case: str) -> None:
    change, words = IMPOSSIBLE[case]
    with pytest.raises(SerializationError, match=re.escape(words)) as info:
        from_json(_mutated(change), GameState)
    assert all(p.startswith("$") for p in info.value.problems)


def test_d3_reachable_and_scenario_states_still_decode() -> None:
    state = scenario(players=2, trains=[3, 40], routes={0: 1}, hands=[{Color.RED: 2}, {}])
    assert from_json(to_json(state), GameState) == state
    assert from_json(to_json(STATE), GameState) == STATE


def test_check_invariants_still_in_the_kit() -> None:
    from ttr_rules.testing import InvariantError, check_invariants

    check_invariants(STATE)
    broken = attrs.evolve(STATE, deck=STATE.deck + (Color.RED,))
    with pytest.raises(InvariantError):
        check_invariants(broken)


# --------------------------------------------------------------------------- D8, D9 maps and rules


def _map_with(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = small_map_data()
    change(data)
    return data


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("same name in capitals", "reads as 'Alpha'"),
        ("NFD beside NFC", "reads as"),
        ("route of 20000", "longer than 30"),
        ("22 tickets drawn", "tickets_drawn: must be <= 10"),
        ("25 initial tickets", "initial_regular_tickets"),
        ("100000 stations", "stations_per_player: must be <= 20"),
    ],
)
def test_d8_maps_that_would_break_play_are_refused(case: str, words: str, tmp_path: Path) -> None:
    changes: dict[str, Callable[[dict[str, Any]], None]] = {
        "same name in capitals": lambda d: d["cities"].append({"name": "ALPHA"}),
        "NFD beside NFC": lambda d: d["cities"].extend(
            [{"name": "Ge\u0301neve"}, {"name": "Géneve"}]
        ),
        "route of 20000": lambda d: d["routes"].append(
            {"a": "Alpha", "b": "Gamma", "length": 20_000}
        ),
        "22 tickets drawn": lambda d: d["rules"].update(tickets_drawn=22),
        "25 initial tickets": lambda d: d["rules"].update(initial_regular_tickets=25),
        "100000 stations": lambda d: d["rules"].update(stations_per_player=100_000),
    }
    path = write_map(tmp_path / "bad.json", _map_with(changes[case]))
    with pytest.raises(MapLoadError, match=re.escape(words)):
        load_map_file(path)


def test_d9_rules_are_checked_against_the_map() -> None:
    with pytest.raises(ValueError, match="route_scores"):
        new_game("europe", 2, rules=Rules(route_scores=(0, 1)))
    with pytest.raises(ValueError, match="route_scores"):
        scenario(players=2, rules=Rules(route_scores=(0, 1)))
    with pytest.raises(ValueError, match="tickets_drawn"):
        new_game("europe", 2, rules=Rules(tickets_drawn=25))
    with pytest.raises(ValueError, match="stations_per_player"):
        scenario(players=2, rules=Rules(stations_per_player=-1))
    with pytest.raises(ValueError, match="players"):
        scenario(players=1)
    with pytest.raises(ValueError, match="must be an integer"):
        new_game("europe", 2, rules=Rules(tickets_drawn="3"))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- D11 scenarios


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("both tracks with 2 players", "both tracks"),
        ("empty slot with a deck", "empty"),
        ("a billion trains", "started with 45"),
        ("points as text", "points must be an integer"),
        ("negative points", "points must be an integer"),
        ("the same city twice", "two different cities"),
        ("a two-item ticket", "(city, city, points)"),
    ],
)
def test_d11_scenario_refuses_contradictions(case: str, words: str) -> None:
    europe = load_map("europe")
    double = next(r for r in europe.routes if r.double_of is not None)
    arguments: dict[str, dict[str, Any]] = {
        "both tracks with 2 players": {"routes": {double.id: 0, double.double_of: 1}},
        "empty slot with a deck": {"face_up": [Color.RED, None, Color.RED, Color.RED, Color.RED]},
        "a billion trains": {"trains": [10**9, 45]},
        "points as text": {"tickets": [[("Paris", "Wien", "5")], []]},
        "negative points": {"tickets": [[("Paris", "Wien", -5)], []]},
        "the same city twice": {"tickets": [[("Paris", "Paris", 5)], []]},
        "a two-item ticket": {"tickets": [[("Paris", "Wien")], []]},
    }
    with pytest.raises(ValueError, match=re.escape(words)):
        scenario(players=2, **arguments[case])


# --------------------------------------------------------------------------- D13 leaks


def test_d13_a_view_does_not_show_an_opponents_injected_ticket() -> None:
    paris, brest = ("Paris", "Wien", 7), ("Brest", "Kyiv", 30)
    state = scenario(players=2, tickets=[[paris], [brest]])
    for viewer, own, other in ((0, paris, brest), (1, brest, paris)):
        view = observe(state, viewer)
        ends = {(t.a, t.b, t.points) for t in view.map.tickets}
        assert own in ends and other not in ends
        (mine,) = view.seats[viewer].tickets or ()
        ticket = view.map.tickets[mine]
        assert (ticket.a, ticket.b, ticket.points) == own
        assert determinize(view, 3).players[viewer].tickets == (mine,)
    spectator = public_view(state)
    assert {t.points for t in spectator.map.tickets[46:]} == {0}  # blank


def test_d13_events_for_hides_blind_draws_from_the_other_seats() -> None:
    rng = random.Random(10)
    blind_seen = 0
    for seed in range(3):
        state = new_game("europe", 3, seed=seed)
        for _ in range(150):
            if is_terminal(state):
                break
            result = step(state, rng.choice(legal_actions(state)))
            for seat in (None, 0, 1, 2):
                seen = events_for(result.events, seat)
                assert len(seen) == len(result.events)
                for original, shown in zip(result.events, seen, strict=True):
                    if isinstance(original, CardDrawn) and original.slot is None:
                        blind_seen += 1
                        assert isinstance(shown, CardDrawn)
                        assert (shown.color is None) == (seat != original.player)
                        assert attrs.evolve(shown, color=original.color) == original
                    else:
                        assert shown == original
                    assert from_json(to_json(shown, Event), Event) == shown
            state = result.state
    assert blind_seen > 0


# --------------------------------------------------------------------------- records' results


def _finished_record() -> tuple[GameRecord, GameState]:
    start = new_game("europe", 2, seed=3)
    end, actions = random_playout(start, random.Random(3))
    return record_game(start, actions), end


def test_a_finished_record_carries_its_result_and_replay_checks_it(tmp_path: Path) -> None:
    record, end = _finished_record()
    assert record.final_digest == state_digest(end)
    assert record.scores == tuple(s.total for s in final_scores(end))
    path = tmp_path / "game.json"
    write_record(path, record)
    assert read_record(path) == record
    assert replay(record) == end
    with pytest.raises(RecordError, match="scores"):
        replay(attrs.evolve(record, scores=(0, 0)))
    with pytest.raises(RecordError, match="final_digest"):
        replay(attrs.evolve(record, final_digest="0" * 64))


def test_swapping_an_action_for_another_legal_one_is_caught() -> None:
    record, _ = _finished_record()
    start = new_game("europe", 2, seed=3)
    state, texts = start, list(record.actions)
    for index, text in enumerate(texts):  # the first draw that another slot could replace
        action = parse_action(text, state)
        others = [a for a in legal_actions(state) if type(a) is type(action) and a != action]
        if isinstance(action, DrawFaceUp) and others:
            texts[index] = str(others[0])
            break
        state = apply_action(state, action)
    swapped = attrs.evolve(record, actions=tuple(texts))
    with pytest.raises(RecordError):
        replay(swapped)
    unfinished = record_game(start, [])
    assert unfinished.final_digest is None and unfinished.scores is None


# --------------------------------------------------------------------------- D7, bools


def test_d7_actions_with_wrong_types_are_illegal_not_crashes() -> None:
    state = scenario(players=2, hands=[{Color.BLACK: 5}, {}])
    bad: list[Any] = [
        ClaimRoute(0, "black", 0),  # type: ignore[arg-type]
        BuildStation("Wien", "red", 0),  # type: ignore[arg-type]
        ClaimRoute(0, Color.BLACK, True),
        None,
        "draw blind",
    ]
    for action in bad:
        with pytest.raises(IllegalActionError):
            apply_action(state, action)


def test_bools_are_not_slots_routes_or_tickets() -> None:
    state = scenario(players=2, hands=[{Color.RED: 5}, {}])
    for action in (DrawFaceUp(True), ClaimRoute(True, Color.RED, 0)):
        with pytest.raises(IllegalActionError):
            apply_action(state, action)
    start = new_game("europe", 2, seed=0)
    offered = start.players[start.current].offered
    with pytest.raises(IllegalActionError):
        apply_action(start, KeepTickets(frozenset({True, *offered[:2]})))


def test_from_json_refuses_impossible_views() -> None:
    view = json.loads(to_json(observe(STATE, 0)))
    for key, value in (("player", 7), ("current", -1), ("route_owner", [None]), ("deck_size", -3)):
        changed = dict(view, **{key: value})
        with pytest.raises(SerializationError, match=re.escape(f"$.{key}")):
            from_json(json.dumps(changed), PlayerView)
    assert from_json(json.dumps(view), PlayerView) == observe(STATE, 0)


def test_d2_maps_of_scenarios_with_injected_tickets_are_freed() -> None:
    refs = []
    for _ in range(30):
        state = scenario(players=2, tickets=[[("Paris", "Wien", 7)], []])
        parse_action("claim brest-paris black", state)
        observe(state, 1)
        refs.append(weakref.ref(state.map))
        del state
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 0


def test_an_illegal_action_of_any_size_has_a_short_message() -> None:
    """Issue 44 hostile pass: an action from JSON or code may hold 100,000 ticket ids; the
    refusal's message cuts its text (it was 590,000 characters)."""
    from ttr_rules import Action, from_json

    keep = from_json(json.dumps({"type": "keep_tickets", "tickets": list(range(100_000))}), Action)
    with pytest.raises(IllegalActionError) as refused:
        apply_action(STATE, keep)
    assert len(str(refused.value)) < 500 and "characters)" in str(refused.value)
    assert refused.value.action == keep  # the action itself is kept whole
