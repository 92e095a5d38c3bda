"""One game from a description: :class:`GameSpec` in, :class:`GameResult` out.

This is the code every backend runs (in this process, in a worker process or in a Ray task), so
it is a pure function of the spec: the same spec gives the same result on any machine. A game's
agents are seeded from the game's seed and their seat (:func:`agent_seed`), never from a shared
generator, which is what keeps results independent of how games are spread over workers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from attrs import field, frozen

from .. import (
    Action,
    ClaimRoute,
    DeclineTunnel,
    GameMap,
    GameRecord,
    GameState,
    PayTunnel,
    PlayerScore,
    PlayerView,
    Rules,
    apply_action,
    current_player,
    final_scores,
    format_action,
    is_terminal,
    load_map,
    new_game,
    observe,
    winners,
)
from ..errors import AgentError, IllegalActionError
from ..maps.index import map_index
from ..records import with_result
from ..scoring.tickets import ticket_connected
from ..scoring.unionfind import component_labels

__all__ = [
    "AgentSpec",
    "GameResult",
    "GameSpec",
    "TunnelCounts",
    "agent_seed",
    "game_specs",
    "play_spec",
]


def _options(value: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted((str(k), v) for k, v in items))


@frozen
class AgentSpec:
    """An agent by name (see ``ttr_rules.agents.available_agents()``) and its options.

    ``options`` are keyword arguments of ``make_agent`` (kept as sorted pairs so that the spec
    is hashable and pickles compactly).

    >>> AgentSpec.parse("mcts:iterations=200:exploration=1.4")
    AgentSpec(name='mcts', options=(('exploration', 1.4), ('iterations', 200)))
    >>> str(AgentSpec("greedy"))
    'greedy'
    """

    name: str
    options: tuple[tuple[str, Any], ...] = field(default=(), converter=_options)

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        """``name`` or ``name:key=value:key=value`` (values read as JSON when they parse,
        else as text). Raises :class:`ValueError` for an empty name or an option without ``=``.
        """
        name, *parts = text.strip().split(":")
        if not name:
            raise ValueError(f"no agent name in {text!r}")
        options: dict[str, Any] = {}
        for part in parts:
            key, sep, raw = part.partition("=")
            if not sep or not key:
                raise ValueError(f"agent option {part!r} in {text!r} is not key=value")
            try:
                options[key] = json.loads(raw)
            except ValueError:
                options[key] = raw
        return cls(name, options)

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={json.dumps(v)}" for k, v in self.options)])


def _agents(value: Iterable[str | AgentSpec]) -> tuple[AgentSpec, ...]:
    return tuple(a if isinstance(a, AgentSpec) else AgentSpec.parse(a) for a in value)


@frozen
class GameSpec:
    """Everything that decides one game: map, rules, players, agents and seed.

    ``map`` is an installed map's name (workers load it themselves) or a :class:`GameMap`
    (sent to the workers). ``agents`` has one entry per seat (names or :class:`AgentSpec`);
    empty means ``random`` in every seat. ``record`` asks for the game's record in the
    result. A game still running after ``max_decisions`` decisions stops with the termination
    ``"limit"`` (a safety net for custom maps and agents).

    >>> spec = GameSpec(seed=7, players=3, agents=["greedy", "random", "random"])
    >>> spec.agents[0]
    AgentSpec(name='greedy', options=())
    """

    seed: int
    map: str | GameMap = "europe"
    players: int = 4
    agents: tuple[AgentSpec, ...] = field(default=(), converter=_agents)
    rules: Rules | None = None
    first_player: int = 0
    record: bool = False
    max_decisions: int = 100_000

    def seat_agents(self) -> tuple[AgentSpec, ...]:
        """The agent of every seat (``random`` where ``agents`` is empty)."""
        if not self.agents:
            return (AgentSpec("random"),) * self.players
        if len(self.agents) != self.players:
            raise ValueError(f"{len(self.agents)} agents given for {self.players} players")
        return self.agents


def game_specs(
    games: int,
    *,
    seed: int = 0,
    map: str | GameMap = "europe",
    players: int = 4,
    agents: Sequence[str | AgentSpec] = (),
    rules: Rules | None = None,
    record: bool = False,
) -> Iterable[GameSpec]:
    """``games`` specs with consecutive seeds from ``seed`` (produced lazily).

    >>> [s.seed for s in game_specs(3, seed=10)]
    [10, 11, 12]
    """
    chosen = _agents(agents)
    return (
        GameSpec(seed=s, map=map, players=players, agents=chosen, rules=rules, record=record)
        for s in range(seed, seed + games)
    )


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of the game seeded ``game_seed``: ``game_seed + seat``,
    as in :func:`ttr_rules.agents.play_game`, so that a spec and ``play_game`` with the same
    seed play the same game.

    >>> agent_seed(10, 2)
    12
    """
    return game_seed + seat


