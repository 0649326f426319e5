"""One run of the ejector as it is judged: what it asked, what the beam has shown, the speed it
wants, and its verdicts. Pure: no motor, no queue, no clock of its own (`ejector.Ejector` reads
the clock and the beam, drives the motor and waits; it asks a `Run` what they mean).

The verdicts are judged in wheel travel, not time (a motor held still moves no card): the count
reached, a jam (the beam blocked while the wheel turned as far as `max_pulse_ms` lets it), an
empty hopper or a jam with no complete card (the wheel moved as far as the card timeouts let it
since the start or the last card), the hard deadline (the time the motor is driven forward, and
three times that in all). A suspected jam or empty hopper is `refuted` while the beam's level,
read since, says the edges that show otherwise are still on their way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.launcher.pins import EjectorTuning
from controller.launcher.pulses import PulseCounter
from controller.launcher.wheel import DutyLog

if TYPE_CHECKING:
    from controller.launcher.ejector import StopReason


@dataclass
class Run:
    """One run's state: what it asked, its duty log and its counter, and when the beam's level
    (always read *now*, never late) was last seen clear and blocked. `slack` moves jams and
    timeouts further away (calibrate's runs)."""

    cards: int
    speed: float
    start: float
    budget: float  # seconds the motor may be driven forward
    pace: DutyLog
    counter: PulseCounter
    tuning: EjectorTuning
    slack: float = 1.0
    clear_seen: float = -math.inf
    blocked_seen: float = -math.inf

    @property
    def deadline(self) -> float:
        """When the budget runs out, as the motor is driven now."""
        return min(self.pace.when_driven(self.budget), self.start + 3 * self.budget)

    def saw(self, now: float, blocked: bool) -> None:
        if blocked:
            self.blocked_seen = now
        else:
            self.clear_seen = now

    def verdict(self, now: float, blocked_now: bool) -> tuple[StopReason, str] | None:
        """Why the run stops now (the beam reading `blocked_now`), or None: it goes on."""
        counter = self.counter
        if counter.count >= self.cards:
            return "count", ""
        if counter.jammed(now, blocked_now):
            return "jam", (
                f"beam blocked for more than {self.tuning.max_pulse_ms:g} ms while the wheel "
                "turned as far"
            )
        if now >= self.deadline:
            budget = self.tuning.deadline_ms(self.cards)
            return "timeout", f"hard deadline of {budget:g} ms of motor running reached"
        if counter.idle and not blocked_now and now >= self.due():
            if counter.activity:
                return "jam", "the beam saw movement but no complete card"
            waited = "first card" if counter.count == 0 else "next card"
            return "empty", f"no {waited} crossed the beam"
        return None

    def due(self) -> float:
        """When the next card is overdue: the wheel has moved as far as the timeout lets it at
        the speed that card is fed at since the start or the last card (time the motor stood
        still, or ran slow, does not count)."""
        counter = self.counter
        if not counter.idle:
            return math.inf
        t = self.tuning
        first = counter.last_card is None
        timeout_ms = t.first_card_timeout_ms if first else t.card_gap_timeout_ms
        since = self.start if counter.last_card is None else counter.last_card
        steady = self.pace.wheel.steady(self.feeding_speed())
        return self.pace.when(since, timeout_ms / 1e3 * self.slack * max(steady, 0.01))

    def feeding_speed(self) -> float:
        """The speed the card waited for is fed at: the last card's is slower. (Judged at the
        run's speed, the only card of a one-card run was overdue later than the hard deadline:
        an empty hopper said "timeout", and the table refuses a reload until it says "empty".)"""
        if self.counter.count == self.cards - 1:
            return min(self.speed, self.tuning.last_card_speed)
        return self.speed

    def refuted(self, verdict: str) -> bool:
        """The level read since says otherwise: the edges that show it are still on their way
        (a beam seen clear during the pulse of a "jam"; a card seen in the beam since the last
        one counted, for an "empty" hopper)."""
        counter = self.counter
        if verdict == "jam":
            start = counter.pulse_start
            return not counter.overlong and start is not None and self.clear_seen > start
        since = self.start if counter.last_card is None else counter.last_card
        return self.blocked_seen > since

    def long_pulse(self, now: float) -> bool:
        """The open pulse is longer than a card: the level is read often, so a clear spell whose
        edges are late is seen (it refutes a jam)."""
        counter = self.counter
        if not counter.beam_blocked:
            return False
        card = counter.reference.card if counter.reference is not None else self.pace.wheel.card_s
        return counter.travel(now) > 0.9 * card

    def maybe_on_the_way(self, end: float, level: bool, gaps: Iterable[float]) -> bool:
        """Whether edges of this run may still be on their way after its forward motion ended
        at `end`: the edges and the `level` read now disagree, or the wheel moved far enough
        after the last card for another to cross (half the shortest of `gaps`, the gaps
        between cards seen before, or this run's)."""
        counter = self.counter
        if counter.beam_blocked != level or not counter.idle:
            return counter.beam_blocked != level
        known = [*gaps, *counter.gaps]
        if not known:
            return counter.count > 0  # no gap known yet: listen once
        since = counter.last_end if counter.last_end is not None else self.start
        return self.pace(since, end) > 0.5 * min(known)


class Ramp:
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


class LastCardWatch:
    """The beam's level while the last card is fed. Once the level has read blocked and then
    clear, that card has left: the motor holds until the counter has judged the card's (late)
    edges, so it never feeds one more card while they wait for the GIL (for at most `hold_s`,
    in case the level read was a glitch)."""

    def __init__(self) -> None:
        self.blocked_at: float | None = None
        self.clear_at: float | None = None
        self._judged_before: float | None = None

    def hold(self, counter: PulseCounter, blocked_now: bool, now: float, hold_s: float) -> bool:
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
        if judged or now - self.clear_at > hold_s:
            self.blocked_at = self.clear_at = None
            return False
        return True
