"""``EJECT n`` on the board: run the motor until n cards have crossed the beam, then retract.

The same closed loop as the Pi's ``controller/launcher/ejector.py``, in integers: soft start in
eight steps, then stop on ``count`` (all cards counted), ``jam`` (beam blocked too long, or beam
activity but no card in time), ``empty`` (no card crossed the beam in time), ``timeout`` (the
run's deadline: the host's, capped by the board's own `max_run_ms`) or ``stopped`` (STOP, SAFE,
the lid, host silence, an error). After count/empty/timeout the motor brakes for `brake_ms`
(never straight from forward into reverse), then a short reverse pulse pulls a half-fed card
back. `step()` is called from the main loop and returns the events to send.

Every run's outcome is kept in `history` (the last `HISTORY` jobs), so a host that lost the link
mid-run asks for its job by id afterwards. `persist` writes the run's start and end where a
watchdog reset cannot erase them, and the beam's interrupt writes each card (`progress`).
"""

try:
    from typing import Any

    Event = tuple[str, list[str]]  # an event to send: ("CARD" | "DONE", arguments)
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

IDLE, RUNNING, RETRACTING, BRAKING = 0, 1, 2, 3
PHASES = ("idle", "running", "retracting", "braking")
STEPS = 8
HISTORY = 8  # finished jobs remembered for STATUS job=<id>


class Tuning:
    """The ejector's numbers, set by the host with ``TUNE`` (times in ms or us, speeds per
    mille). `LIMITS` bounds every key; an unknown key or a value out of bounds is refused."""

    LIMITS: dict[str, tuple[int, int]] = {  # noqa: RUF012  (read-only; no ClassVar on the Pico)
        "speed": (1, 1000),
        "start_speed": (0, 1000),
        "soft_start_ms": (0, 60000),
        "min_pulse_us": (1, 60000000),
        "max_pulse_us": (1, 60000000),
        "min_gap_us": (0, 60000000),
        "first_card_ms": (1, 60000),
        "card_gap_ms": (1, 60000),
        "retract_ms": (0, 2000),
        "retract_speed": (0, 1000),
        "max_run_ms": (1, 30000),
        "debounce_ms": (0, 500),
        "brake_ms": (0, 1000),  # the pin profile allows up to 1000 ms
        "max_duty": (1, 1000),
    }

    def __init__(self) -> None:
        self.speed = 800
        self.start_speed = 400
        self.soft_start_ms = 120
        self.min_pulse_us = 4000
        self.max_pulse_us = 400000
        self.min_gap_us = 10000
        self.first_card_ms = 1500
        self.card_gap_ms = 800
        self.retract_ms = 100
        self.retract_speed = 600
        self.max_run_ms = 10000
        self.debounce_ms = 5
        self.brake_ms = 30
        self.max_duty = 1000

    def set(self, key: str, text: str) -> None:
        """Set one value from its text; raises ValueError naming the key."""
        if key not in self.LIMITS:
            raise ValueError("unknown key " + key)
        low, high = self.LIMITS[key]
        try:
            value = int(text)
        except ValueError:
            raise ValueError(key + " must be an integer") from None
        if not low <= value <= high:
            raise ValueError("%s must be %d..%d" % (key, low, high))
        setattr(self, key, value)

    def check(self) -> None:
        if self.max_pulse_us <= self.min_pulse_us:
            raise ValueError("max_pulse_us must be > min_pulse_us")


