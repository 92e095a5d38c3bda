"""OpenSpiel: ``import ttr_rules.rl.openspiel`` registers the game ``"python_ttr"`` (issue 13).

>>> import pyspiel
>>> import ttr_rules.rl.openspiel
>>> game = pyspiel.load_game("python_ttr", {"players": 3})
>>> state = game.new_initial_state()
>>> state.current_player(), game.num_distinct_actions() == game.action_space.size
(0, True)

Parameters: ``map`` (an installed map's name, default ``"europe"``), ``players`` (2–5, default
2), ``seed`` (the first game's deal; each further ``new_initial_state()`` deals the next seed of
a sequence drawn from it; ``clone()`` draws none),
``reward`` (``"win"``: +1 for each winner, −1 for the others, 0 when all tie; ``"score"``:
final score minus the mean of the others') and ``max_game_length`` (decisions after which the
game is cut short and scored as it stands, default 5000; random games take a few hundred).

The game is sequential, imperfect-information, with terminal rewards, and its chance is
**sampled** (``SAMPLED_STOCHASTIC``): the library's states carry their own seeded deck order and
reshuffle seed (rule E79), so every card drawn, face-up refill, reshuffle and tunnel reveal
is decided inside ``apply_action``. Explicit chance nodes would have to enumerate every deal of
110 cards and every reshuffle order as chance outcomes with probabilities, which is neither
tractable nor how the engine resolves randomness; sampling keeps OpenSpiel's states exactly the
library's states, and ``clone()`` plus the same actions replays the same game.

Actions are :class:`~ttr_rules.rl.ActionSpace` indices (legal ones ascending). Observations go
through an observer built on :func:`~ttr_rules.observe`:

* ``observation_tensor(p)`` is :func:`~ttr_rules.rl.encode_observation` of ``p``'s view, its
  pieces named by :func:`~ttr_rules.rl.observation_layout`; ``observation_string(p)`` is the
  view's JSON (:func:`~ttr_rules.to_json`).
* ``information_state_string(p)`` adds, to that, the game's history as ``p`` saw it: every
  action in notation, except that another player's kept tickets show only their number; so it
  has perfect recall. ``information_state_tensor(p)`` is the observation tensor — a fixed-size
  summary of the current view, not a perfect-recall encoding (the history is unbounded).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ttr_rules import (
    Action,
    GameState,
    KeepTickets,
    apply_action,
    final_scores,
    load_map,
    new_game,
    observe,
    to_json,
)

from ._common import check_reward, terminal_rewards
from .observation import encode_state_observation, observation_layout
from .space import ActionSpace

__all__ = ["GAME_TYPE", "TicketToRideGame", "TicketToRideObserver", "TicketToRideState"]

_DEFAULTS: dict[str, Any] = {
    "map": "europe",
    "players": 2,
    "seed": 0,
    "reward": "win",
    "max_game_length": 5000,
}

GAME_TYPE = pyspiel.GameType(
    short_name="python_ttr",
    long_name="Python Ticket to Ride (ttr_rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class TicketToRideGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one map and player count."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        self.game_map = load_map(str(given["map"]))
        players = int(given["players"])
        self.action_space = ActionSpace(self.game_map, players)
        self.reward_kind = check_reward(str(given["reward"]))
        self.max_length = int(given["max_game_length"])
        if self.reward_kind == "win":
            low, high = -1.0, 1.0
        else:  # a margin lies between the worst and the best score's difference
            rules, game_map = self.game_map.rules, self.game_map
            tickets = sum(t.points for t in game_map.tickets)
            best = (
                sum(rules.route_score(r.length) for r in game_map.routes)
                + tickets
                + rules.longest_path_bonus
                + rules.stations_per_player * rules.station_bonus
            )
            high = float(best + tickets)
            low = -high
        info = pyspiel.GameInfo(
            num_distinct_actions=self.action_space.size,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=low,
            max_utility=high,
            max_game_length=self.max_length,
        )
        super().__init__(GAME_TYPE, info, params or {})
        self._seeds = random.Random(int(given["seed"]))
        self._next_seed: int | None = int(given["seed"])

    def new_initial_state(self) -> TicketToRideState:
        """A new deal: the ``seed`` parameter's first, then seeds drawn from it. The cards are
        dealt when the state is first used, so the states pyspiel makes to clone into (it
        overwrites them at once) deal nothing and draw no seed."""
        return TicketToRideState(self)

    def deal(self) -> GameState:
        """The next game of the seed sequence."""
        seed = self._next_seed if self._next_seed is not None else self._seeds.getrandbits(63)
        self._next_seed = None
        return new_game(self.game_map, self.num_players(), seed)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TicketToRideObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TicketToRideObserver(self, perfect_recall=recall)


class _Shared:
    """Values a state shares with its clones. pyspiel clones a Python state by deep-copying
    its attributes; these are immutable (or per game), so a copy is the value itself."""

    __slots__ = ("decisions", "game", "state")

    def __init__(
        self,
        game: TicketToRideGame,
        state: GameState | None,
        decisions: tuple[tuple[int, Action], ...],
    ) -> None:
        self.game = game
        #: None until the first use of a new game's state (see ``new_initial_state``).
        self.state = state
        #: (seat, action) of every decision so far.
        self.decisions = decisions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class TicketToRideState(pyspiel.State):  # type: ignore[misc]
    """A :class:`~ttr_rules.GameState` and the decisions that led to it."""

    def __init__(self, game: TicketToRideGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game, None, ())

    @property
    def state(self) -> GameState:
        """The library's state."""
        shared = self._shared
        if shared.state is None:
            shared.state = shared.game.deal()
        return shared.state

    @property
    def decisions(self) -> tuple[tuple[int, Action], ...]:
        """(seat, action) of every decision so far."""
        return self._shared.decisions

    @property
    def _game(self) -> TicketToRideGame:
        return self._shared.game

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.state.current

    def _legal_actions(self, player: int) -> list[int]:
        return self._game.action_space.legal_indices(self.state)

    def _apply_action(self, action: int) -> None:
        state = self.state
        shared = self._shared
        chosen = shared.game.action_space.action(action, state)
        decisions = (*shared.decisions, (state.current, chosen))
        self._shared = _Shared(shared.game, apply_action(state, chosen), decisions)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._game.action_space.action(action, self.state))

    def is_terminal(self) -> bool:
        return self.state.is_terminal or len(self.decisions) >= self._game.max_length

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.state.num_players
        return terminal_rewards(self.state, self._game.reward_kind)

    def scores(self) -> list[int]:
        """Each seat's (provisional) total score."""
        return [s.total for s in final_scores(self.state)]

    def __str__(self) -> str:
        return to_json(self.state)


class TicketToRideObserver:
    """OpenSpiel's observer protocol over :func:`~ttr_rules.observe`: ``tensor``, ``dict``,
    ``set_from(state, player)`` and ``string_from(state, player)``."""

    def __init__(self, game: TicketToRideGame, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        layout = observation_layout(game.game_map, game.num_players())
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {f.name: self.tensor[f.start : f.stop].reshape(f.shape) for f in layout.fields}

    def set_from(self, state: TicketToRideState, player: int) -> None:
        self.tensor[:] = encode_state_observation(state.state, player)

    def string_from(self, state: TicketToRideState, player: int) -> str:
        view = to_json(observe(state.state, player))
        if not self.perfect_recall:
            return view
        return (
            view + "\n" + "\n".join(_seen(seat, action, player) for seat, action in state.decisions)
        )


def _seen(seat: int, action: Action, player: int) -> str:
    """A decision as ``player`` saw it: another player's kept tickets show only their number."""
    if isinstance(action, KeepTickets) and seat != player:
        return f"P{seat}: tickets keep {len(action.tickets)}"
    return f"P{seat}: {action}"


pyspiel.register_game(GAME_TYPE, TicketToRideGame)
