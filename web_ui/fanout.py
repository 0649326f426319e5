"""The scoreboards' event streams, served from one asyncio loop: no thread per stream.

The web server (`server.py`) hands over the socket of every `GET /api/events` as soon as its
request head is read; from then on this loop owns it. Each message is framed once and written
to every stream; a stream that stops reading (a sleeping phone, a slow link) is dropped once
`SLOW_BYTES` wait unsent, or when the kernel gets no acknowledgement for `ACK_TIMEOUT`. The
tablet reconnects and resumes from its `Last-Event-ID`.

Caps: `PER_ADDRESS` streams per client address (a new one replaces that address's oldest:
phones that slept leave dead ones behind) and `max_streams` in total (the config's
`service.streams`; past it, 503 with `Retry-After`). The total counts every socket this loop
holds, those still being opened or refused too, so the descriptors it takes never exceed it
(`server.py` fits it into the process's open-file limit). Commands never wait for any of this:
they run on the server's worker threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
from dataclasses import dataclass, field
from typing import Any

from controller.config import ServiceConfig
from controller.table.codec import InvalidInput
from controller.table.hub import Message
from controller.table.service import TableService

from .stream import HEARTBEAT, frame, opening, parse_last

log = logging.getLogger(__name__)

MAX_STREAMS = ServiceConfig.streams  # the config's default
PER_ADDRESS = 16
SLOW_BYTES = 256 * 1024  # unsent bytes after which a stream is dropped (its memory at most)
SEND_BUFFER = 64 * 1024  # the kernel's share: past it, unsent bytes wait in the loop and count
ACK_TIMEOUT = 30  # seconds without the peer acknowledging data: the connection is dead
RETRY_AFTER = 10  # seconds, in the 503 past MAX_STREAMS

HEAD = (
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
    "Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
)


@dataclass
class Request:
    """What the stream needs from the request head the server read."""

    address: str
    last_event_id: str | None


@dataclass(eq=False)
class Stream:
    writer: asyncio.StreamWriter
    address: str
    sent: int = 0
    ready: bool = False  # its opening is written: messages go out directly
    pending: list[Message] = field(default_factory=list)

    def send(self, message: Message, data: bytes) -> None:
        if not self.ready:
            self.pending.append(message)
        elif message.seq is None or message.seq > self.sent:
            self.sent = message.seq or self.sent
            self.write(data)

    def write(self, data: bytes) -> None:
        if self.writer.is_closing():
            return
        self.writer.write(data)
        if self.writer.transport.get_write_buffer_size() > SLOW_BYTES:
            log.info("event stream to %s dropped: it stopped reading", self.address)
            self.writer.transport.abort()


class Fanout:
    """All the streams of one table, on one loop thread. `start()`, `adopt()`, `stop()`."""

    def __init__(
        self, table: TableService, *, heartbeat: float = HEARTBEAT, max_streams: int | None = None
    ) -> None:
        self.table = table
        self.heartbeat = heartbeat
        self.max_streams = MAX_STREAMS if max_streams is None else max_streams
        self.per_address = PER_ADDRESS
        self.streams: dict[Stream, None] = {}  # insertion-ordered: oldest first
        self._held = 0  # sockets this loop owns (open, being opened or being refused)
        self._held_lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="event-streams", daemon=True)

    def start(self) -> Fanout:
        self.table.listen(self._publish)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.table.unlisten(self._publish)
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self._close_all)
            self._thread.join(5)

    def adopt(self, sock: socket.socket, request: Request) -> None:
        """Take over `sock` (any thread): its request head is read, the answer is ours. Past
        `max_streams` sockets held, it is refused and closed here: no descriptor is kept."""
        with self._held_lock:
            room = self._held < self.max_streams
            self._held += room
        if not room:
            _refuse_now(sock, _full())
            return
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(self._serve(sock, request)))

    def count(self) -> int:
        return len(self.streams)

    def held(self) -> int:
        """Sockets this loop owns: the open streams and those being opened or refused."""
        return self._held

    # ------------------------------------------------------------------ the loop thread

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.create_task(self._beat())
        self.loop.run_forever()
        self.loop.close()

    def _publish(self, message: Message) -> None:
        """The table's owner thread: hand the message over, nothing more."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._broadcast, message)

    def _broadcast(self, message: Message) -> None:
        data = frame(message).encode()
        for stream in list(self.streams):
            stream.send(message, data)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            for stream in list(self.streams):
                if stream.ready:
                    stream.write(b": keep-alive\n\n")

    async def _serve(self, sock: socket.socket, request: Request) -> None:
        try:
            _keepalive(sock)
            reader, writer = await asyncio.open_connection(sock=sock)
        except (OSError, asyncio.CancelledError):
            sock.close()
            self._release()
            return
        try:
            refusal = self._refusal(request)
            if refusal is not None:
                writer.write(refusal)
                await writer.drain()
                return
            stream = self._register(writer, request.address)
            await self._open(stream, parse_last(request.last_event_id))
            while await reader.read(4096):
                pass  # a stream's client has nothing to say; EOF means it went away
        except (OSError, asyncio.CancelledError):
            pass  # the tablet went away, or the server is stopping
        except Exception:  # e.g. the log could not be read: this stream ends, the others go on
            log.exception("event stream to %s failed", request.address)
        finally:
            self.streams = {s: None for s in self.streams if s.writer is not writer}
            if writer.transport.get_write_buffer_size():
                writer.transport.abort()  # a reader that stopped: do not wait to flush
            else:
                writer.close()
            # the transport closes its socket in a callback already queued: count it after
            self.loop.call_soon(self._release)

    def _release(self) -> None:
        with self._held_lock:
            self._held -= 1

    def _refusal(self, request: Request) -> bytes | None:
        try:
            parse_last(request.last_event_id)
        except InvalidInput as error:
            return _answer(400, {"error": str(error)})
        return None

    def _register(self, writer: asyncio.StreamWriter, address: str) -> Stream:
        same = [s for s in self.streams if s.address == address]
        for old in same[: max(0, len(same) - self.per_address + 1)]:
            old.writer.transport.abort()  # the oldest of this address: likely a dead phone's
            self.streams.pop(old, None)
        stream = Stream(writer, address)
        self.streams[stream] = None
        return stream

    async def _open(self, stream: Stream, last: int | None) -> None:
        frames, sent = await asyncio.to_thread(opening, self.table, last)
        stream.writer.write(HEAD.encode() + "".join(frames).encode())
        stream.sent, stream.ready = sent, True
        for message in stream.pending:
            stream.send(message, frame(message).encode())
        stream.pending.clear()

    def _close_all(self) -> None:
        for stream in list(self.streams):
            stream.writer.transport.abort()
        self.streams.clear()
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        self.loop.call_later(0.05, self.loop.stop)


