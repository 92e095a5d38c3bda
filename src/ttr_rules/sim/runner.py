"""Many games on one of three backends: ``serial``, ``process`` (local worker processes) and
``ray`` (tasks on a Ray cluster).

:func:`run_games` consumes its specs lazily and keeps only a bounded window of batches in
flight, so memory stays flat however many games run; results are yielded as they arrive
(in spec order unless ``ordered=False``), and records are written to ``records_dir`` as soon as
their game is back. A result depends only on its spec (:mod:`ttr_rules.sim.games`), never on
the backend, the number of workers or the batching.

Interrupting (Ctrl-C, or closing the generator early) stops the workers within about a second:
worker processes ignore SIGINT and are terminated by the parent; a Ray instance started (or
connected to) here is shut down, which ends the run's tasks, and on a Ray connection the caller
made, the unfinished tasks are cancelled.
"""

from __future__ import annotations

import itertools
import os
import signal
import socket
import sys
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from .. import write_record
from .games import GameResult, GameSpec, play_spec
from .interrupts import uninterrupted

__all__ = [
    "BACKENDS",
    "Backend",
    "check_ray_address",
    "play_batch",
    "record_name",
    "run_games",
]

Backend = Literal["serial", "process", "ray"]

#: The backends :func:`run_games` accepts.
BACKENDS: tuple[Backend, ...] = ("serial", "process", "ray")

#: Games per task when ``batch_size`` is not given: small enough for a smooth progress bar
#: and a quick stop, large enough that the per-task overhead stays small (a random game takes
#: milliseconds, a Ray task costs about a millisecond to schedule).
_DEFAULT_BATCH = {"serial": 1, "process": 4, "ray": 16}


