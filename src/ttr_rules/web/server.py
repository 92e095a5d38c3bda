"""The listening socket ``ttr serve`` and the tests hand to uvicorn."""

from __future__ import annotations

import socket

__all__ = ["listening_socket"]


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host``:``port`` (0: a free port).

    It is made with the protocol named (``IPPROTO_TCP``, not the default 0) because asyncio
    turns Nagle's algorithm off (``TCP_NODELAY``) only on the connections of such a socket;
    with it on, a response's body waits behind its headers for the client's delayed
    acknowledgement, some 40 ms per request. Raises ``OSError`` (address in use, unknown
    host) or ``OverflowError`` (a port past 65535).

    >>> sock = listening_socket("127.0.0.1", 0)
    >>> sock.proto == socket.IPPROTO_TCP
    True
    >>> sock.close()
    """
    if not 0 <= port <= 65535:
        raise OverflowError(f"port must be 0-65535, got {port}")
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(socket.SOMAXCONN)
    except BaseException:
        sock.close()
        raise
    return sock
