"""What a picture or a text may show: a state becomes an all-seeing view, a view stays itself.

Both renderers work on a :class:`~ttr_rules.PlayerView` only, so that a view can never leak
what its viewer does not know: the state's extra facts (hands and tickets of every player) are
put into the seats of an all-seeing view before rendering, and nothing else of the state is
read.
"""

from __future__ import annotations

import attrs

from ..maps import GameMap
from ..scenario import scenario
from ..scoring import PlayerScore, final_scores, rank_winners
from ..state import GameState, Phase
from ..views import PlayerView, determinize, observe, public_view

__all__ = ["as_view", "bare_view", "end_scores", "is_omniscient"]


def as_view(state_or_view: GameState | PlayerView) -> PlayerView:
    """``state_or_view`` as a view: a :class:`GameState` gives a spectator view whose seats
    also hold every player's hand, kept and offered tickets, and the cards picked for a
    payment with sets (an all-seeing view)."""
    if isinstance(state_or_view, PlayerView):
        return state_or_view
    if not isinstance(state_or_view, GameState):
        raise TypeError(f"expected a GameState or a PlayerView, got {type(state_or_view).__name__}")
    state = state_or_view
    seats = tuple(observe(state, seat).seats[seat] for seat in range(state.num_players))
    return attrs.evolve(public_view(state), seats=seats)


def bare_view(game_map: GameMap) -> PlayerView:
    """A spectator's view of ``game_map`` before anything is claimed: the board alone (its
    fewest players, no deal needed, so a board with too few tickets to deal draws too)."""
    return public_view(scenario(game_map, game_map.rules.min_players))


def is_omniscient(view: PlayerView) -> bool:
    """True for the all-seeing view :func:`as_view` makes of a state."""
    return view.player is None and all(s.hand is not None for s in view.seats)


def end_scores(view: PlayerView) -> tuple[tuple[PlayerScore, ...], tuple[int, ...]] | None:
    """The final scores and the winners once the game is over (None before).

    Scores depend only on public facts and the kept tickets, which every view shows at the
    end (E70), so any determinization of the view scores the same.
    """
    if view.phase is not Phase.GAME_OVER:
        return None
    scores = final_scores(determinize(view, 0))
    return scores, rank_winners(scores, view.rules)
