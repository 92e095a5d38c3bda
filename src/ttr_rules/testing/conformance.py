"""``check_map``: the conformance run a map author calls on a new map.

It validates the map, plays random games on it for every allowed player count with
:func:`~ttr_rules.testing.check_invariants` after every step, scores each finished game and
replays it from its record, and returns a :class:`ConformanceReport` of everything that failed.
It needs nothing beyond the library itself (no hypothesis).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from attrs import frozen

from ..game import new_game
from ..maps import GameMap, validate_map
from ..state import GameState
from ..words import counted
from .invariants import InvariantError, check_invariants
from .play import PlayedGame, chooser, play

if TYPE_CHECKING:
    from ..records import GameRecord

__all__ = ["ConformanceError", "ConformanceReport", "Failure", "check_map"]


@frozen
class Failure:
    """One failed check: which check, in which game (player count and seed), at which step."""

    check: str
    message: str
    players: int | None = None
    seed: int | None = None
    step: int | None = None

    def __str__(self) -> str:
        where = []
        if self.players is not None:
            where.append(f"{self.players} players")
        if self.seed is not None:
            where.append(f"seed {self.seed}")
        if self.step is not None:
            where.append(f"step {self.step}")
        place = f" ({', '.join(where)})" if where else ""
        return f"{self.check}{place}: {self.message}"


#: Builds a :class:`Failure` of the current game: ``fail(check, message, step=None)``.
_Fail = Callable[..., Failure]


@frozen
class ConformanceReport:
    """The outcome of :func:`check_map`."""

    map_name: str
    games: int
    steps: int
    failures: tuple[Failure, ...]

    @property
    def ok(self) -> bool:
        return not self.failures

    def __str__(self) -> str:
        head = (
            f"map {self.map_name!r}: {counted(self.games, 'game')}, {counted(self.steps, 'step')}"
        )
        if self.ok:
            return f"{head}: all checks passed"
        lines = [f"{head}: {counted(len(self.failures), 'failure')}"]
        lines += [f"  - {f}" for f in self.failures]
        return "\n".join(lines)


class ConformanceError(AssertionError):
    """Raised by ``check_map(..., raise_on_failure=True)``; ``report`` is the report."""

    def __init__(self, report: ConformanceReport) -> None:
        super().__init__(str(report))
        self.report = report

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its report, so that it crosses processes whole.
        return type(self), (self.report,), self.__dict__


def check_map(
    game_map: GameMap,
    games: int = 3,
    *,
    players: Iterable[int] | None = None,
    seed: int = 0,
    max_steps: int = 20_000,
    raise_on_failure: bool = False,
) -> ConformanceReport:
    """Validate ``game_map`` and play ``games`` random games for each player count.

    ``players`` defaults to every count from the map's ``min_players`` to ``max_players``.
    Game ``g`` uses seed ``seed + g`` for the deal and for the random choices. After every step
    the invariants are checked; each finished game is scored (``final_scores``, ``winners``)
    and replayed from its record (``record_game``, ``replay``). With ``raise_on_failure`` a
    failed run raises :class:`ConformanceError` instead of returning.

    >>> from ttr_rules import load_map
    >>> report = check_map(load_map("usa"), games=1, players=[2])
    >>> report.ok
    True
    >>> print(report)
    map 'usa': 1 game, ... steps: all checks passed
    """
    failures = [Failure("validate", line) for line in validate_map(game_map)]
    played = steps = 0
    if not failures:
        rules = game_map.rules
        counts = range(rules.min_players, rules.max_players + 1) if players is None else players
        for count in counts:
            for g in range(games):
                game, problems = _run_game(game_map, count, seed + g, max_steps)
                failures += problems
                played += 1
                steps += len(game.actions) if game is not None else 0
    report = ConformanceReport(game_map.name, played, steps, tuple(failures))
    if raise_on_failure and not report.ok:
        raise ConformanceError(report)
    return report


def _run_game(
    game_map: GameMap, players: int, seed: int, max_steps: int
) -> tuple[PlayedGame | None, list[Failure]]:
    """Play one game and run every check on it."""

    def fail(check: str, message: str, step: int | None = None) -> Failure:
        return Failure(check, message, players, seed, step)

    try:
        start = new_game(game_map, players, seed)
    except Exception as exc:
        return None, [fail("new_game", _describe(exc))]
    try:
        game = play(start, chooser((), seed), max_steps=max_steps)
    except Exception as exc:
        return None, [fail("play", _describe(exc))]
    failures = _invariant_failures(game, fail)
    if not game.final.is_terminal:
        failures.append(fail("game end", f"no end after {max_steps} steps"))
        return game, failures
    failures += _scoring_failures(game.final, fail)
    failures += _replay_failures(game, seed, fail)
    return game, failures


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _invariant_failures(game: PlayedGame, fail: _Fail) -> list[Failure]:
    """The first state that breaks an invariant (later ones usually repeat it)."""
    for index, state in enumerate(game.positions()):
        try:
            check_invariants(state)
        except InvariantError as exc:
            problems = "; ".join(str(p) for p in exc.problems)
            action = f" after {game.actions[index - 1]}" if index else " at the start"
            return [fail("invariants", problems + action, index)]
    return []


def _scoring_failures(final: GameState, fail: _Fail) -> list[Failure]:
    from ..scoring import final_scores, winners

    try:
        scores = final_scores(final)
        best = winners(final)
    except Exception as exc:
        return [fail("scoring", _describe(exc))]
    out = []
    if len(scores) != final.num_players:
        out.append(fail("scoring", f"{len(scores)} scores for {final.num_players} players"))
    if not best or not set(best) <= set(range(final.num_players)):
        out.append(fail("scoring", f"winners {best!r}"))
    return out


def _replay_failures(game: PlayedGame, seed: int, fail: _Fail) -> list[Failure]:
    """Record the game, round-trip the record through JSON and replay it."""
    from ..records import GameRecord, record_game
    from ..serialization import from_json, to_json

    try:
        record = record_game(game.start, game.actions, seed=seed)
        if from_json(to_json(record), GameRecord) != record:
            return [fail("replay", "the record does not survive a JSON round trip")]
        replayed = _replay(record, game.start)
    except Exception as exc:
        return [fail("replay", _describe(exc))]
    if replayed != game.final:
        return [fail("replay", "the replayed game ends in a different state")]
    return []


def _replay(record: GameRecord, start: GameState) -> GameState:
    """``replay(record)`` when the record's map is installed; otherwise (a map file being
    checked before it is packaged) the record's notation is parsed and applied from
    ``start``."""
    from ..errors import MapError
    from ..game import apply_action
    from ..maps import resolve_map
    from ..notation import parse_action
    from ..records import replay

    try:
        installed = resolve_map(record.map).digest == start.map.digest
    except MapError:
        installed = False
    if installed:
        return replay(record)
    state = start
    for text in record.actions:
        state = apply_action(state, parse_action(text, state))
    return state
