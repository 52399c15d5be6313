"""Is there a Dask scheduler at ``tcp://host:port``?  Asked before Dask's client connects.

Dask's client, pointed at a port that is not a scheduler (a dashboard, any
HTTP server), either waits for a handshake that never comes (over 90 s) or
reads ``HTTP/1.1 4`` as the length of a message and tries to allocate
exabytes.  A scheduler speaks first: on accepting a connection it sends its
handshake, a small framed msgpack message (8 bytes of total length, the
frame count, the frame lengths, then ``{"compression": ..., "python": ...}``).
Reading that much within :data:`CONNECT_SECONDS` tells a scheduler from
anything else, in one line either way.
"""
from __future__ import annotations

import socket
from urllib.parse import urlsplit

from .runner import ClusterError

# How long connecting and the scheduler's first message may take.
CONNECT_SECONDS = 10.0
# A handshake is well under a kilobyte; a length beyond this is not one.
_MAX_HANDSHAKE = 1 << 16


def probe_scheduler(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """ClusterError unless a Dask scheduler answers at ``address`` (tcp:// only; other schemes pass)."""
    parts = urlsplit(address)
    if parts.scheme != "tcp":
        return
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or port is None:
        raise ClusterError(f"{address}: not a scheduler address (tcp://HOST:PORT)")
    try:
        with socket.create_connection((host, port), timeout=seconds) as conn:
            conn.settimeout(seconds)
            head = _read(conn, 8)
            total = int.from_bytes(head, "little")
            if not 16 <= total <= _MAX_HANDSHAKE:
                raise _not_dask(address, f"it sent {head!r}")
            body = _read(conn, total)
    except socket.timeout:
        raise _not_dask(address, f"no handshake within {seconds:.0f} s") from None
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None
    if b"compression" not in body:
        raise _not_dask(address, "its first message is not a Dask handshake")


def _read(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise OSError(f"connection closed after {len(data)} bytes")
        data += chunk
    return data


def _not_dask(address: str, why: str) -> ClusterError:
    return ClusterError(f"{address}: no Dask scheduler answers there ({why}); is it the dashboard or another"
                        f" service's port?")
