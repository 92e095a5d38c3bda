"""The layer rule of docs/architecture.md: a module of ``ttr_rules`` imports only from its own
layer or from the layers below it. Every import is read from the source (``ast``), lazy and
type-checking imports included, and checked against the table :data:`LAYERS`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ttr_rules

SOURCE = Path(ttr_rules.__file__).parent
ROOT = "ttr_rules"

#: The layers, lowest first, and the parts of ``ttr_rules`` in each. A part is a module
#: (``game``), a package with everything inside it (``moves``), or a module inside a package
#: that sits lower than the rest of it (``maps.model``); the longest matching part decides.
#: ``ttr_rules`` itself is the package's public face (its ``__init__``). Parts that do not
#: exist yet already have their place.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "core",
        frozenset(
            {
                "cards",
                "rules",
                "errors",
                "actions",
                "events",
                "state",
                "maps.model",
                "outcome",
                "words",
            }
        ),
    ),
    ("maps", frozenset({"maps"})),
    ("engine", frozenset({"game", "moves", "turn", "piles", "legality", "invariants"})),
    ("scoring", frozenset({"scoring"})),
    ("positions", frozenset({"ending", "views", "scenario", "playout", "simulate"})),
    ("io", frozenset({"serialization", "notation", "records", ROOT})),
    ("render", frozenset({"render", "frontend"})),
    ("agents", frozenset({"agents"})),
    ("rl, sim", frozenset({"rl", "sim"})),
    ("web", frozenset({"web"})),
    ("tools", frozenset({"cli", "__main__", "testing"})),
)
LAYER_OF = {name: rank for rank, (_, names) in enumerate(LAYERS) for name in names}

#: The one exception (python-chess's convention, docs/architecture.md): states and views show
#: themselves by importing the render layer inside these methods, when they are called.
PRESENTATION_METHODS = frozenset({"__str__", "_repr_svg_"})
PRESENTATION_LAYER = "ttr_rules.render"


def module_name(path: Path) -> str:
    """``ttr_rules.moves.claim`` for ``.../ttr_rules/moves/claim.py``."""
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    """The part of :data:`LAYERS` a ``ttr_rules`` module belongs to: ``moves`` for
    ``ttr_rules.moves.claim``, ``maps.model`` for itself, ``ttr_rules`` for the package face."""
    parts = module.split(".")[1:]
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in LAYER_OF:
            return candidate
    return parts[0] if parts else ROOT


def imported_modules(path: Path) -> set[str]:
    """Every ``ttr_rules`` module that ``path`` imports (``from ttr_rules import x`` counts as
    the submodule ``x`` when there is one, else as the package face)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imports_in(ast.parse(path.read_text(encoding="utf-8")), package)


def imports_in(tree: ast.AST, package: str) -> set[str]:
    """The ``ttr_rules`` modules imported by the code ``tree`` of a module in ``package``."""
    found: set[str] = set()
    presentation = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name in PRESENTATION_METHODS
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in presentation and _imports_render_only(node, package):
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == ROOT)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != ROOT:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                is_module = (SOURCE.parent / sub.replace(".", "/")).with_suffix(".py").exists()
                is_package = (SOURCE.parent / sub.replace(".", "/") / "__init__.py").exists()
                found.add(sub if is_module or is_package else target)
    return found


def _imports_render_only(node: ast.AST, package: str) -> bool:
    """True for ``from .render import x`` (or an absolute import of ``ttr_rules.render``)."""
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        return target == PRESENTATION_LAYER or target.startswith(PRESENTATION_LAYER + ".")
    return False


MODULES = sorted(SOURCE.rglob("*.py"))


def test_every_part_has_a_layer() -> None:
    parts = {part_of(module_name(p)) for p in MODULES}
    assert sorted(parts - LAYER_OF.keys()) == [], "add the new parts to LAYERS"


def test_the_table_names_each_part_once() -> None:
    names = [name for _, layer in LAYERS for name in layer]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_a_module_imports_only_its_layer_or_below(path: Path) -> None:
    name = module_name(path)
    rank = LAYER_OF[part_of(name)]
    upward = [
        f"{name} ({LAYERS[rank][0]}) imports {target} ({LAYERS[LAYER_OF[part_of(target)]][0]})"
        for target in sorted(imported_modules(path))
        if LAYER_OF.get(part_of(target), -1) > rank
    ]
    assert upward == []


def test_only_presentation_methods_may_import_render_from_below() -> None:
    """``__str__``/``_repr_svg_`` importing ``render`` pass; the same import elsewhere does not."""
    code = (
        "class S:\n"
        "    def __str__(self):\n        from .render import text\n        return text(self)\n"
        "    def other(self):\n        from .render import svg\n        return svg(self)\n"
    )
    assert imports_in(ast.parse(code), "ttr_rules") == {"ttr_rules.render.svg"}
    assert not any(m.startswith("ttr_rules.render") for m in imported_modules(SOURCE / "state.py"))


def test_the_checker_sees_upward_imports(tmp_path: Path) -> None:
    """The import reader resolves relative, absolute and package-face imports."""
    claim = SOURCE / "moves" / "claim.py"
    assert "ttr_rules.state" in imported_modules(claim)
    assert all(
        part_of(m) != "moves" or m.startswith("ttr_rules.moves") for m in imported_modules(claim)
    )
    face = imported_modules(SOURCE / "__init__.py")
    assert "ttr_rules.game" in face and "ttr_rules.records" in face