@frozen
class TunnelCounts:
    """Tunnel attempts in one game (E39–E47): claims of tunnel routes, those that owed
    nothing, those paid (``extra_cards`` extra cards in all) and those declined."""

    attempts: int = 0
    free: int = 0
    paid: int = 0
    declined: int = 0
    extra_cards: int = 0


@frozen
class GameResult:
    """The outcome of one game: the row every backend streams back.

    ``scores`` holds the full breakdown (:class:`~ttr_rules.PlayerScore`, by seat);
    ``termination`` is ``"trains"`` (the final round after a player's trains ran low, E66),
    ``"passes"`` (every player passed in a row, E20) or ``"limit"`` (stopped at the spec's
    ``max_decisions``). ``route_owner`` is the final owner of every route; ``tickets`` the
    kept tickets of every seat and ``completed`` those it completed (stations counted).
    ``seconds`` (the time the game took) is not part of equality, so that rows of the same
    seed compare equal whatever machine played them.
    """

    seed: int
    map: str
    agents: tuple[str, ...]
    scores: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    decisions: int
    turns: int
    termination: str
    route_owner: tuple[int | None, ...]
    tickets: tuple[tuple[int, ...], ...]
    completed: tuple[tuple[int, ...], ...]
    tunnels: TunnelCounts
    record: GameRecord | None = None
    seconds: float = field(default=0.0, eq=False)

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def totals(self) -> tuple[int, ...]:
        """Every seat's final score."""
        return tuple(s.total for s in self.scores)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``ttr simulate --json`` (one line per game)."""
        return {
            "seed": self.seed,
            "map": self.map,
            "agents": list(self.agents),
            "scores": list(self.totals),
            "winners": list(self.winners),
            "decisions": self.decisions,
            "turns": self.turns,
            "termination": self.termination,
            "breakdown": [
                {
                    "routes": s.route_points,
                    "tickets": s.ticket_points,
                    "completed": s.tickets_completed,
                    "failed": s.tickets_failed,
                    "stations": s.station_bonus,
                    "longest": s.longest_path,
                    "express": s.express_bonus,
                }
                for s in self.scores
            ],
        }


class _Agent(Protocol):
    def act(self, view: PlayerView) -> Action: ...


def _make_agent(spec: AgentSpec, seat: int, game_seed: int) -> _Agent:
    from ..agents import make_agent

    try:
        agent: _Agent = make_agent(
            spec.name, seed=agent_seed(game_seed, seat), **dict(spec.options)
        )
    except (Exception, SystemExit) as exc:
        raise AgentError(str(spec), seat, f"could not be built: {_what(exc)}", game_seed) from None
    return agent


def _agent_move(
    agent: _Agent, spec: AgentSpec, seat: int, state: GameState, seed: int
) -> tuple[Action, GameState]:
    """The agent's action for its view and the state after it. An agent that raises
    (``sys.exit`` included) or answers an illegal action is an
    :class:`~ttr_rules.errors.AgentError` naming it and its seat, which crosses processes
    whole (the original error may not pickle)."""
    try:
        action = agent.act(observe(state, seat))
        return action, apply_action(state, action)
    except IllegalActionError as exc:
        raise AgentError(str(spec), seat, f"chose an {_shortened(str(exc))}", seed) from None
    except (Exception, SystemExit) as exc:
        raise AgentError(str(spec), seat, f"raised {_what(exc)}", seed) from None


def _what(exc: BaseException) -> str:
    """An exception as one short line: its class and the start of its text."""
    text = _shortened(str(exc))
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _shortened(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


#: Maps received as objects, by digest: a worker reuses one copy (and its derived tables).
_MAPS: dict[str, GameMap] = {}


def _resolve(game_map: str | GameMap) -> GameMap:
    if isinstance(game_map, GameMap):
        return _MAPS.setdefault(game_map.digest, game_map)
    return load_map(game_map)


def play_spec(spec: GameSpec) -> GameResult:
    """Play the game ``spec`` describes, every agent acting on its own view.

    >>> result = play_spec(GameSpec(seed=3, players=2))
    >>> result == play_spec(GameSpec(seed=3, players=2))
    True
    >>> result.termination in ("trains", "passes")
    True
    """
    began = time.perf_counter()
    game_map = _resolve(spec.map)
    seats = spec.seat_agents()
    start = new_game(
        game_map, spec.players, seed=spec.seed, rules=spec.rules, first_player=spec.first_player
    )
    agents = [_make_agent(a, seat, spec.seed) for seat, a in enumerate(seats)]
    routes = game_map.routes
    state = start
    actions: list[Action] = []
    attempts = paid = declined = extra = 0
    while not is_terminal(state):
        if len(actions) >= spec.max_decisions:
            break
        seat = current_player(state)
        assert seat is not None  # not terminal
        action, following = _agent_move(agents[seat], seats[seat], seat, state, spec.seed)
        if isinstance(action, ClaimRoute):
            attempts += routes[action.route].tunnel
        elif isinstance(action, PayTunnel):
            paid += 1
            extra += state.tunnel.owed if state.tunnel is not None else 0
        elif isinstance(action, DeclineTunnel):
            declined += 1
        state = following
        actions.append(action)
    scores = final_scores(state)
    tickets = tuple(p.tickets for p in state.players)
    return GameResult(
        seed=spec.seed,
        map=game_map.name,
        agents=tuple(str(a) for a in seats),
        scores=scores,
        winners=winners(state),
        decisions=len(actions),
        turns=state.turn,
        termination=_termination(state),
        route_owner=state.route_owner,
        tickets=tickets,
        completed=_completed(state, scores),
        tunnels=TunnelCounts(attempts, attempts - paid - declined, paid, declined, extra),
        record=_record(start, actions, state) if spec.record else None,
        seconds=time.perf_counter() - began,
    )


def _termination(state: GameState) -> str:
    if not is_terminal(state):
        return "limit"
    return "passes" if state.passes >= state.num_players else "trains"


def _completed(state: GameState, scores: Sequence[PlayerScore]) -> tuple[tuple[int, ...], ...]:
    """The kept tickets each seat completed: connected by its routes plus the opponent routes
    its stations were assigned in scoring (E56, E65); a ticket to several destinations when
    one is reached (U31)."""
    index = map_index(state.map)
    ends = index.route_ends
    result = []
    for seat, player in enumerate(state.players):
        used = [rid for _, rid in scores[seat].station_routes if rid is not None]
        owned = [rid for rid, owner in enumerate(state.route_owner) if owner == seat]
        network = component_labels(len(index.city_routes), [ends[r] for r in owned + used])
        done = tuple(tid for tid in player.tickets if ticket_connected(index, tid, network))
        result.append(done)
    return tuple(result)


def _record(start: GameState, actions: Sequence[Action], end: GameState) -> GameRecord:
    """The game's record, built from what was played (no replay needed), with its result
    when the game is over."""
    game_map = start.map
    record = GameRecord(
        map=game_map.name,
        players=start.num_players,
        seed=start.seed,
        actions=tuple(format_action(a, game_map) for a in actions),
        first_player=start.first_player,
        rules=None if start.rules == game_map.rules else start.rules,
        map_digest=game_map.digest,
        map_version=game_map.version,
    )
    return with_result(record, end)
