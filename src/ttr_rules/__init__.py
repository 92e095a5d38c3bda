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
from .ending import outcome
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
    SerializationError,
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
    Termination,
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
    is_legal,
    is_terminal,
    legal_actions,
    new_game,
    step,
    why_illegal,
)
from .maps import GameMap, Route, Ticket, available_maps, load_map, load_map_file
from .notation import format_action, parse_action
from .records import GameRecord, read_record, record_game, replay, write_record
from .rules import Rules
from .scenario import scenario
from .scoring import Outcome, PlayerScore, final_scores, longest_path, winners
from .serialization import from_json, to_json
from .state import GameState, PendingTunnel, Phase, PlayerState
from .views import (
    PlayerView,
    SeatView,
    determinize,
    events_for,
    observe,
    public_view,
    view_legal_actions,
)

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
    "GameRecord",
    "GameState",
    "Hand",
    "IllegalActionError",
    "InvalidActionError",
    "KeepTickets",
    "MapConflictError",
    "MapError",
    "MapLoadError",
    "MapNotFoundError",
    "Outcome",
    "Pass",
    "Passed",
    "PayTunnel",
    "PendingTunnel",
    "Phase",
    "PlayerScore",
    "PlayerState",
    "PlayerView",
    "Reason",
    "RecordError",
    "ResetCapReached",
    "Route",
    "RouteClaimed",
    "Rules",
    "SeatView",
    "SerializationError",
    "StationBuilt",
    "StepResult",
    "Termination",
    "Ticket",
    "TicketsDrawn",
    "TicketsKept",
    "TunnelDeclined",
    "TunnelRevealed",
    "TurnEnded",
    "apply_action",
    "available_maps",
    "current_player",
    "determinize",
    "events_for",
    "final_scores",
    "format_action",
    "from_json",
    "is_legal",
    "is_terminal",
    "legal_actions",
    "load_map",
    "load_map_file",
    "longest_path",
    "new_game",
    "observe",
    "outcome",
    "parse_action",
    "public_view",
    "read_record",
    "record_game",
    "replay",
    "scenario",
    "step",
    "to_json",
    "view_legal_actions",
    "why_illegal",
    "winners",
    "write_record",
]
