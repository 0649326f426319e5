"""The scoreboards' event streams, served from one asyncio loop: no thread per stream.

The web server (`server.py`) hands over the socket of every `GET /api/events` as soon as its
request head is read; from then on this loop owns it. Each message is framed once, and those
bytes are queued on every stream (shared, never copied per stream) and sent as its socket
takes them. A stream that stops reading (a sleeping phone, a slow link, an attacker) is
dropped once more than `SLOW_BYTES` wait unsent beyond its own opening snapshot, or when the
kernel gets no acknowledgement for `ACK_TIMEOUT`. Its opening (the snapshot, and the records
resent to a reconnecting tablet: the latest that fit in half of `SLOW_BYTES`) counts like the
rest, and is shared too (framed once for every stream that sends it): streams that never read
hold references, not copies, and let go of them when dropped. The tablet reconnects and
resumes from its `Last-Event-ID`. A drop is logged once.

Who gets a stream: the table's own tablets (`Request.rightful`: an unlocked tablet, or this
machine) always do while the cap holds any stream of a stranger. Strangers (every other
request) may hold all of the cap but a quarter (`family()`), kept for the table's own; and a
rightful stream that finds the cap full takes the place of the oldest stranger's stream.

Caps: `PER_ADDRESS` streams per client address (a new one replaces that address's oldest:
phones that slept leave dead ones behind; a stranger never replaces a rightful one) and
`max_streams` in total (the config's `service.streams`; past it, 503 with `Retry-After`).
The total counts every socket this loop holds, those still being opened too, so the
descriptors it takes never exceed it but for at most `DISPLACING` rightful streams waiting a
moment for the stranger they replace (`server.py` fits the cap into the process's open-file
limit). Commands never wait for any of this: they run on the server's worker threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import struct
import threading
from collections import deque
from dataclasses import dataclass
from itertools import islice
from typing import Any

from controller.config import ServiceConfig
from controller.table import InvalidInput, Message, TableService, record_to_dict

from .stream import HEARTBEAT, MISSED, frame, parse_last, snapshot_frame

log = logging.getLogger(__name__)

MAX_STREAMS = ServiceConfig.streams  # the config's default
PER_ADDRESS = 16
FAMILY_SHARE = 4  # 1/4 of the cap (at least one stream) is kept for the table's own tablets
DISPLACING = 8  # rightful streams that may wait at once for the stranger they replace
SLOW_BYTES = 256 * 1024  # unsent bytes (beyond the opening snapshot) after which it is dropped
SEND_BUFFER = 64 * 1024  # the kernel's share: past it, unsent bytes wait in the loop and count
ACK_TIMEOUT = 30  # seconds without the peer acknowledging data: the connection is dead
RETRY_AFTER = 10  # seconds, in the 503 past MAX_STREAMS
GATHER = 64  # queued frames handed to the kernel in one call
RECORDS_KEPT = 2 * MISSED  # records framed for resuming streams, kept to be shared

HEAD = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
    b"Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
)
KEEP_ALIVE = b": keep-alive\n\n"


@dataclass
class Request:
    """What the stream needs from the request head the server read."""

    address: str
    last_event_id: str | None
    rightful: bool = False  # an unlocked tablet, or this machine: it may take a stranger's place


class Stream:
    """One open stream, on the loop thread: the frames waiting for its socket (shared bytes)."""

    def __init__(self, fanout: Fanout, sock: socket.socket, request: Request) -> None:
        self.fanout = fanout
        self.sock = sock
        self.fd = sock.fileno()
        self.address = request.address
        self.rightful = request.rightful
        self.queue: deque[bytes] = deque()  # the frames, shared: a slot each, no copy
        self.offset = 0  # bytes of the first one the kernel already took
        self.unsent = 0  # bytes queued, not yet taken by the kernel
        self.waiting = 0  # ...and those of the messages that came while it was opening
        self.limit = SLOW_BYTES  # its own snapshot's size is added once it is known
        self.sent = 0  # the last seq its frames cover: later messages at or below it are not sent
        self.ready = False  # its opening is queued: messages go out directly
        self.pending: list[tuple[int | None, bytes]] = []  # messages that came while opening
        self.closed = False
        self._writing = False

    def send(self, seq: int | None, data: bytes) -> None:
        if not self.ready:
            self.pending.append((seq, data))  # sent after the opening, if it does not cover it
            self.waiting += len(data)
            self._check()
        elif seq is None or seq > self.sent:
            self.sent = seq or self.sent
            self.write(data)

    def write(self, *frames: bytes) -> None:
        """Queue `frames` and hand the kernel what it takes now."""
        if self.closed:
            return
        for data in frames:
            self.queue.append(data)
            self.unsent += len(data)
            self.waiting += len(data)
        self.flush()
        self._check()

    def _check(self) -> None:
        """Past its limit the stream is dropped, and everything it held let go."""
        self.fanout.note_unsent(self.waiting)
        if self.waiting > self.limit and not self.closed:
            self.close("it stopped reading")

    def flush(self) -> None:
        """Hand the kernel what it takes without waiting (the loop calls again when it can
        take more)."""
        while self.queue and not self.closed:
            chunk: list[bytes | memoryview] = [memoryview(self.queue[0])[self.offset :]]
            chunk += islice(self.queue, 1, GATHER)
            try:
                taken = self.sock.sendmsg(chunk)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                self.close()  # the tablet went away
                return
            self.unsent -= taken
            self.waiting -= taken
            taken += self.offset
            while self.queue and taken >= len(self.queue[0]):
                taken -= len(self.queue.popleft())
            self.offset = taken
            if taken:
                break  # the kernel took part of a frame: it is full
        if self.closed:
            return
        if self.queue and not self._writing:
            self.fanout.loop.add_writer(self.fd, self.flush)
            self._writing = True
        elif not self.queue and self._writing:
            self.fanout.loop.remove_writer(self.fd)
            self._writing = False

    def readable(self) -> None:
        """A stream's client has nothing to say: EOF (or an error) means it went away."""
        try:
            if self.sock.recv(4096):
                return
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            pass
        self.close()

    def close(self, why: str | None = None) -> None:
        """Close it now (its descriptor too) and let go of what it held; `why` it was dropped,
        logged once, or None if the tablet went away or the server stops."""
        if self.closed:
            return
        self.closed = True
        if why is not None:
            log.info("event stream to %s dropped: %s", self.address, why)
        loop = self.fanout.loop
        loop.remove_reader(self.fd)
        if self._writing:
            loop.remove_writer(self.fd)
        if self.queue or self.pending:  # a reader that stopped: reset, nothing left to flush
            with contextlib.suppress(OSError):
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.queue.clear()
        self.offset = 0
        self.pending.clear()
        self.unsent = self.waiting = 0
        self.sock.close()
        self.fanout.forget(self)


