"""The rulebook is the map of the code: every catalogue entry (E1–E79) and every policy
(U1–U22) of RULES.md is cited by the docstring or comment of the code that implements it."""

from __future__ import annotations

import re
from pathlib import Path

import ttr_rules

SOURCE = Path(ttr_rules.__file__).parent
CITATION = re.compile(r"\b([EU])(\d+)(?:[–-]\1?(\d+))?")


def cited_ids() -> set[str]:
    text = " ".join(path.read_text(encoding="utf-8") for path in SOURCE.rglob("*.py"))
    found: set[str] = set()
    for match in CITATION.finditer(text):
        kind, first = match.group(1), int(match.group(2))
        last = int(match.group(3)) if match.group(3) else first
        found.update(f"{kind}{n}" for n in range(first, last + 1))
    return found


def test_every_catalogue_entry_is_cited_in_the_source() -> None:
    cited = cited_ids()
    assert [f"E{n}" for n in range(1, 80) if f"E{n}" not in cited] == []


def test_every_policy_is_cited_in_the_source() -> None:
    cited = cited_ids()
    assert [f"U{n}" for n in range(1, 23) if f"U{n}" not in cited] == []