class Ejector:
    """One run at a time. `persist(job, requested, count, reason)` records a run's start and end,
    `progress(count, pending)` each card from the beam's interrupt, where a reset cannot erase
    them (the watchdog's scratch registers on the Pico)."""

    def __init__(
        self,
        motor: Any,
        beam: Any,
        clock: Any,
        tuning: Tuning,
        persist: Any = None,
        progress: Any = None,
    ) -> None:
        self.motor = motor
        self.beam = beam
        self._ticks = clock.ticks_us
        self._diff = clock.ticks_diff
        self._add = clock.ticks_add
        self.tuning = tuning
        self._persist = persist
        self._progress = progress
        self.phase = IDLE
        self.job = 0
        self.requested = 0
        self.speed = 0
        self.reported = 0  # CARD events sent
        self.pending = False  # what the last EXIT event said
        # (job, requested, ejected, reason) of the last finished runs, newest last
        self.history: list[tuple[int, int, int, str]] = []
        self._start = 0
        self._deadline_us = 0
        self._ramp_step = 0
        self._phase_end = 0
        self._result = ("", "", 0)  # reason, detail, elapsed ms

    @property
    def busy(self) -> bool:
        return self.phase != IDLE

    @property
    def last(self) -> tuple[int, int, int, str] | None:
        return self.history[-1] if self.history else None

    def find(self, job: int) -> tuple[int, int, int, str] | None:
        """``(job, requested, ejected, reason)`` of `job`: running now or among the last runs."""
        if self.busy and job == self.job:
            return (job, self.requested, self.beam.count, "running")
        for known in self.history:
            if known[0] == job:
                return known
        return None

    def start(self, job: int, cards: int, speed: int, deadline_ms: int) -> list[Event]:
        """Begin a run; returns events (a run of 0 cards is done at once)."""
        now = self._ticks()
        self.job, self.requested, self.reported = job, cards, 0
        self.pending = False
        self.speed = max(1, min(1000, speed))
        self._start = now
        limit = min(deadline_ms, self.tuning.max_run_ms)
        self._deadline_us = max(1, limit) * 1000
        self._record(0, "running")
        self.beam.on_limit = self.motor.brake
        self.beam.on_progress = self._progress
        self.beam.arm(now, max(cards, 0))
        if cards <= 0:
            return self._finish(now, "count", "")
        self.phase = RUNNING
        self._ramp_step = 0 if self.tuning.soft_start_ms > 0 else STEPS
        self.motor.forward(self._ramp_speed())
        return []

    def stop(self, detail: str) -> list[Event]:
        """End the run now (any phase); returns the DONE event if a run was going."""
        if self.phase == IDLE:
            return []
        self.beam.disarm()
        self.motor.off()
        if self.phase in (RETRACTING, BRAKING):
            return self._done()
        return self._finish(self._ticks(), "stopped", detail, retract=False)

    def step(self) -> list[Event]:
        """Advance the run; returns CARD and DONE events to send."""
        if self.phase == IDLE:
            return []
        now = self._ticks()
        if self.phase in (RETRACTING, BRAKING):
            if self._diff(now, self._phase_end) < 0:
                return []
            if self.phase == BRAKING:  # stopped: now the reverse pulse
                self._retract(now)
                return []
            self.motor.off()
            return self._done()
        self.beam.poll(now)
        events = self._cards(now)
        verdict = self._verdict(now)
        if verdict is not None:
            return events + self._finish(now, verdict[0], verdict[1])
        self._ramp(now)
        return events

    def _cards(self, now: int) -> list[Event]:
        events: list[Event] = []
        count = self.beam.count
        pending = self.beam.pending and self.phase == RUNNING
        if count > self.reported:
            self.pending = False  # the CARD says it
        if pending != self.pending:  # a card is leaving (or it was a dropout after all)
            self.pending = pending
            n = count + 1 if pending else count
            events.append(("EXIT", ["job=%d" % self.job, "n=%d" % n, "pending=%d" % pending]))
        while self.reported < count:
            slot = self.reported % len(self.beam.widths)
            self.reported += 1
            at = self._diff(self.beam.times[slot], self._start) // 1000
            width = self.beam.widths[slot]
            events.append(
                (
                    "CARD",
                    ["job=%d" % self.job, "n=%d" % self.reported, "w=%d" % width, "at=%d" % at],
                )
            )
        return events

    def _verdict(self, now: int) -> tuple[str, str] | None:
        t = self.tuning
        count, _noise, activity, idle, overlong, since, last = self.beam.snapshot()
        if count >= self.requested:
            return "count", ""
        if overlong or (since is not None and self._diff(now, since) > t.max_pulse_us):
            return "jam", "beam-blocked"
        elapsed = self._diff(now, self._start)
        if elapsed >= self._deadline_us:
            return "timeout", "deadline"
        if idle:
            if count == 0:
                due = t.soft_start_ms * 1000 + t.first_card_ms * 1000
                waited = elapsed
            else:
                due = t.card_gap_ms * 1000
                waited = self._diff(now, last)
            if waited >= due:
                if activity:
                    return "jam", "no-complete-card"
                return "empty", "no-first-card" if count == 0 else "no-next-card"
        return None

    def _ramp_speed(self) -> int:
        low = min(self.tuning.start_speed, self.speed)
        return low + (self.speed - low) * self._ramp_step // STEPS

    def _ramp(self, now: int) -> None:
        if self._ramp_step >= STEPS:
            return
        due = self.tuning.soft_start_ms * 1000 * (self._ramp_step + 1) // STEPS
        if self._diff(now, self._start) >= due:
            while self._ramp_step < STEPS and self._diff(now, self._start) >= (
                self.tuning.soft_start_ms * 1000 * (self._ramp_step + 1) // STEPS
            ):
                self._ramp_step += 1
            state = self.beam.hold()
            try:  # the interrupt may have stopped the motor at the last card: leave it stopped
                if self.beam.count < self.requested:
                    self.motor.forward(self._ramp_speed())
            finally:
                self.beam.release(state)

    def _finish(self, now: int, reason: str, detail: str, retract: bool = True) -> list[Event]:
        self.beam.disarm()  # first: its interrupt stops moving the motor
        self.beam.on_limit = None
        if retract:
            self.motor.brake()
        else:
            self.motor.off()
        events = self._cards(now)
        elapsed = self._diff(now, self._start) // 1000
        self._result = (reason, detail, elapsed)
        t = self.tuning
        if (
            retract
            and reason in ("count", "empty", "timeout")
            and self.requested > 0
            and self.motor.can_reverse
            and t.retract_ms > 0
        ):
            if t.brake_ms > 0:
                self.phase = BRAKING
                self._phase_end = self._add(now, t.brake_ms * 1000)
            else:
                self._retract(now)
            return events
        self.motor.off()
        return events + self._done()

    def _retract(self, now: int) -> None:
        self.phase = RETRACTING
        self._phase_end = self._add(now, self.tuning.retract_ms * 1000)
        self.motor.backward(self.tuning.retract_speed)

    def _done(self) -> list[Event]:
        reason, detail, elapsed = self._result
        ejected = self.beam.count if self.requested else 0
        noise = self.beam.snapshot()[1] if self.requested else 0
        self.phase = IDLE
        self.history.append((self.job, self.requested, ejected, reason))
        if len(self.history) > HISTORY:
            self.history.pop(0)
        self._record(ejected, reason)
        args = [
            "job=%d" % self.job,
            "ejected=%d" % ejected,
            "of=%d" % self.requested,
            "reason=" + reason,
            "ms=%d" % elapsed,
            "noise=%d" % noise,
        ]
        if detail:
            args.append("detail=" + detail)
        return [("DONE", args)]

    def _record(self, count: int, reason: str) -> None:
        if self._persist is not None:
            self._persist(self.job, self.requested, count, reason)
