"""The web server: waitress for the commands and pages, the event loop of `fanout.py` for the
scoreboards' streams, on one port.

Waitress reads every request head on its own loop (no thread is held while a client is slow);
a complete `GET /api/events` is handed to the stream loop instead of a worker thread, so open
streams never take the threads commands need. The stream loop is told whether the request
is the table's own (`rightful`: from this machine, 127.0.0.1 or ::1, or with the cookie of an
unlocked tablet, as `security.unlocked` tells): those always get a stream (`fanout.py`).
A service of several tables (`tables.Tables`) has a stream loop for each table, and
`/t/<id>/api/events` goes to that table's (`/api/events` to the first's); the cap on streams
is shared out among them evenly, so the tables together hold no more than `streams`.

Slow clients are cut off:

- a request head must arrive within `head_timeout` (`HEAD_TIMEOUT`) seconds of the
  connection's start (or of the first byte of a later request on it), and the whole request
  (head and body) within `REQUEST_TIMEOUT`; both `CROWDED_TIMEOUT` at most once connections
  fill three quarters of `connection_limit`;
- an idle connection is closed after `IDLE_TIMEOUT` seconds;
- bodies over `MAX_BODY` bytes are refused (413), heads over `MAX_HEAD` bytes (431).

Connections: waitress serves at most `connections` at once, and one address at most
`PER_ADDRESS` of them (a new one closes that address's oldest idle one). A new connection past
`connections` closes the oldest connection that is idle or still owes its request head (never
one of this machine's, nor one being answered): a flood of half-sent heads (slowloris) never
makes a new connection wait in the kernel's queue for its deadline. Only when every
connection is being answered does the server stop accepting until one is done.

Descriptors: waitress waits with `poll()` (`select()` fails past descriptor 1023, and streams
hold descriptors waitress does not count). Connections and streams (at most `streams`), plus
`reserved()` for the rest of the process, must fit its open-file limit: `fit_descriptors`
checks that at start (config `[service]`).

Waitress's internals this relies on (pyproject.toml pins the minor version;
`tests/web/test_waitress_contract.py` checks each in the installed waitress, so an upgrade that
changes one fails there, by name, not at a table):

- `waitress.server.TcpWSGIServer` (a `wasyncore.dispatcher`), subclassed by `ScoreboardServer`:
  built as ``TcpWSGIServer(application, adj=Adjustments(**settings))``; its class attributes
  `channel_class` (set to `Channel`), `next_channel_cleanup` and `in_connection_overflow`;
  overrides `readable()` (asked by the loop every round: replaced whole, it runs
  `maintenance(now)` every `adj.cleanup_interval` seconds as waitress's does),
  `handle_accept()` (replaced whole, with `accept()` (a ``(socket, address)`` pair, or None),
  `set_socket_options(conn)`, `fix_addr(addr)`), `add_task(channel)` (the channel's call when
  a request is complete; other requests go on to waitress's), `maintenance(now)` (after
  waitress's, which marks idle connections `will_close`) and `close()`; reads `adj`
  (`connection_limit`, `cleanup_interval`, `log_socket_errors`), `_map` (the socket map, whose
  size counts the connections), `active_channels` (descriptor → channel), `accepting` and
  `logger`; `run()` serves.
- `waitress.channel.HTTPChannel`, subclassed by `Channel`: built as
  ``HTTPChannel(server, sock, addr, adj, map=None)``, which sets `server`, `addr`, `requests`
  (complete requests not yet answered) and registers it in `server.active_channels`; overrides
  `received(data) -> bool` (the bytes read: it parses into `request`, the request still
  being read, None between requests, and when one is complete appends it to `requests`,
  calling `server.add_task(channel)` if that was empty) and `del_channel(map=None)` (out of the
  socket map and `active_channels`); calls `handle_close()` (closed at once); reads
  `total_outbufs_len`; sets `will_close`, and `socket` and `connected` of a channel handed to
  the streams.
- `waitress.parser.HTTPRequestParser`, a channel's `request` and `requests[0]`: reads
  `headers_finished`, `headers` (names upper-case, ``-`` as ``_``: `COOKIE`, `LAST_EVENT_ID`),
  `command`, `path`, `query` and `error`.
- `waitress.adjustments.Adjustments`: the settings `create_server` passes, all documented
  options (`channel_request_lookahead=1` also gives the stream route of `stream.py` the
  environ's documented `waitress.client_disconnected`).
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import resource
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from controller.config import ServiceConfig
from controller.sections import ConfigError

from . import fanout as streams_module
from . import security
from .fanout import Fanout, Request
from .limits import MAX_BODY
from .stream import HEARTBEAT
from .table_access import table_service
from .tables import Tables

log = logging.getLogger(__name__)

MAX_HEAD = 16 * 1024
HEAD_TIMEOUT = 5.0  # seconds for a whole request head (a phone on a weak link needs far less)
REQUEST_TIMEOUT = 10.0
CROWDED_TIMEOUT = 2.0
IDLE_TIMEOUT = 30
CONNECTIONS = ServiceConfig.connections  # the config's default
PER_ADDRESS = 32  # connections one client address may hold (a browser opens at most 6)
UNLIMITED = 65536  # the open-file limit taken for "unlimited"
RESERVED = 64  # descriptors for the rest: stdio, the database, the launcher, logs, pipes...
# (and the few a moment over the caps: a new connection before the one it replaces is closed,
# `fanout.DISPLACING` rightful streams before the strangers' ones they replace are)
ACCEPTS = 16  # connections accepted at once when several wait
STREAM_PATH = "/api/events"
OWN = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))


def is_own(address: str) -> bool:
    """This machine's own address (the browser on the Pi itself). Only 127.0.0.1 and ::1:
    the rest of 127/8 is also this machine, but no tablet uses it (the tests' strangers do)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip in OWN


def has_rights(app: Flask, request: Any) -> bool:
    """Whether the request (waitress's, its head read) carries the session cookie of a tablet
    unlocked here: `security.unlocked()` asked in a request context built from its head."""
    cookie = request.headers.get("COOKIE")
    if not cookie:
        return False
    try:
        with app.test_request_context(STREAM_PATH, headers={"Cookie": cookie}):
            return bool(security.unlocked())
    except Exception:  # a cookie that cannot be read has no rights
        log.debug("a stream's cookie could not be read", exc_info=True)
        return False


class Channel(HTTPChannel):  # type: ignore[misc]
    """A waitress connection that remembers when the request it is reading began."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.address = str(self.addr[0]) if self.addr else ""
        self.own = is_own(self.address)
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

    def late(self, clock: float, head: float, whole: float) -> bool:
        """Its request's head took longer than `head` seconds, or the whole of it longer than
        `whole` (a slow, or never-ending, request)."""
        if self.began is None or self.requests:
            return False
        partial = self.request
        limit = whole if partial is not None and partial.headers_finished else head
        return clock - self.began > limit


@dataclass(frozen=True)
class StreamDoor:
    """Where one table's `GET /api/events` goes: its stream loop, and how to tell whether a
    request carries the cookie of a tablet unlocked at that table."""

    fanout: Fanout
    rights: Callable[[Any], bool]


class ScoreboardServer(TcpWSGIServer):  # type: ignore[misc]
    """Waitress with the streams handed to their table's `Fanout` (`doors`: by the stream's
    path), deadlines for slow requests and the oldest idle connection closed for a new one
    past the connection limit."""

    channel_class = Channel
    next_channel_cleanup: float = 0
    in_connection_overflow: bool = False

    def __init__(
        self,
        app: Any,
        doors: dict[str, StreamDoor],
        *,
        head_timeout: float = HEAD_TIMEOUT,
        **settings: Any,
    ) -> None:
        self.doors = doors
        self.head_timeout = head_timeout
        self.by_address: dict[str, dict[Channel, None]] = {}  # oldest first
        self.order: dict[Channel, None] = {}  # every connection, oldest first
        super().__init__(app, adj=Adjustments(**settings))

    def readable(self) -> bool:
        """Waitress's loop, every round: maintenance when due, and whether to accept."""
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        if not self.accepting:
            return False
        if self.in_connection_overflow and len(self._map) < self.adj.connection_limit:
            self.in_connection_overflow = False
            log.info("a connection was answered: accepting new ones again")
        return not self.in_connection_overflow

    def handle_accept(self) -> None:
        """Accept those waiting (`ACCEPTS` at most): every socket first, then their channels,
        so none gets the descriptor of a connection its arrival closes while this round still
        holds that descriptor's events."""
        accepted = []
        for _ in range(ACCEPTS):
            try:
                pair = self.accept()
                if pair is None:
                    break
                conn, addr = pair
                self.set_socket_options(conn)
            except OSError:
                if self.adj.log_socket_errors:
                    self.logger.warning("server accept() threw an exception", exc_info=True)
                break
            accepted.append((conn, self.fix_addr(addr)))
        for conn, addr in accepted:
            self.channel_class(self, conn, addr, self.adj, map=self._map)

    def admit(self, channel: Channel) -> None:
        """Waitress's loop thread, a new connection: past `PER_ADDRESS` from its address, the
        oldest idle one of that address is closed (or, if none is idle, the new one); past the
        connection limit, the oldest idle one of another address's that is not this
        machine's (if every one is being answered, no more are accepted for now)."""
        self.order[channel] = None
        mine = self.by_address.setdefault(channel.address, {})
        mine[channel] = None
        if len(mine) > PER_ADDRESS:
            oldest = next((c for c in mine if c.idle()), channel)
            oldest.handle_close()  # not `will_close`: its descriptor is free at once
            if oldest is channel:
                return
        if len(self._map) <= self.adj.connection_limit:
            return
        victim = self._victim(channel)
        if victim is not None:
            victim.handle_close()
        elif not self.in_connection_overflow:
            self.in_connection_overflow = True
            log.warning("every connection is being answered: new ones wait until one is done")

    def _victim(self, spare: Channel | None = None) -> Channel | None:
        """The oldest connection that is idle or owes its request head, not this machine's."""
        return next((c for c in self.order if c is not spare and not c.own and c.idle()), None)

    def release(self, channel: Channel) -> None:
        self.order.pop(channel, None)
        mine = self.by_address.get(channel.address)
        if mine is not None:
            mine.pop(channel, None)
            if not mine:
                del self.by_address[channel.address]

    def add_task(self, channel: Channel) -> None:
        """Waitress's loop thread, a request is complete: a stream goes to its table's fan-out."""
        request = channel.requests[0]
        door = self._door(request)
        if door is None:
            super().add_task(channel)
            return
        sock = channel.socket
        channel.del_channel()  # out of waitress's map; the socket stays open for the stream
        channel.socket, channel.connected = None, False
        last = request.headers.get("LAST_EVENT_ID") or _query_last(request.query)
        rightful = channel.own or door.rights(request)
        door.fanout.adopt(sock, Request(channel.address, last, rightful))

    def _door(self, request: Any) -> StreamDoor | None:
        """The table whose event stream the request asks for, or None (not a stream)."""
        if request.command != "GET" or request.error:
            return None
        return self.doors.get(request.path)

    def close(self) -> None:
        for fanout in dict.fromkeys(door.fanout for door in self.doors.values()):
            fanout.stop()
        super().close()

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle connections
        crowded = len(self._map) > self.adj.connection_limit * 3 // 4
        head = min(self.head_timeout, CROWDED_TIMEOUT) if crowded else self.head_timeout
        whole = max(head, CROWDED_TIMEOUT if crowded else REQUEST_TIMEOUT)
        clock = time.monotonic()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, Channel) and channel.late(clock, head, whole):
                channel.will_close = True  # a slow (or never-ending) request
        if self.in_connection_overflow and self._victim() is not None:
            self.in_connection_overflow = False  # accept again: a new one closes that one


