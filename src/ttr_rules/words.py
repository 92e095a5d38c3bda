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


#: Verbs whose third person is not the base form with ``s`` or ``es``.
_THIRD_PERSON = {"have": "has", "be": "is", "do": "does", "go": "goes"}

#: Subjects that take the base form of a verb ("you have", "they have").
_PLURAL_SUBJECTS = frozenset({"you", "we", "they", "i"})


def agrees(subject: str, verb: str) -> str:
    """``subject`` followed by ``verb`` (given in its base form) in the present tense,
    agreeing with it: the second person and plurals take the base form, a named player the
    third person.

    >>> agrees("You", "have"), agrees("Player 2", "have"), agrees("you", "be")
    ('You have', 'Player 2 has', 'you are')
    >>> agrees("P1 (greedy)", "pass"), agrees("player 0", "draw"), agrees("you", "claim")
    ('P1 (greedy) passes', 'player 0 draws', 'you claim')
    """
    if subject.strip().lower() in _PLURAL_SUBJECTS:
        return f"{subject} {'are' if verb == 'be' else verb}"
    return f"{subject} {third_person(verb)}"


def third_person(verb: str) -> str:
    """The third person singular of a verb given in its base form.

    >>> third_person("claim"), third_person("pass"), third_person("have"), third_person("try")
    ('claims', 'passes', 'has', 'tries')
    """
    if verb in _THIRD_PERSON:
        return _THIRD_PERSON[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in {"a", "e", "i", "o", "u"}:
        return verb[:-1] + "ies"
    return verb + "s"


def sentence(text: str) -> str:
    """``text`` with its first letter in capitals, as a sentence starts.

    >>> sentence("you keep 2 tickets"), sentence("")
    ('You keep 2 tickets', '')
    """
    return text[:1].upper() + text[1:]
