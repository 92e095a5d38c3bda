"""A hypothesis state machine that drives a game through the public API (needs the ``test``
extra).

Subclass :class:`GameMachine` to point it at another map or rules and run it with pytest::

    class AlpineMachine(GameMachine):
        map_name = "alpine"

    TestAlpine = AlpineMachine.TestCase

Each rule is one public-API call: a legal action (checked with ``step`` and
``apply_action`` giving the same state), an illegal one (which must raise
``IllegalActionError`` and leave the position unchanged), or a burst of random play. After
every rule the invariants are checked.
"""

from __future__ import annotations

import random
from typing import ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import ttr_rules

from ..maps import GameMap, resolve_map
from ..rules import Rules
from .invariants import check_invariants
from .play import playout, random_chooser
from .snapshots import snapshot
from .strategies import illegal_actions

__all__ = ["GameMachine", "TestGame"]


class GameMachine(RuleBasedStateMachine):
    """Plays one game per run: start, then legal, illegal and random actions."""

    #: The map to play (a name or a :class:`~ttr_rules.GameMap`).
    map_name: ClassVar[str | GameMap] = "europe"
    #: Rules to play with (None: the map's own).
    game_rules: ClassVar[Rules | None] = None

    def __init__(self) -> None:
        super().__init__()
        self.game_map = resolve_map(self.map_name)
        self.state = ttr_rules.new_game(self.game_map, self.game_map.rules.min_players)
        self.actions: list[ttr_rules.Action] = []

    @initialize(data=st.data(), seed=st.integers(0, 2**32 - 1))
    def start(self, data: st.DataObject, seed: int) -> None:
        """A new game with any allowed player count."""
        rules = self.game_rules or self.game_map.rules
        players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
        self.state = ttr_rules.new_game(self.game_map, players, seed, self.game_rules)
        self.actions = []

    def _not_over(self) -> bool:
        return not ttr_rules.is_terminal(self.state)

    @precondition(_not_over)
    @rule(choice=st.integers(0, 2**16))
    def legal(self, choice: int) -> None:
        """A legal action through ``step``; ``apply_action`` must agree."""
        options = ttr_rules.legal_actions(self.state)
        assert options, "no legal action in a running game"
        action = options[choice % len(options)]
        result = ttr_rules.step(self.state, action, ttr_rules.current_player(self.state))
        assert result.state == ttr_rules.apply_action(self.state, action)
        self.state = result.state
        self.actions.append(action)

    @rule(data=st.data())
    def illegal(self, data: st.DataObject) -> None:
        """An illegal action raises ``IllegalActionError`` and changes nothing."""
        before = snapshot(self.state)
        action = data.draw(illegal_actions(self.state), label="illegal action")
        try:
            ttr_rules.apply_action(self.state, action)  # type: ignore[arg-type]
        except ttr_rules.IllegalActionError:
            pass
        else:
            raise AssertionError(f"illegal action {action!r} was accepted")
        assert self.state == before

    @precondition(_not_over)
    @rule(seed=st.integers(0, 2**16), steps=st.integers(1, 40))
    def burst(self, seed: int, steps: int) -> None:
        """A burst of random legal play, to reach later phases of the game."""
        for step in playout(self.state, random_chooser(random.Random(seed)), max_steps=steps):
            self.state = step.after
            self.actions.append(step.action)
            check_invariants(self.state)

    @invariant()
    def consistent(self) -> None:
        check_invariants(self.state)
        assert bool(ttr_rules.legal_actions(self.state)) != ttr_rules.is_terminal(self.state)


#: The machine on Europe, ready for pytest collection (``from ttr_rules.testing import TestGame``).
TestGame = GameMachine.TestCase
