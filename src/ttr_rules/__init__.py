"""ttr-rules: the reference rules library for *Ticket to Ride Europe*.

Immutable game states, legal-move generation, action application and scoring as pure
functions; maps are plugins discovered through the ``ttr_rules.maps`` entry-point group.
"""

from __future__ import annotations

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
)
from .cards import Color, Hand
from .errors import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    MapConflictError,
    MapError,
    MapLoadError,
    MapNotFoundError,
    Reason,
    RecordError,
)
from .events import (
    CardDrawn,
    DeckReshuffled,
    Event,
    FaceUpReplaced,
    FaceUpReset,
    FinalRoundStarted,
    GameOver,
    Passed,
    ResetCapReached,
    RouteClaimed,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelDeclined,
    TunnelRevealed,
    TurnEnded,
)
from .game import (
    StepResult,
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    step,
)
from .mapfile import load_map_file
from .maps import GameMap, Route, Ticket
from .plugins import available_maps, load_map
from .rules import Rules
from .scenario import scenario
from .state import GameState, PendingTunnel, Phase, PlayerState

__version__ = "0.1.0"

__all__ = [
    "Action",
    "AmbiguousActionError",
    "BuildStation",
    "CardDrawn",
    "ClaimRoute",
    "Color",
    "DeckReshuffled",
    "DeclineTunnel",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "Event",
    "FaceUpReplaced",
    "FaceUpReset",
    "FinalRoundStarted",
    "GameMap",
    "GameOver",
    "GameState",
    "Hand",
    "IllegalActionError",
    "InvalidActionError",
    "KeepTickets",
    "MapConflictError",
    "MapError",
    "MapLoadError",
    "MapNotFoundError",
    "Pass",
    "Passed",
    "PayTunnel",
    "PendingTunnel",
    "Phase",
    "PlayerState",
    "Reason",
    "RecordError",
    "ResetCapReached",
    "Route",
    "RouteClaimed",
    "Rules",
    "StationBuilt",
    "StepResult",
    "Ticket",
    "TicketsDrawn",
    "TicketsKept",
    "TunnelDeclined",
    "TunnelRevealed",
    "TurnEnded",
    "apply_action",
    "available_maps",
    "current_player",
    "is_terminal",
    "legal_actions",
    "load_map",
    "load_map_file",
    "new_game",
    "scenario",
    "step",
]