def _full() -> bytes:
    reason = "too many scoreboards are open: try again shortly"
    return _answer(503, {"error": reason}, f"Retry-After: {RETRY_AFTER}\r\n")


def _refuse_now(sock: socket.socket, answer: bytes) -> None:
    """Send a short `answer` without waiting (a fresh socket's buffer takes it) and close."""
    with contextlib.suppress(OSError):
        sock.setblocking(False)
        sock.send(answer)
        sock.shutdown(socket.SHUT_WR)
    sock.close()


def _answer(status: int, body: dict[str, Any], extra: str = "") -> bytes:
    text = json.dumps(body)
    reason = {400: "Bad Request", 503: "Service Unavailable"}[status]
    return (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n{extra}"
        f"Content-Length: {len(text)}\r\nConnection: close\r\n\r\n{text}"
    ).encode()


def _keepalive(sock: socket.socket) -> None:
    """Let the kernel find dead peers (unacknowledged data, silent keep-alive probes), and
    keep its send buffer small so a reader that stopped is noticed here."""
    options = [
        (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
        (socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER),
    ]
    for name, value in (("TCP_USER_TIMEOUT", ACK_TIMEOUT * 1000), ("TCP_KEEPIDLE", 60)):
        if hasattr(socket, name):
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    for level, option, value in options:
        with contextlib.suppress(OSError):
            sock.setsockopt(level, option, value)
