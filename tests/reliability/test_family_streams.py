"""The table's own tablets first: a flood of strangers' event streams takes only the strangers'
share of the cap, so an unlocked tablet and this machine's still get theirs (taking the
oldest stranger's place once the cap is full); a stream that never reads its opening is
dropped at the same bound as one that stops reading later, and each drop is logged once."""

from __future__ import annotations

import logging
import socket
from collections import Counter
from collections.abc import Iterator

import pytest
from flask import Flask

from controller.table.service import TableService
from tests.api.conftest import SETUP
from tests.serving import serve
from tests.waiting import wait_until
from web_ui import fanout as fanout_module
from web_ui.fanout import Fanout
from web_ui.stream import frame, snapshot_frame

from .conftest import report, scale
from .flood import addresses, closed_by_peer, connect
from .loopback import Client

CAP = 8  # a quarter (2) kept for the table's own tablets: 6 for strangers
FLOOD = scale(20, 400)  # strangers' streams opened at once
SLEEPERS = scale(4, 40)  # streams that never read what they asked for


def open_stream(
    port: int, source: str, cookie: str = "", last: int | None = None, receive_buffer: int = 0
) -> socket.socket:
    """A scoreboard stream from `source` with that session cookie, never read."""
    sock = connect(port, source, receive_buffer)
    head = "GET /api/events HTTP/1.1\r\nHost: scoreboard\r\nAccept: text/event-stream\r\n"
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    if last is not None:
        head += f"Last-Event-ID: {last}\r\n"
    sock.sendall((head + "\r\n").encode())
    return sock


def cookie(client: Client) -> str:
    return "; ".join(f"{name}={value}" for name, value in client.cookies.items())


def read_snapshot(sock: socket.socket) -> bytes:
    """Read the stream until its first snapshot (what came first: the status line)."""
    seen = b""
    while b"event: snapshot" not in seen:
        chunk = sock.recv(65536)
        assert chunk, f"the stream was closed before its snapshot: {seen[:80]!r}"
        seen += chunk
    return seen


def peeked(sock: socket.socket, text: bytes) -> bool:
    """`text` has arrived on `sock` (left unread)."""
    sock.setblocking(False)
    try:
        return text in sock.recv(1 << 20, socket.MSG_PEEK)
    except BlockingIOError:
        return False
    finally:
        sock.setblocking(True)


def drops(caplog: pytest.LogCaptureFixture) -> Counter[str]:
    """How many times each drop was logged, by its line."""
    return Counter(
        r.getMessage() for r in caplog.records if r.name == fanout_module.__name__
        and "dropped" in r.getMessage()
    )  # fmt: skip


@pytest.fixture
def small(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, Fanout]]:
    monkeypatch.setattr(fanout_module, "MAX_STREAMS", CAP)
    url, stop = serve(app)
    yield int(url.rsplit(":", 1)[1]), app.extensions["streams"]
    stop()


def test_a_strangers_flood_leaves_streams_for_unlocked_and_loopback_tablets(
    small: tuple[int, Fanout], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, fanout_module.__name__)
    port, fanout = small
    source = addresses(50_000)
    locked = cookie(Client(port, next(source)))  # a session, never unlocked
    flood = [open_stream(port, next(source), locked) for _ in range(FLOOD)]
    sockets = list(flood)
    share = CAP - fanout_module.family(CAP)
    try:
        wait_until(lambda: sum(map(closed_by_peer, flood)) == FLOOD - share, "the share full")
        assert fanout.held() == fanout.strangers() == CAP - fanout_module.family(CAP)

        tablet = Client(port, next(source))
        assert tablet.unlock("1234") == 200
        unlocked = open_stream(port, tablet.source, cookie(tablet))
        at_table = open_stream(port, "127.0.0.1")
        sockets += [unlocked, at_table]
        for sock in (unlocked, at_table):
            assert read_snapshot(sock).startswith(b"HTTP/1.1 200 OK")
        assert fanout.held() == CAP

        # the cap is full: two more of the table's own take the oldest strangers' places
        alive = [sock for sock in flood if not closed_by_peer(sock)]
        more = [open_stream(port, "127.0.0.1"), open_stream(port, tablet.source, cookie(tablet))]
        sockets += more
        for sock in more:
            assert read_snapshot(sock).startswith(b"HTTP/1.1 200 OK")
        wait_until(lambda: sum(map(closed_by_peer, alive)) == 2, "two strangers' streams closed")
        assert fanout.held() == CAP and fanout.strangers() == len(alive) - 2
        assert not any(map(closed_by_peer, [unlocked, at_table, *more]))

        # a stranger's new stream is still refused: the places the table's own took stay theirs
        late = open_stream(port, next(source), locked)
        sockets.append(late)
        assert late.recv(65536).startswith(b"HTTP/1.1 503")
        logged = drops(caplog)
        assert sum(logged.values()) == 2 and set(logged.values()) == {1}, logged
        report("family_streams", strangers=FLOOD, refused=sum(map(closed_by_peer, flood)),
               family_streams=4)  # fmt: skip
    finally:
        for sock in sockets:
            sock.close()


def test_unread_opening_frames_are_dropped_at_the_bound(
    app: Flask,
    service: TableService,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Streams that resume from the match's first record and never read: the records resent
    count against the stream's bound like everything after them (only the latest that fit
    in half of it are resent), and once records published later pass it, each is dropped,
    logged once, with no more than the bound ever waiting for it."""
    caplog.set_level(logging.INFO, fanout_module.__name__)
    bound = 2048
    monkeypatch.setattr(fanout_module, "SLOW_BYTES", bound)
    monkeypatch.setattr(fanout_module, "SEND_BUFFER", 4096)
    published: list[int] = [0]
    service.listen(lambda message: published.append(len(frame(message))))
    first = service.submit({"type": "setup", "setup": SETUP})
    for _ in range(200):  # ~22 KB of records to resend: ten times the bound
        service.submit({"type": "clear"})
    url, stop = serve(app)
    port, fanout = int(url.rsplit(":", 1)[1]), app.extensions["streams"]
    source = addresses(60_000)
    sleepers = [open_stream(port, next(source), last=first.seq, receive_buffer=4096)
                for _ in range(SLEEPERS)]  # fmt: skip
    try:
        wait_until(lambda: all(peeked(s, b"event: snapshot") for s in sleepers), "openings sent")
        snapshot = len(snapshot_frame(service.snapshot()))
        for _ in range(2000 * SLEEPERS):
            service.submit({"type": "clear"})
            assert fanout.most_unsent <= bound + snapshot + max(published)
            if fanout.count() == 0:
                break
        assert fanout.count() == 0
        wait_until(lambda: fanout.held() == 0, "every place given back")
        logged = drops(caplog)
        assert len(logged) == len(sleepers) and set(logged.values()) == {1}, logged
        report("unread_streams", sleepers=SLEEPERS, most_unsent=fanout.most_unsent, bound=bound)
    finally:
        for sock in sleepers:
            sock.close()
        stop()
