"""A stand-in for MicroPython's ``machine`` module on gpiozero's mock pins.

The firmware's modules run unchanged on it: ``Pin`` and ``PWM`` drive and read mock pins (so the
simulated launcher, or the HIL jig's mock wires, are on the other end), pin interrupts become
the mock pins' edge callbacks, ``disable_irq``/``enable_irq`` hold one lock that every
interrupt handler also holds, which is what a critical section means on the Pico, and
``mem32`` holds the chip's registers: its CHIP_ID, and scratch registers that keep what the
firmware wrote through a reset (`FakeMem32.clear` is a power loss).

An interrupt on the Pico runs microseconds after its edge, so the ticks its handler reads are
the edge's. Here a handler runs in whichever thread delivered the edge, possibly late on a busy
machine: while it runs, the machine's clock (`FakeMachine.now_ns`, the ticks' source) reads the
edge's own stamp in that thread, so pulse widths and button times are the edges', not the
scheduler's.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from gpiozero.pins.mock import MockFactory


class _PinClass:
    """What ``machine.Pin`` is to the firmware: constants, and a constructor."""

    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8

    def __init__(self, machine: FakeMachine) -> None:
        self._machine = machine

    def __call__(
        self, gpio: int, mode: int = -1, pull: int | None = None, *, value: Any = None
    ) -> FakePin:
        return FakePin(self._machine, gpio, mode, pull, value)


class FakePin:
    """``machine.Pin`` on one mock pin (``GPIO<n>`` of the factory)."""

    def __init__(
        self, machine: FakeMachine, gpio: int, mode: int, pull: int | None, value: Any
    ) -> None:
        self.gpio = gpio
        self._machine = machine
        self.mock = machine.factory.pin(f"GPIO{gpio}")
        self._handler: Callable[[Any], None] | None = None
        if mode == _PinClass.OUT:
            if self.mock.function != "output":
                self.mock.function = "output"
            if value is not None:
                self.mock.state = bool(value)
        elif mode == _PinClass.IN:
            pulls = {_PinClass.PULL_UP: "up", _PinClass.PULL_DOWN: "down"}
            wanted = pulls.get(pull or 0, "floating")
            # Re-pulling a mock input resets its level; on the chip a reboot's pull-up does not
            # move a line the outside world drives (a card in the beam stays there).
            if self.mock.function != "input" or self.mock.pull != wanted:
                self.mock.function = "input"
                self.mock.pull = wanted
        machine.pins.append(self)

    def value(self, level: Any = None) -> int:
        if level is None:
            return 1 if self.mock.state else 0
        self.mock.state = bool(level)
        return 0

    def irq(self, handler: Callable[[Any], None], trigger: int = 0, hard: bool = False) -> None:
        self._handler = handler
        self.mock.edges = "both"
        self.mock.when_changed = self._changed

    def detach(self) -> None:
        self._handler = None

    def _changed(self, ticks: Any, state: Any) -> None:
        handler = self._handler
        if handler is None:
            return
        with self._machine.irq_lock, self._machine.at_edge(ticks):
            handler(self)
        self._machine.interrupted()


class FakePWM:
    """``machine.PWM`` on a pin: the duty becomes the mock pin's state (0..1)."""

    def __init__(self, pin: FakePin) -> None:
        self.pin = pin
        if pin.mock.function != "output":
            pin.mock.function = "output"
        self._hz = 1000
        pin.mock.frequency = self._hz

    def freq(self, hz: int | None = None) -> int:
        if hz is not None:
            self._hz = hz
            self.pin.mock.frequency = hz
        return self._hz

    def duty_u16(self, value: int | None = None) -> int:
        if value is None:
            return round(float(self.pin.mock.state) * 65535)
        self.pin.mock.state = value / 65535
        return value


class FakeMem32:
    """``machine.mem32``: 32-bit registers, 0 until written, except CHIP_ID (read only), which
    reads `chip_id`. Survives a reset; `clear()` is a power loss."""

    def __init__(self, chip_id: int, chip_id_address: int) -> None:
        self._chip_id = (chip_id_address, chip_id)
        self.words: dict[int, int] = {}

    def __getitem__(self, address: int) -> int:
        if address == self._chip_id[0]:
            return self._chip_id[1]
        return self.words.get(address, 0)

    def __setitem__(self, address: int, value: int) -> None:
        if address != self._chip_id[0]:
            self.words[address] = value & 0xFFFFFFFF

    def clear(self) -> None:
        self.words.clear()


class FakeWDT:
    """``machine.WDT``: remembers when it was last fed."""

    def __init__(self, clock: Callable[[], float], timeout: int = 2000) -> None:
        self.timeout = timeout / 1000
        self._clock = clock
        self.fed = 0
        self.last_fed = clock()

    def feed(self) -> None:
        self.fed += 1
        self.last_fed = self._clock()


class FakeMachine:
    """The ``machine`` module for one board on `factory`'s mock pins. `on_interrupt` is called
    after every interrupt handler (the fake board wakes its main loop with it)."""

    PWRON_RESET, WDT_RESET = 1, 3

    def __init__(
        self,
        factory: MockFactory,
        on_interrupt: Callable[[], None] | None = None,
        mem32: FakeMem32 | None = None,
    ):
        self.factory = factory
        self.irq_lock = threading.RLock()
        self.on_interrupt = on_interrupt
        self.Pin = _PinClass(self)
        self.pins: list[FakePin] = []
        self.mem32 = mem32 or FakeMem32(0, 0x40000000)
        self._edge = threading.local()  # .ns: the stamp of the edge this thread is handling

    def now_ns(self) -> int:
        """The time on the monotonic clock; inside an interrupt handler, its edge's stamp."""
        stamp: int | None = getattr(self._edge, "ns", None)
        return time.monotonic_ns() if stamp is None else stamp

    @contextlib.contextmanager
    def at_edge(self, ticks: Any) -> Iterator[None]:
        """While a handler runs: the clock reads `ticks` (seconds on the monotonic clock, as
        the mock pins stamp their edges) in this thread."""
        outer = getattr(self._edge, "ns", None)
        self._edge.ns = None if ticks is None else round(float(ticks) * 1e9)
        try:
            yield
        finally:
            self._edge.ns = outer

    def power_off(self) -> None:
        """The chip loses power or resets: no interrupt handler runs any more."""
        for pin in self.pins:
            pin.detach()
        self.pins.clear()

    def PWM(self, pin: FakePin) -> FakePWM:  # the MicroPython name
        return FakePWM(pin)

    def disable_irq(self) -> int:
        self.irq_lock.acquire()
        return 0

    def enable_irq(self, state: int) -> None:
        self.irq_lock.release()

    def interrupted(self) -> None:
        if self.on_interrupt is not None:
            self.on_interrupt()


class TicksClock:
    """``time.ticks_ms/us``, ``ticks_add`` and ``ticks_diff`` as on the Pico: the counters wrap at
    2**30, so the firmware's wrap-safe arithmetic is exercised for real."""

    PERIOD = 1 << 30

    def __init__(self, source: Callable[[], int] | None = None) -> None:
        self._source = source or time.monotonic_ns

    def ticks_us(self) -> int:
        return (self._source() // 1000) & (self.PERIOD - 1)

    def ticks_ms(self) -> int:
        return (self._source() // 1_000_000) & (self.PERIOD - 1)

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) & (self.PERIOD - 1)

    def ticks_diff(self, later: int, earlier: int) -> int:
        half = self.PERIOD // 2
        return ((later - earlier + half) & (self.PERIOD - 1)) - half
