"""How wide and tall the board's labels are: the advance widths of DejaVu Sans, the first font
the SVG asks for (Verdana, its fallback, is about as wide), so that label placement reserves the
box a browser lays the text out in rather than a guess.

>>> round(text_width("Chittagong", 11), 1)
60.7
>>> round(text_width("Zürich", 10), 1) == round(text_width("Zurich", 10), 1)
True
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["ASCENT", "DESCENT", "text_width"]

#: Above the baseline and below it, in font sizes: the box a browser gives a line of DejaVu Sans
#: (0.928 and 0.236 em, each rounded up to whole pixels at the board's label sizes).
ASCENT = 0.96
DESCENT = 0.28

#: Advance widths in 2048ths of an em (the font's own units), by the characters that share one.
#: Accented letters as wide as their base letter are left out: they take its width.
_UNITS = 2048
_WIDTHS = {
    563: "'",
    569: "ijlı",
    582: "ł",
    604: "IJ",
    651: " ,.",
    690: "/:;\\|",
    700: "ŀ",
    721: "fſ",
    739: "-",
    768: "ľ",
    799: "()[]",
    803: "tŧ",
    821: "!",
    842: "r",
    942: '"',
    1024: "*_`",
    1067: "s",
    1075: "z",
    1087: "?",
    1126: "c",
    1138: "ĳ",
    1141: "L",
    1151: "Ł",
    1178: "F",
    1186: "kĸ",
    1208: "Ĳ",
    1212: "vxy",
    1235: "P",
    1239: "Þ",
    1251: "TYŦ",
    1253: "oðø",
    1255: "a",
    1260: "e",
    1290: "ß",
    1294: "E",
    1298: "hnuŋ",
    1300: "Sbdgpqþđ",
    1303: "$0123456789{}",
    1343: "K",
    1401: "AV",
    1403: "XZ",
    1405: "B",
    1423: "Rħ",
    1430: "C",
    1499: "U",
    1532: "NŊ",
    1540: "H",
    1577: "D",
    1587: "GÐĐ",
    1597: "&",
    1612: "OQØ",
    1666: "ŉ",
    1675: "w",
    1716: "#+<=>^~×÷",
    1767: "M",
    1876: "Ħ",
    1946: "%",
    1995: "mÆ",
    2011: "æ",
    2025: "W",
    2048: "@",
    2095: "œ",
    2191: "Œ",
}
_WIDTH = {ch: units / _UNITS for units, chars in _WIDTHS.items() for ch in chars}
#: A character beyond the table: about a capital letter (a wide East Asian one: a full em).
_OTHER = 0.7


@functools.lru_cache(maxsize=4096)
def _em(ch: str) -> float:
    if ch in _WIDTH:
        return _WIDTH[ch]
    base = unicodedata.normalize("NFKD", ch)[:1]
    if base in _WIDTH:
        return _WIDTH[base]
    return 1.0 if unicodedata.east_asian_width(ch) in "WF" else _OTHER


def text_width(text: str, size: float) -> float:
    """The width of ``text`` set in the board's font at ``size`` pixels (no kerning: a browser
    draws it at most this wide)."""
    return size * sum(_em(ch) for ch in text)
