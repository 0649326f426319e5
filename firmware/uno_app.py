"""The board's program: commands in, events out, the motor kept safe.

`Board` takes its hardware, a clock and a `write(bytes)` function as arguments, so the same code
runs on the Pico (``main.py`` passes the real pins, ``time`` and USB serial) and under CPython
(the tests' fake ``machine``, the fake board over a pty). The host decides; the board executes
and enforces safety on its own:

* a retransmitted command (same sequence number as the last one executed) is answered again
  from the saved reply and **not executed again**; an ``EJECT`` whose job id is the current or
  last job is never started twice, whatever its sequence number;
* the motor runs only inside a host session (after ``HELLO``), never while the lid is open, never
  past a run's deadline (the host's, capped by the board's own), and stops when the host has been
  silent for `SILENCE_MS`;
* any error stops the motor and puts the driver to sleep before it is reported;
* no frame faults the board: a reply or event that would be longer than a frame may be (160
  bytes) leaves out fields instead (`fit`), and a damaged frame is answered ``NAK <code>``.
"""

try:
    from typing import Any

    Event = tuple[str, list[str]]  # an event to send: (word, arguments)
    Reply = tuple[str, list[str]]  # ("ACK" | "NAK", arguments)
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

import uno_proto as proto
from uno_eject import PHASES, Ejector, Tuning

VERSION = "0.2.0"
SILENCE_MS = 3000
# Left out first, in this order, when a reply would be longer than a frame may be: fields the
# host does not act on. `fit` then drops fields from the end, and adds ``cut=1``.
SHED = ("session", "state", "ev", "beam", "motor")
MAX_SEQ = 2**30  # the host's sequence numbers wrap to 1 past this


