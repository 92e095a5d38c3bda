"""The games a web server holds: seats and their tokens, agents that move on the server, the
log each seat may read, and game records on disk.

Nothing here knows about HTTP: :class:`GameStore` is what the ASGI app (``ttr_rules.web.api``)
calls, and what another server (a WebSocket one, a chat bot) could reuse.

Hidden information stays in :attr:`Game.state`; a client is only ever given
:meth:`Game.view` (``observe`` for a seat, ``public_view`` for a spectator) and
:meth:`Game.log` (the steps filtered by :mod:`ttr_rules.web.secrecy`).

Tokens are 256-bit random strings (:func:`secrets.token_urlsafe`); the server keeps only their
SHA-256 digests and compares digests with :func:`hmac.compare_digest`, seat by seat, always
all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
from attrs import frozen

from .. import (
    Action,
    Event,
    GameRecord,
    GameState,
    PlayerView,
    available_maps,
    current_player,
    final_scores,
    format_action,
    is_terminal,
    new_game,
    observe,
    parse_action,
    public_view,
    read_record,
    record_game,
    replay,
    step,
    to_json,
    winners,
    write_record,
)
from .secrecy import seat_step

__all__ = [
    "Game",
    "GameNotFoundError",
    "GameSetupError",
    "GameStore",
    "Step",
    "StoreFullError",
    "agent_names",
]

log = logging.getLogger("ttr_rules.web")

#: The largest seed a client may choose (seeds are stored in JSON records).
MAX_SEED = 2**63 - 1


class GameNotFoundError(LookupError):
    """No game has this id."""


class GameSetupError(ValueError):
    """A request to create a game that cannot be honoured (unknown map or agent, bad seats)."""


class StoreFullError(RuntimeError):
    """The server holds its maximum number of unfinished games."""


def agent_names() -> list[str]:
    """The agents a seat can be given (``ttr_rules.agents.available_agents()``)."""
    from ..agents import available_agents

    return list(available_agents())


def _make_agent(name: str, seed: int) -> Any:
    from ..agents import make_agent

    return make_agent(name, seed=seed)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@frozen
class Step:
    """One applied action: who took it and what happened (the state after it is not kept)."""

    player: int
    action: Action
    events: tuple[Event, ...]


class Game:
    """One game on the server. Read :attr:`state` freely (it is immutable); change it only
    through :meth:`act` / :meth:`run_agents`, which hold :attr:`lock`."""

    def __init__(
        self,
        game_id: str,
        start: GameState,
        *,
        agents: Mapping[int, str],
        token_digests: Mapping[int, str],
        created: float,
        agent_seed: int,
    ) -> None:
        self.id = game_id
        self.start = start
        self.state = start
        self.agents = dict(agents)
        self.token_digests = dict(token_digests)
        self.created = created
        self.agent_seed = agent_seed
        self.steps: list[Step] = []
        self.texts: list[str] = []
        self.lock = asyncio.Lock()
        self.agent_error: str | None = None
        self._players = {
            seat: _make_agent(name, agent_seed + seat) for seat, name in agents.items()
        }
        self._changed = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ reading

    @property
    def seq(self) -> int:
        """How many actions were applied."""
        return len(self.steps)

    @property
    def over(self) -> bool:
        return is_terminal(self.state)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None. Compares every seat's digest in constant
        time (no early exit)."""
        given = _digest(token)
        found: int | None = None
        for seat, digest in self.token_digests.items():
            if hmac.compare_digest(given, digest):
                found = seat
        return found

    def view(self, seat: int | None) -> PlayerView:
        """``observe`` for a seat, ``public_view`` for a spectator (``seat`` None)."""
        return public_view(self.state) if seat is None else observe(self.state, seat)

    def log(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The steps after the first ``since`` as ``seat`` may see them."""
        game_map = self.state.map
        return [
            seat_step(i + 1, s.player, s.action, s.events, seat, game_map)
            for i, s in enumerate(self.steps[since:], start=since)
        ]

    def record(self) -> GameRecord:
        """The game so far as a :class:`~ttr_rules.GameRecord`."""
        return attrs.evolve(record_game(self.start, ()), actions=tuple(self.texts))

    def summary(self) -> dict[str, Any]:
        """Public facts about the game (no seed, no tokens)."""
        return {
            "id": self.id,
            "map": self.state.map.name,
            "players": self.state.num_players,
            "seats": [
                {"seat": seat, "agent": self.agents.get(seat)}
                for seat in range(self.state.num_players)
            ],
            "seq": self.seq,
            "turn": self.state.turn,
            "phase": self.state.phase.value,
            "current": current_player(self.state),
            "over": self.over,
            "created": self.created,
            "agent_error": self.agent_error,
        }

    def tickets(self, seat: int) -> list[dict[str, Any]]:
        """``seat``'s kept and offered tickets with their cities and points; ``completed``
        says whether the seat's own routes already connect the two cities (stations count only
        at the end, E58)."""
        state = self.state
        game_map = state.map
        parent = {city: city for city in game_map.cities}

        def root(city: str) -> str:
            while parent[city] != city:
                parent[city] = parent[parent[city]]
                city = parent[city]
            return city

        for route, owner in zip(game_map.routes, state.route_owner, strict=True):
            if owner == seat:
                parent[root(route.a)] = root(route.b)
        player = state.players[seat]
        out = []
        for kept, ids in ((True, player.tickets), (False, player.offered)):
            for ticket_id in ids:
                ticket = game_map.tickets[ticket_id]
                out.append(
                    {
                        "id": ticket.id,
                        "a": ticket.a,
                        "b": ticket.b,
                        "points": ticket.points,
                        "long": ticket.long,
                        "kept": kept,
                        "completed": root(ticket.a) == root(ticket.b),
                    }
                )
        return out

    def scores(self) -> dict[str, Any]:
        """The final scores and winners (call only when the game is over)."""
        return {
            "scores": [json.loads(to_json(score)) for score in final_scores(self.state)],
            "winners": list(winners(self.state)),
        }

    async def wait_change(self, seq: int, timeout: float) -> None:
        """Wait until more than ``seq`` actions were applied (or ``timeout`` seconds)."""
        if self.seq > seq:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    # ------------------------------------------------------------------ changing

    def _apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` of ``seat`` (raises ``IllegalActionError``); the caller holds the
        lock."""
        result = step(self.state, action, seat)
        self.texts.append(format_action(action, self.state.map))
        self.steps.append(Step(seat, action, result.events))
        self.state = result.state
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def replay_texts(self, texts: list[str]) -> None:
        """Re-apply recorded actions (used when reloading a saved game)."""
        for text in texts:
            seat = self.state.current
            self._apply(seat, parse_action(text, self.state))

    def is_agent_turn(self) -> bool:
        seat = current_player(self.state)
        return seat is not None and seat in self._players and self.agent_error is None

    async def agent_move(self) -> bool:
        """Let the agent to act move once; False when it is no agent's turn. The caller holds
        the lock."""
        if not self.is_agent_turn():
            return False
        seat = self.state.current
        view = observe(self.state, seat)
        agent = self._players[seat]
        try:
            action = await asyncio.to_thread(agent.act, view)
            self._apply(seat, action)
        except Exception as exc:  # an agent's bug must not take the server down
            self.agent_error = f"agent {self.agents[seat]!r} of seat {seat} failed: {exc}"
            log.exception("game %s: %s", self.id, self.agent_error)
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()
            return False
        return True


