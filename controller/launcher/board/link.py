"""The Pi's end of the serial link to the launcher board: connect, talk, reconnect, forever.

`BoardLink` owns one serial connection at a time and knows the protocol, not the launcher:

* a supervisor thread finds the port, opens it (``exclusive=True``: one owner), says ``HELLO``
  (refusing a board whose protocol does not overlap ours, with a message saying what to do),
  runs the owner's `on_up` hook (tuning, reconciliation), then sends a ``PING`` heartbeat
  whenever nothing else was said for `LinkTiming.heartbeat` seconds. The board stops its motor
  after ~3 s of silence, so a dead Pi cannot leave it running. When the connection fails it
  closes it, reports why through `on_down`, and tries again with a growing delay;
* a reader thread per connection splits lines, hands replies to the waiting request and calls
  `on_event` for events, in order, at once (a press is a few microseconds from the wire to the
  launcher's queue). `on_event` must be quick and must not call `request()`: the reader it runs
  on is the thread that would read the answer;
* `request()` sends one command and waits for its ACK, retransmitting the *same* frame (same
  sequence number) with a growing wait: the board answers a retransmission from its saved reply
  and never executes it twice. One command is outstanding at a time.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import serial

from controller.launcher.board.firmware import proto
from controller.launcher.errors import BackendUnavailable, LauncherError

log = logging.getLogger(__name__)

Opener = Callable[..., Any]
PortFinder = Callable[[], str | None]


class LinkDown(LauncherError, ConnectionError):
    """The board did not answer (the link is down, or went down during the request)."""


class BoardRebooted(LinkDown):
    """The board restarted while a request was outstanding: its outcome must be asked for."""


class BoardRefused(LauncherError, RuntimeError):
    """The board answered NAK. `code` says why (``busy``, ``lid``, ``args``, ...)."""

    def __init__(self, word: str, code: str, fields: dict[str, str]) -> None:
        detail = " ".join(f"{k}={v}" for k, v in fields.items() if k != code)
        super().__init__(f"the board refused {word}: {code}" + (f" ({detail})" if detail else ""))
        self.code = code
        self.fields = fields


class IncompatibleBoard(BackendUnavailable):
    """The board's firmware speaks no protocol version we speak."""


@dataclass(frozen=True)
class LinkTiming:
    """How patient the link is. Generous by default: Pis and test machines are busy."""

    reply_timeout: float = 0.25  # the first wait for an answer
    backoff: float = 2.0  # each retransmission waits this much longer...
    max_wait: float = 1.0  # ...up to this
    retries: int = 4  # retransmissions before the link is declared down
    heartbeat: float = 0.5  # PING when nothing was said for this long (board gives up at 3 s)
    reconnect_min: float = 0.05
    reconnect_max: float = 2.0
    baudrate: int = 115_200  # ignored by USB CDC; set for real UARTs


@dataclass(frozen=True)
class BoardInfo:
    """What the board said in answer to HELLO."""

    port: str
    firmware: str
    protocol: int
    reset: str
    boot: int
    events: int
    driver: str
    chip: str = "?"  # RP2040, RP2350, unknown ("?": a firmware that does not say)
    memory: str = "?"  # what its scratch registers held at boot: run, none, torn, old, off


@dataclass(frozen=True)
class BoardEvent:
    """One event from the board. `gap`: events were lost just before this one."""

    n: int
    word: str
    fields: dict[str, str]
    at: float
    gap: bool = False


@dataclass
class _Pending:
    seq: int
    reply: tuple[str, list[str]] | None = None
    resend: bool = False


@dataclass
class _Connection:
    port: str
    serial: Any
    dead: threading.Event = field(default_factory=threading.Event)
    why: str = ""
    boot: int | None = None
    last_event: int = 0


def incompatible_message(given: dict[str, str], port: str) -> str:
    firmware = given.get("fw", "?")
    low, high = given.get("min", "?"), given.get("max", given.get("proto", "?"))
    return (
        f"the launcher board on {port} runs firmware {firmware}, which speaks protocol "
        f"{low}..{high}; this controller speaks {proto.PROTOCOL_MIN}..{proto.PROTOCOL}. "
        "Update the board with 'make firmware-deploy' (see firmware/README.md)."
    )