def _query_last(query: str) -> str | None:
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if name == "last":
            return value
    return None


def create_server(
    app: Flask | Tables,
    *,
    host: str,
    port: int,
    threads: int,
    connections: int | None = None,
    streams: int | None = None,
    head_timeout: float | None = None,
    ident: str = "uno-attack",
) -> ScoreboardServer:
    """The server for `app` (a scoreboard app from `create_app`, or a service's `Tables`),
    listening on host:port, with each table's stream loop started. `.run()` serves; `close()`
    stops them all. At most `connections` connections and `streams` streams (default: the
    config's), shared out evenly among the tables; ConfigError if they do not fit the
    process's open-file limit. A request head must arrive within `head_timeout` seconds
    (default `HEAD_TIMEOUT`)."""
    connections = CONNECTIONS if connections is None else connections
    streams = streams_module.MAX_STREAMS if streams is None else streams
    fit_descriptors(connections, streams, threads)
    routes = app.routes() if isinstance(app, Tables) else [("", app)]
    doors = stream_doors(routes, streams)
    server = ScoreboardServer(
        app,
        doors,
        head_timeout=HEAD_TIMEOUT if head_timeout is None else head_timeout,
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
    for fanout in dict.fromkeys(door.fanout for door in doors.values()):
        fanout.start()
    return server


def stream_doors(routes: list[tuple[str, Flask]], streams: int) -> dict[str, StreamDoor]:
    """A stream loop for each table's app (`routes`: its path prefixes, an app under several
    has one loop), each with an even share of the `streams` cap; by the streams' paths."""
    apps = list(dict.fromkeys(app for _, app in routes))
    share = max(1, streams // len(apps))
    made = {}
    for app in apps:
        heartbeat = app.config.get("SSE_HEARTBEAT", HEARTBEAT)
        fanout = Fanout(table_service(app), heartbeat=heartbeat, max_streams=share)
        app.extensions["streams"] = fanout
        made[app] = StreamDoor(fanout, partial(has_rights, app))
    return {prefix + STREAM_PATH: made[app] for prefix, app in routes}


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
