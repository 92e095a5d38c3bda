"""``ttr edit [MAP | FILE]``: the map designer's workbench in the browser (the ``web`` extra)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import error, integer, shown

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Edit a map in the browser: a map file (a new one starts blank), or a copy of an "
        "installed map saved as NAME.json in this folder; without MAP, a blank board in "
        "new-map.json. Listens on 127.0.0.1 only and opens no browser: open the address it "
        "prints (needs the 'web' extra: pip install 'ttr-rules[web]')."
    )
    parser.add_argument(
        "map", nargs="?", metavar="MAP | FILE", help="an installed map or a map file (.json)"
    )
    parser.add_argument("--port", type=integer, default=8010, help="port, 0-65535 (default 8010)")


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        error(f"--port must be 0-65535, got {args.port}")
        return 2
    try:
        import uvicorn

        from ..web.editor import EditError, create_editor_app, open_workbench
        from ..web.server import listening_socket
    except ImportError as exc:
        error(f"ttr edit needs the web extra (pip install 'ttr-rules[web]'): {exc}")
        return 1
    try:
        bench = open_workbench(args.map, Path.cwd())
    except EditError as exc:
        error(str(exc))
        return 1
    try:
        sock = listening_socket("127.0.0.1", args.port)
    except OSError as exc:
        error(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}")
        return 1
    port = sock.getsockname()[1]
    print(f"ttr edit: {shown(bench.path)} at http://127.0.0.1:{port}/", flush=True)
    config = uvicorn.Config(create_editor_app(bench), log_level="warning")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0
