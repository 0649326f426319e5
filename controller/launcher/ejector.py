"""The closed-loop ejector: run the feed motor until exactly n cards have crossed the beam.

`Ejector.run(n)` runs in the caller's thread (the thread that owns the game). Beam edges arrive
from gpiozero's callback thread through `on_beam()`, which only stamps and enqueues them; `stop()`
puts a marker on the same queue, so every wait ends at once. The motor is switched off in a
``finally`` on every path out of a run, exceptions and signals included, and every run has a
hard deadline.
"""

from __future__ import annotations

import math
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from controller.launcher.devices import FeedMotor
from controller.launcher.pins import EjectorTuning
from controller.launcher.pulses import PulseCounter, PulseWindow

StopReason = Literal["count", "jam", "empty", "timeout", "stopped"]
Clock = Callable[[], float]


@dataclass(frozen=True)
class EjectResult:
    """What came out and why the motor stopped.

    `pulse_ms` are the counted cards' beam pulse widths and `card_at_ms` the times (since the
    motor started) at which each card cleared the beam; `calibrate` derives its tuning from them.
    `reason`: ``count`` (all requested cards counted), ``jam`` (beam blocked too long, or beam
    activity but no card in time), ``empty`` (the motor ran and nothing crossed the beam),
    ``timeout`` (the hard deadline), ``stopped`` (`stop()` or shutdown).
    """

    requested: int
    ejected: int
    reason: StopReason
    seconds: float = 0.0
    pulse_ms: tuple[float, ...] = ()
    card_at_ms: tuple[float, ...] = ()
    noise: int = 0
    detail: str = ""

    @property
    def complete(self) -> bool:
        return self.reason == "count" and self.ejected == self.requested


@dataclass(frozen=True)
class _Stop:
    detail: str


class _Ramp:
    """Soft start: speed rises linearly from `low` to `high` over `duration`, in steps."""

    STEPS = 8

    def __init__(self, start: float, low: float, high: float, duration: float) -> None:
        self.start, self.low, self.high, self.duration = start, low, high, duration
        self.step = 0 if duration > 0 else self.STEPS

    def speed(self) -> float:
        return self.low + (self.high - self.low) * self.step / self.STEPS

    def next_time(self) -> float:
        if self.step >= self.STEPS:
            return math.inf
        return self.start + self.duration * (self.step + 1) / self.STEPS

    def advance(self, now: float) -> bool:
        """Move to the step due at `now`; True when the speed changed."""
        before = self.step
        while self.step < self.STEPS and now >= self.next_time():
            self.step += 1
        return self.step != before


class Ejector:
    """Runs the feed motor against the beam. One run at a time, in the owner thread."""

    def __init__(
        self,
        motor: FeedMotor,
        tuning: EjectorTuning,
        *,
        beam_blocked: Callable[[], bool],
        clock: Clock = time.monotonic,
    ) -> None:
        self.motor = motor
        self.tuning = tuning
        self._beam_blocked = beam_blocked
        self._clock = clock
        self._queue: queue.SimpleQueue[tuple[float, bool] | _Stop] = queue.SimpleQueue()
        self._collecting = False
        self._pending: list[tuple[float, bool] | _Stop] = []

    def on_beam(self, blocked: bool) -> None:
        """gpiozero callback: stamp the edge and hand it on (only while a run is collecting)."""
        if self._collecting:
            self._queue.put((self._clock(), blocked))

    def stop(self, detail: str = "stopped") -> None:
        """Abort the current run (from any thread); the motor is off when `run` returns."""
        self._queue.put(_Stop(detail))

    def run(self, cards: int, *, speed: float | None = None) -> EjectResult:
        """Eject exactly `cards` cards (or fewer, with the reason), then retract."""
        if cards <= 0:
            return EjectResult(max(cards, 0), 0, "count")
        self._drain()
        self._collecting = True
        try:
            start = self._clock()
            counter = PulseCounter(PulseWindow.of(self.tuning), start, self._beam_blocked())
            reason, detail = self._feed(cards, counter, start, speed or self.tuning.speed)
        finally:
            self.motor.stop()
            self._collecting = False
        seconds = self._clock() - start
        if reason in ("count", "empty", "timeout"):
            self._retract()
        return EjectResult(
            cards,
            counter.count,
            reason,
            seconds,
            pulse_ms=tuple(round(w * 1e3, 3) for w in counter.widths),
            card_at_ms=tuple(round((t - start) * 1e3, 3) for t in counter.card_times),
            noise=counter.noise,
            detail=detail,
        )

    def _feed(
        self, cards: int, counter: PulseCounter, start: float, speed: float
    ) -> tuple[StopReason, str]:
        t = self.tuning
        deadline = start + t.deadline_ms(cards) / 1e3
        ramp = _Ramp(start, min(t.start_speed, speed), speed, t.soft_start_ms / 1e3)
        self.motor.forward(ramp.speed())
        while True:
            now = self._clock()  # read first: every edge stamped before it is now queued
            for item in self._take_all():
                if isinstance(item, _Stop):
                    return "stopped", item.detail
                counter.edge(*item)
            counter.poll(now)
            verdict = self._verdict(cards, counter, now, start, deadline)
            if verdict is not None:
                return verdict
            if ramp.advance(now):
                self.motor.forward(ramp.speed())
            due = self._card_due(counter, start)
            wake = min(deadline, counter.next_change(), ramp.next_time(), due)
            self._wait(wake - self._clock())

    def _verdict(
        self, cards: int, counter: PulseCounter, now: float, start: float, deadline: float
    ) -> tuple[StopReason, str] | None:
        if counter.count >= cards:
            return "count", ""
        if counter.jammed(now):
            return "jam", f"beam blocked for more than {self.tuning.max_pulse_ms:g} ms"
        if now >= deadline:
            return "timeout", f"hard deadline of {self.tuning.deadline_ms(cards):g} ms reached"
        if counter.idle and now >= self._card_due(counter, start):
            if counter.activity:
                return "jam", "the beam saw movement but no complete card"
            waited = "first card" if counter.count == 0 else "next card"
            return "empty", f"no {waited} crossed the beam"
        return None

    def _card_due(self, counter: PulseCounter, start: float) -> float:
        if not counter.idle:
            return math.inf
        if counter.last_card is None:
            return start + self.tuning.first_card_timeout_ms / 1e3
        return counter.last_card + self.tuning.card_gap_timeout_ms / 1e3

    def _retract(self) -> None:
        """A short reverse pulse pulls a half-fed card back behind the beam."""
        if not self.motor.can_reverse or self.tuning.retract_ms <= 0:
            return
        try:
            self.motor.backward(self.tuning.retract_speed)
            end = self._clock() + self.tuning.retract_ms / 1e3
            while (left := end - self._clock()) > 0:
                if any(isinstance(i, _Stop) for i in self._wait(left)):
                    return
        finally:
            self.motor.stop()

    def _wait(self, timeout: float) -> list[tuple[float, bool] | _Stop]:
        """Block until an item arrives or `timeout` passes; the item is put back for the loop."""
        try:
            item = self._queue.get(timeout=max(timeout, 0.0)) if timeout > 0 else None
        except queue.Empty:
            return []
        if item is None:
            return []
        self._pending.append(item)
        return [item]

    def _take_all(self) -> list[tuple[float, bool] | _Stop]:
        items, self._pending = self._pending, []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items

    def _drain(self) -> None:
        self._take_all()
