"""A player's view as a flat float32 array of fixed shape (issue 13), in one import: the
layout (:mod:`ttr_rules.rl.layout`), the encoders (:mod:`ttr_rules.rl.encoding`) and the
scaled form (:mod:`ttr_rules.rl.scaling`).
"""

from __future__ import annotations

from .encoding import encode_observation, encode_state_observation
from .layout import (
    PILE_COLUMNS,
    SEAT_COLUMNS,
    ObservationField,
    ObservationLayout,
    observation_layout,
)
from .scaling import (
    OBSERVATION_FORMS,
    TURN_HORIZON,
    ObservationForm,
    check_form,
    observation_bounds,
    scale_observation,
)

__all__ = [
    "OBSERVATION_FORMS",
    "PILE_COLUMNS",
    "SEAT_COLUMNS",
    "TURN_HORIZON",
    "ObservationField",
    "ObservationForm",
    "ObservationLayout",
    "check_form",
    "encode_observation",
    "encode_state_observation",
    "observation_bounds",
    "observation_layout",
    "scale_observation",
]