class Board:
    """One board. `hw` has ``motor``, ``beam``, ``button``, ``lid`` (or None), ``lights`` (or
    None) and ``safe()``. `persist(job, requested, count, reason)` and `progress(count,
    pending)` keep the current run's progress across a reset; `recall()` gives it back after
    one as ``(job, requested, count, reason, pending)`` (reason ``running`` if the reset cut the
    run short). `chip` names the chip and `memory` says what the scratch registers held at boot
    (``run``, ``none``, ``torn``, ``old``, or ``off``: nothing survives a reset; see
    uno_scratch.py); both are reported in ``BOOT`` and ``HELLO``. `protocol` is ``(oldest,
    newest)`` spoken."""

    def __init__(
        self,
        hw: Any,
        clock: Any,
        write: Any,
        reset_cause: str = "power",
        boot_id: int = 0,
        persist: Any = None,
        recall: Any = None,
        wdt: Any = None,
        progress: Any = None,
        protocol: tuple[int, int] = (proto.PROTOCOL_MIN, proto.PROTOCOL),
        version: str = VERSION,
        chip: str = "RP2040",
        memory: str = "none",
    ) -> None:
        self.hw = hw
        self._clock = clock
        self._write = write
        self.reset_cause = reset_cause
        self.boot_id = boot_id
        self._wdt = wdt
        self.protocol = protocol
        self.version = version
        self.chip = chip
        self.memory = memory
        self.tuning = Tuning()
        self.ejector = Ejector(hw.motor, hw.beam, clock, self.tuning, persist, progress)
        self._reader = proto.LineReader()
        self.events = 0
        self.session = False
        self.silent = False
        self.maintenance = False  # MAINT acknowledged: main.py reboots into the REPL
        self._last_seq = -1
        self._last_reply = b""
        self._booted = clock.ticks_ms()
        self._last_rx = self._booted
        self._recalled = _interrupted(recall(), hw.beam) if recall is not None else None
        self._handlers = {
            "PING": self._ping,
            "STATUS": self._status,
            "EJECT": self._eject,
            "STOP": self._stop,
            "TUNE": self._tune,
            "SHOW": self._show,
            "SAFE": self._safe,
            "MAINT": self._maint,
        }

    # --- output ---

    def boot(self) -> None:
        """Announce this boot (the host may be listening, or not yet)."""
        self.emit(
            "BOOT",
            [
                "reason=" + self.reset_cause,
                "fw=" + self.version,
                "proto=%d" % self.protocol[1],
                "boot=%d" % self.boot_id,
                "chip=" + _token(self.chip),
                "mem=" + _token(self.memory),
            ],
        )

    def emit(self, word: str, args: list[str]) -> None:
        """Send one event with the next event number."""
        self.events += 1
        self._write(fit(self.events, word, args))

    def _emit_all(self, events: list[Event]) -> None:
        for word, args in events:
            self.emit(word, args)

    # --- input ---

    def receive(self, data: bytes) -> None:
        """Bytes from the host (any split): each complete line is handled at once."""
        for line in self._reader.feed(data):
            self._frame(line)

    def _frame(self, line: bytes) -> None:
        if line == b"" or line == b"\r":
            return  # a bare newline: the host flushing a partial line (a modem probe, noise)
        try:
            num, word, args = proto.decode(line)
        except proto.FrameError as error:
            self._write(proto.encode(0, "NAK", [error.code]))
            return
        if num > MAX_SEQ:  # no host numbers a command so: its answer might not even fit
            self._write(proto.encode(0, "NAK", ["format", "detail=num"]))
            return
        self._heard()
        if word == "HELLO":
            reply = self._hello(args)  # always answered afresh: it starts a session
        elif num == self._last_seq and self._last_reply:
            self._write(self._last_reply)  # a retransmission: answer again, do not execute
            return
        else:
            reply = self._execute(word, args)
        self._last_seq = num
        self._last_reply = fit(num, reply[0], reply[1])
        self._write(self._last_reply)

    def _heard(self) -> None:
        self._last_rx = self._clock.ticks_ms()
        if self.silent:
            self.silent = False
            if self.session:
                self.hw.motor.enable()

    def _execute(self, word: str, args: list[str]) -> Reply:
        handler = self._handlers.get(word)
        if handler is None:
            return "NAK", ["unknown", "cmd=" + _token(word)]
        try:
            return handler(proto.fields(args))
        except ValueError as error:
            return "NAK", ["args", "detail=" + _token(str(error))]
        except Exception as error:  # never leave the motor running on a bug
            self.fail(error)
            return "NAK", ["error", "detail=" + type(error).__name__]

    # --- commands ---

    def _hello(self, args: list[str]) -> Reply:
        given = proto.fields(args)
        try:
            newest = int(given.get("proto", "0"))
            oldest = int(given.get("min", given.get("proto", "0")))
        except ValueError:
            return "NAK", ["args", "detail=proto"]
        agreed = min(newest, self.protocol[1])
        if agreed < max(oldest, self.protocol[0]):
            return "NAK", [
                "version",
                "fw=" + self.version,
                "min=%d" % self.protocol[0],
                "max=%d" % self.protocol[1],
            ]
        self.session = True
        self.silent = False
        self.hw.motor.enable()
        return "ACK", [
            "fw=" + self.version,
            "proto=%d" % agreed,
            "min=%d" % self.protocol[0],
            "max=%d" % self.protocol[1],
            "reset=" + self.reset_cause,
            "boot=%d" % self.boot_id,
            "ev=%d" % self.events,
            "driver=" + self.hw.motor.driver,
            "chip=" + _token(self.chip),
            "mem=" + _token(self.memory),
        ]

    def _ping(self, given: dict[str, str]) -> Reply:
        return "ACK", ["up=%d" % self._clock.ticks_diff(self._clock.ticks_ms(), self._booted)]

    def _status(self, given: dict[str, str]) -> Reply:
        hw = self.hw
        state = PHASES[self.ejector.phase]
        args = [
            "state=" + state,
            "boot=%d" % self.boot_id,
            "ev=%d" % self.events,
            "button=%d" % hw.button.active,
            "presses=%d" % hw.button.presses,
            "lid=%d" % (hw.lid.active if hw.lid is not None else 0),
            "beam=%d" % hw.beam.blocked,
            "motor=%d" % hw.motor.speed,
            "session=%d" % self.session,
        ]
        if "job" in given:  # STATUS job=<id>: that job, running or among the last ones
            return "ACK", args + self._job_fields(_int(given, "job", 1, 2**30))
        return "ACK", args + self._job_fields()

    def _find(self, job: int) -> tuple[int, int, int, str] | None:
        known = self.ejector.find(job)
        if known is None and self._recalled is not None and self._recalled[0] == job:
            return self._recalled
        return known

    def _job_fields(self, wanted: int = 0) -> list[str]:
        """The fields of job `wanted` (``reason=unknown`` if this board never ran it), or of
        the current or last run (``job=0``: none)."""
        ej = self.ejector
        if wanted:
            job = self._find(wanted)
            if job is None:
                return ["job=%d" % wanted, "reason=unknown"]
        elif ej.busy:
            job = (ej.job, ej.requested, ej.beam.count, "running")
        else:
            job = ej.last or self._recalled
            if job is None:
                return ["job=0"]
        return ["job=%d" % job[0], "n=%d" % job[1], "ejected=%d" % job[2], "reason=" + job[3]]

    def _eject(self, given: dict[str, str]) -> Reply:
        job = _int(given, "job", 1, 2**30)
        cards = _int(given, "n", 0, 200)
        speed = _int(given, "speed", 1, 1000, self.tuning.speed)
        deadline = _int(given, "deadline", 1, 60000)
        ej = self.ejector
        if self._find(job) is not None:  # running, finished, or cut short by a reset
            return "ACK", ["job=%d" % job, "dup=1"] + self._job_fields(job)
        if ej.busy:
            return "NAK", ["busy", "job=%d" % ej.job]
        if not self.session:
            return "NAK", ["session"]
        if self.hw.lid is not None and self.hw.lid.active:
            return "NAK", ["lid"]
        self._emit_all(ej.start(job, cards, speed, deadline))
        return "ACK", ["job=%d" % job]

    def _stop(self, given: dict[str, str]) -> Reply:
        self._emit_all(self.ejector.stop(given.get("why", "host") or "host"))
        return "ACK", []

    def _tune(self, given: dict[str, str]) -> Reply:
        tuning = Tuning()
        for key in Tuning.LIMITS:
            setattr(tuning, key, getattr(self.tuning, key))
        for key in given:
            tuning.set(key, given[key])
        tuning.check()
        for key in Tuning.LIMITS:
            setattr(self.tuning, key, getattr(tuning, key))
        t = self.tuning
        self.hw.beam.set_window(t.min_pulse_us, t.max_pulse_us, t.min_gap_us)
        self.hw.button.debounce_ms = t.debounce_ms
        self.hw.motor.max_duty = t.max_duty
        return "ACK", []

    def _show(self, given: dict[str, str]) -> Reply:
        if self.hw.lights is not None:
            tension = _int(given, "tension", 0, 1000, -1)
            self.hw.lights.show(given.get("colour"), tension)
        return "ACK", ["lights=%d" % (self.hw.lights is not None)]

    def _safe(self, given: dict[str, str]) -> Reply:
        self._emit_all(self.ejector.stop("safe"))
        self.session = False
        self.hw.safe()
        return "ACK", []

    def _maint(self, given: dict[str, str]) -> Reply:
        self._safe(given)
        self.maintenance = True
        return "ACK", ["reboot=1"]

    # --- the main loop ---

    def step(self) -> None:
        """Everything time-driven: switches, the run, host silence, the watchdog."""
        now = self._clock.ticks_ms()
        self._switches(now)
        self._emit_all(self.ejector.step())
        self._check_silence(now)
        if self._wdt is not None:
            self._wdt.feed()

    def _switches(self, now: int) -> None:
        hw = self.hw
        hw.button.poll(now)
        for down, when, presses in hw.button.take():
            t = self._clock.ticks_diff(when, self._booted)
            self.emit("BUTTON", ["down=%d" % down, "n=%d" % presses, "t=%d" % t])
        if hw.lid is None:
            return
        hw.lid.poll(now)
        for opened, _when, _count in hw.lid.take():
            if opened:
                self._emit_all(self.ejector.stop("lid"))
            self.emit("LID", ["open=%d" % opened])

    def _check_silence(self, now: int) -> None:
        if not self.session or self.silent:
            return
        if self._clock.ticks_diff(now, self._last_rx) < SILENCE_MS:
            return
        self.silent = True
        running = self.ejector.busy
        self._emit_all(self.ejector.stop("host-silent"))
        self.hw.motor.disable()
        if running:
            self.emit("FAULT", ["kind=host-silent", "ms=%d" % SILENCE_MS])

    def fail(self, error: BaseException) -> None:
        """An error anywhere: motor off and driver asleep first, then say so."""
        try:
            self.hw.safe()
        finally:
            self.session = False
            try:
                self._emit_all(self.ejector.stop("error"))
                self.emit("FAULT", ["kind=error", "detail=" + _token(type(error).__name__)])
            except Exception:  # reporting must never undo the stop
                pass


