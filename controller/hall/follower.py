"""Following one table over its public HTTP API, on two threads of its own.

The follower keeps the table's event stream (`GET <table>/api/events`) open. When it drops (the
table restarts, its Pi leaves the Wi-Fi, nothing came for `stale` seconds: the table sends a
keep-alive every 10 s), the table is shown offline, and the follower asks again every `retry`
seconds, with `Last-Event-ID` set to the last record it read: the table resends the records
of its current match that were missed, then its whole state.

The matches and their totals are never added up from the stream (a table resends at most the
latest 200 missed records, of its current match only): they are read whole from the table's
`GET <table>/api/matches`, once the state that opens each connection has come, and again
after records that can change them (`views.touches_totals`), on the second thread: a burst of
them costs one read (a table paces its history's readers to a few a second) and never holds
up the stream. A table's answer there already holds every record it has streamed (its history
is counted before a record is published), and each answer replaces the last (one read at a
time, so the last one applied is the newest), so nothing is counted twice or missed, however
long the table was away. The table is `live` again once the first read is done.

Why a table is offline is a `Reason`: a code the board shows in its language, with English
words for the API's readers. A follower the hall lets go (`leave()`: its table is followed at
another address) ends without reading on.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import json
import logging
import socket
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

from . import sse
from .feed import Reason, ReasonCode, TableFeed
from .views import read_matches, touches_totals

log = logging.getLogger(__name__)

RETRY = 1.0  # seconds between attempts to reach a table that is away
STALE = 25.0  # seconds without a byte (a keep-alive comes every 10 s): the table is away
TIMEOUT = 10.0  # seconds for an answer to GET /api/matches
PACED_TRIES = 5  # GET /api/matches answered 429 (too often): wait as told, this many times
MOST_WAIT = 5.0  # ...each wait at most this long
LONGEST_LINE = 8 * 1024 * 1024  # bytes: a line of the stream longer than this is refused


class TableAnswer(Exception):
    """The table answered, but not as its API says: why (`code`), and its HTTP status."""

    def __init__(
        self, text: str, code: ReasonCode = ReasonCode.UNREADABLE, status: int | None = None
    ) -> None:
        super().__init__(text)
        self.code, self.status = code, status


# what reaching or reading a table may raise: the table is then offline until caught up again
FAILURES = (
    OSError, http.client.HTTPException, TableAnswer, ValueError, KeyError, TypeError,
    AttributeError,
)  # fmt: skip
# failures that say the network does not reach the table, or cut its connection
UNREACHABLE = frozenset({errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EHOSTDOWN, errno.ENETDOWN})
DROPPED = (
    ConnectionResetError, ConnectionAbortedError, BrokenPipeError, http.client.IncompleteRead
)  # fmt: skip


class Follower:
    """Follows one table into its `TableFeed` until `stop()`: one thread reads the stream,
    another reads the matches again whenever the stream says they changed (a burst of such
    records costs one read, and the stream is never held up by it)."""

    def __init__(self, feed: TableFeed, *, retry: float = RETRY, stale: float = STALE) -> None:
        self.feed = feed
        self.retry, self.stale = retry, stale
        parts = urlsplit(feed.url)
        self._https = parts.scheme == "https"
        self._host, self._port, self._path = parts.hostname or "", parts.port, parts.path
        self._stopping = threading.Event()
        self._wanted = threading.Event()  # the matches changed since they were last read
        self._reading = threading.Lock()  # one read of the matches at a time: the last is newest
        self._socket: socket.socket | None = None  # the open stream's
        name = f"hall-{parts.netloc}{parts.path}"
        self._threads = [
            threading.Thread(target=self._run, name=name, daemon=True),
            threading.Thread(target=self._reread, name=f"{name}-matches", daemon=True),
        ]

    def start(self) -> Follower:
        for thread in self._threads:
            thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop following: the open stream is cut, the threads end."""
        self.leave()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout)

    def leave(self) -> None:
        """Tell both threads to end, without waiting for them (it may be one of them that
        asks): the open stream is cut."""
        self._stopping.set()
        self._wanted.set()
        self._cut()

    def _cut(self) -> None:
        """End the open stream (its thread then reconnects, unless stopping)."""
        stream = self._socket
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.shutdown(socket.SHUT_RDWR)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._follow()
                reason = Reason(ReasonCode.CLOSED, "the table closed its event stream")
            except FAILURES as error:
                reason = describe(error)
            if self._stopping.is_set():
                return
            self.feed.lost(reason)
            self._stopping.wait(self.retry)

    def _follow(self) -> None:
        """Read the table's stream until it ends; raise when it cannot be read."""
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.feed.seq:
            headers["Last-Event-ID"] = str(self.feed.seq)
        connection = self._connection(self.stale)
        try:
            connection.connect()
            self._socket = connection.sock
            _not_to_itself(connection.sock)
            if self._stopping.is_set():
                return
            connection.request("GET", f"{self._path}api/events", headers=headers)
            answer = connection.getresponse()
            _check_stream(answer)
            opened = False
            for event in sse.events(_lines(answer)):
                if self._stopping.is_set():
                    return
                opened = self._take(event, opened)
        finally:
            self._socket = None
            connection.close()

    def _take(self, event: sse.Event, opened: bool) -> bool:
        """Take one event of the stream; return whether the stream's opening is over."""
        data = json.loads(event.data)
        if event.name == "snapshot":
            self.feed.took_state(data)
            if self._stopping.is_set():  # let go: its table is followed at another address
                return True
            self._read_matches()
            self.feed.went_live()
            return True
        if event.name == "record":
            self.feed.took_record(data)
            if opened and touches_totals(data):
                self._wanted.set()
        elif event.name == "launcher":
            self.feed.took_launcher(data)
        return opened

    def _reread(self) -> None:
        """Read the matches again each time the stream said they changed. When that fails,
        the stream is cut: the table is caught up again as after any reconnection."""
        while True:
            self._wanted.wait()
            if self._stopping.is_set():
                return
            self._wanted.clear()
            try:
                self._read_matches()
            except FAILURES as error:
                log.info("hall: %s: reading its matches failed (%s)", self.feed.url, error)
                self._cut()

    def _read_matches(self) -> None:
        """The table's matches, read whole (`GET api/matches`), into the feed."""
        with self._reading:
            self._read_matches_now()

    def _read_matches_now(self) -> None:
        for _ in range(PACED_TRIES):
            status, wait, body = self._get("api/matches")
            if status == 200:
                self.feed.took_matches(read_matches(json.loads(body)))
                return
            if status != 429:
                raise TableAnswer(
                    f"its match history answered {status}", ReasonCode.HTTP_ERROR, status
                )
            if self._stopping.wait(min(wait, MOST_WAIT)):
                return
        raise TableAnswer(
            "its match history answered 429 (too often) again and again",
            ReasonCode.HTTP_ERROR,
            429,
        )

    def _get(self, path: str) -> tuple[int, float, bytes]:
        """GET a path under the table's address: the status, Retry-After and the body."""
        connection = self._connection(TIMEOUT)
        try:
            connection.request("GET", f"{self._path}{path}", headers={"Accept": "application/json"})
            answer = connection.getresponse()
            body = answer.read()
        finally:
            connection.close()
        try:
            wait = float(answer.getheader("Retry-After") or 1)
        except ValueError:
            wait = 1.0
        return answer.status, wait, body

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        return kind(self._host, self._port, timeout=timeout)


