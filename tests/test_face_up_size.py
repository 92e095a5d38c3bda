"""The face-up row's size is the ``Rules.face_up_size`` field, like every other number (E2, E6,
E12, U3)."""

from __future__ import annotations

import json
import random

import attrs
import jsonschema
import pytest

from ttr_rules import (
    Color,
    DrawFaceUp,
    GameRecord,
    Rules,
    apply_action,
    is_legal,
    legal_actions,
    new_game,
    scenario,
    to_json,
)
from ttr_rules.records import record_schema
from ttr_rules.testing import check_invariants


def test_the_default_is_five() -> None:
    assert Rules().face_up_size == 5
    assert len(new_game(players=2).face_up) == 5


@pytest.mark.parametrize("size", [3, 7])
def test_other_sizes_deal_offer_and_keep_their_row(size: int) -> None:
    rules = Rules(face_up_size=size, face_up_locomotive_limit=min(3, size))
    assert rules.problems() == []
    state = new_game(players=3, seed=2, rules=rules)
    assert len(state.face_up) == size
    rnd = random.Random(size)
    seen_last_slot = False
    while not state.is_terminal:
        options = legal_actions(state)
        seen_last_slot |= DrawFaceUp(size - 1) in options
        assert not is_legal(state, DrawFaceUp(size))
        state = apply_action(state, options[int(rnd.random() * len(options))])
        assert len(state.face_up) == size
        check_invariants(state)
    assert seen_last_slot


def test_scenario_takes_a_row_of_the_rules_size() -> None:
    rules = Rules(face_up_size=6)
    row = [Color.RED] * 6
    assert scenario(players=2, rules=rules, face_up=row).face_up == tuple(row)
    assert len(scenario(players=2, rules=rules).face_up) == 6
    with pytest.raises(ValueError, match="expected 6 slots"):
        scenario(players=2, rules=rules, face_up=[Color.RED] * 5)


def test_rules_check_the_size() -> None:
    assert ("face_up_size", "must be >= 1") in Rules(face_up_size=0).problems()
    names = {name for name, _ in Rules(face_up_size=2).problems()}
    assert "face_up_locomotive_limit" in names  # a limit of 3 cannot show in a row of 2
    names = {name for name, _ in Rules(face_up_size="5").problems()}  # type: ignore[arg-type]
    assert "face_up_size" in names
    with pytest.raises(ValueError, match="face_up_size"):
        new_game(players=2, rules=Rules(face_up_size=0))


def test_records_carry_the_size() -> None:
    rules = Rules(face_up_size=6)
    record = GameRecord(map="europe", players=2, seed=1, actions=(), rules=rules)
    data = json.loads(to_json(record))
    jsonschema.validate(data, record_schema())
    assert data["rules"]["face_up_size"] == 6
    assert attrs.evolve(rules, face_up_size=5) == Rules()
