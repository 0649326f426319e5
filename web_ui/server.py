"""The web server: waitress for the commands and pages, the event loop of `fanout.py` for the
scoreboards' streams, on one port.

Waitress reads every request head on its own loop (no thread is held while a client is slow);
a complete `GET /api/events` is handed to the stream loop instead of a worker thread, so open
streams never take the threads commands need. Slow clients are cut off:

- a request (head and body) must arrive within `REQUEST_TIMEOUT` seconds of its first byte,
  `CROWDED_TIMEOUT` once connections fill three quarters of `connection_limit`;
- an idle connection is closed after `IDLE_TIMEOUT` seconds;
- bodies over `MAX_BODY` bytes are refused (413), heads over `MAX_HEAD` bytes (431).
"""

from __future__ import annotations

import contextlib
import logging
import resource
import threading
import time
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from .fanout import Fanout, Request
from .limits import MAX_BODY
from .stream import HEARTBEAT

log = logging.getLogger(__name__)

MAX_HEAD = 16 * 1024
REQUEST_TIMEOUT = 10.0
CROWDED_TIMEOUT = 2.0
IDLE_TIMEOUT = 30
CONNECTIONS = 1000
STREAM_PATH = "/api/events"


class Channel(HTTPChannel):  # type: ignore[misc]
    """A waitress connection that remembers when the request it is reading began."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.began: float | None = time.monotonic()  # a new connection owes a request

    def received(self, data: bytes) -> bool:
        if self.began is None:
            self.began = time.monotonic()
        done: bool = super().received(data)
        if self.request is None:
            self.began = None  # nothing half-read: the next request's clock starts later
        return done


class ScoreboardServer(TcpWSGIServer):  # type: ignore[misc]
    """Waitress with the streams handed to `fanout` and deadlines for slow requests."""

    channel_class = Channel

    def __init__(self, app: Any, fanout: Fanout | None, **settings: Any) -> None:
        self.fanout = fanout
        super().__init__(app, adj=Adjustments(**settings))

    def add_task(self, channel: Channel) -> None:
        """Waitress's loop thread, a request is complete: a stream goes to the fan-out."""
        request = channel.requests[0]
        if self.fanout is None or not _is_stream(request):
            super().add_task(channel)
            return
        sock = channel.socket
        channel.del_channel()  # out of waitress's map; the socket stays open for the stream
        channel.socket, channel.connected = None, False
        last = request.headers.get("LAST_EVENT_ID") or _query_last(request.query)
        self.fanout.adopt(sock, Request(str(channel.addr[0]), last))

    def close(self) -> None:
        if self.fanout is not None:
            self.fanout.stop()
        super().close()

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle connections
        crowded = len(self._map) > self.adj.connection_limit * 3 // 4
        limit = CROWDED_TIMEOUT if crowded else REQUEST_TIMEOUT
        clock = time.monotonic()
        for channel in list(self.active_channels.values()):
            began = getattr(channel, "began", None)
            if began is not None and not channel.requests and clock - began > limit:
                channel.will_close = True  # a slow (or never-ending) request


def _is_stream(request: Any) -> bool:
    return bool(request.command == "GET" and request.path == STREAM_PATH and not request.error)


def _query_last(query: str) -> str | None:
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if name == "last":
            return value
    return None


def create_server(
    app: Flask, *, host: str, port: int, threads: int, ident: str = "uno-attack"
) -> ScoreboardServer:
    """The server for `app` (a scoreboard app from `create_app`), listening on host:port,
    with its table's stream loop started. `.run()` serves; `close()` stops both."""
    heartbeat = app.config.get("SSE_HEARTBEAT", HEARTBEAT)
    fanout = Fanout(app.extensions["table"], heartbeat=heartbeat)
    app.extensions["streams"] = fanout
    connections = min(CONNECTIONS, _file_limit() // 3)
    server = ScoreboardServer(
        app,
        fanout,
        host=host,
        port=port,
        threads=threads,
        channel_request_lookahead=1,
        connection_limit=connections,
        channel_timeout=IDLE_TIMEOUT,
        cleanup_interval=1,
        max_request_body_size=MAX_BODY,
        max_request_header_size=MAX_HEAD,
        ident=ident,
    )
    fanout.start()
    return server


def _file_limit() -> int:
    """Open files this process may have, raised to the hard limit (streams are sockets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft)


def serve_in_thread(server: ScoreboardServer) -> threading.Thread:
    """Run `server` on a daemon thread (the benchmarks)."""
    thread = threading.Thread(target=_run_quietly, args=(server,), name="waitress", daemon=True)
    thread.start()
    return thread


def _run_quietly(server: ScoreboardServer) -> None:
    with contextlib.suppress(OSError):  # the loop was polling sockets close() just closed
        server.run()
