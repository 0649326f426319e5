"""Floods from many loopback addresses: open event streams that never read and half-open
requests trickling a byte at a time never stop the commands; slow requests are cut off, and
streams are capped per address and in total."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from tests.serving import serve
from tests.waiting import wait_until
from web_ui import fanout as fanout_module

from .conftest import report, scale
from .flood import Flood, addresses, closed_by_peer, open_slowloris, open_stream

SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "game": "attack", "first_dealer": 3, "seed": 1}


def call(
    port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1", **headers: str
) -> Any:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} | headers
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class Tablet:
    """An unlocked tablet over real HTTP (its cookie and CSRF token)."""

    def __init__(self, port: int) -> None:
        self.port, self.cookie = port, ""
        self.csrf = json.loads(self.call("GET", "/api/session")[2])["csrf"]
        assert self.call("POST", "/api/session/pin", {"pin": "1234"})[0] == 200

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"X-CSRF-Token": getattr(self, "csrf", "")}
        if self.cookie:
            headers["Cookie"] = self.cookie
        status, answer_headers, data = call(self.port, method, path, body, **headers)
        cookie = answer_headers.get("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return status, answer_headers, data


@pytest.fixture
def streams_open(app: Flask) -> Callable[[], int]:
    """How many event streams the server's stream loop holds."""
    return lambda: int(app.extensions["streams"].count())


def test_floods_commands_answer_while_streams_and_slowloris_are_open(
    port: int, streams_open: Callable[[], int]
) -> None:
    tablet = Tablet(port)
    cap = fanout_module.MAX_STREAMS
    streams = min(scale(200, 1000), cap - fanout_module.family(cap))  # the strangers' share
    flood = Flood(port, streams=streams, slow=scale(100, 400))
    try:
        wait_until(lambda: streams_open() == len(flood.streams), "every stream adopted")
        flood.trickle()
        assert call(port, "GET", "/api/state")[0] == 200
        assert tablet.call("POST", "/api/setup", {"setup": SETUP})[0] == 200
        assert tablet.call("POST", "/api/deal", {})[0] == 200
        status, _, data = call(port, "GET", "/api/state")
        assert status == 200 and json.loads(data)["deal"]["phase"] == "turn_up"
        report("floods.commands", streams=len(flood.streams), slow=len(flood.slow))
    finally:
        flood.close()


def test_floods_slow_requests_are_cut_off_though_they_trickle(port: int) -> None:
    flood = Flood(port, streams=0, slow=20)
    try:
        flood.trickle_every(0.5)
        wait_until(lambda: all(closed_by_peer(sock) for sock in flood.slow), "slow ones closed")
    finally:
        flood.close()


def test_floods_an_address_keeps_its_newest_streams(
    port: int, streams_open: Callable[[], int]
) -> None:
    source = next(addresses(5000))
    cap = fanout_module.PER_ADDRESS
    streams = []
    for _ in range(cap + 4):
        streams.append(open_stream(port, source))
        wait_until(lambda: streams_open() == min(len(streams), cap), "stream adopted")
    try:
        wait_until(lambda: all(closed_by_peer(sock) for sock in streams[:4]), "oldest closed")
        assert not any(closed_by_peer(sock) for sock in streams[4:])
    finally:
        for sock in streams:
            sock.close()


def test_floods_past_the_strangers_share_answers_503_with_retry_after(
    monkeypatch: pytest.MonkeyPatch, app: Flask, streams_open: Callable[[], int]
) -> None:
    monkeypatch.setattr(fanout_module, "MAX_STREAMS", 3)  # 2 for strangers, 1 kept
    url, stop = serve(app)
    port = int(url.rsplit(":", 1)[1])
    source = addresses(6000)
    streams = [open_stream(port, next(source)) for _ in range(2)]
    try:
        wait_until(lambda: streams_open() == 2, "two streams adopted")
        status, headers, body = call(port, "GET", "/api/events", source=next(source))
        assert status == 503 and headers["Retry-After"].isdigit()
        assert "try again" in json.loads(body)["error"]
        assert call(port, "GET", "/api/state")[0] == 200
    finally:
        for sock in streams:
            sock.close()
        stop()


def test_floods_a_stream_that_stops_reading_is_dropped(
    port: int, streams_open: Callable[[], int]
) -> None:
    sleeper = open_stream(port, next(addresses(7000)), receive_buffer=4096)
    tablet = Tablet(port)
    assert tablet.call("POST", "/api/setup", {"setup": SETUP})[0] == 200
    wait_until(lambda: streams_open() == 1, "the stream adopted")
    for _ in range(200):  # every record carries the whole state: the unread bytes pile up
        tablet.call("POST", "/api/deal", {})
        if streams_open() == 0:
            break
        tablet.call("POST", "/api/setup", {"setup": SETUP})
    assert streams_open() == 0
    sleeper.close()


def test_floods_a_big_body_is_refused_with_413(port: int) -> None:
    status, _, body = call(port, "POST", "/api/session/pin", {"pin": "1" * 100_000})
    assert status == 413 and b"max_body" in body


def test_floods_half_open_requests_past_waitress_default_limit(port: int) -> None:
    """More half-open requests than waitress's default connection limit (100) and than
    worker threads: a command is still accepted and served."""
    source = addresses(8000)
    slow = [open_slowloris(port, next(source)) for _ in range(150)]
    try:
        assert call(port, "GET", "/api/state")[0] == 200
    finally:
        for sock in slow:
            sock.close()
