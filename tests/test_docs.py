"""The documentation tells the truth: every Python block of the README and of ``docs/*.md``
runs, and the command-line table of ``docs/installation.md`` lists every ``ttr`` command."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ttr_rules
from ttr_rules import available_maps
from ttr_rules.cli import COMMANDS

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PLUGIN_SRC = ROOT / "examples" / "custom_map_plugin" / "src"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)

#: Run after each block: calls the ``test_*`` functions it defines, as pytest would.
_RUN_TESTS = """
try:
    from hypothesis import settings
except ImportError:
    pass
else:
    settings.register_profile("docs", max_examples=5, deadline=None)
    settings.load_profile("docs")
for _name, _value in list(globals().items()):
    if _name.startswith("test_") and callable(_value):
        _value()
"""


def python_blocks() -> list[tuple[str, str]]:
    """``(page:line, code)`` of every fenced Python block."""
    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            blocks.append((f"{page.relative_to(ROOT)}:{line}", match.group(1)))
    return blocks


def _alpine_on_path(directory: Path) -> list[str]:
    """Make the example plugin's map ``alpine`` discoverable without installing it: its sources
    and an entry point (a ``.dist-info``) on ``sys.path``. Nothing when it is installed."""
    if "alpine" in available_maps():
        return []
    info = directory / "ttr_rules_alpine_docs-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: ttr-rules-alpine-docs\nVersion: 0\n"
    )
    (info / "entry_points.txt").write_text("[ttr_rules.maps]\nalpine = ttr_rules_alpine:load\n")
    return [str(directory), str(PLUGIN_SRC)]


@pytest.mark.parametrize(("where", "code"), python_blocks(), ids=[w for w, _ in python_blocks()])
def test_python_blocks_run(where: str, code: str, tmp_path: Path) -> None:
    paths = _alpine_on_path(tmp_path / "site")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    run = subprocess.run(
        [sys.executable, "-c", code + _RUN_TESTS],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, f"{where} fails:\n{run.stderr}"


def test_the_blocks_were_found() -> None:
    where = {w.split(":")[0] for w, _ in python_blocks()}
    assert {"README.md", "docs/notation.md", "docs/guide.md"} <= where


def test_installation_lists_every_command() -> None:
    text = (ROOT / "docs" / "installation.md").read_text(encoding="utf-8")
    section = text.split("## The command line", 1)[1]
    listed = re.findall(r"^\| `ttr ([a-z-]+)[^`]*` \|", section, re.M)
    assert sorted(listed) == sorted(c.name for c in COMMANDS)
    assert len(listed) == len(set(listed))


def test_every_public_function_has_a_doctest_example() -> None:
    """The house rule: each function of the public namespace shows its use in a ``>>>``
    example (run by ``python -m pytest`` through ``--doctest-modules``)."""
    missing = [
        name
        for name in ttr_rules.__all__
        if inspect.isfunction(getattr(ttr_rules, name))
        and ">>>" not in (getattr(ttr_rules, name).__doc__ or "")
    ]
    assert missing == []
