"""The public API changes only with a changelog entry (docs/versions.md): the snapshot of every
public name and signature in tests/data/public_api.txt matches the library, and each line that
changed in the version being prepared is named in CHANGELOG.md's section of that version."""

from __future__ import annotations

import re
from pathlib import Path

import public_api
import pytest

import ttr_rules


def test_the_snapshot_matches_the_library_and_the_changelog() -> None:
    problems = list(public_api.problems(ttr_rules.__version__))
    assert not problems, "\n".join(problems)


def test_the_version_has_a_changelog_section_and_one_home() -> None:
    from importlib.metadata import version

    assert version("ttr-rules") == ttr_rules.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", ttr_rules.__version__)
    assert public_api.changelog_section(ttr_rules.__version__).strip()


def test_the_public_modules_are_those_the_docs_list() -> None:
    """A module is public if and only if docs/versions.md lists it as such (the list before
    "and beside them"); the internal ones it names as examples are not in the snapshot."""
    page = (public_api.ROOT / "docs" / "versions.md").read_text(encoding="utf-8")
    section = page.split("## What is public")[1].split("## ")[0]
    public, internal = section.split("and beside them")
    module = r"`(ttr_rules(?:\.\w+)*)`"
    assert set(re.findall(module, public)) == set(public_api.PUBLIC_MODULES)
    examples = set(re.findall(module, internal.split("Modules below")[1].split("are internal")[0]))
    assert "ttr_rules.rl.opponents" in examples
    assert not examples & set(public_api.PUBLIC_MODULES)


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "snapshot.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_new_name_needs_a_changelog_line(tmp_path: Path) -> None:
    old = public_api.read(_write(tmp_path, ["0.1.0 ttr_rules.old def old() -> None"]))
    now = {"ttr_rules.old": "def old() -> None", "ttr_rules.new_thing": "def new_thing() -> int"}
    entries = public_api.updated(old, now, "0.2.0")
    assert entries == {
        "ttr_rules.old": ("0.1.0", "def old() -> None"),
        "ttr_rules.new_thing": ("0.2.0", "def new_thing() -> int"),
    }
    assert public_api.unrecorded(entries, "0.2.0", "- something else") == ["ttr_rules.new_thing"]
    assert public_api.unrecorded(entries, "0.2.0", "- `ttr_rules.new_thing()`: does it") == []
    assert public_api.unrecorded(entries, "0.2.0", "- `new_thing_2`") == ["ttr_rules.new_thing"]


def test_a_changed_or_removed_name_needs_a_changelog_line(tmp_path: Path) -> None:
    old = public_api.read(
        _write(
            tmp_path,
            [
                "0.1.0 ttr_rules.kept def kept(a) -> None",
                "0.1.0 ttr_rules.gone def gone() -> None",
                "0.1.0 ttr_rules.older removed",
            ],
        )
    )
    entries = public_api.updated(old, {"ttr_rules.kept": "def kept(a, b=1) -> None"}, "0.2.0")
    assert entries == {
        "ttr_rules.kept": ("0.2.0", "def kept(a, b=1) -> None"),
        "ttr_rules.gone": ("0.2.0", "removed"),  # kept until the next version
    }
    section = "### Changed\n- `kept` takes `b`.\n"
    assert public_api.unrecorded(entries, "0.2.0", section) == ["ttr_rules.gone"]
    again = public_api.updated(entries, {"ttr_rules.kept": "def kept(a, b=1) -> None"}, "0.3.0")
    assert again == {"ttr_rules.kept": ("0.2.0", "def kept(a, b=1) -> None")}


def test_the_changelog_section_of_a_version() -> None:
    text = "# Changelog\n\n## [0.3.0] - Unreleased\n\n- `a`\n\n## [0.2.0] - 2026-12-07\n\n- `b`\n"
    assert public_api.changelog_section("0.3.0", text).strip() == "- `a`"
    assert public_api.changelog_section("0.2.0", text).strip() == "- `b`"
    assert public_api.changelog_section("0.4.0", text) == ""


@pytest.mark.parametrize("name", ["ttr_rules.new_game", "ttr_rules.Color", "ttr_rules.maps"])
def test_descriptions_are_stable_lines(name: str) -> None:
    module, _, attribute = name.rpartition(".")
    described = public_api.describe(getattr(__import__(module, fromlist=["x"]), attribute))
    assert "\n" not in described and " at 0x" not in described


def test_the_report_shows_each_line_that_differs() -> None:
    old = {
        "ttr_rules.a": ("0.1.0", "def a() -> None"),
        "ttr_rules.b": ("0.1.0", "def b()"),
        "ttr_rules.gone": ("0.1.0", "removed"),
    }
    now = {"ttr_rules.a": "def a(x) -> None", "ttr_rules.c": "def c()"}
    assert list(public_api.changes(old, now)) == [
        "- ttr_rules.a def a() -> None\n+ ttr_rules.a def a(x) -> None",
        "- ttr_rules.b def b()\n+ ttr_rules.b (none)",
        "- ttr_rules.c (none)\n+ ttr_rules.c def c()",
    ]


class _Toy(Exception):
    """A public class as the snapshot sees it (its module set to look like the library's)."""

    __module__ = "ttr_rules.toy"
    size = 3  # a constant: not a method

    def grow(self, by: int = 1) -> int:
        return by

    @property
    def area(self) -> int:
        return 4

    @classmethod
    def make(cls, n: int) -> _Toy:
        return cls(n)

    @staticmethod
    def helper(text: str) -> str:
        return text

    def _hidden(self) -> None:
        pass


def test_a_public_class_records_its_methods_and_properties() -> None:
    assert dict(public_api.members(_Toy)) == {  # nothing of Exception's (add_note, ...)
        "area": "property area -> 'int'",
        "grow": "def grow(self, by: 'int' = 1) -> 'int'",
        "helper": "staticmethod helper(text: 'str') -> 'str'",
        "make": "classmethod make(n: 'int') -> '_Toy'",
    }
    now = public_api.current()
    assert now["ttr_rules.GameState.routes_of"].startswith("def routes_of(self, ")
    assert now["ttr_rules.Route.trains"] == "property trains -> 'int'"
    assert not any(name.endswith(".RED") for name in now)  # an enum's members are in its line


def test_a_changed_method_is_named_with_its_class() -> None:
    entries = {
        "ttr_rules.maps": ("0.1.0", "module"),
        "ttr_rules.maps.grow": ("0.2.0", "def grow() -> None"),
        "ttr_rules.Toy": ("0.1.0", "class Toy() -> None"),
        "ttr_rules.Toy.grow": ("0.2.0", "def grow(self, by: 'int' = 1) -> 'int'"),
    }
    assert public_api.unrecorded(entries, "0.2.0", "- `grow`") == ["ttr_rules.Toy.grow"]
    assert public_api.unrecorded(entries, "0.2.0", "- `Toy.grow(by)`, `maps.grow`") == []
    old = {"ttr_rules.Toy.grow": ("0.1.0", "def grow(self) -> 'int'")}
    changed = public_api.updated(
        old, {"ttr_rules.Toy.grow": entries["ttr_rules.Toy.grow"][1]}, "0.2.0"
    )
    assert changed["ttr_rules.Toy.grow"][0] == "0.2.0"
