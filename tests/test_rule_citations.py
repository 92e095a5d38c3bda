"""The rulebook is the map of the code: every catalogue entry (E1–E79) and every policy
(U1–U35) of the rules documentation (``docs/rules/``) has its entry there, and is named by the
docstring or comment of the code that implements it."""

from __future__ import annotations

import re
from pathlib import Path

import ttr_rules

SOURCE = Path(ttr_rules.__file__).parent
DOCS = Path(__file__).parents[1] / "docs"
#: Specification files of the project's beginnings that are not in the repository.
OUTSIDE = ("RULES" + ".md", "DESIGN" + ".md")
IDS = [f"E{n}" for n in range(1, 80)] + [f"U{n}" for n in range(1, 36)]

#: A range of ids ("E23–E50", "U13-U16"): it names its endpoints' span, not each rule.
RANGE = re.compile(r"\b([EU])\d+[a-e]?\s*[–-]\s*\1?\d+[a-e]?\b")
#: One id, possibly with a test-variant letter ("E77b").
ID = re.compile(r"\b([EU])(\d+)[a-e]?\b")


def named_ids(text: str) -> set[str]:
    """The ids ``text`` names one by one; ids inside a range do not count.

    >>> sorted(named_ids("claims (E23–E50, U13) and E77b; U1-U3"))
    ['E77', 'U13']
    """
    return {f"{kind}{int(n)}" for kind, n in ID.findall(RANGE.sub(" ", text))}


def cited_ids() -> set[str]:
    return named_ids(" ".join(p.read_text(encoding="utf-8") for p in SOURCE.rglob("*.py")))


def test_a_range_cites_nothing() -> None:
    assert named_ids("E23–E50 and U13-U18 and E1 – E5 and E66–69") == set()
    assert named_ids("E29/E71, U8 (E77b)") == {"E29", "E71", "U8", "E77"}


def test_every_catalogue_entry_is_cited_in_the_source() -> None:
    cited = cited_ids()
    assert [i for i in IDS if i.startswith("E") and i not in cited] == []


def test_every_policy_is_cited_in_the_source() -> None:
    cited = cited_ids()
    assert [i for i in IDS if i.startswith("U") and i not in cited] == []


def test_the_source_cites_no_id_that_does_not_exist() -> None:
    text = " ".join(p.read_text(encoding="utf-8") for p in SOURCE.rglob("*.py"))
    assert named_ids(text) - set(IDS) == set()


def test_every_id_has_its_entry_in_the_documentation() -> None:
    catalogue = (DOCS / "rules" / "catalogue.md").read_text(encoding="utf-8")
    policies = (DOCS / "rules" / "policies.md").read_text(encoding="utf-8")
    for ident in IDS:
        page = catalogue if ident.startswith("E") else policies
        target = f"({ident})=\n"
        assert page.count(target) == 1, f"{ident}: no anchor {target!r}"
        heading = page[page.index(target) + len(target) :].splitlines()[0]
        assert re.fullmatch(rf"#+ {ident} — \S.*", heading), heading


def test_no_page_refers_to_files_outside_the_repository() -> None:
    root = DOCS.parent
    pages = [*root.glob("*.md"), *DOCS.rglob("*.md"), *DOCS.glob("*.rst")]
    sources = [*SOURCE.rglob("*.py"), *(root / "tests").glob("*.py")]
    for path in pages + sources:
        text = path.read_text(encoding="utf-8")
        for outside in OUTSIDE:
            assert outside not in text, f"{path} refers to {outside}"
