"""Slowloris: many connections that send their request heads slowly (or never) neither make a
new connection wait for them to be cut off (past the connection limit a new connection closes
the oldest one that is idle or owes its head), nor hold on past the head deadline, while a
request whose head came in time may send its body at its own pace."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable

import pytest
from flask import Flask

from tests.serving import serve
from tests.waiting import wait_until
from web_ui import server as server_module

from .conftest import report, scale
from .flood import addresses, closed_by_peer, connect, open_slowloris, state_status

LIMIT = 16  # connections the server serves at once (waitress counts its own two sockets too)
TIMES = scale(3, 20)  # half-sent heads open at once, in multiples of the limit


def served(app: Flask, **options: object) -> tuple[int, Callable[[], None]]:
    url, stop = serve(app, **options)
    return int(url.rsplit(":", 1)[1]), stop


def test_slowloris_past_the_connection_limit_does_not_hold_a_new_request(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every deadline an hour long: only closing the oldest half-sent heads for new
    connections lets a new request in while several times the limit of them are open."""
    for name in ("HEAD_TIMEOUT", "REQUEST_TIMEOUT", "CROWDED_TIMEOUT"):
        monkeypatch.setattr(server_module, name, 3600.0)
    port, stop = served(app, connections=LIMIT)
    source = addresses(70_000)
    slow = [open_slowloris(port, next(source)) for _ in range(TIMES * LIMIT)]
    try:
        assert state_status(port, next(source)) == 200  # a stranger's
        assert state_status(port, "127.0.0.1") == 200  # this machine's
        wait_until(lambda: sum(map(closed_by_peer, slow)) >= (TIMES - 1) * LIMIT, "oldest closed")
        assert not all(map(closed_by_peer, slow[-4:]))  # the newest still wait: no deadline hit
        report("slowloris", half_sent_heads=len(slow), closed=sum(map(closed_by_peer, slow)))
    finally:
        for sock in slow:
            sock.close()
        stop()


def test_slowloris_heads_that_miss_the_deadline_are_closed(app: Flask) -> None:
    """A short head deadline: heads trickling a byte at a time are cut off once it passes; a
    request whose head came in time keeps its connection while its body is slow (it has the
    whole request's deadline), though it was opened before them."""
    port, stop = served(app, head_timeout=0.2)
    source = addresses(80_000)
    body_slow = connect(port, next(source))
    body_slow.sendall(
        b"POST /api/session/pin HTTP/1.1\r\nHost: scoreboard\r\nContent-Type: application/json"
        b"\r\nContent-Length: 20\r\n\r\n{"
    )
    slow = [open_slowloris(port, next(source)) for _ in range(5)]

    def cut_off() -> bool:
        for sock in slow:
            with contextlib.suppress(OSError):
                sock.send(b"x")  # one more byte of the head: it is still arriving
        return all(map(closed_by_peer, slow))

    try:
        wait_until(cut_off, "the trickling heads closed")
        assert not closed_by_peer(body_slow)
        assert state_status(port, next(source)) == 200
    finally:
        for sock in [body_slow, *slow]:
            sock.close()
        stop()


def test_slowloris_cannot_close_this_machines_connections(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the limit, a half-sent head from this machine is never the one closed (the
    deadlines an hour long: only that could close them)."""
    for name in ("HEAD_TIMEOUT", "REQUEST_TIMEOUT", "CROWDED_TIMEOUT"):
        monkeypatch.setattr(server_module, name, 3600.0)
    port, stop = served(app, connections=LIMIT)
    source = addresses(90_000)
    own = [open_slowloris(port, "127.0.0.1") for _ in range(4)]
    slow: list[socket.socket] = []
    try:
        wait_until(lambda: state_status(port, "127.0.0.1") == 200, "served")
        slow = [open_slowloris(port, next(source)) for _ in range(TIMES * LIMIT)]
        assert state_status(port, next(source)) == 200
        wait_until(lambda: sum(map(closed_by_peer, slow)) >= (TIMES - 1) * LIMIT, "closed")
        assert not any(map(closed_by_peer, own))
    finally:
        for sock in own + slow:
            sock.close()
        stop()
