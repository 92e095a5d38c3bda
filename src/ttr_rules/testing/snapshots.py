"""``snapshot``: a copy of a state to prove that a call left the state as it was.

States are frozen, so comparing a state with *itself* (``before = state`` … ``state ==
before``) proves nothing. A snapshot is a deep copy taken before the call; the state must still
equal it afterwards, which catches a change forced through ``object.__setattr__`` anywhere in
the state, at any depth.
"""

from __future__ import annotations

import copy

from ..state import GameState

__all__ = ["snapshot"]


def snapshot(state: GameState) -> GameState:
    """A deep copy of ``state`` that shares its map (maps are checked by their digest).

    >>> from ttr_rules import new_game
    >>> state = new_game(players=2)
    >>> copied = snapshot(state)
    >>> copied == state, copied is state, copied.players[0] is state.players[0]
    (True, False, False)
    >>> copied.map is state.map
    True
    """
    return copy.deepcopy(state, {id(state.map): state.map})
