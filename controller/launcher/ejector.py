"""The closed-loop ejector: run the feed motor until exactly n cards have crossed the beam.

`Ejector.run(n)` runs in the caller's thread (the thread that owns the game). Beam edges arrive
from gpiozero's callback thread through `on_beam(stamp, blocked)`, which only enqueues them with
the stamp the kernel gave them; `stop()` puts a marker on the same queue, so every wait ends at
once. Edges are judged on their stamps, never on when they arrive; the clock (the one that
stamps them) times the deadlines, the soft start, the log of duties and the brake and retract.
The motor is switched off in a ``finally`` on every path out of a run, exceptions and signals
included, and every run has a hard deadline.

The ejector keeps a log of the duties it set (`_Pace`), so a pulse is measured in wheel travel
and a slow last card or a deal is not mistaken for two cards. The last card is fed at
`last_card_speed`, and while it is fed the beam's level is read every few ms: once it has read
blocked and then clear, the motor holds until the card's (late) edge has been judged, so the
motor never runs on, feeding a card nobody counts, while an edge waits for the GIL. The retract
brakes first, then reverses.
"""

from __future__ import annotations

import logging
import math
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from controller.launcher.devices import FeedMotor
from controller.launcher.pins import EjectorTuning
from controller.launcher.pulses import PulseCounter, PulseWindow

log = logging.getLogger(__name__)
Edge = tuple[float, bool]
LEVEL_POLL_S = 0.002  # how often the beam's level is read while an edge is due

StopReason = Literal["count", "jam", "empty", "timeout", "stopped"]
Clock = Callable[[], float]


