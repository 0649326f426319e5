"""The closed-loop ejector: run the feed motor until exactly n cards have crossed the beam.

`Ejector.run(n)` runs in the caller's thread (the thread that owns the game). Beam edges arrive
from gpiozero's callback thread through `on_beam(stamp, blocked)`, which only enqueues them with
the stamp the kernel gave them; `stop()` puts a marker on the same queue, so every wait ends at
once. Edges are judged on their stamps, never on when they arrive; the clock (the one that
stamps them) times the deadlines, the soft start, the log of duties and the brake and retract.
The motor is switched off in a ``finally`` on every path out of a run, exceptions and signals
included, and every run has a hard deadline: the time the motor is driven forward (a motor held
still, while a late edge is awaited, runs away from nothing), and three times that in all.

The ejector keeps a log of the duties it set (`wheel.DutyLog`), and knows the motor's dead
zone, lag and coast from the pin profile (measured by `calibrate`): a pulse is measured in
cards of wheel travel, so a slow last card, a deal or a motor that is still spinning up is not
mistaken for two cards, and a card that slows as the hopper fills moves the reference with it
(`pulses.CardReference`). The last card is fed at `last_card_speed`, and while it is fed the
beam's level is read every few ms: once it has read blocked and then clear, the motor holds
until the card's (late) edge has been judged, so the motor never runs on, feeding a card
nobody counts, while an edge waits for the GIL. The retract brakes first, then reverses.

A late counter never declares a fault. Jams and empty hoppers are judged in wheel travel, not
time (a motor held still moves no card), and a suspected one stops the motor and listens until
the edges on their way have arrived before it is declared (a false alarm runs on). A card that
crosses the beam as the run ends is real: until the forward motion ended every complete pulse
counts, at return if its edges came by then, else later as a `late_cards.Settlement` for the
settlement consumers.

Here is the run loop, the part that drives the motor, reads the beam and waits; what a run's
state means (the speed it wants, its verdicts) is `eject_run.Run`, and the finished runs that
still hear late edges are `late_cards.RunTails`.
"""

from __future__ import annotations

import collections
import logging
import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from controller.launcher.devices import FeedMotor
from controller.launcher.drivers import DRIVERS, levels
from controller.launcher.eject_run import LastCardWatch, Ramp, Run
from controller.launcher.late_cards import RunTail, RunTails, SettlementConsumer
from controller.launcher.pins import EjectorTuning
from controller.launcher.pulses import CardReference, PulseCounter, PulseWindow
from controller.launcher.wheel import DutyLog, Wheel

log = logging.getLogger(__name__)
Edge = tuple[float, bool]
LEVEL_POLL_S = 0.002  # how often the beam's level is read while an edge is due
SETTLE_MIN_S = 0.03  # real seconds a check listens for edges on their way, at least
SETTLE_MAX_S = 2.0  # ...and at most
MEASURING_SLACK = 4.0  # calibrate's runs: jams and timeouts this many times further away

StopReason = Literal["count", "jam", "empty", "timeout", "stopped"]
Clock = Callable[[], float]


def _nothing() -> None:
    """No one to tell that the motor started."""


