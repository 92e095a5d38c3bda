"""Sphinx configuration for the ttr-rules documentation (builds offline, with ``-W``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

project = "ttr-rules"
author = "ttr-rules developers"
copyright = "ttr-rules developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

html_theme = "furo"
html_title = "ttr-rules"

# No network access: no intersphinx. Unresolvable type references are not errors.
nitpicky = False
autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
myst_heading_anchors = 3


# --------------------------------------------------------------------------- generated pictures


def _draw_boards(app: Any, exception: Exception | None) -> None:
    """Write the pictures of "Drawing the board" into the HTML output: the Europe board at the
    end of a four-player game between greedy agents, drawn by ``ttr_rules.render.svg``."""
    if exception is not None or app.builder.format != "html":
        return
    from ttr_rules.agents import play_game
    from ttr_rules.render import svg

    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    end = play_game(["greedy"] * 4, seed=2026)
    (static / "europe-end.svg").write_text(svg(end, size=1000), encoding="utf-8")


# Rule ids in docstrings ("E47", "U8", "E23–E50") link to their entries of the rules catalogue
# and the policies (docs/rules/), whose MyST targets are the lower-case ids.
_RULE_ID = re.compile(r"(?<![\w`<])([EU])([1-9]\d?)([a-e]?)(?![\w`>])")


def _link_rule_ids(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    for i, line in enumerate(lines):
        if line.lstrip().startswith((">>>", "...")):
            continue
        lines[i] = _RULE_ID.sub(lambda m: f":ref:`{m.group(0)} <{m.group(1)}{m.group(2)}>`", line)


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", _link_rule_ids)
    app.connect("build-finished", _draw_boards)
