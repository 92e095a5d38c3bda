"""Plain words for messages: counts with their nouns, articles and lists, so that every
sentence the library writes for a person reads the same way ("1 ticket", "an orange card",
"3, 15 and 24")."""

from __future__ import annotations

from collections.abc import Iterable


def counted(number: int, noun: str) -> str:
    """A count with its noun in the singular or the plural.

    >>> counted(1, "point"), counted(2, "point"), counted(0, "extra card")
    ('1 point', '2 points', '0 extra cards')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def with_article(noun_phrase: str) -> str:
    """``a`` or ``an`` before a noun phrase, by its first letter.

    >>> with_article("orange card"), with_article("red card"), with_article("locomotive")
    ('an orange card', 'a red card', 'a locomotive')
    """
    article = "an" if noun_phrase[:1].lower() in {"a", "e", "i", "o", "u"} else "a"
    return f"{article} {noun_phrase}"


def clipped(text: str, limit: int = 80) -> str:
    """``text`` cut to a length fit for a message, saying how long it was.

    >>> clipped("Paris"), clipped("x" * 100, limit=5)
    ('Paris', 'xxxxx... (100 characters)')
    """
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def joined(items: Iterable[object], *, last: str = "and") -> str:
    """Items as a sentence lists them.

    >>> joined([3]), joined([3, 15]), joined([3, 15, 24]), joined(["red", "blue"], last="or")
    ('3', '3 and 15', '3, 15 and 24', 'red or blue')
    """
    texts = [str(item) for item in items]
    if len(texts) <= 1:
        return "".join(texts) or "none"
    return f"{', '.join(texts[:-1])} {last} {texts[-1]}"