def fit(num: int, word: str, args: list[str]) -> bytes:
    """The frame for `word` and `args`, never longer than `proto.MAX_LINE`: if it would be, an
    ACK or an event leaves out the fields in `SHED`, then its last fields, until it fits, and
    says ``cut=1``; a NAK keeps only its code (and ``cut=1``). A valid command never faults the
    board because its answer is long (a STATUS with large counters is 179 bytes)."""
    try:
        return proto.encode(num, word, args)
    except ValueError:
        pass
    kept = args[:1] if word == "NAK" else list(args)
    shed = [key + "=" for key in SHED]
    while True:
        try:
            return proto.encode(num, word, kept + ["cut=1"])
        except ValueError:
            if not kept:
                raise
        present = [key for key in shed if [arg for arg in kept if arg.startswith(key)]]
        # the first field of SHED this frame has, else its last field
        kept = [arg for arg in kept if not arg.startswith(present[0])] if present else kept[:-1]


def _interrupted(recalled: Any, beam: Any) -> tuple[int, int, int, str] | None:
    """The run a reset interrupted, counted exactly: a card that had cleared the beam and was
    waiting out min_gap to be confirmed has left if the beam is still clear now."""
    if recalled is None:
        return None
    job, requested, count, reason, pending = recalled
    if reason != "running":
        return job, requested, count, reason
    if pending and not beam.blocked:
        count += 1
    return job, requested, count, "reset"


def _int(given: dict[str, str], key: str, low: int, high: int, default: int | None = None) -> int:
    text = given.get(key)
    if text is None:
        if default is None:
            raise ValueError(key + " is required")
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(key + " must be an integer") from None
    if not low <= value <= high:
        raise ValueError("%s must be %d..%d" % (key, low, high))
    return value


def _token(text: str) -> str:
    """Text made safe as one argument: spaces become dashes, other oddities dots."""
    out = ""
    for char in text[:40]:
        if char == " ":
            out += "-"
        elif "!" <= char <= "~" and char != "*":
            out += char
        else:
            out += "."
    return out or "-"