def play_batch(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Play ``specs`` one after the other (the body of a worker's task).

    A failure leaves as an exception that crosses processes whole: the library's own errors
    (an agent's is an :class:`~ttr_rules.errors.AgentError` naming it and its seat) as they
    are, any other as a :class:`RuntimeError` with its text. (A worker's pool loses a task whose
    error cannot be unpickled, or that ends the worker with ``sys.exit``, and the run would wait
    for it for ever.)"""
    try:
        return [play_spec(spec) for spec in specs]
    except (Exception, SystemExit) as exc:
        raise _portable(exc) from None


def _portable(exc: BaseException) -> Exception:
    """``exc`` when it survives pickling (with its text), else a :class:`RuntimeError` with its
    class name and text.

    >>> class Odd(Exception):
    ...     def __init__(self, a, b):
    ...         super().__init__(f"{a} and {b}")
    >>> _portable(Odd(1, 2))
    RuntimeError('Odd: 1 and 2')
    >>> _portable(ValueError("bad"))
    ValueError('bad')
    """
    import pickle

    try:
        copy = pickle.loads(pickle.dumps(exc))
    except Exception:  # any failure to pickle or to rebuild
        copy = None
    if isinstance(exc, Exception) and isinstance(copy, Exception) and str(copy) == str(exc):
        return exc
    text = str(exc)
    return RuntimeError(f"{type(exc).__name__}: {text}" if text else type(exc).__name__)


def run_games(
    specs: Iterable[GameSpec],
    *,
    backend: Backend = "serial",
    workers: int | None = None,
    ray_address: str | None = None,
    batch_size: int | None = None,
    records_dir: str | os.PathLike[str] | None = None,
    overwrite: bool = True,
    ordered: bool = True,
) -> Generator[GameResult, None, None]:
    """Play every game of ``specs`` and yield its :class:`GameResult` as it finishes.

    ``backend``: ``"serial"`` plays in this process; ``"process"`` uses ``workers`` local
    processes (default: the number of CPUs); ``"ray"`` sends batches of games as Ray tasks to
    the cluster at ``ray_address`` (``"auto"``, ``"host:port"`` or ``"ray://..."``), or to a
    local Ray instance with ``workers`` CPUs when no address is given and Ray is not already
    initialized. ``batch_size`` games go to a worker at once. With ``ordered`` (the default)
    results come in the order of ``specs``; otherwise as soon as each batch is done.
    ``records_dir``: every game's record is written there as :func:`record_name` names it,
    ``game-000042.json`` for seed 42 (the specs are played with ``record=True``); with
    ``overwrite=False`` a record file that already exists stops the run with
    :class:`FileExistsError` instead of being replaced.

    Use it as a generator and close it (or leave the ``for`` loop) to stop early; a
    :class:`KeyboardInterrupt` while waiting stops the workers and propagates.

    >>> from ttr_rules.sim import game_specs
    >>> rows = list(run_games(game_specs(2, seed=5, players=2)))
    >>> [r.seed for r in rows]
    [5, 6]
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose from {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    size = _DEFAULT_BATCH[backend] if batch_size is None else batch_size
    if size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    directory = None if records_dir is None else Path(records_dir)
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
        specs = (s if s.record else _with_record(s) for s in specs)
    batches = _batches(specs, size)
    if backend == "serial":
        results = _serial(batches)
    elif backend == "process":
        results = _process(batches, workers or os.cpu_count() or 1, ordered)
    else:
        results = _ray(batches, workers, ray_address, ordered)
    return _written(results, directory, overwrite)


def _with_record(spec: GameSpec) -> GameSpec:
    import attrs

    return attrs.evolve(spec, record=True)


def _batches(specs: Iterable[GameSpec], size: int) -> Iterator[list[GameSpec]]:
    it = iter(specs)
    while batch := list(itertools.islice(it, size)):
        yield batch


def record_name(seed: int) -> str:
    """The file name of the record of the game seeded ``seed`` in ``records_dir``: the seed
    with at least six digits, so that a folder lists its records in the order of their seeds.

    >>> record_name(42)
    'game-000042.json'
    """
    return f"game-{seed:06d}.json"


def _written(
    results: Iterator[GameResult], directory: Path | None, overwrite: bool
) -> Generator[GameResult, None, None]:
    try:
        for result in results:
            if directory is not None and result.record is not None:
                path = directory / record_name(result.seed)
                write_record(path, result.record, overwrite=overwrite)
            yield result
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def _serial(batches: Iterator[list[GameSpec]]) -> Iterator[GameResult]:
    for batch in batches:
        yield from play_batch(batch)


# --------------------------------------------------------------------------- process


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C on the terminal reaches the whole process group; only the
    parent reacts to it (and terminates the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _process(
    batches: Iterator[list[GameSpec]], workers: int, ordered: bool
) -> Iterator[GameResult]:
    import multiprocessing
    import queue
    from functools import partial

    window = 2 * workers
    # Not "fork": a driver that has used Ray (or any threaded library) before crashes its forked
    # children and itself (seen as a segfault in _raylet.so); forkserver starts clean workers.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["ttr_rules.sim.games"])  # workers start with it imported
    # Ctrl-C lands only while waiting for results (_get): raised inside the pool's own code
    # (its task queue's lock held by apply_async, say), it could leave the pool unable to stop.
    others = set(multiprocessing.active_children())
    with uninterrupted():
        pool = context.Pool(workers, initializer=_ignore_sigint)
    started = [p for p in multiprocessing.active_children() if p not in others]
    done: queue.SimpleQueue[tuple[int, list[GameResult] | BaseException]] = queue.SimpleQueue()
    try:
        in_flight: dict[int, list[GameSpec]] = {}
        check = partial(_workers_alive, started, in_flight)
        order = _Reorder(ordered)
        for index, batch in enumerate(batches):
            report = partial(_report, done, index)
            with uninterrupted():
                pool.apply_async(play_batch, (batch,), callback=report, error_callback=report)
            in_flight[index] = batch
            while len(in_flight) >= window:
                yield from order.release(*_landed(_get(done, check), in_flight))
        while in_flight:
            yield from order.release(*_landed(_get(done, check), in_flight))
        with uninterrupted():
            pool.close()
            pool.join()
    finally:
        with uninterrupted():
            pool.terminate()
            pool.join()


_Done = tuple[int, "list[GameResult] | BaseException"]


def _report(done: Any, index: int, outcome: list[GameResult] | BaseException) -> None:
    done.put((index, outcome))


def _get(done: Any, check: Callable[[], None] = lambda: None) -> _Done:
    """The next finished batch; short waits keep Ctrl-C prompt on every platform, and
    ``check`` runs between them."""
    import queue

    while True:
        try:
            item: _Done = done.get(timeout=0.2)
            return item
        except queue.Empty:
            check()


def _landed(item: _Done, in_flight: dict[int, list[GameSpec]]) -> _Done:
    in_flight.pop(item[0], None)
    return item


def _workers_alive(workers: Sequence[Any], in_flight: dict[int, list[GameSpec]]) -> None:
    """Raise :class:`ChildProcessError` when a worker process ended while games were played:
    the pool would replace it, and wait for ever for the games it held (an agent or a map
    plugin that calls ``os._exit``, or crashes the interpreter). The error names the games in
    flight and their agents (which of them ended the worker cannot be told)."""
    for worker in workers:
        code = worker.exitcode
        if code is None:
            continue
        specs = [spec for batch in in_flight.values() for spec in batch]
        seeds = sorted(spec.seed for spec in specs)
        agents = sorted({str(agent) for spec in specs for agent in spec.seat_agents()})
        how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
        raise ChildProcessError(
            f"a worker process {how} while playing the games seeded {seeds[0]} to {seeds[-1]} "
            f"(agents: {', '.join(agents)}): an agent or a map plugin ended it"
            if seeds
            else f"a worker process {how}"
        )


class _Reorder:
    """Releases finished batches in submission order (or at once when not ``ordered``)."""

    def __init__(self, ordered: bool) -> None:
        self.ordered = ordered
        self.waiting: dict[int, list[GameResult]] = {}
        self.next = 0

    def release(self, index: int, outcome: list[GameResult] | BaseException) -> list[GameResult]:
        if isinstance(outcome, BaseException):
            raise outcome
        if not self.ordered:
            return outcome
        self.waiting[index] = outcome
        out: list[GameResult] = []
        while self.next in self.waiting:
            out.extend(self.waiting.pop(self.next))
            self.next += 1
        return out


# --------------------------------------------------------------------------- ray


def _ray(
    batches: Iterator[list[GameSpec]],
    workers: int | None,
    address: str | None,
    ordered: bool,
) -> Iterator[GameResult]:
    # Ray retries a cluster that answers but not as Ray about once a second, 20 times by
    # default (read when ray is first imported); 10 keep a wrong address under 20 s.
    os.environ.setdefault("RAY_NUM_REDIS_GET_RETRIES", "10")
    import ray

    started = False
    if not ray.is_initialized():
        if address is not None:
            check_ray_address(address)
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address is None:
            options["address"] = "local"  # a new instance, even if a cluster runs here
            options["num_cpus"] = workers or os.cpu_count() or 1
        else:
            options["address"] = address
        with _ray_logs_held_back(address):
            ray.init(**options)
        started = True
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(play_batch)
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        window = 2 * max(1, int(cpus))
        pending: dict[Any, int] = {}
        order = _Reorder(ordered)
        try:
            for index, batch in enumerate(batches):
                pending[task.remote(batch)] = index
                while len(pending) >= window:
                    yield from order.release(*_ray_next(ray, pending))
            while pending:
                yield from order.release(*_ray_next(ray, pending))
        finally:
            # Stopped early. A Ray instance of ours is shut down below, which ends its workers
            # and their tasks; on a caller's instance the unfinished tasks are cancelled (not
            # forced: a forced cancel racing the task's end can abort the driver in Ray 2.x).
            if not started:
                for ref in pending:
                    ray.cancel(ref)
    finally:
        if started:
            ray.shutdown()


@contextmanager
def _ray_logs_held_back(address: str | None) -> Iterator[None]:
    """Keep Ray's start-up log lines off the terminal, and make a failed start one error.

    Ray's C++ core writes its lines (``gcs_client.cc: Failed to get cluster ID ...``, once a
    second while it retries) straight to file descriptor 2, past Python's ``sys.stderr``: the
    descriptor points to a scratch file while ``ray.init`` runs."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as scratch:
            os.dup2(scratch.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    except (ConnectionError, TimeoutError, RuntimeError) as exc:
        text = str(exc).strip()
        reason = text.splitlines()[0] if text else type(exc).__name__
        if address is None:
            raise ConnectionError(f"cannot start a local Ray instance: {reason}") from None
        reason = reason[:1].lower() + reason[1:]  # Ray's sentence, as the end of ours
        raise ConnectionError(f"cannot reach the Ray cluster at {address}: {reason}") from None
    finally:
        os.close(saved)


def check_ray_address(address: str, timeout: float = 10.0) -> None:
    """Refuse at once a Ray address that cannot be a cluster: not ``auto``, ``host:port`` or
    ``ray://host[:port]`` (:class:`ValueError`), or a ``host:port`` where nothing answers
    within ``timeout`` seconds (:class:`ConnectionError`) — ``ray.init`` itself would retry
    for minutes.

    >>> check_ray_address("127.0.0.1:nine")
    Traceback (most recent call last):
    ...
    ValueError: Ray address '127.0.0.1:nine': expected auto, host:port or ray://host:port
    """
    if address == "auto":
        return
    client = address.startswith("ray://")
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if client and not sep:
        host, port = target, ""
    elif not (sep and host and port.isdigit() and 0 < int(port) < 65536):
        raise ValueError(f"Ray address {address!r}: expected auto, host:port or ray://host:port")
    if not port:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as link:
            speaks_grpc = _answers_http2(link)
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ConnectionError(f"cannot reach the Ray cluster at {address}: {reason}") from None
    if not speaks_grpc:
        raise ConnectionError(
            f"cannot reach the Ray cluster at {address}: something answers there, but not Ray"
        )


#: An HTTP/2 client's first words: the connection preface and an empty SETTINGS frame.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _answers_http2(link: socket.socket) -> bool:
    """Whether the server on ``link`` greets an HTTP/2 client as a gRPC server (Ray's GCS and
    client servers) does: with a SETTINGS frame. A port that accepts and stays silent (where
    ``ray.init`` would wait for minutes) times out on the socket's timeout."""
    try:
        link.sendall(_HTTP2_HELLO)
        header = b""
        while len(header) < 9:
            chunk = link.recv(9 - len(header))
            if not chunk:
                return False
            header += chunk
    except TimeoutError:
        return False
    return header[3] == 4  # the frame type: SETTINGS


def _ray_next(ray: Any, pending: dict[Any, int]) -> tuple[int, list[GameResult]]:
    """The next finished task: its batch index and results."""
    ready: list[Any] = []
    while not ready:  # short waits keep Ctrl-C prompt
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
    ref = ready[0]
    try:
        result: list[GameResult] = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        # The task's own error (an agent's AgentError...), not Ray's wrapping of it, whose
        # text is the worker's traceback.
        cause = getattr(exc, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise
    except ray.exceptions.RayError as exc:  # a worker that died (os._exit, a crash)
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ChildProcessError(f"a Ray worker failed while playing games: {first}") from None
    return pending.pop(ref), result
