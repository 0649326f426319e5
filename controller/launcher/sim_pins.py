"""The simulated launcher's pins: mock pins it watches (the motor driver's inputs) and drives
(the beam, the button, the lid), and the courier that delivers their edges late.

Every edge carries its true stamp (the moment the card crossed, the button closed), as lgpio's
kernel stamps do. Without a courier the callback runs at once, in the thread that moved the
machine; with one (`EdgeDelay`) it runs on the courier's thread after a random delay, in order,
so one long delay holds back the edges behind it and they arrive together, as on a busy Pi.
"""

from __future__ import annotations

import collections
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero.pins.mock import MockPin, MockPWMPin

Clock = Callable[[], float]
SPIKE = 1e-6  # seconds: a spike of motor noise on an input


@dataclass(frozen=True)
class EdgeDelay:
    """How late edges reach the Python callbacks: a log-normal delay with this median and
    99th percentile (ms), as measured on a 2-core machine with one busy Python thread, cut at
    `max_ms` (a callback held back longer is a process that stalled as a whole: its other
    threads would stall with it, which this model does not do). Edges keep their order (one
    callback thread), so one long delay makes a burst of the edges behind it."""

    median_ms: float = 5.0
    p99_ms: float = 100.0
    max_ms: float = 400.0  # longer means the whole process stalled, its owner thread too

    def __post_init__(self) -> None:
        if not 0 < self.median_ms <= self.p99_ms <= self.max_ms:
            raise ValueError("edge delay: need 0 < median_ms <= p99_ms <= max_ms")

    def draw(self, rng: random.Random) -> float:
        """One delay in seconds (log-normal, cut at `max_ms`)."""
        sigma = math.log(self.p99_ms / self.median_ms) / 2.3263
        delay = rng.lognormvariate(math.log(self.median_ms / 1e3), sigma)
        return min(delay, self.max_ms / 1e3)


class WatchedPWMPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """A mock PWM pin that tells the simulator when the controller changes it."""

    listener: Callable[[], None] | None = None

    def _change_state(self, value: Any) -> bool:
        changed = bool(super()._change_state(value))
        if changed and self.listener is not None:
            self.listener()
        return changed


class Courier:
    """The callback thread of a busy Pi: delivers stamped edges late, in order, in bursts.

    Its delays are real time (an interpreter's), whatever clock stamps the edges.
    """

    def __init__(self, delay: EdgeDelay, rng: random.Random) -> None:
        self._delay, self._rng, self._clock = delay, rng, time.monotonic
        self._items: collections.deque[tuple[float, DrivenPin, float, Any]] = collections.deque()
        self._ready = threading.Condition()
        self._last_due = 0.0
        self._closed = False
        self.delays: list[float] = []  # how late each callback ran, seconds (for benchmarks)
        self._thread = threading.Thread(target=self._run, name="sim-edges", daemon=True)
        self._thread.start()

    def send(self, pin: DrivenPin, stamp: float, state: Any) -> None:
        with self._ready:
            # the delay runs from the edge's stamp: one stamped in the past is due that much sooner
            happened = self._clock() - pin.lag(stamp)
            due = max(happened + self._delay.draw(self._rng), self._last_due)
            self._last_due = due
            self._items.append((due, pin, stamp, state))
            self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._closed and not self._due_now():
                    head = self._items[0][0] - self._clock() if self._items else None
                    self._ready.wait(head)
                if self._closed:
                    return
                now = self._clock()
                batch = []
                while self._items and self._items[0][0] <= now:
                    batch.append(self._items.popleft())
            for _, pin, stamp, state in batch:
                self.delays.append(pin.lag(stamp))
                pin.deliver(stamp, state)

    def wait_delivered(self, timeout: float) -> bool:
        """Wait (real time) until every edge sent so far has been delivered."""
        deadline = time.monotonic() + timeout
        with self._ready:
            while self._items and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._ready.wait(min(left, 0.01))
        return True

    def _due_now(self) -> bool:
        return bool(self._items) and self._items[0][0] <= self._clock()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)


class DrivenPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """An input the simulated machine holds at a level: a closed switch beats the pull-up.

    Each edge is stamped when it happens (or with the stamp the machine gives it) and reaches
    the callback at once, or through the courier, late. A read first brings the machine up to
    the moment of the read (`catch_up`), as a real pin reads the level *now*.
    """

    held: bool | None = None
    clock: Clock = time.monotonic
    courier: Courier | None = None
    catch_up: Callable[[], object] | None = None  # brings the machine up to now before a read
    held_back: list[tuple[float, Any]] | None = None  # edges kept from the callbacks for now
    _stamp: float | None = None

    def _get_state(self) -> Any:
        if self.catch_up is not None:
            self.catch_up()
        return super()._get_state()

    def hold(self, high: bool, at: float | None = None) -> None:
        self.held = high
        self.drive(high, at)

    def drive(self, high: bool, at: float | None = None) -> None:
        self._stamp = at
        try:
            self.drive_high() if high else self.drive_low()
        finally:
            self._stamp = None

    def _call_when_changed(self, ticks: Any = None, state: Any = None) -> None:
        self._send(self.clock() if self._stamp is None else self._stamp, self._state)

    def spike(self, at: float) -> None:
        """A spike of a microsecond at `at`: two edges, and a level no read can catch changed."""
        level = self._state
        for state, t in ((not level, at), (level, at + SPIKE)):
            self._send(t, state)

    def _send(self, stamp: float, state: Any) -> None:
        if self.held_back is not None:
            self.held_back.append((stamp, state))
        elif self.courier is None:
            self.deliver(stamp, state)
        else:
            self.courier.send(self, stamp, state)

    def release(self) -> None:
        """Send on every edge held back, in order (at once: in this thread)."""
        held, self.held_back = self.held_back or [], None
        for stamp, state in held:
            self._send(stamp, state)

    def lag(self, stamp: float) -> float:
        """How long ago `stamp` was, on the stamping clock."""
        return max(0.0, self.clock() - stamp)

    def deliver(self, stamp: float, state: Any) -> None:
        if self._when_changed is not None:
            super(MockPin, self)._call_when_changed(stamp, state)

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.held is not None:
            self.drive(self.held)