@dataclass(frozen=True)
class EjectResult:
    """What came out and why the motor stopped.

    `pulse_ms` are the counted pulses' beam widths, `pulse_cards` their lengths in cards of
    wheel travel at the run speed (1.0 is one card; `calibrate` measures it), `card_at_ms` the
    times (since the motor started) at which each cleared the beam, `duties` the duties the
    run set, as (ms since the start, duty). `doubles` counts pulses that held overlapping
    cards: they are counted, and flagged, because a double at the end of a run means more cards
    came out than were asked for (so does a card the wheel fed as the run stopped).
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
    duties: tuple[tuple[float, float], ...] = ()

    @property
    def complete(self) -> bool:
        return self.reason == "count" and self.ejected == self.requested


@dataclass(frozen=True)
class _Stop:
    detail: str


class _EdgeLag:
    """How late edges reach the ejector's callback (seconds on the stamping clock): a maximum
    that forgets slowly. A check listens twice that long for edges still on their way. Updated
    from the callback thread; a lost update between threads only shortens one wait."""

    HALF_LIFE_S = 5.0

    def __init__(self) -> None:
        self.recent = 0.0
        self._at = time.monotonic()

    def saw(self, lag: float) -> None:
        now = time.monotonic()
        self.recent *= 0.5 ** ((now - self._at) / self.HALF_LIFE_S)
        self._at = now
        self.recent = max(self.recent, lag)

    def settle_s(self) -> float:
        return min(max(2 * self.recent, SETTLE_MIN_S), SETTLE_MAX_S)


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
        self._pending: list[Edge | _Stop] = []
        self._route = threading.Lock()  # who gets an edge: the running run, or a tail
        self._collecting_since: float | None = None
        self._lag = _EdgeLag()
        self._tails = RunTails(self._lag.settle_s)
        self._reference: CardReference | None = None
        self._gaps: collections.deque[float] = collections.deque(maxlen=24)
        self.one_card_ms_at_full = 0.0  # one card's pulse at full duty (0: from the wheel's size)
        self.measuring = False  # calibrate's runs: no doubles, jams and timeouts far away

    @property
    def wheel(self) -> Wheel:
        """The motor as the profile knows it (one card's time from `one_card_ms_at_full`)."""
        wheel = Wheel.of_motor(self.motor.config)
        if self.one_card_ms_at_full > 0:
            wheel = replace(wheel, card_s=self.one_card_ms_at_full / 1e3)
        return wheel

    def add_settlement_consumer(self, consumer: SettlementConsumer) -> None:
        """Receive a `Settlement` whenever a finished run's count changes (a card heard late),
        on a ``late-count`` timer thread: be quick."""
        self._tails.add_consumer(consumer)

    def on_beam(self, t: float, blocked: bool) -> None:
        """gpiozero callback: hand the stamped edge on, to the run or to a finished run's tail
        (it only queues, or advances that tail's counter and sets a timer to report it)."""
        self._lag.saw(max(self._clock() - t, 0.0))
        with self._route:
            since = self._collecting_since
            if since is not None and t >= since:
                self._queue.put((t, blocked))
                return
            self._tails.edge(t, blocked)

    def stop(self, detail: str = "stopped") -> None:
        """Abort the current run (from any thread); the motor is off when `run` returns."""
        self._queue.put(_Stop(detail))

    def run(
        self,
        cards: int,
        *,
        speed: float | None = None,
        started: Callable[[], None] = _nothing,
    ) -> EjectResult:
        """Eject exactly `cards` cards (or fewer, with the reason), then retract (not after a
        jam or a stop). `started` is called once, just after the motor is first driven
        forward."""
        if cards <= 0:
            return EjectResult(max(cards, 0), 0, "count")
        self._drain()
        speed = speed or self.tuning.speed
        wheel = self.wheel
        start = self._clock()
        pace = DutyLog(start, wheel)
        window = self._window(wheel)
        counter = PulseCounter(
            window, start, self._beam_blocked(), pace=pace, reference=self._card(window)
        )
        budget = self.tuning.deadline_ms(cards) / 1e3 * self._slack
        run = Run(cards, speed, start, budget, pace, counter, self.tuning, self._slack)
        with self._route:
            self._collecting_since = start
        try:
            try:
                reason, detail = self._feed(run, started)
            finally:
                self._off(pace)
            end = self._end_forward(reason, run)
            self._gather(run, end)
            with self._route:
                self._take(run, end)
                counter.finish_at(end)
                result = self._result(run, reason, detail)
                self._tails.add(RunTail(result, counter, end))
                self._collecting_since = None
        finally:
            with self._route:
                self._collecting_since = None
        self._gaps.extend(counter.gaps)
        self._log(result, counter, window)
        return result

    @property
    def _slack(self) -> float:
        return MEASURING_SLACK if self.measuring else 1.0

    def _window(self, wheel: Wheel) -> PulseWindow:
        slowest = min(wheel.steady(d) for d in self.tuning.running_speeds.values())
        card_ms = 0.0 if self.measuring else wheel.card_s * 1e3
        window = PulseWindow.of(self.tuning, card_ms, max(slowest, 0.01))
        return replace(window, max_travel=window.jam_travel * self._slack)

    def _card(self, window: PulseWindow) -> CardReference | None:
        """The single-card reference, kept from run to run (new when the calibration moved)."""
        if window.card <= 0:
            return None
        if self._reference is None or self._reference.nominal != window.card:
            self._reference = CardReference(window.card)
        return self._reference

    # --- the run ---

    def _feed(self, run: Run, started: Callable[[], None]) -> tuple[StopReason, str]:
        t = self.tuning
        ramp = Ramp(run.start, min(t.start_speed, run.speed), run.speed, t.soft_start_ms / 1e3)
        watch = LastCardWatch()
        counter = run.counter
        duty = -1.0
        while True:
            now = self._clock()  # the deadlines' clock; the edges carry their own stamps
            blocked_now = self._beam_blocked()  # the level now: edges may still be on the way
            stopped = self._take(run)  # (after the read: every edge that has come by then)
            if stopped is not None:
                return "stopped", stopped
            run.saw(now, blocked_now)
            counter.poll(now, blocked_now)
            verdict = run.verdict(now, blocked_now)
            if verdict is not None and verdict[0] in ("jam", "empty"):
                verdict = self._confirm(run, verdict)
                if verdict is None:  # the edges on their way showed cards: run on
                    duty = -1.0
                    continue
            if verdict is not None:
                return verdict
            ramp.advance(now)
            on_last = counter.count == run.cards - 1
            wanted = min(ramp.speed(), run.feeding_speed())  # the last card's is slower
            if on_last and watch.hold(counter, blocked_now, now, self._hold_s()):
                wanted = 0.0  # the last card has left: hold until its late edges are judged
            if wanted != duty:
                duty = self._set_speed(wanted, run.pace)
                if wanted > 0:
                    started()
                    started = _nothing
            wake = min(run.deadline, counter.next_change(), ramp.next_time(), run.due())
            if on_last or blocked_now != counter.beam_blocked or run.long_pulse(now):
                wake = now + LEVEL_POLL_S if wake <= now else min(wake, now + LEVEL_POLL_S)
            elif wake <= now:
                wake = now + LEVEL_POLL_S
            self._wait(wake - self._clock())  # or until an edge or stop() arrives

    def _hold_s(self) -> float:
        return self._lag.settle_s()

    def _confirm(
        self, run: Run, suspected: tuple[StopReason, str]
    ) -> tuple[StopReason, str] | None:
        """A jam or an empty hopper is suspected: stop the motor (a card in the beam now is no
        jam, and no more cards come while we listen) and listen until the wheel is still and
        the edges on their way have come: for a while, and for as long (up to `SETTLE_MAX_S`
        more) as the level read says some are still coming (`Run.refuted`). Then judge again
        on everything heard. None: it was a late counter, not a fault."""
        self._off(run.pace)
        counter = run.counter
        still_at = run.pace.still_at()
        quiet_at = time.monotonic() + self._lag.settle_s()
        give_up = quiet_at + SETTLE_MAX_S
        while True:
            now, level = self._clock(), self._beam_blocked()
            stopped = self._take(run)
            if stopped is not None:
                return "stopped", stopped
            counter.poll(now, level)
            if counter.count >= run.cards:
                return "count", ""
            waited = time.monotonic()
            heard = waited >= quiet_at and now >= still_at and counter.beam_blocked == level
            if (heard and not run.refuted(suspected[0])) or waited >= give_up:
                break
            self._wait(LEVEL_POLL_S)
        again = replace(run, budget=math.inf).verdict(now, level)
        if again is not None and again[0] == suspected[0]:
            return again
        log.info("suspected %s was edges on their way: the run goes on", suspected[0])
        return None

    def _take(self, run: Run, end: float = math.inf) -> str | None:
        """Feed the queued edges stamped up to `end` to the run's counter; a clear edge after
        `end` (the wheel going backward) pulls the card in the beam back. The detail of a
        stop() among them, if any."""
        stopped = None
        for item in self._take_all():
            if isinstance(item, _Stop):
                stopped = stopped or item.detail
                continue
            t, blocked = item
            if t <= end:
                run.counter.edge(t, blocked)
            elif not blocked:
                run.counter.abandon()
        return stopped

    def _set_speed(self, duty: float, pace: DutyLog) -> float:
        before = self._clock()
        self.motor.forward(duty)
        after = self._clock()
        running = max(self.motor.value, 0.0)  # forward(0) leaves the lines as stop() does
        pace.set((before + after) / 2, running, free=running == 0 and not self._stop_brakes)
        return duty

    def _off(self, pace: DutyLog) -> None:
        before = self._clock()
        self.motor.stop()
        after = self._clock()
        pace.set((before + after) / 2, 0.0, free=not self._stop_brakes)

    @property
    def _stop_brakes(self) -> bool:
        """Whether the driver's off is its brake (PHASE/ENABLE: enable low)."""
        kind = DRIVERS[self.motor.config.driver]
        return kind.can_reverse and not any(levels(kind.brake, 0.0).values())

    # --- after the motor stopped ---

    def _end_forward(self, reason: StopReason, run: Run) -> float:
        """Retract if the run calls for it; the moment the wheel stopped moving cards forward
        (the reverse began, or it coasted to a stop)."""
        if reason in ("count", "empty", "timeout") and self._can_retract:
            return self._retract(run.pace)
        off = run.pace.last_change
        if reason == "jam":
            return off  # the stuck card is not out, whatever a person does with it now
        coast = run.pace.still_at() - off
        return off + 1.5 * coast + self.tuning.min_gap_ms / 1e3  # a real coast may run longer

    @property
    def _can_retract(self) -> bool:
        return self.motor.can_reverse and self.tuning.retract_ms > 0

    def _retract(self, pace: DutyLog) -> float:
        """Brake, then a short reverse pulse pulls a half-fed card back behind the beam."""
        try:
            self.motor.brake()
            pace.set(self._clock(), 0.0)
            if not self._hold(self.tuning.brake_ms / 1e3):
                return self._clock()
            self.motor.stop()
            reverse = self._clock()
            self.motor.backward(self.tuning.retract_speed)
            pace.set(reverse, -self.tuning.retract_speed)
            self._hold(self.tuning.retract_ms / 1e3)
            return reverse
        finally:
            self.motor.stop()
            pace.set(self._clock(), 0.0, free=not self._stop_brakes)

    def _gather(self, run: Run, end: float) -> None:
        """Wait for this run's edges still on their way, while there is reason to think some
        are: the edges and the level disagree, or the wheel moved far enough after the last
        card for another to cross. What comes later is a late count."""
        listen_until: float | None = None
        while True:
            now, level = self._clock(), self._beam_blocked()
            self._take(run, end)
            run.counter.poll(now, level)
            if not run.maybe_on_the_way(end, level, self._gaps):
                return
            waited = time.monotonic()
            if listen_until is None:
                listen_until = waited + self._lag.settle_s()
            if waited >= listen_until:
                return
            self._wait(LEVEL_POLL_S)

    # --- the result ---

    def _result(self, run: Run, reason: StopReason, detail: str) -> EjectResult:
        counter, start = run.counter, run.start
        card = counter.window.card or 1.0
        return EjectResult(
            run.cards,
            counter.count,
            reason,
            self._clock() - start,
            pulse_ms=tuple(round(w * 1e3, 3) for w in counter.widths),
            card_at_ms=tuple(round((t - start) * 1e3, 3) for t in counter.card_times),
            pulse_cards=tuple(round(n / card, 3) for n in counter.lengths),
            noise=counter.noise,
            doubles=counter.doubles,
            detail=detail,
            duties=tuple((round((t - start) * 1e3, 3), round(d, 4)) for t, d in run.pace.changes()),
        )

    def _log(self, result: EjectResult, counter: PulseCounter, window: PulseWindow) -> None:
        log.info(
            "eject %d: %d counted (%s, %d doubles, %d noise), pulses %s ms, %s cards",
            result.requested,
            result.ejected,
            result.reason,
            result.doubles,
            result.noise,
            [round(w * 1e3, 1) for w in counter.widths],
            list(result.pulse_cards),
        )

    # --- waiting ---

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