def _not_to_itself(stream: socket.socket) -> None:
    """A connection to a port nobody listens on, from this machine, may be given that same
    port as its own and connect to itself: it would keep the table from listening there
    again. Refused like the connection it should have been."""
    if stream.getsockname() == stream.getpeername():
        stream.close()
        raise ConnectionRefusedError("connection refused")


def _check_stream(answer: http.client.HTTPResponse) -> None:
    """Raise unless this is a table's event stream: 200 and `text/event-stream`."""
    said = f"its event stream answered {answer.status} {answer.reason}"
    if answer.status == 404:
        raise TableAnswer(said, ReasonCode.NOT_A_TABLE, 404)
    if answer.status != 200:
        raise TableAnswer(said, ReasonCode.HTTP_ERROR, answer.status)
    kind = answer.getheader("Content-Type") or ""
    if kind.split(";")[0].strip().lower() != "text/event-stream":
        raise TableAnswer(
            f"its /api/events is not an event stream ({kind})", ReasonCode.NOT_A_TABLE
        )


def _lines(answer: http.client.HTTPResponse) -> Iterator[bytes]:
    while line := answer.readline(LONGEST_LINE + 1):
        if len(line) > LONGEST_LINE:
            raise TableAnswer("a line of its event stream is too long")
        yield line


def describe(error: BaseException) -> Reason:
    """Why a table is offline, from what reaching or reading it raised: a code for the board
    and a few words for the API (`ReasonCode` says what each code means)."""
    if isinstance(error, TableAnswer):
        return Reason(error.code, str(error), error.status)
    known = _known_reason(error)
    if known is not None:
        return known
    if isinstance(error, json.JSONDecodeError):
        return Reason(ReasonCode.UNREADABLE, "its answer is not JSON")
    if isinstance(error, KeyError | TypeError | AttributeError):
        text = f"an answer the hall cannot read ({type(error).__name__}: {error})"
        return Reason(ReasonCode.UNREADABLE, text)
    if isinstance(error, ValueError):
        return Reason(ReasonCode.UNREADABLE, str(error) or type(error).__name__)
    name = type(error).__name__
    return Reason(ReasonCode.FAILED, f"{name}: {error}" if str(error) else name)


def _known_reason(error: BaseException) -> Reason | None:
    """The reason of a failure to reach the table or to keep its connection, if it is one."""
    if isinstance(error, ConnectionRefusedError):
        return Reason(ReasonCode.REFUSED, "connection refused")
    if isinstance(error, TimeoutError):
        return Reason(ReasonCode.TIMEOUT, "no answer")
    if isinstance(error, socket.gaierror):
        return Reason(ReasonCode.UNKNOWN_HOST, "unknown host")
    if isinstance(error, DROPPED):
        return Reason(ReasonCode.DROPPED, f"the connection was cut ({type(error).__name__})")
    if isinstance(error, http.client.BadStatusLine):  # not HTTP: another service's port
        return Reason(ReasonCode.NOT_A_TABLE, "its answer is not HTTP")
    if isinstance(error, OSError) and error.errno in UNREACHABLE:
        return Reason(ReasonCode.UNREACHABLE, f"not reachable ({error.strerror})")
    return None
