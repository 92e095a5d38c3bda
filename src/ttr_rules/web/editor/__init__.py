"""The map designer's workbench (``ttr edit``): a browser editor for map files (extra ``web``).

:func:`open_workbench` opens a map file, a copy of an installed map or a blank board as a
:class:`Workbench` (the map being edited, its history and its file); :func:`create_editor_app`
serves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .plugin import plugin_files, plugin_zip
from .workbench import EditError, Workbench, blank_map, open_workbench, shortest_spaces

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "EditError",
    "Workbench",
    "blank_map",
    "create_editor_app",
    "open_workbench",
    "plugin_files",
    "plugin_zip",
    "shortest_spaces",
]


def create_editor_app(bench: Workbench, allowed_hosts: tuple[str, ...] = ()) -> FastAPI:
    """The workbench's ASGI app (:func:`.app.create_editor_app`)."""
    from .app import create_editor_app as _create

    return _create(bench, allowed_hosts)
