"""Reinforcement-learning adapters (needs the ``rl`` extra: numpy, pettingzoo, gymnasium,
open-spiel).

* :class:`ActionSpace` — a fixed integer numbering of every action of a map, with masks;
* :func:`encode_observation` and :func:`observation_layout` — a player's view as a float32
  array of fixed shape; :func:`scale_observation` — the same in [0, 1];
* :class:`PolicyOpponent` — a frozen policy (a saved model or an importable callable) as an
  opponent that pickles (docs/rl.md, "Opponents", says what else may be one);
* :mod:`ttr_rules.rl.pettingzoo` — a PettingZoo AEC environment (``env(...)``);
* :mod:`ttr_rules.rl.gymnasium` — a single-agent Gymnasium environment
  (``ttr_rules/Europe-v0``) against agents of :mod:`ttr_rules.agents`;
* :mod:`ttr_rules.rl.openspiel` — registers ``"python_ttr"`` with OpenSpiel.

``import ttr_rules`` never imports numpy or any of these frameworks; this package imports
numpy, and each framework module imports its framework.
"""

from __future__ import annotations

from .observation import (
    ObservationField,
    ObservationLayout,
    encode_observation,
    encode_state_observation,
    observation_bounds,
    observation_layout,
    scale_observation,
)
from .opponents import PolicyOpponent
from .space import ActionSpace, offer_positions

__all__ = [
    "ActionSpace",
    "ObservationField",
    "ObservationLayout",
    "PolicyOpponent",
    "encode_observation",
    "encode_state_observation",
    "observation_bounds",
    "observation_layout",
    "offer_positions",
    "scale_observation",
]