def _new_id() -> str:
    return secrets.token_hex(8)


class GameStore:
    """All games of a server, optionally saved under ``data_dir`` as records.

    For every game two files are written after each action: ``<id>.record.json`` (the
    :class:`~ttr_rules.GameRecord`, written with :func:`~ttr_rules.write_record`) and
    ``<id>.seats.json`` (which seats are agents, the SHA-256 digests of the tokens, the
    creation time). :meth:`load` replays them after a restart.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str] | None = None,
        *,
        max_games: int = 1000,
        agent_delay: float = 0.0,
    ) -> None:
        self.data_dir = None if data_dir is None else Path(data_dir)
        self.max_games = max_games
        self.agent_delay = agent_delay
        self.games: dict[str, Game] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ creating and finding

    def get(self, game_id: str) -> Game:
        try:
            return self.games[game_id]
        except KeyError:
            raise GameNotFoundError(f"no game {game_id!r}") from None

    def create(
        self,
        map_name: str = "europe",
        players: int = 2,
        agents: Mapping[int, str] | None = None,
        seed: int | None = None,
    ) -> tuple[Game, dict[int, str]]:
        """A new game and the tokens of its human seats (seats not in ``agents``).

        ``seed`` None draws one with :mod:`secrets` (a seed known to a player reveals the deck).
        Raises :class:`GameSetupError` for an unknown map or agent, a bad seat or player count,
        :class:`StoreFullError` when the store is full of unfinished games.
        """
        agents = dict(agents or {})
        if map_name not in available_maps():
            raise GameSetupError(
                f"unknown map {map_name!r}; available: {', '.join(available_maps())}"
            )
        known = agent_names()
        for seat, name in agents.items():
            if not 0 <= seat < players:
                raise GameSetupError(f"seat {seat} does not exist in a {players}-player game")
            if name not in known:
                raise GameSetupError(f"unknown agent {name!r}; available: {', '.join(known)}")
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        try:
            start = new_game(map_name, players, seed)
        except ValueError as exc:
            raise GameSetupError(str(exc)) from None
        self._make_room()
        tokens = {seat: secrets.token_urlsafe(32) for seat in range(players) if seat not in agents}
        game = Game(
            _new_id(),
            start,
            agents=agents,
            token_digests={seat: _digest(token) for seat, token in tokens.items()},
            created=time.time(),
            agent_seed=seed,
        )
        self.games[game.id] = game
        self.save(game)
        self.kick(game)
        return game, tokens

    def _make_room(self) -> None:
        if len(self.games) < self.max_games:
            return
        finished = [g for g in self.games.values() if g.over]
        if not finished:
            raise StoreFullError(f"the server holds {self.max_games} unfinished games")
        oldest = min(finished, key=lambda g: g.created)
        del self.games[oldest.id]

    # ------------------------------------------------------------------ acting

    async def act(self, game: Game, seat: int, text: str) -> None:
        """Parse ``text`` in the current state and apply it for ``seat``; raises
        ``InvalidActionError`` / ``IllegalActionError`` (the state is then unchanged). The
        agents to act next are started."""
        async with game.lock:
            action = parse_action(text, game.state)
            game._apply(seat, action)
            self.save(game)
        self.kick(game)

    def kick(self, game: Game) -> None:
        """Start the game's agent driver when an agent is to act and none runs."""
        if not game.is_agent_turn() or (game._driver is not None and not game._driver.done()):
            return
        task = asyncio.get_running_loop().create_task(self._drive(game))
        game._driver = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(self, game: Game) -> None:
        while game.is_agent_turn():
            if self.agent_delay:
                await asyncio.sleep(self.agent_delay)
            async with game.lock:
                moved = await game.agent_move()
                if moved:
                    self.save(game)
            if not moved:
                return

    async def idle(self) -> None:
        """Wait until no agent is thinking (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.idle()

    # ------------------------------------------------------------------ saving and loading

    def save(self, game: Game) -> None:
        """Write the game's record and seats file (atomically) when there is a data dir."""
        if self.data_dir is None:
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        record_path = self.data_dir / f"{game.id}.record.json"
        tmp = record_path.with_suffix(".tmp")
        write_record(tmp, game.record())
        os.replace(tmp, record_path)
        seats_path = self.data_dir / f"{game.id}.seats.json"
        if not seats_path.exists():
            meta = {
                "id": game.id,
                "created": game.created,
                "agents": {str(seat): name for seat, name in game.agents.items()},
                "token_sha256": {str(seat): d for seat, d in game.token_digests.items()},
                "agent_seed": game.agent_seed,
            }
            tmp = seats_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
            os.replace(tmp, seats_path)

    def load(self) -> list[str]:
        """Reload every saved game of the data dir by replaying its record; returns the ids of
        the games that could not be reloaded (they are logged and skipped)."""
        failed: list[str] = []
        data_dir = self.data_dir
        if data_dir is None or not data_dir.is_dir():
            return failed
        for seats_path in sorted(data_dir.glob("*.seats.json")):
            game_id = seats_path.name.removesuffix(".seats.json")
            try:
                game = self._load_one(game_id, seats_path, data_dir / f"{game_id}.record.json")
            except Exception as exc:  # a damaged file must not stop the others
                log.error("cannot reload game %s: %s", game_id, exc)
                failed.append(game_id)
                continue
            self.games[game.id] = game
        return failed

    def _load_one(self, game_id: str, seats_path: Path, record_path: Path) -> Game:
        meta = json.loads(seats_path.read_text(encoding="utf-8"))
        record = read_record(record_path)
        replay(record)  # raises RecordError naming the failing action
        start = new_game(record.map, record.players, record.seed, record.rules, record.first_player)
        game = Game(
            game_id,
            start,
            agents={int(seat): name for seat, name in meta["agents"].items()},
            token_digests={int(seat): d for seat, d in meta["token_sha256"].items()},
            created=float(meta["created"]),
            agent_seed=int(meta["agent_seed"]),
        )
        game.replay_texts(list(record.actions))
        return game

    def resume(self) -> None:
        """Start the agents of every reloaded game whose turn it is (needs a running loop)."""
        for game in self.games.values():
            self.kick(game)