@dataclass(frozen=True)
class EjectResult:
    """What came out and why the motor stopped.

    `pulse_ms` are the counted pulses' beam widths, `pulse_cards` their lengths in cards of
    wheel travel at the run speed (1.0 is one card; `calibrate` measures it), `card_at_ms` the
    times (since the motor started) at which each cleared the beam. `doubles` counts pulses
    that held overlapping cards: they are counted, and flagged, because a double at the end of a
    run means more cards came out than were asked for.
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
    pulse_cards: tuple[float, ...] = ()
    noise: int = 0
    doubles: int = 0
    detail: str = ""

    @property
    def complete(self) -> bool:
        return self.reason == "count" and self.ejected == self.requested


@dataclass(frozen=True)
class _Stop:
    detail: str


class _Pace:
    """The forward duty the ejector set, over time: wheel travel between two stamps."""

    def __init__(self, start: float) -> None:
        self._log: list[tuple[float, float]] = [(start, 0.0)]

    def set(self, t: float, duty: float) -> None:
        self._log.append((t, duty))

    def __call__(self, t0: float, t1: float) -> float:
        travel = 0.0
        for i, (since, duty) in enumerate(self._log):
            until = self._log[i + 1][0] if i + 1 < len(self._log) else math.inf
            overlap = min(t1, until) - max(t0, since)
            if overlap > 0:
                travel += overlap * duty
        return travel


class _LastCardWatch:
    """The beam's level while the last card is fed. Once the level has read blocked and then
    clear, that card has left: the motor holds until the counter has judged the card's (late)
    edges, so it never feeds one more card while they wait for the GIL; at most `HOLD_S`."""

    HOLD_S = 0.5

    def __init__(self) -> None:
        self.blocked_at: float | None = None
        self.clear_at: float | None = None
        self._judged_before: float | None = None

    def hold(self, counter: PulseCounter, blocked_now: bool, now: float) -> bool:
        if blocked_now:
            if self.blocked_at is None:
                self.blocked_at, self._judged_before = now, counter.last_end
            self.clear_at = None
            return False
        if counter.beam_blocked:
            return True  # the edges say blocked, the level says clear: the clear edge is late
        if self.blocked_at is None:
            return False
        judged = counter.idle and counter.last_end != self._judged_before
        self.clear_at = self.clear_at if self.clear_at is not None else now
        if judged or now - self.clear_at > self.HOLD_S:
            self.blocked_at = self.clear_at = None
            return False
        return True


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
        self._queue: queue.SimpleQueue[Edge | _Stop] = queue.SimpleQueue()
        self._collecting = False
        self._pending: list[Edge | _Stop] = []
        self.one_card_ms_at_full = 0.0  # one card's pulse at duty 1 (0: no double detection)

    def on_beam(self, t: float, blocked: bool) -> None:
        """gpiozero callback: hand the stamped edge on (only while a run is collecting)."""
        if self._collecting:
            self._queue.put((t, blocked))

    def stop(self, detail: str = "stopped") -> None:
        """Abort the current run (from any thread); the motor is off when `run` returns."""
        self._queue.put(_Stop(detail))

    def run(self, cards: int, *, speed: float | None = None) -> EjectResult:
        """Eject exactly `cards` cards (or fewer, with the reason), then retract (not after a
        jam or a stop)."""
        if cards <= 0:
            return EjectResult(max(cards, 0), 0, "count")
        self._drain()
        self._collecting = True
        speed = speed or self.tuning.speed
        try:
            start = self._clock()
            pace = _Pace(start)
            window = PulseWindow.of(self.tuning, self.one_card_ms_at_full)
            counter = PulseCounter(window, start, self._beam_blocked(), pace=pace)
            reason, detail = self._feed(cards, counter, start, speed, pace)
        finally:
            self.motor.stop()
            self._collecting = False
        seconds = self._clock() - start
        if reason in ("count", "empty", "timeout"):
            self._retract()
        card = window.card or 1.0
        log.info(
            "eject %d: %d counted (%s, %d doubles, %d noise), pulses %s ms, %s cards",
            cards,
            counter.count,
            reason,
            counter.doubles,
            counter.noise,
            [round(w * 1e3, 1) for w in counter.widths],
            [round(n / card, 2) for n in counter.lengths],
        )
        return EjectResult(
            cards,
            counter.count,
            reason,
            seconds,
            pulse_ms=tuple(round(w * 1e3, 3) for w in counter.widths),
            card_at_ms=tuple(round((t - start) * 1e3, 3) for t in counter.card_times),
            pulse_cards=tuple(round(n / card, 3) for n in counter.lengths),
            noise=counter.noise,
            doubles=counter.doubles,
            detail=detail,
        )

    def _feed(
        self, cards: int, counter: PulseCounter, start: float, speed: float, pace: _Pace
    ) -> tuple[StopReason, str]:
        t = self.tuning
        deadline = start + t.deadline_ms(cards) / 1e3
        ramp = _Ramp(start, min(t.start_speed, speed), speed, t.soft_start_ms / 1e3)
        last = min(speed, t.last_card_speed)
        watch = _LastCardWatch()
        duty = -1.0
        while True:
            now = self._clock()  # the deadlines' clock; the edges carry their own stamps
            for item in self._take_all():
                if isinstance(item, _Stop):
                    return "stopped", item.detail
                counter.edge(*item)
            blocked_now = self._beam_blocked()  # the level now: edges may still be on the way
            counter.poll(now, blocked_now)
            verdict = self._verdict(cards, counter, now, start, deadline, blocked_now)
            if verdict is not None:
                return verdict
            ramp.advance(now)
            on_last = counter.count == cards - 1
            wanted = min(ramp.speed(), last) if on_last else ramp.speed()
            if on_last and watch.hold(counter, blocked_now, now):
                wanted = 0.0  # the last card has left: hold until its late edges are judged
            if wanted != duty:
                duty = self._set_speed(wanted, pace)
            wake = min(deadline, counter.next_change(), ramp.next_time())
            wake = min(wake, self._card_due(counter, start))
            if on_last or blocked_now != counter.beam_blocked or wake <= now:
                wake = now + LEVEL_POLL_S if wake <= now else min(wake, now + LEVEL_POLL_S)
            self._wait(wake - self._clock())  # or until an edge or stop() arrives

    def _set_speed(self, duty: float, pace: _Pace) -> float:
        self.motor.forward(duty)
        pace.set(self._clock(), min(duty, self.motor.config.max_duty))
        return duty

    def _verdict(
        self,
        cards: int,
        counter: PulseCounter,
        now: float,
        start: float,
        deadline: float,
        blocked_now: bool,
    ) -> tuple[StopReason, str] | None:
        if counter.count >= cards:
            return "count", ""
        if counter.jammed(now, blocked_now):
            return "jam", f"beam blocked for more than {self.tuning.max_pulse_ms:g} ms"
        if now >= deadline:
            return "timeout", f"hard deadline of {self.tuning.deadline_ms(cards):g} ms reached"
        if counter.idle and not blocked_now and now >= self._card_due(counter, start):
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
        """Brake, then a short reverse pulse pulls a half-fed card back behind the beam."""
        if not self.motor.can_reverse or self.tuning.retract_ms <= 0:
            return
        try:
            self.motor.brake()
            if not self._hold(self.tuning.brake_ms / 1e3):
                return
            self.motor.stop()
            self.motor.backward(self.tuning.retract_speed)
            self._hold(self.tuning.retract_ms / 1e3)
        finally:
            self.motor.stop()

    def _hold(self, seconds: float) -> bool:
        """Wait `seconds` unless `stop()` is called (False then)."""
        end = self._clock() + seconds
        while (left := end - self._clock()) > 0:
            if any(isinstance(i, _Stop) for i in self._wait(left)):
                return False
        return True

    def _wait(self, timeout: float) -> list[Edge | _Stop]:
        """Block until an item arrives or `timeout` passes; the item is put back for the loop."""
        try:
            item = self._queue.get(timeout=max(timeout, 0.0)) if timeout > 0 else None
        except queue.Empty:
            return []
        if item is None:
            return []
        self._pending.append(item)
        return [item]

    def _take_all(self) -> list[Edge | _Stop]:
        items, self._pending = self._pending, []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items

    def _drain(self) -> None:
        self._take_all()
