"""The scaled observation (issue 32): every entry of the raw vector divided by its bound, so
that each lies in [0, 1] and a ``Box(0, 1)`` bounds it tightly.

The one count the rules do not bound, ``turn``, is divided by :data:`TURN_HORIZON` and
saturates at 1 (a game of random players lasts far fewer turns).

>>> from ttr_rules import new_game
>>> from ttr_rules.rl import encode_state_observation, observation_layout
>>> state = new_game("europe", players=2, seed=3)
>>> layout = observation_layout("europe", 2)
>>> scaled = scale_observation(encode_state_observation(state, 0), layout)
>>> low, high = observation_bounds(layout, "scaled")
>>> bool((low <= scaled).all() and (scaled <= high).all()), float(high.max())
(True, 1.0)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final, Literal

import numpy as np

from .layout import ObservationLayout

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "OBSERVATION_FORMS",
    "TURN_HORIZON",
    "ObservationForm",
    "check_form",
    "observation_bounds",
    "scale_observation",
]

#: ``"scaled"``: every entry in [0, 1]; ``"raw"``: counts as they are.
ObservationForm = Literal["scaled", "raw"]
OBSERVATION_FORMS: Final = ("scaled", "raw")
#: The turn count at which the scaled ``turn`` entry reaches 1.
TURN_HORIZON: Final = 200


def check_form(form: str) -> ObservationForm:
    """``form`` if it is one of :data:`OBSERVATION_FORMS`; :class:`ValueError` otherwise."""
    if form not in OBSERVATION_FORMS:
        raise ValueError(f"observation must be one of {', '.join(OBSERVATION_FORMS)}")
    return form  # type: ignore[return-value]


@lru_cache(maxsize=64)
def _divisors(layout: ObservationLayout) -> NDArray[np.float32]:
    high = layout.high.copy()
    high[layout["turn"]] = TURN_HORIZON
    inverse = np.zeros_like(high)
    np.divide(1.0, high, out=inverse, where=high > 0)
    return inverse


def scale_observation(
    vector: NDArray[np.float32], layout: ObservationLayout
) -> NDArray[np.float32]:
    """A new array: ``vector`` (raw, of ``layout``) with every entry divided by its bound, the
    turn saturating at 1."""
    scaled = vector * _divisors(layout)
    np.minimum(scaled, 1.0, out=scaled)
    return scaled


def observation_bounds(
    layout: ObservationLayout, form: ObservationForm
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """``(low, high)`` of the form's ``Box``: the layout's own bounds for ``"raw"`` (an entry
    that the rules keep at 0, such as the stations left on a map without stations, bounded
    by 1 so that no entry's bounds are equal, which Gymnasium's checker warns of), 0 and 1
    for ``"scaled"``."""
    if check_form(form) == "raw":
        return layout.low, np.maximum(layout.high, np.float32(1))
    return np.zeros(layout.size, np.float32), np.ones(layout.size, np.float32)
