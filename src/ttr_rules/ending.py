"""The end of a game as one value (python-chess's ``Outcome``): why it ended, the winners and
the scores.

It sits beside the engine, which alone says whether and why a game is over
(:func:`ttr_rules.moves.turn.termination`), and reads the final scores from
:mod:`ttr_rules.scoring`, which is a pure reader of a final state.
"""

from __future__ import annotations

from .moves.turn import termination
from .scoring import Outcome, final_scores, rank_winners
from .state import GameState

__all__ = ["outcome"]


def outcome(state: GameState) -> Outcome | None:
    """The outcome of a finished game, or None while it goes on.

    >>> from ttr_rules import Pass, apply_action, scenario
    >>> state = scenario(players=2, face_up=[None] * 5, deck=[], discard=[], ticket_deck=[])
    >>> outcome(state) is None
    True
    >>> for _ in range(2):
    ...     state = apply_action(state, Pass())  # nobody can do anything else (U1)
    >>> result = outcome(state)
    >>> result.reason, result.winners, [score.total for score in result.scores]
    (<Termination.PASSES: 'all passed'>, (0, 1), [12, 12])
    """
    reason = termination(state)
    if reason is None:
        return None
    scores = final_scores(state)
    return Outcome(reason, rank_winners(scores, state.rules), scores)
