"""Server-Sent Events through a real waitress server: a snapshot first, then every record with
`id:` = its sequence number, heartbeats, and resuming with Last-Event-ID (or ?last=)."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest
from flask import Flask

from controller.table.service import TableService

from .conftest import SETUP


@pytest.fixture
def app(app: Flask) -> Flask:
    """The scoreboard app with a quick heartbeat (read when the server starts)."""
    app.config["SSE_HEARTBEAT"] = 0.2
    return app


class Stream:
    """An SSE client on a raw HTTP connection."""

    def __init__(self, port: int, last: int | None = None, *, by_query: bool = False) -> None:
        """`last` goes as `Last-Event-ID` (a browser's reconnect) or `?last=` (a new page's)."""
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {} if last is None or by_query else {"Last-Event-ID": str(last)}
        path = f"/api/events?last={last}" if last is not None and by_query else "/api/events"
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")

    def next(self, *, comments: bool = False) -> dict[str, Any]:
        """The next message: {"id", "event", "data"} (or {"comment"} if asked for)."""
        message: dict[str, Any] = {}
        while True:
            line = self.response.readline().decode().rstrip("\n")
            if line.startswith(":"):
                if comments:
                    return {"comment": line}
            elif line.startswith("id: "):
                message["id"] = int(line[4:])
            elif line.startswith("event: "):
                message["event"] = line[7:]
            elif line.startswith("data: "):
                message["data"] = json.loads(line[6:])
            elif line == "" and message:
                return message

    def close(self) -> None:
        self.connection.close()


def test_stream_sends_a_snapshot_then_records(port: int, service: TableService) -> None:
    stream = Stream(port)
    try:
        first = stream.next()
        assert first["event"] == "snapshot" and "id" not in first
        record = service.submit({"type": "setup", "setup": SETUP})
        message = stream.next()
        assert message["event"] == "record" and message["id"] == record.seq
        assert message["data"]["events"][0]["type"] == "MatchStarted"
        assert message["data"]["state"]["setup"]["players"] == SETUP["players"]
    finally:
        stream.close()


def test_stream_sends_heartbeats(port: int) -> None:
    stream = Stream(port)
    try:
        stream.next()
        assert stream.next(comments=True) == {"comment": ": keep-alive"}
    finally:
        stream.close()


@pytest.mark.parametrize("by_query", [False, True], ids=["Last-Event-ID", "query"])
def test_reconnecting_tablet_resumes_from_last_event_id(
    port: int, service: TableService, by_query: bool
) -> None:
    first = service.submit({"type": "setup", "setup": SETUP})
    turn_up = {"type": "action", "action": {"type": "TurnUp", "card": "R5"}}
    missed = [service.submit({"type": "deal"}), service.submit(turn_up)]
    stream = Stream(port, last=first.seq, by_query=by_query)
    try:
        resumed = [stream.next(), stream.next()]
        assert [m["id"] for m in resumed] == [r.seq for r in missed]
        assert all(m["event"] == "record" for m in resumed)
        snapshot = stream.next()
        assert snapshot["event"] == "snapshot" and snapshot["data"]["seq"] == missed[-1].seq
    finally:
        stream.close()


def test_many_tablets_see_the_same_records(port: int, service: TableService) -> None:
    streams = [Stream(port) for _ in range(10)]
    try:
        for stream in streams:
            stream.next()
        record = service.submit({"type": "setup", "setup": SETUP})
        assert {stream.next()["id"] for stream in streams} == {record.seq}
    finally:
        for stream in streams:
            stream.close()
