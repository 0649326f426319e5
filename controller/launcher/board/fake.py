"""A fake launcher board: the real firmware, on mock pins, behind a real pseudo-terminal.

The production serial code opens ``FakeBoard.port`` with ``serial.Serial`` exactly as it opens
``/dev/uno-launcher`` on a Pi: the port is a symlink to the pty's slave end, re-pointed when the
"USB cable" is plugged in again, as the udev symlink is. Behind it runs ``firmware/uno_app.py``
on a fake ``machine`` whose pins are gpiozero mock pins; by default a `SimulatedLauncher` is the
machine on those pins (it turns the motor into card pulses on the beam and presses the button),
or, with ``machine=False``, the caller's own wiring (the HIL jig's mock wires).

Fault knobs, all safe from any thread: `drop_replies`, `corrupt` (either direction), `delay`,
`go_silent`, `disconnect` (with or without power loss) / `reconnect`, `pull_cable` (for some
seconds), `reboot`, `fault_when` (a reset, power loss or cable pull at the exact instant a
condition on the board holds, e.g. while a card is leaving the beam), and on the simulated
machine `jam` and `empty`.

What survives what, as on the Pico: a watchdog reset keeps the scratch registers (the last
run's progress, in the firmware's own layout, ``uno_scratch.py``) and loses RAM (the last 8
runs); a power loss loses both; a pulled cable on a self-powered board loses nothing (the board
runs on, stops the motor after 3 s of silence, and keeps each job's count). `machine_name` is
MicroPython's machine string the board reports (a Pico by default; ``"Raspberry Pi Pico2 with
RP2350"`` for a Pico 2, anything else for a chip the firmware does not know).
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.launcher.board.fake_machine import FakeMachine, FakeMem32, FakeWDT, TicksClock
from controller.launcher.board.firmware import make_importable
from controller.launcher.board.pinmap import board_pins
from controller.launcher.pins import PinProfile
from controller.launcher.sim import SimOptions, SimulatedLauncher

make_importable()
import uno_app  # noqa: E402
import uno_chip  # noqa: E402
import uno_hw  # noqa: E402
import uno_scratch  # noqa: E402

PICO = "Raspberry Pi Pico with RP2040"

IDLE_WAIT = 0.02  # seconds between main-loop steps with no run going
BUSY_WAIT = 0.001  # ...and during a run (the Pico's loop runs every millisecond)


class FakeBoard:
    """One fake board. `port` is the path to open; `simulator` the simulated machine (or None)."""

    def __init__(
        self,
        profile: PinProfile,
        *,
        pin_factory: MockFactory | None = None,
        machine: bool = True,
        sim: SimOptions | None = None,
        port: str | Path | None = None,
        protocol: tuple[int, int] | None = None,
        version: str = uno_app.VERSION,
        machine_name: str = PICO,
    ) -> None:
        self.profile = profile
        self.factory = pin_factory or MockFactory(pin_class=MockPWMPin)
        self._own_factory = pin_factory is None
        self.simulator: SimulatedLauncher | None = None
        if machine:
            self.simulator = SimulatedLauncher(profile, pin_factory=self.factory, options=sim)
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        if port is None:
            self._dir = tempfile.TemporaryDirectory(prefix="uno-board-")
            port = Path(self._dir.name) / "uno-launcher"
        self.port = str(port)
        self.protocol = protocol
        self.version = version
        self.pins = board_pins(profile)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self.machine_name = machine_name
        chip = uno_chip.named(machine_name)
        chip_id = uno_chip.chip_id(chip) if chip in uno_chip.CHIPS else 0
        # the chip's registers: the scratch registers survive a reset, not a power loss
        self.mem32 = FakeMem32(chip_id, uno_chip.CHIP_ID)
        self.machine = FakeMachine(self.factory, on_interrupt=self._wake, mem32=self.mem32)
        self.clock = TicksClock(self.machine.now_ns)  # an interrupt reads its edge's time
        self._actions: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._outbox: list[tuple[float, bytes]] = []
        self._lock = threading.Lock()
        self._drop_replies = 0
        self._corrupt_out = 0
        self._corrupt_in = 0
        self._delay = 0.0
        self._silent_until = 0.0
        self._trigger: tuple[Callable[[Any], bool], str] | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self.scratch: uno_scratch.Scratch | None = None  # this boot's view of the registers
        self.boots = 0
        self.received: list[bytes] = []  # every chunk the firmware was given (for tests)
        # tap(frame, monotonic time): every frame the board sends, as it leaves (benchmarks)
        self.tap: Callable[[bytes, float], None] | None = None
        self.app: Any = None
        self.wdt: FakeWDT | None = None
        self._closed = False
        self._power_on("power")
        self._plug()
        self._thread = threading.Thread(target=self._run, name="fake-board", daemon=True)
        self._thread.start()

    # --- knobs (any thread) ---

    def drop_replies(self, count: int = 1) -> None:
        """Lose the next `count` ACK/NAK frames on the way to the host (commands still run)."""
        with self._lock:
            self._drop_replies += count

    def corrupt(self, count: int = 1, *, inbound: bool = False) -> None:
        """Damage one byte of each of the next `count` frames (to the host, or from it)."""
        with self._lock:
            if inbound:
                self._corrupt_in += count
            else:
                self._corrupt_out += count

    def delay(self, seconds: float) -> None:
        """Hold every frame to the host for `seconds` (0 to stop)."""
        with self._lock:
            self._delay = seconds

    def go_silent(self, seconds: float) -> None:
        """Neither hear nor answer for `seconds` (the board runs on: a hung USB stack)."""
        with self._lock:
            self._silent_until = time.monotonic() + seconds

    def disconnect(self, *, power_loss: bool = False) -> None:
        """Pull the USB cable. With `power_loss` the board was powered by it and dies (motor off,
        memory gone); without, it runs on from its own supply."""
        self._do(lambda: self._disconnect(power_loss))

    def reconnect(self) -> None:
        """Plug the cable back in (a powered-off board boots)."""
        self._do(self._reconnect)

    def reboot(self, cause: str = "wdt", *, usb_drop: bool = True) -> None:
        """Reset the board as the watchdog would: pins safe, RAM gone, scratch registers kept;
        USB re-enumerates unless `usb_drop` is False."""
        self._do(lambda: self._reboot(cause, usb_drop))

    def pull_cable(self, seconds: float, *, power_loss: bool = False) -> None:
        """Pull the cable now and plug it back in after `seconds` (without waiting)."""
        self.disconnect(power_loss=power_loss)
        timer = threading.Timer(seconds, self.reconnect)
        timer.daemon = True
        timer.start()

    FAULTS = ("reboot", "power_loss", "cable")

    def fault_when(self, condition: Callable[[Any], bool], fault: str) -> None:
        """At the first main-loop step where `condition(app)` holds, on the board's own thread:
        ``reboot`` (a watchdog reset), ``power_loss`` (cable and power gone until `reconnect`)
        or ``cable`` (cable gone until `reconnect`, the board runs on)."""
        if fault not in self.FAULTS:
            raise ValueError(f"fault must be one of {self.FAULTS}")
        with self._lock:
            self._trigger = (condition, fault)

    def jam(self) -> None:
        self._machine().jam_next()

    def empty(self) -> None:
        self._machine().load(0)

    def _machine(self) -> SimulatedLauncher:
        if self.simulator is None:
            raise RuntimeError("this fake board has no simulated machine")
        return self.simulator

    def _do(self, action: Callable[[], None]) -> None:
        done = threading.Event()

        def run() -> None:
            try:
                action()
            finally:
                done.set()

        self._actions.put(run)
        self._wake()
        done.wait(5.0)

    # --- power, USB ---

    def _power_on(self, cause: str) -> None:
        uno_hw.safe_lines(self.machine, self.pins)
        hw = uno_hw.Hardware(self.machine, self.pins, self.clock)
        self.wdt = FakeWDT(time.monotonic)
        self.boots += 1
        options: dict[str, Any] = {}
        if self.protocol is not None:
            options["protocol"] = self.protocol
        chip = uno_chip.detect(self.machine_name, self.mem32)  # as main.py does
        scratch = self.scratch = uno_scratch.for_chip(self.mem32, chip)
        recalled = scratch.recall()
        self.app = uno_app.Board(
            hw,
            self.clock,
            self._send,
            reset_cause=cause,
            boot_id=random.randrange(1, 1 << 24),
            persist=scratch.persist,
            recall=lambda: recalled,
            progress=scratch.progress,
            wdt=self.wdt,
            version=self.version,
            chip=chip.name,
            memory=scratch.state,
            **options,
        )
        self.app.boot()

    def _power_off(self) -> None:
        if self.app is not None:
            self.app.hw.safe()
        self.machine.power_off()
        self.app = None

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        link = f"{self.port}.{os.getpid()}.new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(link)
        os.symlink(os.ttyname(slave), link)
        os.replace(link, self.port)
        self._master, self._slave = master, slave

    def _unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self._outbox.clear()

    def _disconnect(self, power_loss: bool) -> None:
        self._unplug()
        if power_loss:
            self._power_off()
            self.mem32.clear()

    def _reconnect(self) -> None:
        if self._master is None:
            self._plug()
        if self.app is None:
            self._power_on("power")

    def _reboot(self, cause: str, usb_drop: bool) -> None:
        self._power_off()
        if usb_drop:
            self._unplug()
            time.sleep(0.05)
            self._plug()
        self._power_on(cause)

    @property
    def connected(self) -> bool:
        return self._master is not None

    # --- the byte stream ---

    def _send(self, frame: bytes) -> None:
        """The firmware's write(): through the knobs to the pty."""
        with self._lock:
            if time.monotonic() < self._silent_until or self._master is None:
                return
            word = frame.split(b" ", 2)[1] if frame.count(b" ") else b""
            if word in (b"ACK", b"NAK") and self._drop_replies > 0:
                self._drop_replies -= 1
                return
            if self._corrupt_out > 0:
                self._corrupt_out -= 1
                frame = _damage(frame)
            due = time.monotonic() + self._delay
        self._outbox.append((due, frame))
        self._flush()
        tap = self.tap
        if tap is not None:
            tap(frame, time.monotonic())

    def _flush(self) -> None:
        now = time.monotonic()
        while self._outbox and self._outbox[0][0] <= now:
            _, frame = self._outbox.pop(0)
            if self._master is None:
                continue
            with contextlib.suppress(BlockingIOError, OSError):
                os.write(self._master, frame)  # a full buffer drops it, as USB CDC would

    def _receive(self) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return
        with self._lock:
            if time.monotonic() < self._silent_until:
                return
            if self._corrupt_in > 0 and data.strip():
                self._corrupt_in -= 1
                data = _damage(data)
        self.received.append(data)
        if self.app is not None:
            self.app.receive(data)

    # --- the main loop ---

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"x")

    def _run(self) -> None:
        while not self._closed:
            while True:
                try:
                    self._actions.get_nowait()()
                except queue.Empty:
                    break
            busy = self.app is not None and self.app.ejector.busy
            wait = BUSY_WAIT if busy else IDLE_WAIT
            if self._outbox:
                wait = max(0.0, min(wait, self._outbox[0][0] - time.monotonic()))
            watched = [self._wake_r] + ([self._master] if self._master is not None else [])
            try:
                ready, _, _ = select.select(watched, [], [], wait)
            except (OSError, ValueError):
                continue
            if self._wake_r in ready:
                with contextlib.suppress(BlockingIOError, OSError):
                    os.read(self._wake_r, 4096)
            if self._master is not None and self._master in ready:
                self._receive()
            self._step()

    def _step(self) -> None:
        if self.app is None:
            return
        if self.simulator is not None:
            # A Pico's interrupts run as their edges come: before the main loop reads the
            # clock, every edge due by now has been handled (stamped with its own time), however
            # late the simulator's own thread got to run on a busy machine.
            self.simulator.catch_up()
        try:
            self.app.step()
        except Exception as error:  # as main.py does: motor off first, then say so
            self.app.fail(error)
        self._flush()
        self._maybe_fault()

    def _maybe_fault(self) -> None:
        trigger = self._trigger
        if trigger is None or self.app is None or not trigger[0](self.app):
            return
        self._trigger = None
        fault = trigger[1]
        if fault == "reboot":
            self._reboot("wdt", usb_drop=True)
        else:
            self._disconnect(power_loss=fault == "power_loss")

    # --- shutdown ---

    def close(self) -> None:
        """Motor off, pty gone, thread stopped. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._wake()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        self._power_off()
        self._unplug()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.simulator is not None:
            self.simulator.close()
        if self._dir is not None:
            self._dir.cleanup()
        if self._own_factory:
            self.factory.reset()

    def __enter__(self) -> FakeBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _damage(frame: bytes) -> bytes:
    """Flip one character in the middle of a frame (its checksum no longer matches)."""
    middle = len(frame) // 2
    damaged = bytearray(frame)
    damaged[middle] = ord("#") if damaged[middle] != ord("#") else ord("%")
    return bytes(damaged)
