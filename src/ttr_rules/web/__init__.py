"""The browser front end: an ASGI app with a JSON API, live updates and a page (extra ``web``).

``ttr_rules.web.app`` is a ready ASGI application (``uvicorn ttr_rules.web:app``);
:func:`create_app` builds a new one, optionally saving games under a data directory.
``ttr serve`` runs it. Importing this package needs FastAPI, uvicorn and sse-starlette
(``pip install "ttr-rules[web]"``); ``import ttr_rules`` never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["app", "create_app"]


def create_app(data_dir: str | None = None, **options: Any) -> FastAPI:
    """A new ASGI application holding its own games; ``options`` are those of
    :func:`ttr_rules.web.api.create_app` (limits, agent workers, idle expiry, allowed hosts)."""
    from .api import create_app as _create

    return _create(data_dir, **options)


_app: FastAPI | None = None


def __getattr__(name: str) -> Any:
    global _app
    if name == "app":
        if _app is None:
            _app = create_app()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
