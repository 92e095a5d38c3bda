"""House rules of the engine's code: private names stay private, the hot path's enum constants
are hoisted in one module, and each constant has one name."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import ttr_rules

PACKAGE = Path(ttr_rules.__file__).parent
#: The rules engine and what it stands on (core, maps, engine, scoring): the code these house
#: rules were written for. Front ends above it (agents, render, rl, sim, web) are not checked.
ENGINE = (
    "__init__.py",
    "actions.py",
    "cards.py",
    "errors.py",
    "events.py",
    "game.py",
    "piles.py",
    "rules.py",
    "state.py",
    "maps",
    "moves",
    "scoring",
)
#: The one module that hoists enum members into constants (and says why).
HOISTING = PACKAGE / "moves" / "common.py"


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] in ENGINE:
            yield path, ast.parse(path.read_text("utf-8"), str(path))


def test_no_module_imports_a_private_name_of_another() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} imports {alias.name} from {node.module}"
        for path, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level > 0
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert found == []


def test_enum_members_are_hoisted_in_one_module() -> None:
    """``NAME = Phase.X`` / ``NAME = Color.X`` at module level only in ``moves/common.py``."""
    found = []
    for path, tree in modules():
        for node in tree.body:
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if (
                isinstance(value, ast.Attribute)
                and isinstance(value.value, ast.Name)
                and value.value.id in ("Phase", "Color")
                and path != HOISTING
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []


def test_one_name_per_constant() -> None:
    """The locomotive is ``LOCOMOTIVE`` (the Color) or ``LOCOMOTIVE_CODE`` (its index), never
    an alias such as ``_LOCO`` that means one in some modules and the other elsewhere."""
    aliases = {"_LOCO", "_LOCOMOTIVE", "_ROW_SLOTS", "_START", "_GAME_OVER", "_TUNNEL"}
    found = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {target.id}"
        for path, tree in modules()
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in aliases
    ]
    assert found == []
