"""The installable plugin package of a map, as a zip: a pyproject registering the map under
the ``ttr_rules.maps`` entry point, the map file as package data, a loader and a test that
runs the verification kit (:func:`ttr_rules.testing.check_map`) on it."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

__all__ = ["plugin_files", "plugin_zip"]

_PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.18"]
build-backend = "hatchling.build"

[project]
name = "ttr-rules-{dist}"
version = "{version}"
description = "{title}: a map for ttr-rules"
requires-python = ">=3.11"
dependencies = ["ttr-rules>=0.1"]

[project.entry-points."ttr_rules.maps"]
{name} = "{package}:load"

[tool.hatch.build.targets.wheel]
packages = ["src/{package}"]
"""

_LOADER = '''\
"""The {title} map for ttr-rules (made with ttr edit)."""

from importlib.resources import files

from ttr_rules import GameMap, load_map_file


def load() -> GameMap:
    return load_map_file(files(__name__).joinpath("{name}.json"))
'''

_TEST = '''\
"""The map loads, passes every check and plays to the end (the verification kit)."""

from {package} import load
from ttr_rules.testing import check_map


def test_the_map_plays() -> None:
    report = check_map(load(), games=2)
    assert report.ok, report
'''


def plugin_files(document: dict[str, Any]) -> dict[str, str]:
    """The files of the plugin project of a valid map document, by their path in the zip.

    >>> sorted(plugin_files({"name": "alps", "version": "1", "title": "Alps"}))
    ['ttr-rules-alps/README.md', 'ttr-rules-alps/pyproject.toml', \
'ttr-rules-alps/src/ttr_rules_map_alps/__init__.py', \
'ttr-rules-alps/src/ttr_rules_map_alps/alps.json', 'ttr-rules-alps/tests/test_map.py']
    """
    name = str(document["name"])  # a map name: a-z, 0-9, '_', '.', '-' (checked by the format)
    dist = name.replace("_", "-").replace(".", "-")
    package = "ttr_rules_map_" + dist.replace("-", "_")
    title = json.dumps(str(document.get("title") or name))[1:-1]
    version = json.dumps(str(document.get("version") or "1"))[1:-1]
    fields = {
        "name": name,
        "dist": dist,
        "package": package,
        "title": title,
        "version": version,
    }
    root = f"ttr-rules-{dist}"
    return {
        f"{root}/README.md": f"# {title}\n\nA map for ttr-rules. Install it with "
        f"`pip install .`; then `ttr maps` lists `{name}`.\n",
        f"{root}/pyproject.toml": _PYPROJECT.format(**fields),
        f"{root}/src/{package}/__init__.py": _LOADER.format(**fields),
        f"{root}/src/{package}/{name}.json": json.dumps(document, ensure_ascii=False, indent=1)
        + "\n",
        f"{root}/tests/test_map.py": _TEST.format(**fields),
    }


def plugin_zip(document: dict[str, Any]) -> bytes:
    """:func:`plugin_files` in a zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in plugin_files(document).items():
            archive.writestr(path, text)
    return buffer.getvalue()
