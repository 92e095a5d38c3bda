"""``ttr serve``: the web front end (the ``web`` extra) on a local HTTP server."""

from __future__ import annotations

import argparse

from .common import error

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Run the web front end and its JSON API: play against the agents in the browser "
        "(needs the 'web' extra: pip install 'ttr-rules[web]')."
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=None,
        help="save every game as a record in DIR and reload them on start",
    )
    parser.add_argument(
        "--agent-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="pause before each agent move so people can follow (default 0.5)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web import create_app
    except ImportError as exc:
        error(f"ttr serve needs the web extra (pip install 'ttr-rules[web]'): {exc}")
        return 1
    if args.agent_delay < 0:
        error("--agent-delay must not be negative")
        return 2
    app = create_app(args.data, agent_delay=args.agent_delay)
    print(f"ttr serve: http://{args.host}:{args.port}/ (API docs at /api/docs)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0
