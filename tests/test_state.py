"""The one copy helper, ``state.evolve``, and the classes it copies."""

from __future__ import annotations

import attrs
import pytest

from ttr_rules import GameState, PlayerState, new_game
from ttr_rules.state import COPIED_CLASSES, evolve


@pytest.mark.parametrize("cls", COPIED_CLASSES)
def test_copied_classes_have_nothing_the_copy_would_skip(cls: type) -> None:
    """``evolve`` bypasses ``__init__``: safe only without validators, converters or hooks."""
    assert attrs.has(cls)
    for field in attrs.fields(cls):
        assert field.validator is None, f"{cls.__name__}.{field.name} has a validator"
        assert field.converter is None, f"{cls.__name__}.{field.name} has a converter"
        assert field.init, f"{cls.__name__}.{field.name} is not set by __init__"
    for hook in ("__attrs_pre_init__", "__attrs_post_init__", "__attrs_init_subclass__"):
        assert not hasattr(cls, hook), f"{cls.__name__} defines {hook}"
    assert "__slots__" not in cls.__dict__, "evolve copies the instance __dict__"
    assert cls.__setattr__ is not object.__setattr__, "frozen"


def test_the_engine_states_are_exactly_the_copied_classes() -> None:
    assert set(COPIED_CLASSES) == {GameState, PlayerState}


def test_evolve_matches_attrs_evolve_and_leaves_the_original() -> None:
    state = new_game(players=3, seed=4)
    changes = {"turn": 7, "current": 2, "passes": 1}
    expected = attrs.evolve(state, turn=7, current=2, passes=1)
    assert evolve(state, changes) == expected
    assert evolve(state, turn=7, current=2, passes=1) == expected
    assert evolve(state, {"turn": 1}, turn=2).turn == 2  # keywords win
    assert (state.turn, state.current, state.passes) == (0, 0, 0)
    player = state.players[1]
    moved = evolve(player, trains=3)
    assert moved == attrs.evolve(player, trains=3)
    assert type(moved) is PlayerState and player.trains == 45
    assert hash(evolve(state, {})) == hash(state) and evolve(state) == state
