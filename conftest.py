"""pytest configuration of the whole checkout (the tests' own fixtures are in tests/conftest.py).

``python -m pytest`` also runs the ``>>>`` examples of the library's docstrings
(``--doctest-modules`` over ``src/ttr_rules``, see pyproject.toml). A module that imports an
optional library at its top can only be collected where that library is installed; the table
below names those modules, and the ones whose libraries are missing are left out of collection.
"""

from __future__ import annotations

from importlib.util import find_spec

#: Module globs (relative to this file) and the optional libraries they import at their top.
OPTIONAL_IMPORTS: dict[str, tuple[str, ...]] = {
    "src/ttr_rules/testing/strategies.py": ("hypothesis",),
    "src/ttr_rules/testing/machine.py": ("hypothesis",),
    "src/ttr_rules/rl/*.py": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
    "src/ttr_rules/web/*.py": ("fastapi", "starlette", "uvicorn", "sse_starlette"),
}


def _missing(module: str) -> bool:
    try:
        return find_spec(module) is None
    except (ImportError, ValueError):
        return True


collect_ignore_glob = [
    glob
    for glob, modules in OPTIONAL_IMPORTS.items()
    if any(_missing(module) for module in modules)
]
