"""The web server: waitress for the commands and pages, the event loop of `fanout.py` for the
scoreboards' streams, on one port.

Waitress reads every request head on its own loop (no thread is held while a client is slow);
a complete `GET /api/events` is handed to the stream loop instead of a worker thread, so open
streams never take the threads commands need. Slow clients are cut off:

- a request (head and body) must arrive within `REQUEST_TIMEOUT` seconds of its first byte,
  `CROWDED_TIMEOUT` once connections fill three quarters of `connection_limit`;
- an idle connection is closed after `IDLE_TIMEOUT` seconds;
- bodies over `MAX_BODY` bytes are refused (413), heads over `MAX_HEAD` bytes (431).

Descriptors: waitress waits with `poll()` (`select()` fails past descriptor 1023, and streams
hold descriptors waitress does not count). It serves at most `connections` at once, and one
address at most `PER_ADDRESS` of them (a new one closes that address's oldest idle one); the
stream loop holds at most `streams`. Those two, plus `reserved()` for the rest of the process,
must fit its open-file limit: `fit_descriptors` checks that at start (config `[service]`).
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

from controller.config import ServiceConfig
from controller.sections import ConfigError

from . import fanout as streams_module
from .fanout import Fanout, Request
from .limits import MAX_BODY
from .stream import HEARTBEAT

log = logging.getLogger(__name__)

MAX_HEAD = 16 * 1024
REQUEST_TIMEOUT = 10.0
CROWDED_TIMEOUT = 2.0
IDLE_TIMEOUT = 30
CONNECTIONS = ServiceConfig.connections  # the config's default
PER_ADDRESS = 32  # connections one client address may hold (a browser opens at most 6)
UNLIMITED = 65536  # the open-file limit taken for "unlimited"
RESERVED = 64  # descriptors for the rest: stdio, the database, the launcher, logs, pipes...
STREAM_PATH = "/api/events"


class Channel(HTTPChannel):  # type: ignore[misc]
    """A waitress connection that remembers when the request it is reading began."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.began: float | None = time.monotonic()  # a new connection owes a request
        self.server.admit(self)

    def idle(self) -> bool:
        """Nothing to answer and nothing to send: closing it loses no request."""
        return not self.requests and not self.total_outbufs_len

    def del_channel(self, map: Any = None) -> None:
        """Closed, or handed to the stream loop: it no longer counts for its address."""
        super().del_channel(map)
        self.server.release(self)

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
        self.by_address: dict[str, dict[Channel, None]] = {}  # oldest first
        super().__init__(app, adj=Adjustments(**settings))

    def admit(self, channel: Channel) -> None:
        """Waitress's loop thread, a new connection: past `PER_ADDRESS` from its address, the
        oldest idle one of that address is closed (or, if none is idle, the new one)."""
        mine = self.by_address.setdefault(str(channel.addr[0]), {})
        mine[channel] = None
        if len(mine) <= PER_ADDRESS:
            return
        oldest = next((c for c in mine if c.idle()), channel)
        oldest.handle_close()  # not `will_close`: its descriptor is free at once

    def release(self, channel: Channel) -> None:
        address = str(channel.addr[0]) if channel.addr else ""
        mine = self.by_address.get(address)
        if mine is not None:
            mine.pop(channel, None)
            if not mine:
                del self.by_address[address]

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
    app: Flask,
    *,
    host: str,
    port: int,
    threads: int,
    connections: int | None = None,
    streams: int | None = None,
    ident: str = "uno-attack",
) -> ScoreboardServer:
    """The server for `app` (a scoreboard app from `create_app`), listening on host:port,
    with its table's stream loop started. `.run()` serves; `close()` stops both. At most
    `connections` connections and `streams` streams (default: the config's); ConfigError
    if they do not fit the process's open-file limit."""
    connections = CONNECTIONS if connections is None else connections
    streams = streams_module.MAX_STREAMS if streams is None else streams
    fit_descriptors(connections, streams, threads)
    heartbeat = app.config.get("SSE_HEARTBEAT", HEARTBEAT)
    fanout = Fanout(app.extensions["table"], heartbeat=heartbeat, max_streams=streams)
    app.extensions["streams"] = fanout
    server = ScoreboardServer(
        app,
        fanout,
        host=host,
        port=port,
        threads=threads,
        channel_request_lookahead=1,
        connection_limit=connections,
        asyncore_use_poll=True,  # select() cannot watch a descriptor past 1023
        channel_timeout=IDLE_TIMEOUT,
        cleanup_interval=1,
        max_request_body_size=MAX_BODY,
        max_request_header_size=MAX_HEAD,
        ident=ident,
    )
    fanout.start()
    return server


def reserved(threads: int) -> int:
    """Descriptors kept for everything but connections and streams: `RESERVED`, and one for
    each worker thread (it may be sending a file)."""
    return RESERVED + threads


def fit_descriptors(connections: int, streams: int, threads: int) -> int:
    """Raise the open-file limit as far as allowed and check that `connections` + `streams`
    + `reserved(threads)` fit in it; return the limit. ConfigError, saying what to change,
    if they do not."""
    needed = connections + streams + reserved(threads)
    limit, hard = file_limit()
    if needed > limit:
        hard_text = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
        raise ConfigError(
            f"service.connections ({connections}) + service.streams ({streams}) + "
            f"{reserved(threads)} kept for the database, the launcher, logs and "
            f"{threads} threads need {needed} open files, but this process may open only "
            f"{limit} (RLIMIT_NOFILE, hard limit {hard_text}): lower service.connections or "
            "service.streams in the config, or raise the limit (systemd: LimitNOFILE=; "
            "a shell: ulimit -n)"
        )
    return limit


def file_limit() -> tuple[int, int]:
    """(soft, hard) open-file limit of this process, the soft one first raised to the hard
    one where allowed (an unlimited one counts as `UNLIMITED`)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return UNLIMITED, hard
    wanted = hard if hard != resource.RLIM_INFINITY else UNLIMITED
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft, hard


def serve_in_thread(server: ScoreboardServer) -> threading.Thread:
    """Run `server` on a daemon thread (the benchmarks)."""
    thread = threading.Thread(target=_run_quietly, args=(server,), name="waitress", daemon=True)
    thread.start()
    return thread


def _run_quietly(server: ScoreboardServer) -> None:
    with contextlib.suppress(OSError):  # the loop was polling sockets close() just closed
        server.run()
