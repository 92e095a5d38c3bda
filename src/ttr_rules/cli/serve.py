"""``ttr serve``: the web front end (the ``web`` extra) on a local HTTP server."""

from __future__ import annotations

import argparse

from .common import error, integer, shown

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
    parser.add_argument("--port", type=integer, default=8000, help="port, 0-65535 (default 8000)")
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=None,
        help="save every game as a record in DIR (created owner-only) and reload them on start",
    )
    parser.add_argument(
        "--agent-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="pause before each agent move so people can follow (default 0.5)",
    )
    parser.add_argument(
        "--agent-workers",
        type=integer,
        default=2,
        metavar="N",
        help="processes the agents think in (default 2; 0: a thread of the server)",
    )
    parser.add_argument(
        "--move-seconds",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="an agent's time per move; past it a random legal move is played (default 30)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=24 * 3600.0,
        metavar="SECONDS",
        help="drop unfinished games nobody touched for this long (default 86400; 0: never)",
    )
    parser.add_argument(
        "--max-games",
        type=integer,
        default=1000,
        metavar="N",
        help="unfinished games held at once (default 1000)",
    )
    parser.add_argument(
        "--games-per-minute",
        type=float,
        default=60.0,
        metavar="N",
        help="games one client address may create per minute (default 60; 0: no limit)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also accept this name in the Host header (repeatable; '*' accepts any); "
        "localhost, 127.0.0.1 and --host are always accepted",
    )


def _check(args: argparse.Namespace) -> str | None:
    """The first problem of the options, or None."""
    if not 0 <= args.port <= 65535:
        return f"--port must be 0-65535, got {args.port}"
    for name in ("agent_delay", "move_seconds", "idle_timeout", "games_per_minute"):
        value = getattr(args, name)
        if not value >= 0 or value == float("inf"):  # also NaN
            return f"--{name.replace('_', '-')} must be a non-negative number, got {value}"
    if args.move_seconds == 0:
        return "--move-seconds must be more than 0"
    if args.agent_workers < 0 or args.agent_workers > 64:
        return f"--agent-workers must be 0-64, got {args.agent_workers}"
    if args.max_games < 1:
        return f"--max-games must be at least 1, got {args.max_games}"
    for name in args.allow_host:
        if name != "*" and not _host_name_ok(name):
            return f"--allow-host takes a host name, got '{shown(name)[:100]}'"
    return None


def _host_name_ok(name: str) -> bool:
    """A name a ``Host`` header can carry: 1 to 255 printable ASCII characters, no space, no
    slash, no ``@``.

    >>> _host_name_ok("games.example.org"), _host_name_ok("[::1]"), _host_name_ok("a b")
    (True, True, False)
    """
    return (
        0 < len(name) <= 255
        and name.isascii()
        and name.isprintable()
        and not any(c in name for c in " /@\\")
    )


def _in_url(host: str) -> str:
    """``host`` as a URL (and a ``Host`` header) names it: an IPv6 address in brackets.

    >>> _in_url("::1"), _in_url("127.0.0.1")
    ('[::1]', '127.0.0.1')
    """
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def run(args: argparse.Namespace) -> int:
    problem = _check(args)
    if problem is not None:
        error(problem)
        return 2
    try:
        import uvicorn

        from ..web import create_app
        from ..web.games import DataDirError
        from ..web.server import listening_socket
    except ImportError as exc:
        error(f"ttr serve needs the web extra (pip install 'ttr-rules[web]'): {exc}")
        return 1
    try:
        app = create_app(
            args.data,
            agent_delay=args.agent_delay,
            agent_workers=args.agent_workers,
            move_seconds=args.move_seconds,
            idle_seconds=args.idle_timeout or None,
            max_games=args.max_games,
            games_per_minute=args.games_per_minute,
            games_burst=max(1, int(args.games_per_minute)),
            allowed_hosts=(args.host, _in_url(args.host), *args.allow_host),
        )
    except DataDirError as exc:
        error(str(exc))
        return 2
    try:
        sock = listening_socket(args.host, args.port)
    except (OSError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        error(f"cannot listen on {shown(_in_url(args.host))}:{args.port}: {reason}")
        return 1
    port = sock.getsockname()[1]
    print(f"ttr serve: http://{_in_url(args.host)}:{port}/ (API docs at /api/docs)", flush=True)
    config = uvicorn.Config(app, log_level="info")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0
