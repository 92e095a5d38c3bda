"""OpenSpiel: ``import ttr_rules.rl.openspiel`` registers the game ``"python_ttr"`` (issue 13).

>>> import pyspiel
>>> import ttr_rules.rl.openspiel
>>> game = pyspiel.load_game("python_ttr", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions() == game.action_space.size
(True, True)
>>> state.apply_action(5)  # the deal of seed 5
>>> state.current_player(), state.state == ttr_rules.new_game("europe", 3, seed=5)
(0, True)

Parameters (each checked: a bad one raises :class:`ValueError` naming it): ``map`` (an
installed map's name, default ``"europe"``), ``players`` (within the map's range, its rules'
``min_players`` to ``max_players``: 2–3 on Nordic and Switzerland, 2–4 on India, 2–5 on the
others; default 2), ``deals`` (how many
deals the opening chance node chooses from, default 65536), ``seed`` (outcome ``k`` of the
opening chance node deals ``new_game(map, players, seed=seed + k)``, default 0), ``reward``
(``"win"``: +1 for each winner, −1 for the others, 0 when all tie; ``"score"``: final score
minus the mean of the others') and ``max_game_length`` (decisions after which the game is cut
short and scored as it stands, at least 1, default 5000; random games take a few hundred).

**Chance.** The game is ``EXPLICIT_STOCHASTIC`` with one chance node, the first: it chooses
the deal's seed, uniformly among ``deals`` outcomes. The library's states carry their own
seeded deck order and reshuffle seed (rule E79), so that seed decides every later card drawn,
face-up refill, reshuffle and tunnel reveal inside ``apply_action``; the history of actions
(the deal included) therefore determines the state, and OpenSpiel's serialization,
``pyspiel.serialize_game_and_state`` and pickling work, with no random number generator
state to save.

**Utility.** ``reward="score"`` always sums to zero, and so does ``"win"`` with two players:
those games declare ``ZERO_SUM`` (``game.get_type().utility``), the others ``GENERAL_SUM``.

**Search.** ``resample_from_infostate(player, sampler)`` deals a state consistent with what
``player`` knows (:func:`ttr_rules.determinize`, seeded from the sampler), so OpenSpiel's stock
``ISMCTSBot`` searches over the worlds a player cannot tell apart. The stock ``MCTSBot``
searches the true state: it sees the other players' hands and the deck order.

Actions are :class:`~ttr_rules.rl.ActionSpace` indices (legal ones ascending). Observations go
through an observer built on :func:`~ttr_rules.observe`:

* ``observation_tensor(p)`` is :func:`~ttr_rules.rl.encode_observation` of ``p``'s view, its
  pieces named by :func:`~ttr_rules.rl.observation_layout`; ``observation_string(p)`` is the
  view's JSON (:func:`~ttr_rules.to_json`). Before the deal both are empty (zeros, ``""``).
* ``information_state_string(p)`` adds, to that, the game's history as ``p`` saw it: every
  action in notation, except that another player's kept tickets show only their number; so it
  has perfect recall. ``information_state_tensor(p)`` is the observation tensor — a fixed-size
  summary of the current view, not a perfect-recall encoding (the history is unbounded).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import numpy as np
import pyspiel

from ttr_rules import (
    Action,
    GameState,
    KeepTickets,
    apply_action,
    determinize,
    final_scores,
    load_map,
    new_game,
    observe,
    to_json,
)
from ttr_rules.maps import playable_maps

from ._common import REWARDS, terminal_rewards
from .observation import encode_state_observation, observation_layout
from .space import ActionSpace

__all__ = ["GAME_TYPE", "TicketToRideGame", "TicketToRideObserver", "TicketToRideState"]

_DEFAULTS: Final[dict[str, Any]] = {
    "map": "europe",
    "players": 2,
    "deals": 65536,
    "seed": 0,
    "reward": "win",
    "max_game_length": 5000,
}
#: The most deals the opening chance node may list (its outcomes are a list in memory).
MAX_DEALS: Final = 2**20
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name="python_ttr",
        long_name="Python Ticket to Ride (ttr_rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
_ZERO_SUM_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def _whole_number(params: dict[str, Any], name: str, low: int, high: int) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"python_ttr: {name} must be a whole number from {low} to {high}")
    return value


def _checked(params: dict[str, Any] | None) -> dict[str, Any]:
    """The parameters with their defaults, each checked (a :class:`ValueError` names the first
    bad one in plain words)."""
    given = {**_DEFAULTS, **(params or {})}
    unknown = sorted(set(given) - set(_DEFAULTS))
    if unknown:
        raise ValueError(
            f"python_ttr: unknown parameter {', '.join(unknown)}; "
            f"the parameters are {', '.join(_DEFAULTS)}"
        )
    maps = playable_maps()
    if given["map"] not in maps:
        raise ValueError(f"python_ttr: map must be one of {', '.join(maps)}")
    if given["reward"] not in REWARDS:
        raise ValueError(f"python_ttr: reward must be one of {', '.join(REWARDS)}")
    rules = load_map(given["map"]).rules
    _whole_number(given, "players", rules.min_players, rules.max_players)
    _whole_number(given, "deals", 1, MAX_DEALS)
    _whole_number(given, "seed", 0, 2**62)
    _whole_number(given, "max_game_length", 1, 2**31 - 1)
    return given


class TicketToRideGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one map and player count."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = _checked(params)
        self.game_map = load_map(given["map"])
        players: int = given["players"]
        self.action_space = ActionSpace(self.game_map, players)
        self.reward_kind = given["reward"]
        self.max_length: int = given["max_game_length"]
        self.deals: int = given["deals"]
        self.first_seed: int = given["seed"]
        low, high = self._utility_bounds()
        zero_sum = self.reward_kind == "score" or players == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=self.action_space.size,
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.max_length,
        )
        super().__init__(_ZERO_SUM_TYPE if zero_sum else GAME_TYPE, info, given)

    def _utility_bounds(self) -> tuple[float, float]:
        if self.reward_kind == "win":
            return -1.0, 1.0
        # a margin lies between the worst and the best score's difference
        rules, game_map = self.game_map.rules, self.game_map
        tickets = sum(t.points for t in game_map.tickets)
        best = (
            sum(rules.route_score(r.length) for r in game_map.routes)
            + tickets
            + rules.longest_path_bonus
            + rules.stations_per_player * rules.station_bonus
        )
        high = float(best + tickets)
        return -high, high

    def new_initial_state(self) -> TicketToRideState:
        """The opening chance node, before the deal."""
        return TicketToRideState(self)

    def deal(self, outcome: int) -> GameState:
        """The game of chance outcome ``outcome``, one of ``0 .. deals-1`` (else
        :class:`ValueError`: another number is no outcome of the chance node)."""
        if (
            isinstance(outcome, bool)
            or not isinstance(outcome, int)
            or not 0 <= outcome < self.deals
        ):
            raise ValueError(
                f"python_ttr: a deal is a chance outcome from 0 to {self.deals - 1}, got {outcome}"
            )
        return new_game(self.game_map, self.num_players(), self.first_seed + outcome)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TicketToRideObserver:
        if params:
            raise ValueError("python_ttr: observation parameters are not supported")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TicketToRideObserver(self, perfect_recall=recall)


@lru_cache(maxsize=32)
def _loaded(params: tuple[tuple[str, Any], ...]) -> TicketToRideGame:
    game: TicketToRideGame = pyspiel.load_game("python_ttr", dict(params))
    return game


def _restore(
    params: tuple[tuple[str, Any], ...],
    state: GameState | None,
    decisions: tuple[tuple[int, Action], ...],
) -> _Shared:
    return _Shared(_loaded(params), state, decisions)


class _Shared:
    """Values a state shares with its clones. pyspiel clones a Python state by deep-copying
    its attributes; these are immutable (or per game), so a copy is the value itself. Pickled
    (OpenSpiel's ``serialize`` pickles a state's attributes), it names its game by its
    parameters."""

    __slots__ = ("decisions", "game", "state")

    def __init__(
        self,
        game: TicketToRideGame,
        state: GameState | None,
        decisions: tuple[tuple[int, Action], ...],
    ) -> None:
        self.game = game
        #: None before the deal (the opening chance node).
        self.state = state
        #: (seat, action) of every decision so far.
        self.decisions = decisions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        params = tuple(sorted(self.game.get_parameters().items()))
        return (_restore, (params, self.state, self.decisions))


class TicketToRideState(pyspiel.State):  # type: ignore[misc]
    """A :class:`~ttr_rules.GameState` and the decisions that led to it."""

    def __init__(self, game: TicketToRideGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game, None, ())

    @property
    def state(self) -> GameState:
        """The library's state (:class:`RuntimeError` before the deal)."""
        state = self._shared.state
        if state is None:
            raise RuntimeError("the cards are not dealt yet: apply a chance outcome first")
        return state

    @property
    def decisions(self) -> tuple[tuple[int, Action], ...]:
        """(seat, action) of every decision so far."""
        return self._shared.decisions

    @property
    def _game(self) -> TicketToRideGame:
        return self._shared.game

    def current_player(self) -> int:
        state = self._shared.state
        if state is None:
            return _CHANCE
        if self.is_terminal():
            return _TERMINAL
        return state.current

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every deal, equally likely."""
        deals = self._game.deals
        return [(k, 1.0 / deals) for k in range(deals)] if self._shared.state is None else []

    def _legal_actions(self, player: int) -> list[int]:
        return self._game.action_space.legal_indices(self.state)

    def _apply_action(self, action: int) -> None:
        shared = self._shared
        state = shared.state
        if state is None:
            self._shared = _Shared(shared.game, shared.game.deal(action), ())
            return
        chosen = shared.game.action_space.action(action, state)
        decisions = (*shared.decisions, (state.current, chosen))
        self._shared = _Shared(shared.game, apply_action(state, chosen), decisions)

    def _action_to_string(self, player: int, action: int) -> str:
        if self._shared.state is None:
            return f"deal {action}"
        return str(self._game.action_space.action(action, self.state))

    def is_terminal(self) -> bool:
        state = self._shared.state
        return state is not None and (
            state.is_terminal or len(self._shared.decisions) >= self._game.max_length
        )

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._game.num_players()
        return terminal_rewards(self.state, self._game.reward_kind)

    def scores(self) -> list[int]:
        """Each seat's (provisional) total score."""
        return [s.total for s in final_scores(self.state)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one: the same decisions, the hidden
        cards and tickets dealt anew (:func:`~ttr_rules.determinize`, seeded from one draw of
        ``probability_sampler``, e.g. ``pyspiel.UniformProbabilitySampler(0.0, 1.0)``)."""
        clone = self.clone()
        state = self._shared.state
        if state is None or self.is_terminal():
            return clone
        seed = int(probability_sampler() * 2**53)
        world = determinize(observe(state, player_id), seed)
        clone._shared = _Shared(self._game, world, self._shared.decisions)
        return clone

    def __str__(self) -> str:
        state = self._shared.state
        return "" if state is None else to_json(state)


class TicketToRideObserver:
    """OpenSpiel's observer protocol over :func:`~ttr_rules.observe`: ``tensor``, ``dict``,
    ``set_from(state, player)`` and ``string_from(state, player)``."""

    def __init__(self, game: TicketToRideGame, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        layout = observation_layout(game.game_map, game.num_players())
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {f.name: self.tensor[f.start : f.stop].reshape(f.shape) for f in layout.fields}

    def set_from(self, state: TicketToRideState, player: int) -> None:
        game_state = state._shared.state
        if game_state is None:
            self.tensor[:] = 0.0
        else:
            self.tensor[:] = encode_state_observation(game_state, player)

    def string_from(self, state: TicketToRideState, player: int) -> str:
        game_state = state._shared.state
        if game_state is None:
            return ""
        view = to_json(observe(game_state, player))
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