class BoardLink:
    """A self-healing connection to the board. Call `start()`, then `request()`; `close()`."""

    def __init__(
        self,
        find_port: PortFinder,
        *,
        on_event: Callable[[BoardEvent], None],
        on_up: Callable[[BoardInfo], None],
        on_down: Callable[[str, bool], None],
        timing: LinkTiming | None = None,
        opener: Opener = serial.Serial,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._find_port = find_port
        self._on_event = on_event
        self._on_up = on_up
        self._on_down = on_down
        self.timing = timing or LinkTiming()
        self._opener = opener
        self._clock = clock
        self._seq = random.randrange(1, 1 << 20)
        self._tx = threading.Lock()
        self._reply = threading.Condition()
        self._pending: _Pending | None = None
        self._conn: _Connection | None = None
        self._closing = threading.Event()
        self._said_at = 0.0
        self.info: BoardInfo | None = None
        self.up = False
        self._threads = [threading.Thread(target=self._supervise, name="board-link", daemon=True)]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    # --- requests (any thread; one outstanding at a time) ---

    def request(self, word: str, *args: str) -> dict[str, str]:
        """Send `word` with `args`, wait for the ACK and return its fields.

        Raises `BoardRefused` for a NAK, `BoardRebooted` if the board restarted meanwhile,
        `LinkDown` if there is no connection or no answer after every retransmission (the
        connection is then dropped and re-established).
        """
        with self._tx:
            conn = self._conn
            if conn is None or conn.dead.is_set():
                raise LinkDown("the launcher board is not connected")
            self._seq = self._seq % (1 << 30) + 1
            frame = proto.encode(self._seq, word, list(args))
            return self._exchange(conn, word, frame, _Pending(self._seq))

    def _exchange(
        self, conn: _Connection, word: str, frame: bytes, pending: _Pending
    ) -> dict[str, str]:
        timing = self.timing
        wait = timing.reply_timeout
        boot = conn.boot
        with self._reply:
            self._pending = pending
        try:
            for _attempt in range(timing.retries + 1):
                self._write(conn, frame)
                reply = self._await_reply(conn, pending, wait, boot)
                if reply is not None:
                    return self._answer(word, reply)
                wait = min(wait * timing.backoff, timing.max_wait)
        finally:
            with self._reply:
                self._pending = None
        self._kill(conn, f"no answer to {word} after {timing.retries + 1} tries")
        raise LinkDown(f"the launcher board on {conn.port} stopped answering")

    def _await_reply(
        self, conn: _Connection, pending: _Pending, wait: float, boot: int | None
    ) -> tuple[str, list[str]] | None:
        end = self._clock() + wait
        with self._reply:
            while True:
                if pending.reply is not None:
                    return pending.reply
                if conn.dead.is_set():
                    raise LinkDown(f"lost the launcher board on {conn.port}: {conn.why}")
                if boot is not None and conn.boot != boot:
                    raise BoardRebooted("the launcher board restarted")
                if pending.resend:
                    pending.resend = False
                    return None
                left = end - self._clock()
                if left <= 0:
                    return None
                self._reply.wait(min(left, 0.05))

    def _answer(self, word: str, reply: tuple[str, list[str]]) -> dict[str, str]:
        kind, args = reply
        given = proto.fields(args)
        if kind == "ACK":
            return given
        code = args[0] if args else "?"
        raise BoardRefused(word, code, given)

    def _write(self, conn: _Connection, frame: bytes) -> None:
        try:
            conn.serial.write(frame)
        except (serial.SerialException, OSError) as error:
            self._kill(conn, f"write failed: {error}")
            raise LinkDown(f"lost the launcher board on {conn.port}: {error}") from None
        self._said_at = self._clock()

    # --- the supervisor: connect, handshake, heartbeat, reconnect ---

    def _supervise(self) -> None:
        delay = self.timing.reconnect_min
        while not self._closing.is_set():
            if self._connect_once():
                delay = self.timing.reconnect_min
            else:
                delay = min(delay * 2, self.timing.reconnect_max)
            self._closing.wait(delay)

    def _connect_once(self) -> bool:
        """One connection, start to end. True if it got as far as HELLO."""
        try:
            port = self._find_port()
        except LookupError as error:  # several candidate boards
            self._down(str(error))
            return False
        if port is None:
            self._down("no launcher board found: plug it in (see firmware/README.md)")
            return False
        try:
            handle = self._opener(
                port, baudrate=self.timing.baudrate, timeout=0.05, write_timeout=1.0, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as error:
            self._down(f"cannot open the launcher board on {port}: {error}")
            return False
        conn = _Connection(port, handle)
        reader = threading.Thread(target=self._read, args=(conn,), name="board-read", daemon=True)
        with contextlib.suppress(serial.SerialException, OSError):
            handle.reset_input_buffer()
        self._conn = conn
        reader.start()
        try:
            return self._serve(conn)
        finally:
            self._kill(conn, conn.why or "closed")
            reader.join(timeout=2.0)
            with contextlib.suppress(Exception):
                handle.close()
            if self._conn is conn:
                self._conn = None
            self.up = False

    def _serve(self, conn: _Connection) -> bool:
        try:
            info = self._hello(conn)
            self._on_up(info)
        except IncompatibleBoard as error:
            self._down(str(error), incompatible=True)
            self._closing.wait(2.0)  # it stays incompatible until someone updates it
            return True
        except LauncherError as error:
            self._down(f"the launcher board on {conn.port} did not answer HELLO: {error}")
            return False
        self.up = True
        self._heartbeat(conn)
        self._down(f"lost the launcher board on {conn.port}: {conn.why}; reconnecting")
        return True

    def _hello(self, conn: _Connection) -> BoardInfo:
        args = (f"proto={proto.PROTOCOL}", f"min={proto.PROTOCOL_MIN}")
        # a bare newline first: it ends any partial line the board holds (half a frame from
        # before a cable pull, a modem probe), which the board then ignores or NAKs
        self._write(conn, b"\n")
        try:
            given = self.request("HELLO", *args)
        except BoardRefused as error:
            if error.code == "version":
                raise IncompatibleBoard(incompatible_message(error.fields, conn.port)) from None
            raise
        agreed = int(given.get("proto", "0"))
        if not proto.PROTOCOL_MIN <= agreed <= proto.PROTOCOL:
            raise IncompatibleBoard(incompatible_message(given, conn.port))
        info = BoardInfo(
            port=conn.port,
            firmware=given.get("fw", "?"),
            protocol=agreed,
            reset=given.get("reset", "?"),
            boot=int(given.get("boot", "0")),
            events=int(given.get("ev", "0")),
            driver=given.get("driver", "?"),
            chip=given.get("chip", "?"),
            memory=given.get("mem", "?"),
        )
        conn.boot, conn.last_event = info.boot, info.events
        self.info = info
        log.info(
            "launcher board on %s: firmware %s on %s, reset %s",
            conn.port,
            info.firmware,
            info.chip,
            info.reset,
        )
        if info.memory in ("old", "torn"):
            log.warning(
                "the launcher board discarded its scratch registers at boot (%s: %s): a run "
                "before that boot cannot be counted from them",
                info.memory,
                "another firmware's layout" if info.memory == "old" else "damaged",
            )
        elif info.memory == "off":
            log.warning(
                "the launcher board (chip %s) keeps nothing across a reset: a run a reset "
                "interrupts is counted from what it reported before",
                info.chip,
            )
        return info

    def _heartbeat(self, conn: _Connection) -> None:
        interval = self.timing.heartbeat
        while not self._closing.is_set() and not conn.dead.is_set():
            idle = self._clock() - self._said_at
            if idle < interval:
                conn.dead.wait(interval - idle)
                continue
            try:
                self.request("PING")
            except BoardRefused:
                pass  # it answered: the link is alive
            except LinkDown:
                return

    def _down(self, why: str, incompatible: bool = False) -> None:
        self.up = False
        if not self._closing.is_set():
            self._on_down(why, incompatible)

    def _kill(self, conn: _Connection, why: str) -> None:
        if not conn.dead.is_set():
            conn.why = why
            conn.dead.set()
        with self._reply:
            self._reply.notify_all()

    # --- the reader ---

    def _read(self, conn: _Connection) -> None:
        reader = proto.LineReader()
        while not conn.dead.is_set():
            try:
                data = conn.serial.read(max(1, conn.serial.in_waiting))
            except (serial.SerialException, OSError, TypeError) as error:
                self._kill(conn, f"read failed: {error}")
                return
            for line in reader.feed(data):
                self._line(conn, line)

    def _line(self, conn: _Connection, line: bytes) -> None:
        try:
            num, word, args = proto.decode(line)
        except proto.FrameError as error:
            log.debug("garbled line from the board (%s): %r", error.code, line)
            return
        if word in proto.REPLIES:
            self._reply_arrived(num, word, args)
        else:
            self._event_arrived(conn, num, word, args)

    def _reply_arrived(self, num: int, word: str, args: list[str]) -> None:
        with self._reply:
            pending = self._pending
            if pending is None:
                return
            if num == pending.seq:
                pending.reply = (word, args)
            elif num == 0 and word == "NAK" and args and args[0] in proto.DAMAGED:
                pending.resend = True  # our frame arrived damaged: send it again now
            self._reply.notify_all()

    def _event_arrived(self, conn: _Connection, num: int, word: str, args: list[str]) -> None:
        given = proto.fields(args)
        if word == "BOOT":
            boot = int(given.get("boot", "0") or 0)
            if conn.boot is not None and boot != conn.boot:
                conn.boot = boot
                with self._reply:
                    self._reply.notify_all()
            conn.last_event = num
            self._deliver(BoardEvent(num, word, given, self._clock()))
            return
        if num <= conn.last_event:
            return  # stale: from before our HELLO, or a duplicate
        gap = num != conn.last_event + 1
        conn.last_event = num
        self._deliver(BoardEvent(num, word, given, self._clock(), gap))

    def _deliver(self, event: BoardEvent) -> None:
        try:
            self._on_event(event)
        except Exception:  # one bad event must not stop the others
            log.exception("handling board event %s failed", event)

    def renew(self, why: str) -> None:
        """Drop the connection so the supervisor reconnects and says HELLO again (the board
        ended the session after an error). Safe from any thread, the reader's included."""
        conn = self._conn
        if conn is not None:
            self._kill(conn, why)

    # --- shutdown ---

    def close(self) -> None:
        """Drop the connection and stop every thread. Idempotent."""
        self._closing.set()
        conn = self._conn
        if conn is not None:
            self._kill(conn, "closed")
        for thread in self._threads:
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(timeout=5.0)
