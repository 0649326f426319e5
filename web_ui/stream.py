"""`GET /api/events`: Server-Sent Events for the scoreboards.

A new stream gets the whole state first (`event: snapshot`), then every logged record as it
is committed (`event: record`, `id:` = its sequence number), launcher status changes and
notices. A tablet that reconnects with `Last-Event-ID` (or `?last=`) first receives the
records of the current match it missed (the latest `MISSED` of them at most, and only the
latest that fit in `MISSED_BYTES`), then a fresh snapshot. A comment line every few seconds
keeps the connection alive and lets the server notice a tablet that went away.

The served streams run in `fanout.py` (one event loop for all of them, no thread each); this
Flask view is the same protocol for a server without that loop (Flask's test client).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request

from controller.table import Message, Subscription, TableService, record_to_dict, whole_number

from .table_access import table_service

bp = Blueprint("stream", __name__)

HEARTBEAT = 10.0
MISSED = 200  # records resent to a reconnecting tablet at most; the snapshot covers the rest
MISSED_BYTES = 128 * 1024  # ...and only the latest that fit in this many bytes
RETRY = "retry: 2000\n"


def frame(message: Message) -> str:
    """One SSE message. The JSON is ASCII-only: no stored text can break the stream."""
    lines = [] if message.seq is None else [f"id: {message.seq}"]
    lines.append(f"event: {message.event}")
    lines.append("data: " + json.dumps(message.data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def parse_last(raw: str | None) -> int | None:
    """`Last-Event-ID` (or `?last=`): a sequence number, or None when absent."""
    return whole_number(raw, "Last-Event-ID (or ?last=)", 2**63 - 1) if raw else None


def missed(table: TableService, last: int, budget: int = MISSED_BYTES) -> list[tuple[int, str]]:
    """The records after `last` a reconnecting stream is sent first, as (seq, frame), oldest
    first: the latest `MISSED` of them at most, and only the latest that fit in `budget`
    bytes (the frames are ASCII: characters are bytes)."""
    frames: list[tuple[int, str]] = []
    size = 0
    for record in reversed(table.records_after(last, MISSED)):
        text = frame(Message("record", record_to_dict(record), record.seq))
        size += len(text)
        if size > budget:
            break
        frames.append((record.seq, text))
    return frames[::-1]


def snapshot_frame(state: dict[str, Any]) -> str:
    """The whole state, sent first on every stream (with the reconnection delay)."""
    return RETRY + frame(Message("snapshot", state))


def opening(
    table: TableService, last: int | None, budget: int = MISSED_BYTES
) -> tuple[list[str], int]:
    """What a new stream sends first (missed records, then the snapshot), and the last seq
    it covers: later messages at or below it are not sent again."""
    frames, sent = [], last or 0
    if last is not None:
        for seq, text in missed(table, last, budget):
            frames.append(text)
            sent = seq
    state = table.snapshot()
    frames.append(snapshot_frame(state))
    return frames, max(sent, state.get("seq", 0))


@bp.get("/api/events")
def events() -> Response:
    table = table_service()
    heartbeat = current_app.config.get("SSE_HEARTBEAT", HEARTBEAT)
    gone = request.environ.get("waitress.client_disconnected", lambda: False)
    last = parse_last(request.headers.get("Last-Event-ID") or request.args.get("last"))
    subscription = table.subscribe()
    return Response(
        _stream(table, subscription, last, heartbeat, gone),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _stream(
    table: TableService, sub: Subscription, last: int | None, heartbeat: float, gone: Any
) -> Iterator[str]:
    try:
        frames, sent = opening(table, last)
        yield from frames
        while not gone():
            message = sub.get(timeout=heartbeat)
            if message is None:
                if sub.dropped:
                    return
                yield ": keep-alive\n\n"
            elif message.seq is None or message.seq > sent:
                sent = message.seq or sent
                yield frame(message)
    finally:
        table.unsubscribe(sub)
