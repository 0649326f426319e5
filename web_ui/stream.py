"""`GET /api/events`: Server-Sent Events for the scoreboards.

A new stream gets the whole state first (`event: snapshot`), then every logged record as it
is committed (`event: record`, `id:` = its sequence number), launcher status changes and
notices. A tablet that reconnects with `Last-Event-ID` first receives the records it missed
from the log, then a fresh snapshot. A comment line every few seconds keeps the connection
alive and lets the server notice a tablet that went away.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request

from controller.table.codec import whole_number
from controller.table.hub import Message, Subscription
from controller.table.service import TableService

bp = Blueprint("stream", __name__)

HEARTBEAT = 10.0


def frame(message: Message) -> str:
    lines = [] if message.seq is None else [f"id: {message.seq}"]
    lines.append(f"event: {message.event}")
    # ASCII escapes: stored text that is not valid Unicode (an old lone surrogate) still streams.
    lines.append("data: " + json.dumps(message.data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


@bp.get("/api/events")
def events() -> Response:
    table: TableService = current_app.extensions["table"]
    heartbeat = current_app.config.get("SSE_HEARTBEAT", HEARTBEAT)
    gone = request.environ.get("waitress.client_disconnected", lambda: False)
    last = _last_event_id()
    subscription = table.hub.subscribe()
    return Response(
        _stream(table, subscription, last, heartbeat, gone),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last", "")
    return whole_number(raw, "Last-Event-ID (or ?last=)", 2**63 - 1) if raw else None


def _stream(
    table: TableService, sub: Subscription, last: int | None, heartbeat: float, gone: Any
) -> Iterator[str]:
    try:
        sent = last or 0
        if last is not None:
            for record in table.store.records(table.table_id, after=last):
                data = {"seq": record.seq, "kind": record.kind, "events": record.events}
                yield frame(Message("record", data, record.seq))
                sent = record.seq
        state = table.snapshot()
        sent = max(sent, state.get("seq", 0))
        yield "retry: 2000\n" + frame(Message("snapshot", state))
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
        table.hub.unsubscribe(sub)
