"""Counting one region of a program under callgrind: ``--collect-atstart=no
--toggle-collect=math_prod`` collects only inside calls of ``math.prod``, and :func:`measured`
runs a call inside one (the method of ``rl_env_instructions.sh``). Nothing else in the
probes may call ``math.prod``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class _Region:
    """``math.prod([0], start=_Region(call))`` is ``call()``, run inside ``math.prod``."""

    def __init__(self, call: Callable[[], object]) -> None:
        self.call = call

    def __mul__(self, _other: object) -> object:
        return self.call()


def measured(call: Callable[[], T]) -> T:
    """``call()``, counted by callgrind (``--toggle-collect=math_prod``)."""
    return math.prod([0], start=_Region(call))  # type: ignore[return-value]