class Fanout:
    """All the streams of one table, on one loop thread. `start()`, `adopt()`, `stop()`."""

    def __init__(
        self, table: TableService, *, heartbeat: float = HEARTBEAT, max_streams: int | None = None
    ) -> None:
        self.table = table
        self.heartbeat = heartbeat
        self.max_streams = MAX_STREAMS if max_streams is None else max_streams
        self.family = family(self.max_streams)  # kept for rightful streams
        self.per_address = PER_ADDRESS
        self.streams: dict[Stream, None] = {}  # insertion-ordered: oldest first
        self.most_unsent = 0  # the most bytes one stream ever had waiting (its high-water mark)
        self._held = 0  # sockets this loop owns (open or being opened)
        self._strangers = 0  # ...of them, strangers'
        self._displacing = 0  # rightful ones owed a stranger's place
        self._held_lock = threading.Lock()
        self._state: dict[str, Any] | None = None  # the last snapshot framed, and its frame
        self._state_frame = b""
        self._records: dict[int, bytes] = {}  # records framed for resuming streams, by seq
        self._frames_lock = threading.Lock()
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
        """Take over `sock` (any thread): its request head is read, the answer is ours. With no
        room for it, it is answered and closed here: no descriptor is kept."""
        try:
            last = parse_last(request.last_event_id)
        except InvalidInput as error:
            _refuse_now(sock, _answer(400, {"error": str(error)}))
            return
        with self._held_lock:
            room = self._room(request.rightful)
            if room:
                self._held += 1
                self._strangers += not request.rightful
                self._displacing += room == "displace"
        if not room:
            _refuse_now(sock, _full())
            return
        try:
            self.loop.call_soon_threadsafe(self._take, sock, request, last, room == "displace")
        except RuntimeError:  # the loop is closed: the server is stopping
            sock.close()

    def _room(self, rightful: bool) -> bool | str:
        """(Under the lock) whether a new stream may be held: True, "displace" (a rightful
        one past the cap, for which the oldest stranger's stream is closed), or False."""
        if self._held < self.max_streams:
            return rightful or self._strangers < self.max_streams - self.family
        if rightful and self._strangers > self._displacing and self._displacing < DISPLACING:
            return "displace"
        return False

    def count(self) -> int:
        return len(self.streams)

    def held(self) -> int:
        """Sockets this loop owns: the open streams and those being opened."""
        return self._held

    def strangers(self) -> int:
        """Of those, the strangers' (neither unlocked nor this machine's)."""
        return self._strangers

    def unsent(self) -> int:
        """Bytes queued on every stream, not yet taken by the kernel (frames shared by several
        streams count for each)."""
        return sum(stream.unsent for stream in list(self.streams))

    def note_unsent(self, waiting: int) -> None:
        self.most_unsent = max(self.most_unsent, waiting)

    # ------------------------------------------------------------------ the loop thread

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.create_task(self._beat())
        self.loop.run_forever()
        self.loop.close()

    def _publish(self, message: Message) -> None:
        """The table's owner thread: hand the message over, nothing more."""
        if not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed meanwhile
                self.loop.call_soon_threadsafe(self._broadcast, message)

    def _broadcast(self, message: Message) -> None:
        data = frame(message).encode()
        for stream in list(self.streams):
            stream.send(message.seq, data)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            for stream in list(self.streams):
                if stream.ready:
                    stream.write(KEEP_ALIVE)

    def _take(
        self, sock: socket.socket, request: Request, last: int | None, displace: bool
    ) -> None:
        """A socket `adopt` found room for: a stream, once the places it takes are free."""
        stream = Stream(self, sock, request)
        self.streams[stream] = None
        if displace:
            with self._held_lock:
                self._displacing -= 1
        closed = self._make_room(stream)
        if closed is None:
            self._refuse(stream, _full())
            return
        if displace and not closed:
            # the oldest stranger's (those adopted before are here: the loop takes them in
            # order; if none is left, those counted have closed and their places are free)
            victim = next((s for s in self.streams if not s.rightful), None)
            if victim is not None:
                victim.close("its place went to one of the table's own tablets")
        _keepalive(sock)
        self.loop.add_reader(stream.fd, stream.readable)
        self.loop.create_task(self._open(stream, last))

    def _make_room(self, stream: Stream) -> int | None:
        """Keep its address within its cap: close that address's oldest (a stranger never
        closes a rightful one's); how many were closed, or None if it cannot be done."""
        same = [s for s in self.streams if s.address == stream.address and s is not stream]
        over = len(same) - self.per_address + 1
        if over <= 0:
            return 0
        strangers = [s for s in same if not s.rightful]
        victims = strangers + [s for s in same if s.rightful] if stream.rightful else strangers
        if len(victims) < over:
            return None
        for old in victims[:over]:
            old.close()  # the oldest of this address: likely a dead phone's
        return over

    def _refuse(self, stream: Stream, answer: bytes) -> None:
        with contextlib.suppress(OSError):
            stream.sock.setblocking(False)
            stream.sock.send(answer)
        stream.close()

    async def _open(self, stream: Stream, last: int | None) -> None:
        try:
            resumed, state, seq = await asyncio.to_thread(self._opening, last)
        except asyncio.CancelledError:
            stream.close()
            return
        except Exception:  # e.g. the log could not be read: this stream ends, the others go on
            log.exception("event stream to %s failed", stream.address)
            stream.close()
            return
        if stream.closed:
            return
        stream.limit = SLOW_BYTES + len(state)
        stream.sent = max(resumed[-1][0] if resumed else 0, seq)
        pending, stream.pending = stream.pending, []
        stream.waiting = stream.unsent
        stream.ready = True
        stream.write(HEAD, *(data for _, data in resumed), state)
        for message_seq, data in pending:
            stream.send(message_seq, data)

    def _opening(self, last: int | None) -> tuple[list[tuple[int, bytes]], bytes, int]:
        """(A worker thread) the records to resend (the latest that fit in half the stream's
        bound), the snapshot's frame and the seq it covers: each framed once for every stream
        that sends it, so streams that never read share them instead of holding copies."""
        resumed = [] if last is None else self._missed(last)
        state = self.table.snapshot()
        with self._frames_lock:
            if self._state is not state:
                self._state, self._state_frame = state, snapshot_frame(state).encode()
            data = self._state_frame
        return resumed, data, int(state.get("seq", 0))

    def _missed(self, last: int) -> list[tuple[int, bytes]]:
        frames: list[tuple[int, bytes]] = []
        size = 0
        for record in reversed(self.table.records_after(last, MISSED)):
            with self._frames_lock:
                data = self._records.get(record.seq)
            if data is None:
                data = frame(Message("record", record_to_dict(record), record.seq)).encode()
                with self._frames_lock:
                    self._records[record.seq] = data
                    while len(self._records) > RECORDS_KEPT:
                        del self._records[next(iter(self._records))]
            size += len(data)
            if size > SLOW_BYTES // 2:
                break
            frames.append((record.seq, data))
        return frames[::-1]

    def forget(self, stream: Stream) -> None:
        """A stream closed: its place is free."""
        if stream in self.streams:
            del self.streams[stream]
            with self._held_lock:
                self._held -= 1
                self._strangers -= not stream.rightful

    def _close_all(self) -> None:
        for stream in list(self.streams):
            stream.close()
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        self.loop.call_later(0.05, self.loop.stop)


def family(max_streams: int) -> int:
    """The streams of a cap of `max_streams` that only the table's own tablets may take."""
    return max(1, max_streams // FAMILY_SHARE)


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
    sock.setblocking(False)
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
