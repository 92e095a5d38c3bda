"""Ctrl-C at safe points only.

A :class:`KeyboardInterrupt` is raised between any two bytecodes of the main thread; raised
inside library code that holds a lock (``queue.Queue.put`` under ``multiprocessing.Pool``'s
``apply_async``, say), it leaves that lock held and whatever waits for it hangs. Code that must
not be cut in two runs under :func:`uninterrupted`: a Ctrl-C during the block takes effect when
the block ends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["uninterrupted"]


@contextmanager
def uninterrupted() -> Iterator[None]:
    """A Ctrl-C (SIGINT) during the block takes effect at its end, through the handler that was
    in place before it (by default: :class:`KeyboardInterrupt` raised there). Blocks nest. Only
    the main thread receives signals: elsewhere it is a plain block.

    >>> with uninterrupted():
    ...     pass
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple[int, FrameType | None]] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append((signum, frame)))
    try:
        yield
    finally:
        # None: a handler installed outside Python, which signal.signal cannot put back.
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
        if caught:
            _deliver(previous, *caught[0])


def _deliver(handler: object, signum: int, frame: FrameType | None) -> None:
    """What ``handler`` (a value :func:`signal.signal` returned) does with ``signum``."""
    if callable(handler):
        handler(signum, frame)
    elif handler != signal.SIG_IGN:  # SIG_DFL, or a handler installed outside Python
        raise KeyboardInterrupt
