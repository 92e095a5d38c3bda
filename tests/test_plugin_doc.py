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


def write_project(project: Path, *, bonus: bool = False) -> tuple[dict[str, object], Path]:
    """The plugin as the page lays it out (``bonus``: as section 7 does, with its own bonus
    scorer); returns the parsed pyproject and the package dir."""
    (pyproject_text,) = [
        b for b in blocks("toml") if "[project]" in b and ("ttr_rules.bonuses" in b) == bonus
    ]
    pyproject = tomllib.loads(pyproject_text)
    (loader,) = [
        b for b in blocks("python") if "def load()" in b and ("map_from_dict" in b) == bonus
    ]
    (package_path,) = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    package = project / package_path
    package.mkdir(parents=True)
    (project / "pyproject.toml").write_text(pyproject_text, encoding="utf-8")
    (package / "__init__.py").write_text(loader, encoding="utf-8")
    if bonus:
        (scorer,) = [b for b in blocks("python") if "def summit(" in b]
        (package / "bonus.py").write_text(scorer, encoding="utf-8")
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


def install(tmp_path: Path, bonus: bool) -> tuple[Path, dict[str, str]]:
    """Build the page's plugin into a wheel and install it in a folder of its own; the folder
    and the environment that puts it on the path."""
    pyproject, package = write_project(tmp_path / "project", bonus=bonus)
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
    assert (f"{package.name}/bonus.py" in names) == bonus

    site = tmp_path / "site"
    pip("install", "--no-deps", "--no-index", "--target", str(site), str(wheel))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH")) if p)
    return site, env


def test_the_documented_plugin_builds_installs_and_plays(tmp_path: Path) -> None:
    site, env = install(tmp_path, bonus=False)
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


_BONUS = """
import sys
import ttr_rules, ttr_rules_alpine
from ttr_rules.agents import play_game
from ttr_rules.render import format_scores
assert ttr_rules_alpine.__file__.startswith(sys.argv[1]), ttr_rules_alpine.__file__
assert ttr_rules.load_map("alpine").rules.bonuses == ("express", "summit")
for seed in range(20):
    end = play_game(["greedy"] * 3, map="alpine", seed=seed)
    scored = [dict(s.bonuses).get("summit", 0) for s in ttr_rules.final_scores(end)]
    if any(scored):
        break
table = format_scores(end)
assert "summit+" in table.splitlines()[0] and "+5" in table, table
print("summit", scored)
"""


def test_the_documented_plugin_with_its_own_bonus_scores_it(tmp_path: Path) -> None:
    site, env = install(tmp_path, bonus=True)
    run = subprocess.run(
        [sys.executable, "-c", _BONUS, str(site)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1].startswith("summit [")
