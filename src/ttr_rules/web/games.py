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
import errno
import hashlib
import hmac
import json
import logging
import os
import pickle
import random
import secrets
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
from attrs import frozen
from pebble import ProcessPool

from .. import (
    Action,
    Event,
    GameRecord,
    GameState,
    PlayerView,
    StepResult,
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
    view_legal_actions,
    winners,
)
from ..frontend import ticket_status
from ..game import check_player_count
from ..maps import available_maps, load_map, playable_maps
from ..records import with_result
from .labels import game_facts, score_words, step_words, ticket_words
from .secrecy import seat_step

__all__ = [
    "FolderLock",
    "Game",
    "GameNotFoundError",
    "GameSetupError",
    "GameStore",
    "NotYourTurnError",
    "Offer",
    "SaveError",
    "Step",
    "StoreFullError",
    "agent_names",
    "find_offer",
    "write_private",
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


class NotYourTurnError(RuntimeError):
    """A seat posted an action while another seat is to act (its text is not read)."""


class SaveError(OSError):
    """The game could not be saved; the action was not applied."""


class DataDirError(ValueError):
    """The data directory cannot hold games (a file, or not writable)."""


def map_unavailable(name: str, offered: tuple[str, ...] | None = None) -> str:
    """Why the map ``name`` is not offered, for a client: not installed, or installed with a
    plugin that fails to load (its reason is for the server's operator: ``ttr maps``).
    ``offered``: the maps offered (default: :func:`~ttr_rules.maps.playable_maps`).

    >>> map_unavailable("atlantis")
    "unknown map 'atlantis'; available: europe, ..."
    """
    available = ", ".join(playable_maps() if offered is None else offered)
    if name in available_maps():
        return (
            f"map {name!r} cannot be played: its plugin fails to load (the server's "
            f"'ttr maps' says why); available: {available}"
        )
    return f"unknown map {name[:100]!r}; available: {available}"


def agent_names() -> list[str]:
    """The agents a seat can be given (``ttr_rules.agents.available_agents()``): the
    difficulty levels first, weakest first, then the others by name.

    >>> agent_names()[:3]
    ['easy', 'medium', 'hard']
    """
    from ..agents import LEVELS, available_agents

    names = available_agents()
    return [n for n in LEVELS if n in names] + [n for n in names if n not in LEVELS]


def agent_unavailable(name: str, offered: tuple[str, ...]) -> str:
    """Why the agent ``name`` is not offered: not installed, or a plugin that cannot be built
    (why is for the server's operator: its log says).

    >>> agent_unavailable("nobody", ("easy", "medium"))
    "unknown agent 'nobody'; available: easy, medium"
    """
    available = ", ".join(offered)
    if name in agent_names():
        return (
            f"agent {name!r} cannot be played: its plugin cannot be built (the server's log "
            f"says why); available: {available}"
        )
    return f"unknown agent {name[:100]!r}; available: {available}"


@frozen
class Offer:
    """What a server offers: the maps whose plugins load and the agents that can be built,
    found once (:meth:`GameStore.offer`), when the server starts, off its event loop (a
    plugin is imported then, within :data:`~ttr_rules.maps.LOAD_SECONDS`)."""

    maps: tuple[str, ...]
    agents: tuple[str, ...]


def find_offer() -> Offer:
    """The maps that load and the agents that can be built, in the order offered.

    >>> offer = find_offer()
    >>> "europe" in offer.maps, offer.agents[:3]
    (True, ('easy', 'medium', 'hard'))
    """
    from ..maps.registry import LOAD_SECONDS  # read at each call (tests shorten it)

    # Every agent at once, each in a thread of its own: slow plugins cost one bound in all.
    # (Map plugins load one after the other, each within its own bound: loaded at once, the
    # maps that work would share the processor and could overrun it on a busy machine.)
    names = agent_names()
    built: dict[str, bool] = {}
    agents = [threading.Thread(target=_build, args=(n, built), daemon=True) for n in names]
    for thread in agents:
        thread.start()
    maps = playable_maps()
    began = time.monotonic()
    for thread in agents:
        thread.join(max(0.0, began + LOAD_SECONDS - time.monotonic()))
    for name in names:
        if name not in built:
            log.warning("agent %r is not offered: not built within %g s", name, LOAD_SECONDS)
    return Offer(maps, tuple(name for name in names if built.get(name)))


def _build(name: str, built: dict[str, bool]) -> None:
    """Note in ``built`` whether the agent ``name`` can be built (a plugin may raise, call
    ``sys.exit()`` or hang: the caller waits for a bound only)."""
    try:
        _make_agent(name, 0)
        built[name] = True
    except BaseException as exc:  # an agent plugin's sys.exit() included
        log.warning("agent %r is not offered: it cannot be built (%s)", name, _kind(exc))
        built[name] = False


def _kind(exc: BaseException) -> str:
    return type(exc).__name__


def _make_agent(name: str, seed: int) -> Any:
    from ..agents import make_agent

    return make_agent(name, seed=seed)


def _built_agents(agents: Mapping[int, str], seed: int) -> dict[int, Any]:
    """The agent of every seat, built; :class:`GameSetupError` naming the first that cannot
    be (an agent plugin's ``sys.exit()`` included)."""
    built = {}
    for seat, name in agents.items():
        try:
            built[seat] = _make_agent(name, seed + seat)
        except (Exception, SystemExit) as exc:
            raise GameSetupError(f"agent {name!r} cannot be built ({_kind(exc)})") from None
    return built


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
    through :meth:`GameStore.act` / the store's agent driver, which hold :attr:`lock`."""

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
        #: Why the server let the game go (it expired, or made room), or None while it holds it;
        #: its streams end with a last event saying so.
        self.closed: str | None = None
        #: When a request or a move last touched the game (``time.monotonic()``).
        self.touched = time.monotonic()
        #: Human seats whose token has been shown to the server since it started.
        self.seen: set[int] = set()
        self._players = _built_agents(agents, agent_seed)
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

    def touch(self) -> None:
        """Note that someone uses the game (it does not expire while used)."""
        self.touched = time.monotonic()

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None. Compares every seat's digest in constant
        time (no early exit)."""
        given = _digest(token)
        found: int | None = None
        for seat, digest in self.token_digests.items():
            if hmac.compare_digest(given, digest):
                found = seat
        if found is not None:
            self.seen.add(found)
        return found

    def open_seats(self) -> int:
        """How many human seats nobody has taken yet: no request has come with the seat's token
        and the seat has made no move (which also counts for games loaded from disk). A
        finished game has none."""
        if self.over:
            return 0
        moved = {step.player for step in self.steps}
        return sum(1 for seat in self.token_digests if seat not in self.seen | moved)

    def view(self, seat: int | None) -> PlayerView:
        """``observe`` for a seat, ``public_view`` for a spectator (``seat`` None)."""
        return public_view(self.state) if seat is None else observe(self.state, seat)

    def log(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The steps after the first ``since`` as ``seat`` may see them."""
        game_map = self.state.map
        return [
            {
                **seat_step(i + 1, s.player, s.action, s.events, seat, game_map),
                "text": step_words(s.events, game_map, seat, self.agents),
            }
            for i, s in enumerate(self.steps[since:], start=since)
        ]

    def record(self) -> GameRecord:
        """The game so far as a :class:`~ttr_rules.GameRecord`; a finished game's record
        carries its ``final_digest`` and ``scores`` (so a cut record cannot pass for it)."""
        return self._record_of(self.texts, self.state)

    def _record_of(self, texts: list[str], state: GameState) -> GameRecord:
        """The record of this game's start followed by ``texts``, which lead to ``state``."""
        return with_result(attrs.evolve(record_game(self.start, ()), actions=tuple(texts)), state)

    def summary(self) -> dict[str, Any]:
        """Public facts about the game (no seed, no tokens), also in words."""
        facts = {
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
            "open_seats": self.open_seats(),
            "agent_error": self.agent_error,
        }
        return facts | game_facts(facts, time.time())

    def tickets(self, seat: int) -> list[dict[str, Any]]:
        """``seat``'s kept and offered tickets with their cities and points; ``completed``
        says whether the seat's own routes already connect the two cities (stations count only
        at the end, E58), or a ticket's origin to one of its destinations (U31); ``line`` the
        places a picture joins (``frontend.ticket_status``), read from the seat's own view."""
        view = observe(self.state, seat)
        out = []
        for kept in (True, False):
            if view.seats[seat].offered is None and not kept:
                continue
            for status in ticket_status(view, seat, offered=not kept):
                ticket = status.ticket
                out.append(
                    {
                        "id": ticket.id,
                        "a": ticket.a,
                        "b": ticket.b,
                        "points": ticket.points,
                        "long": ticket.long,
                        "kept": kept,
                        "completed": status.done,
                        "text": ticket.words,
                        "destinations": [list(d) for d in ticket.destinations],
                        "penalty": ticket.penalty,
                        "line": list(status.line),
                        "value": status.points,
                    }
                    | ticket_words(status, self.over)
                )
        return out

    def scores(self, seat: int | None = None) -> dict[str, Any]:
        """The final scores and winners, with the table in words for ``seat`` (call only when
        the game is over)."""
        return score_words(self.state, seat, self.agents) | {
            "scores": [json.loads(to_json(score)) for score in final_scores(self.state)],
            "winners": list(winners(self.state)),
            "bonus_titles": {
                name: self.state.map.bonus_title(name) for name in self.state.rules.bonuses
            },
        }

    async def wait_change(self, seq: int, timeout: float) -> None:
        """Wait until more than ``seq`` actions were applied (or ``timeout`` seconds)."""
        if self.seq > seq:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    # ------------------------------------------------------------------ changing

    def check_turn(self, seat: int) -> None:
        """Raise :class:`NotYourTurnError` unless ``seat`` is to act (or the game is over:
        then the action is refused as illegal, for everyone alike)."""
        current = current_player(self.state)
        if current is not None and current != seat:
            raise NotYourTurnError(f"seat {current} is to act, not seat {seat}")

    def applied(self, seat: int, action: Action, text: str, result: StepResult) -> None:
        """Record that ``seat``'s ``action`` (written ``text``) led to ``result``; the caller
        holds the lock and has saved the game with it."""
        self.texts.append(text)
        self.steps.append(Step(seat, action, result.events))
        self.state = result.state
        self.touch()
        self.notify()

    def close(self, why: str) -> None:
        """The server lets the game go: its agent stops and its streams end, saying ``why``."""
        self.closed = why
        if self._driver is not None:
            self._driver.cancel()
        self.notify()

    def notify(self) -> None:
        """Wake the streams waiting for a change."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def replay_texts(self, texts: list[str]) -> None:
        """Re-apply recorded actions (used when reloading a saved game)."""
        for text in texts:
            seat = self.state.current
            action = parse_action(text, self.state)
            self.applied(seat, action, text, step(self.state, action, seat))

    def is_agent_turn(self) -> bool:
        seat = current_player(self.state)
        return seat is not None and seat in self._players

    def agent_of(self, seat: int) -> Any:
        return self._players[seat]

    def set_agent(self, seat: int, agent: Any) -> None:
        """Keep the agent as it came back from a worker (its random state moved on)."""
        self._players[seat] = agent


def _new_id() -> str:
    return secrets.token_hex(8)


class _AgentFailed(Exception):
    """An agent's ``act`` failed (``sys.exit()`` included), or its answer could not be sent
    back: the class name of its error only (an error's text may quote the agent's view)."""


def _think(agent: Any, view: PlayerView) -> tuple[Action, Any]:
    """The agent's action and the agent after it (its random state, its caches)."""
    try:
        return agent.act(view), agent
    except BaseException as exc:  # sys.exit() too: in a thread it would stop the server
        log.warning("agent %r failed", getattr(agent, "name", "?"), exc_info=exc)
        raise _AgentFailed(type(exc).__name__) from None


def _think_in_process(agent: Any, view: PlayerView) -> bytes:
    """Run in a worker process: :func:`_think`'s answer, pickled here, so that an answer that
    does not pickle is this agent's failure, never the pool's."""
    answer = _think(agent, view)
    try:
        return pickle.dumps(answer)
    except Exception as exc:
        raise _AgentFailed(type(exc).__name__) from None


def _lower_priority() -> None:
    """Worker processes think at a lower priority than the server answers requests."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _fallback_action(view: PlayerView, seed: int) -> Action:
    """A random legal action, for an agent that ran out of its time."""
    return random.Random(seed).choice(view_legal_actions(view))


def write_private(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically: a temporary file in the same
    folder, created owner-only and exclusively (never through a symlink), flushed to disk,
    then renamed over ``path`` (a symlink at ``path`` is replaced, never followed)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def check_data_dir(data_dir: str | os.PathLike[str]) -> Path:
    """The data directory, created owner-only if missing; raises :class:`DataDirError` for a
    path that is not a directory or that this process cannot write."""
    path = Path(data_dir)
    if path.exists() and not path.is_dir():
        raise DataDirError(f"--data {str(path)!r} is not a directory")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise DataDirError(
            f"cannot create the data directory {str(path)!r}: {exc.strerror}"
        ) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise DataDirError(f"the data directory {str(path)!r} is not writable")
    return path


class FolderLock:
    """One server per data folder: an exclusive, non-blocking ``flock`` on the folder itself,
    held while the store lives. The operating system lets it go when the process ends, however
    it ends (a crash leaves no stale lock, and no file behind); :meth:`release` lets it go
    before. A folder already locked is a :class:`DataDirError` saying so. (Windows has no
    ``flock``: there the folder is not locked.)
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._fd: int | None = None
        if sys.platform == "win32":
            return
        import fcntl

        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise DataDirError(
                    f"the data directory {str(folder)!r} is in use by another server "
                    "(one server per folder): stop it first, or choose another --data folder"
                ) from None
            raise DataDirError(
                f"cannot lock the data directory {str(folder)!r}: {exc.strerror}"
            ) from None
        self._fd = fd

    def release(self) -> None:
        """Let the folder go (at once; also when the lock is collected)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __del__(self) -> None:
        self.release()


class GameStore:
    """All games of a server, optionally saved under ``data_dir`` as records.

    For every game two files are written: ``<id>.record.json`` (the
    :class:`~ttr_rules.GameRecord`, rewritten before each action is applied) and
    ``<id>.seats.json`` (which seats are agents, the SHA-256 digests of the tokens, the
    creation time). An action whose save fails is not applied (:class:`SaveError`).
    :meth:`load` replays them after a restart.

    Agents think in a pool of ``agent_workers`` processes (0: in a thread of this process),
    each move within ``move_seconds`` (past it, a random legal move is played for them).
    Unfinished games nobody touched for ``idle_seconds`` are dropped (with their files);
    ``max_games`` bounds the unfinished games held, and the finished ones kept besides.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str] | None = None,
        *,
        max_games: int = 1000,
        agent_delay: float = 0.0,
        agent_workers: int = 2,
        move_seconds: float = 30.0,
        idle_seconds: float | None = 24 * 3600.0,
    ) -> None:
        self.data_dir = None if data_dir is None else check_data_dir(data_dir)
        #: The lock that makes this store the one owner of ``data_dir`` (see :class:`FolderLock`).
        self.folder_lock = None if self.data_dir is None else FolderLock(self.data_dir)
        self.max_games = max_games
        self.agent_delay = agent_delay
        self.agent_workers = agent_workers
        self.move_seconds = move_seconds
        self.idle_seconds = idle_seconds
        self.games: dict[str, Game] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pool: ProcessPool | None = None
        self._offer: Offer | None = None

    def offer(self) -> Offer:
        """The maps and agents this server offers, found at the first call (the app's start
        calls it in a thread, so that no plugin is imported on the event loop) and kept."""
        if self._offer is None:
            self._offer = find_offer()
        return self._offer

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
        :class:`StoreFullError` when the store is full of unfinished games,
        :class:`SaveError` when the game cannot be saved (it is then not created).
        """
        agents = dict(agents or {})
        offer = self.offer()
        if map_name not in offer.maps:  # a broken plugin's map is never offered
            raise GameSetupError(map_unavailable(map_name, offer.maps))
        game_map = load_map(map_name)
        try:  # before the seats are read: a seat's message names the player count
            check_player_count(players, game_map.rules)
        except ValueError as exc:
            raise GameSetupError(str(exc)) from None
        for seat, name in agents.items():
            if not 0 <= seat < players:
                raise GameSetupError(f"seat {seat} does not exist in a {players}-player game")
            if name not in offer.agents:
                raise GameSetupError(agent_unavailable(name, offer.agents))
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        try:
            start = new_game(game_map, players, seed)
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
        self._save(game, game.texts, game.state)
        self.games[game.id] = game
        self.kick(game)
        return game, tokens

    def live_games(self) -> int:
        """How many games are not over."""
        return sum(1 for game in self.games.values() if not game.over)

    def _make_room(self) -> None:
        self.expire()
        if self.live_games() >= self.max_games:
            raise StoreFullError(
                f"the server holds {self.max_games} unfinished games; try again later"
            )
        finished = sorted((g for g in self.games.values() if g.over), key=lambda g: g.touched)
        for game in finished[: max(0, len(finished) - self.max_games + 1)]:
            del self.games[game.id]  # its files stay: a finished game is a record to keep
            game.close("the server made room for new games")

    def expire(self, now: float | None = None) -> list[str]:
        """Drop the unfinished games nobody touched for ``idle_seconds`` (and their files);
        returns their ids."""
        if self.idle_seconds is None:
            return []
        now = time.monotonic() if now is None else now
        idle = [
            game
            for game in self.games.values()
            if not game.over and now - game.touched > self.idle_seconds and not game.lock.locked()
        ]
        for game in idle:
            del self.games[game.id]
            game.close(f"nobody played for {self.idle_seconds:g} seconds: the game expired")
            self._delete_files(game.id)
            log.info("game %s expired after %.0f idle seconds", game.id, self.idle_seconds)
        return [game.id for game in idle]

    # ------------------------------------------------------------------ acting

    async def act(self, game: Game, seat: int, text: str) -> None:
        """Apply ``seat``'s action written ``text``.

        A seat that is not to act is refused (:class:`NotYourTurnError`) before its text is
        read; the text is then read with the seat's own view only (``parse_action`` of
        ``observe(state, seat)``), so no answer depends on another seat's hidden cards.
        Raises ``InvalidActionError`` / ``IllegalActionError`` / :class:`SaveError` (the
        state is then unchanged). The agents to act next are started."""
        async with game.lock:
            game.touch()
            game.check_turn(seat)
            action = parse_action(text, game.view(seat))
            self._commit(game, seat, action)
        self.kick(game)

    def _commit(self, game: Game, seat: int, action: Action) -> None:
        """Apply ``action`` once it is saved (raises ``IllegalActionError``, :class:`SaveError`
        with nothing applied); the caller holds the lock."""
        result = step(game.state, action, seat)
        text = format_action(action, game.state.map)
        self._save(game, [*game.texts, text], result.state)
        game.applied(seat, action, text, result)

    def kick(self, game: Game) -> None:
        """Start the game's agent driver when an agent is to act and none runs."""
        if game.agent_error is not None or not game.is_agent_turn():
            return
        if game._driver is not None and not game._driver.done():
            return
        task = asyncio.get_running_loop().create_task(self._drive(game))
        game._driver = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(self, game: Game) -> None:
        while game.is_agent_turn() and game.agent_error is None and self.games.get(game.id):
            if self.agent_delay:
                await asyncio.sleep(self.agent_delay)
            seat = game.state.current
            seq = game.seq
            try:
                action = await self._agent_action(game, seat)
            except Exception as exc:  # an agent's bug must not take the server down
                self._agent_failed(game, seat, exc)
                return
            async with game.lock:
                if game.seq != seq:  # cannot happen: only this driver moves for agents
                    continue
                await self._commit_agent_move(game, seat, action)

    async def _commit_agent_move(self, game: Game, seat: int, action: Action) -> None:
        """Apply an agent's action; while it cannot be saved, say so and try again."""
        delay = 1.0
        while True:
            try:
                self._commit(game, seat, action)
            except SaveError as exc:
                game.agent_error = f"the server cannot save the game ({exc.strerror}); retrying"
                log.error("game %s: %s", game.id, game.agent_error)
                game.notify()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 60.0)
                if game.id not in self.games:
                    return
                continue
            except Exception as exc:
                self._agent_failed(game, seat, exc)
                return
            if game.agent_error is not None:
                game.agent_error = None
                game.notify()
            return

    def _agent_failed(self, game: Game, seat: int, exc: BaseException) -> None:
        # The message names the agent and the kind of failure only: an exception's text may
        # quote the agent's view (its hand), and every seat reads agent_error.
        kind = str(exc) if isinstance(exc, _AgentFailed) else type(exc).__name__
        game.agent_error = (
            f"agent {game.agents[seat]!r} of seat {seat} failed ({kind}); the game waits"
        )
        trace = None if isinstance(exc, _AgentFailed) else exc  # else logged where it failed
        log.error("game %s: %s", game.id, game.agent_error, exc_info=trace)
        game.notify()

    async def _agent_action(self, game: Game, seat: int) -> Action:
        """The agent's action for its view, thought in the worker pool within
        ``move_seconds``; past it, a random legal action (and the worker that overran is
        killed and replaced, so it thinks for no one any more)."""
        view = game.view(seat)
        agent = game.agent_of(seat)
        try:
            action, agent = await self._think_in_worker(agent, view)
        except TimeoutError:
            log.warning(
                "game %s: agent of seat %d took more than %g s; a random move is played",
                game.id,
                seat,
                self.move_seconds,
            )
            return _fallback_action(view, game.agent_seed + game.seq)
        game.set_agent(seat, agent)
        return action

    async def _think_in_worker(self, agent: Any, view: PlayerView) -> tuple[Action, Any]:
        """``_think(agent, view)`` in a worker process, or in a thread when there are no
        workers; raises ``TimeoutError`` past ``move_seconds``. A worker past its time, or
        thinking for a move nobody waits for any more (the game expired, the server stops),
        is killed (pebble's pool replaces it)."""
        if self.agent_workers <= 0:
            # a thread cannot be stopped: it finishes its move, which is then dropped
            future = asyncio.get_running_loop().run_in_executor(None, _think, agent, view)
            return await asyncio.wait_for(future, self.move_seconds)
        pool = self._worker_pool()
        job = pool.schedule(_think_in_process, (agent, view), timeout=self.move_seconds)
        try:
            answer: bytes = await asyncio.wrap_future(job)
        finally:
            job.cancel()  # type: ignore[no-untyped-call]  # kills the worker of a cancelled wait
        try:
            thought: tuple[Action, Any] = pickle.loads(answer)
        except Exception as exc:
            raise _AgentFailed(type(exc).__name__) from None
        return thought

    def _worker_pool(self) -> ProcessPool:
        if self._pool is None:
            import multiprocessing

            self._pool = ProcessPool(
                max_workers=self.agent_workers,
                initializer=_lower_priority,
                context=multiprocessing.get_context("forkserver"),
            )
        return self._pool

    async def idle(self) -> None:
        """Wait until no agent is thinking (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.idle()
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]  # kills the workers still thinking
            self._pool.join()
            self._pool = None
        if self.folder_lock is not None:
            self.folder_lock.release()  # every acknowledged move is on disk already

    # ------------------------------------------------------------------ saving and loading

    def _save(self, game: Game, texts: list[str], state: GameState) -> None:
        """Write the game's record (``texts`` leading to ``state``) and, once, its seats file,
        when there is a data dir; raises :class:`SaveError` when that fails."""
        if self.data_dir is None:
            return
        record = game._record_of(texts, state)
        try:
            seats_path = self.data_dir / f"{game.id}.seats.json"
            if not seats_path.is_file():
                meta = {
                    "id": game.id,
                    "created": game.created,
                    "agents": {str(seat): name for seat, name in game.agents.items()},
                    "token_sha256": {str(seat): d for seat, d in game.token_digests.items()},
                    "agent_seed": game.agent_seed,
                }
                write_private(seats_path, json.dumps(meta, indent=2) + "\n")
            write_private(
                self.data_dir / f"{game.id}.record.json", to_json(record, indent=2) + "\n"
            )
        except OSError as exc:
            log.error("game %s: cannot save: %s", game.id, exc)
            raise SaveError(exc.errno, exc.strerror or str(exc)) from None

    def _delete_files(self, game_id: str) -> None:
        if self.data_dir is None:
            return
        for suffix in (".record.json", ".seats.json"):
            with contextlib.suppress(OSError):
                (self.data_dir / f"{game_id}{suffix}").unlink()

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
        if seats_path.is_symlink() or record_path.is_symlink():
            raise DataDirError("a symbolic link in the data directory is not followed")
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
