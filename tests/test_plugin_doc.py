"""docs/plugins.md is usable as written: its ``pyproject.toml`` and loader, taken from the page's
own text, build a wheel that carries the board; installed, the map is discovered and played.

The build runs offline: ``--no-build-isolation`` with the backend the ``test`` extra installs
(hatchling), ``--no-index`` and ``--no-deps`` (ttr-rules itself is the running one)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).parents[1]
PAGE = ROOT / "docs" / "plugins.md"
#: The page says to start from the example's board.
BOARD = ROOT / "examples" / "custom_map_plugin" / "src" / "ttr_rules_alpine" / "alpine.json"

_PLAY = """
import json, sys
import ttr_rules, ttr_rules_alpine
from ttr_rules.agents import play_game
from ttr_rules.maps import discover
assert ttr_rules_alpine.__file__.startswith(sys.argv[1]), ttr_rules_alpine.__file__
end = play_game(["greedy", "random"], map="alpine", seed=3)
print(json.dumps({
    "provider": discover()["alpine"][0].distribution,
    "map": end.map.name,
    "terminal": end.is_terminal,
    "scores": [s.total for s in ttr_rules.final_scores(end)],
}))
"""


def blocks(language: str) -> list[str]:
    """The fenced ``language`` blocks of the page, in order."""
    text = PAGE.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)


def write_project(project: Path) -> tuple[dict[str, object], Path]:
    """The plugin as the page lays it out; returns the parsed pyproject and the package dir."""
    (pyproject_text,) = [b for b in blocks("toml") if "[project]" in b]
    pyproject = tomllib.loads(pyproject_text)
    (loader,) = [b for b in blocks("python") if "def load()" in b]
    (package_path,) = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    package = project / package_path
    package.mkdir(parents=True)
    (project / "pyproject.toml").write_text(pyproject_text, encoding="utf-8")
    (package / "__init__.py").write_text(loader, encoding="utf-8")
    shutil.copy(BOARD, package / "alpine.json")
    (package / "py.typed").write_text("", encoding="utf-8")
    return pyproject, package


def pip(*args: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_documented_plugin_builds_installs_and_plays(tmp_path: Path) -> None:
    pyproject, package = write_project(tmp_path / "project")
    project = pyproject["project"]
    assert isinstance(project, dict)
    assert project["version"] and "build-system" in pyproject

    dist = tmp_path / "dist"
    pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist),
        str(tmp_path / "project"))  # fmt: skip
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert f"{package.name}/alpine.json" in names, names
    assert f"{package.name}/py.typed" in names

    site = tmp_path / "site"
    pip("install", "--no-deps", "--no-index", "--target", str(site), str(wheel))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH")) if p)
    run = subprocess.run(
        [sys.executable, "-c", _PLAY, str(site)],
        cwd=tmp_path,  # not the project: the package must come from the installed wheel
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    played = run.stdout.strip().splitlines()[-1]
    assert '"provider": "ttr-rules-alpine"' in played
    assert '"map": "alpine"' in played and '"terminal": true' in played
