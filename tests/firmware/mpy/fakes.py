"""A fake ``machine`` and ``time`` for the firmware on MicroPython's own VM (the unix port).

Allocation-free where the firmware's interrupt handlers reach it: pins keep their history in a
preallocated ring, and `Pin.drive` runs the handler with the heap locked
(``micropython.heap_lock()``), as a hard IRQ on the Pico must run: a handler that allocates
raises MemoryError here, as it would crash the board there. Virtual time moves only when a test
says so, and wraps at 2**30 like the Pico's ticks.
"""

from array import array

import micropython

HISTORY = 4096  # levels kept per pin (a ring)


class FakeTime:
    PERIOD = 1 << 30

    def __init__(self, start_us=(1 << 30) - 5_000_000):
        self.us = start_us  # near the wrap, so wrap-safe arithmetic is exercised

    def advance(self, ms=0, us=0):
        self.us += int(ms * 1000) + us

    def ticks_us(self):
        return self.us % self.PERIOD

    def ticks_ms(self):
        return (self.us // 1000) % self.PERIOD

    def ticks_add(self, ticks, delta):
        return (ticks + delta) % self.PERIOD

    def ticks_diff(self, later, earlier):
        half = self.PERIOD // 2
        return ((later - earlier + half) % self.PERIOD) - half


class Pin:
    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8

    def __init__(self, gpio):
        self.gpio = gpio
        self.mode = None
        self.pull = None
        self.level = 0
        self.duty = 0  # 0..65535: what the line carries (a digital 1 is 65535)
        self._ring = array("i", [0] * HISTORY)
        self.changes = 0
        self.handler = None
        self.hard = False
        self.held = None  # a level the outside world holds (beats the pull-up)

    def value(self, level=None):
        if level is None:
            return self.level
        self.set(65535 if level else 0)
        return 0

    def set(self, duty):
        """The firmware drives the line (allocation-free: the beam's interrupt may stop the
        motor)."""
        self.duty = duty
        self.level = 1 if duty else 0
        self._ring[self.changes % HISTORY] = duty
        self.changes += 1

    def history(self):
        """Every duty driven, oldest first (the last `HISTORY`)."""
        start = max(0, self.changes - HISTORY)
        return [self._ring[i % HISTORY] for i in range(start, self.changes)]

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler, self.hard = handler, hard

    def drive(self, level):
        """An outside signal: the level changes and the edge interrupt runs, heap locked."""
        self.held = level
        if level == self.level:
            return
        self.level = level
        if self.handler is not None:
            micropython.heap_lock()
            try:
                self.handler(self)
            finally:
                micropython.heap_unlock()


class PWM:
    def __init__(self, pin):
        self.pin = pin
        self.hz = 0

    def freq(self, hz=None):
        if hz is not None:
            self.hz = hz
        return self.hz

    def duty_u16(self, value=None):
        if value is None:
            return self.pin.duty
        self.pin.set(value)
        return value


class WDT:
    def __init__(self, timeout=2000):
        self.timeout = timeout
        self.fed = 0

    def feed(self):
        self.fed += 1


class _PinClass:
    IN, OUT = Pin.IN, Pin.OUT
    PULL_UP, PULL_DOWN = Pin.PULL_UP, Pin.PULL_DOWN
    IRQ_FALLING, IRQ_RISING = Pin.IRQ_FALLING, Pin.IRQ_RISING

    def __init__(self, machine):
        self._machine = machine

    def __call__(self, gpio, mode=-1, pull=None, value=None):
        pins = self._machine.pins
        if gpio not in pins:
            pins[gpio] = Pin(gpio)
        pin = pins[gpio]
        pin.mode = mode
        if pull is not None:
            pin.pull = pull
            if pull == Pin.PULL_UP and mode == Pin.IN:
                pin.level = 1 if pin.held is None else pin.held
        if value is not None:
            pin.set(65535 if value else 0)
        return pin


class FakeMachine:
    """``machine``: one `Pin` per GPIO, PWMs, critical sections that must nest."""

    def __init__(self):
        self.pins = {}
        self.Pin = _PinClass(self)
        self.irq_depth = 0
        self.pwms = {}

    def PWM(self, pin):  # the MicroPython name
        pwm = PWM(pin)
        self.pwms[pin.gpio] = pwm
        return pwm

    def disable_irq(self):
        self.irq_depth += 1
        return self.irq_depth

    def enable_irq(self, state):
        assert state == self.irq_depth, "critical sections must nest"
        self.irq_depth -= 1
