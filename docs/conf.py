"""Sphinx configuration for the ttr-rules documentation (builds offline, with ``-W``)."""

from __future__ import annotations

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
