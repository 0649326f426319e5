"""A small fake ``machine`` and ``time`` for the firmware under CPython: virtual time that only
moves when a test says so, pins a test drives by hand, interrupts called at once (as a hard IRQ
preempts the main loop), and a record of every level a pin was driven to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class FakeTime:
    """``time.ticks_*`` on a virtual clock, wrapping at 2**30 like the Pico's."""

    PERIOD = 1 << 30

    def __init__(self, start_us: int = (1 << 30) - 5_000_000) -> None:
        self.us = start_us  # near the wrap, so wrap-safe arithmetic is exercised

    def advance(self, ms: float = 0, us: int = 0) -> None:
        self.us += int(ms * 1000) + us

    def ticks_us(self) -> int:
        return self.us % self.PERIOD

    def ticks_ms(self) -> int:
        return (self.us // 1000) % self.PERIOD

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) % self.PERIOD

    def ticks_diff(self, later: int, earlier: int) -> int:
        half = self.PERIOD // 2
        return ((later - earlier + half) % self.PERIOD) - half


class Pin:
    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8

    def __init__(self, gpio: int) -> None:
        self.gpio = gpio
        self.mode: int | None = None
        self.pull: int | None = None
        self.level = 0
        self.history: list[float] = []
        self.handler: Callable[[Any], None] | None = None
        self.hard = False
        self.held: int | None = None  # a level the outside world holds (beats the pull-up)

    def value(self, level: Any = None) -> int:
        if level is None:
            return self.level
        self.set(1 if level else 0)
        return 0

    def set(self, level: float) -> None:
        self.level = 1 if level else 0
        self.history.append(level)

    def irq(self, handler: Callable[[Any], None], trigger: int = 0, hard: bool = False) -> None:
        self.handler, self.hard = handler, hard

    def drive(self, level: int) -> None:
        """An outside signal: the level changes and the edge interrupt runs."""
        self.held = level
        if level != self.level:
            self.level = level
            if self.handler is not None:
                self.handler(self)


class PWM:
    def __init__(self, pin: Pin) -> None:
        self.pin = pin
        self.hz = 0
        self.duty = 0

    def freq(self, hz: int) -> None:
        self.hz = hz

    def duty_u16(self, value: int) -> None:
        self.duty = value
        self.pin.set(value / 65535)


class WDT:
    def __init__(self, timeout: int = 2000) -> None:
        self.timeout = timeout
        self.fed = 0

    def feed(self) -> None:
        self.fed += 1


class _PinClass:
    IN, OUT = Pin.IN, Pin.OUT
    PULL_UP, PULL_DOWN = Pin.PULL_UP, Pin.PULL_DOWN
    IRQ_FALLING, IRQ_RISING = Pin.IRQ_FALLING, Pin.IRQ_RISING

    def __init__(self, machine: FakeMachine) -> None:
        self._machine = machine

    def __call__(
        self, gpio: int, mode: int = -1, pull: int | None = None, value: Any = None
    ) -> Pin:
        pin = self._machine.pins.setdefault(gpio, Pin(gpio))
        pin.mode = mode
        if pull is not None:
            pin.pull = pull
            if pull == Pin.PULL_UP and mode == Pin.IN:
                pin.level = 1 if pin.held is None else pin.held
        if value is not None:
            pin.set(1 if value else 0)
        return pin


class FakeMachine:
    """``machine``: one `Pin` object per GPIO, as on the chip."""

    def __init__(self) -> None:
        self.pins: dict[int, Pin] = {}
        self.Pin = _PinClass(self)
        self.irq_depth = 0
        self.pwms: dict[int, PWM] = {}

    def PWM(self, pin: Pin) -> PWM:  # the MicroPython name
        pwm = PWM(pin)
        self.pwms[pin.gpio] = pwm
        return pwm

    def disable_irq(self) -> int:
        self.irq_depth += 1
        return self.irq_depth

    def enable_irq(self, state: int) -> None:
        assert state == self.irq_depth, "critical sections must nest"
        self.irq_depth -= 1
