"""Time and peak memory of ``parse_action`` over hostile texts of 10 to 10,000 characters
(issue 44 T1): both should grow at most linearly with the text, and stay small.

Each family of texts is written at every length and parsed on a Nordic Countries state (the
board with substitute sets, whose counts used to be expanded before they were checked):

* ``counts``: ``claim #3 red any:`` then digits, one huge count (``any:999...9blue``);
* ``sums``: ``claim #3 red any:1blue,1blue,...``, counts that add up past the bound;
* ``hyphens``: ``claim ---...--- red``, a route text with a split at every character;
* ``tickets``: ``tickets keep 1,1,1,...``, many ticket ids;
* ``spaces``: ``claim #3 red+1L`` padded with blanks between its words;
* ``words``: random notation words, digits and city names.

Texts over ``MAX_ACTION_TEXT`` (1,000) characters are refused before they are read, so from
there on the figures are those of the length check alone.

For each family and length it prints the median CPU time of one call (``time.process_time``
over repeated calls: on a shared machine CPU time is steadier than wall time) and the peak of
``tracemalloc`` during one call, with both divided by the length. Nothing is asserted.

    python benchmarks/parse_bounds.py
    python benchmarks/parse_bounds.py --lengths 10 100 1000 --repeats 50
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable

from ttr_rules import GameState, InvalidActionError, new_game, parse_action

LENGTHS = (10, 30, 100, 300, 1000, 3000, 10_000)
WORDS = ("claim", "station", "draw", "tickets", "keep", "any:", "#", "-", "+", "L", "red", "9")


def _fit(text: str, length: int) -> str:
    return (text * (length // max(len(text), 1) + 1))[:length]


def _counts(length: int) -> str:
    head = "claim #3 red any:"
    return head + "9" * max(length - len(head) - 4, 1) + "blue"


def _sums(length: int) -> str:
    head = "claim #3 red any:"
    return head + _fit("1blue,", max(length - len(head), 5)).rstrip(",")


def _hyphens(length: int) -> str:
    return "claim " + "-" * max(length - 10, 1) + " red"


def _tickets(length: int) -> str:
    head = "tickets keep "
    return head + _fit("1,", max(length - len(head), 1)).rstrip(",")


def _spaces(length: int) -> str:
    gap = " " * max((length - 15) // 2, 1)
    return f"claim{gap}#3{gap}red+1L"


def _words(length: int) -> str:
    rnd = random.Random(length)
    pool = (*WORDS, "Oslo", "Lieksa-Murmansk", "999999999")
    text = ""
    while len(text) < length:
        text += rnd.choice(pool) + " "
    return text[:length]


FAMILIES: dict[str, Callable[[int], str]] = {
    "counts": _counts,
    "sums": _sums,
    "hyphens": _hyphens,
    "tickets": _tickets,
    "spaces": _spaces,
    "words": _words,
}


def _parse(text: str, state: GameState) -> None:
    with contextlib.suppress(InvalidActionError):
        parse_action(text, state)


def _cpu_time(text: str, state: GameState, repeats: int) -> float:
    """The median CPU seconds of one call, over ``repeats`` batches of calls."""
    times = []
    for _ in range(repeats):
        began = time.process_time()
        for _ in range(10):
            _parse(text, state)
        times.append((time.process_time() - began) / 10)
    return statistics.median(times)


def _peak_bytes(text: str, state: GameState) -> int:
    tracemalloc.start()
    try:
        _parse(text, state)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(LENGTHS))
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    state = new_game("nordic", players=2, seed=1)
    _parse("claim Oslo-Stockholm red", state)  # the map's tables, built once
    print(f"{'family':<8} {'chars':>6} {'µs/call':>9} {'ns/char':>8} {'peak KiB':>9} {'B/char':>7}")
    for family, write in FAMILIES.items():
        for length in args.lengths:
            text = write(length)
            seconds = _cpu_time(text, state, args.repeats)
            peak = _peak_bytes(text, state)
            print(
                f"{family:<8} {len(text):>6} {seconds * 1e6:>9.1f} "
                f"{seconds * 1e9 / len(text):>8.0f} {peak / 1024:>9.1f} {peak / len(text):>7.1f}"
            )


if __name__ == "__main__":
    main()
