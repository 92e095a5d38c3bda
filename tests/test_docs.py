"""The documentation tells the truth: every Python block of the README and of ``docs/*.md``
runs, and the command-line table of ``docs/installation.md`` lists every ``ttr`` command."""

from __future__ import annotations

import inspect
import json
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

#: Runs the blocks of one page in order in one namespace, as a reader pastes them, and calls
#: the ``test_*`` functions they define, as pytest would; names the block that fails.
_RUNNER = """
import json, sys, traceback
try:
    from hypothesis import settings
except ImportError:
    pass
else:
    settings.register_profile("docs", max_examples=5, deadline=None)
    settings.load_profile("docs")
namespace = {"__name__": "__main__"}
called = set()
for where, code in json.loads(open(sys.argv[1], encoding="utf-8").read()):
    try:
        exec(compile(code, where, "exec"), namespace)
        for name, value in list(namespace.items()):
            if name.startswith("test_") and callable(value) and name not in called:
                called.add(name)
                value()
    except BaseException:
        print(f"{where} fails:", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
"""


def python_blocks(page: Path) -> list[tuple[str, str]]:
    """``(page:line, code)`` of every fenced Python block of ``page``."""
    text = page.read_text(encoding="utf-8")
    return [
        (f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1))
        for m in _BLOCK.finditer(text)
    ]


PAGES_WITH_CODE = [page for page in PAGES if python_blocks(page)]


def _alpine_on_path(directory: Path) -> list[str]:
    """Make the example plugin's map ``alpine`` and its bonus ``summit`` discoverable without
    installing it: its sources and its entry points (a ``.dist-info``) on ``sys.path``. Nothing
    when it is installed."""
    if "alpine" in available_maps():
        return []
    info = directory / "ttr_rules_alpine_docs-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: ttr-rules-alpine-docs\nVersion: 0\n"
    )
    (info / "entry_points.txt").write_text(
        "[ttr_rules.maps]\nalpine = ttr_rules_alpine:load\n"
        "[ttr_rules.bonuses]\nsummit = ttr_rules_alpine.bonus:summit\n"
    )
    return [str(directory), str(PLUGIN_SRC)]


@pytest.mark.parametrize(
    "page", PAGES_WITH_CODE, ids=[str(p.relative_to(ROOT)) for p in PAGES_WITH_CODE]
)
def test_the_python_blocks_of_a_page_run(page: Path, tmp_path: Path) -> None:
    paths = _alpine_on_path(tmp_path / "site")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    blocks = tmp_path / "blocks.json"
    blocks.write_text(json.dumps(python_blocks(page)), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(blocks)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr


def test_the_blocks_were_found() -> None:
    found = {str(p.relative_to(ROOT)) for p in PAGES_WITH_CODE}
    assert {"README.md", "docs/notation.md", "docs/guide.md"} <= found


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


def test_the_api_reference_is_one_page_per_module() -> None:
    """docs/api.rst is an index; each page of docs/api/ documents one module, so that no page
    is a hundred screens tall, and every page is reachable from the index."""
    index = (ROOT / "docs" / "api.rst").read_text(encoding="utf-8")
    pages = sorted((ROOT / "docs" / "api").glob("*.rst"))
    assert sorted(re.findall(r"^   api/(\S+)$", index, re.M)) == sorted(p.stem for p in pages)
    for page in pages:
        modules = re.findall(r"^\.\. automodule:: (\S+)", page.read_text(encoding="utf-8"), re.M)
        assert modules == [page.stem], page.name


def test_the_api_reference_documents_where_each_public_name_lives() -> None:
    documented = {p.stem for p in (ROOT / "docs" / "api").glob("*.rst")}
    homes = {
        getattr(ttr_rules, name).__module__
        for name in ttr_rules.__all__
        if getattr(getattr(ttr_rules, name), "__module__", "").startswith("ttr_rules")
    }
    assert homes - documented == set()


def test_the_rl_maps_table_lists_every_installed_map() -> None:
    """docs/rl.md's table of maps (ids, names, sizes) agrees with the installed maps; a map
    added since it was written has no row. ``python benchmarks/rl_maps.py`` rewrites it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from rl_maps import problems
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    found = problems((ROOT / "docs" / "rl.md").read_text(encoding="utf-8"))
    assert found == [], "run python benchmarks/rl_maps.py to rewrite the table:\n" + "\n".join(
        found
    )


def test_every_gymnasium_id_the_docs_name_is_registered() -> None:
    """No page names an id that does not exist (the registration's doc once named
    ``NordicCountries-v0``, the id being ``Nordic-v0``)."""
    import gymnasium

    import ttr_rules.rl.gymnasium  # registers the ids
    import ttr_rules.rl.registration

    texts = [p.read_text(encoding="utf-8") for p in PAGES]
    texts += [
        inspect.getsource(ttr_rules.rl.registration),
        inspect.getsource(ttr_rules.rl.gymnasium),
    ]
    named = {m for text in texts for m in re.findall(r"ttr_rules/[A-Za-z0-9]+-v\d+", text)}
    assert named and named - set(gymnasium.registry) == set()
