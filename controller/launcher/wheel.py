"""The feed wheel's motion: how a small DC motor really turns, as a pure model.

Speeds are fractions of the wheel's full-duty speed with a light hopper (``r``; 1.0 is full
duty, negative is backward) and distances are *full-speed seconds* (how long the wheel would
take to cover them at full duty): one card is `Wheel.card_s` of them. The model, per
``[motor]`` of the pin profile (hardware/README.md says how to measure each number):

* **dead zone**: below duty `dead_zone` the motor cannot overcome the load and the wheel does
  not turn; above it the steady speed rises linearly, ``(d - dead_zone) / (1 - dead_zone)``.
* **time constant**: after a change of duty the speed moves toward its new steady value like
  a first-order lag, ``tau * r' = target - r`` (63 % of the way in `time_constant_ms`). Driven
  below the dead zone, or braked (the bridge shorts the windings), the target is below zero
  and the wheel slows the same way until it stops.
* **coast**: with the driver off (no drive, no brake) only friction slows the wheel: it loses
  its full speed in `coast_ms`, at a constant rate.
* **sag**: a full hopper (or a weak supply) slows the wheel; at fill 1.0 the steady speed is
  ``1 - sag`` of the light-hopper speed.

The simulator moves its cards with this (the machine's truth: its own parameters, its hopper's
fill) and the ejector estimates wheel travel with it (`DutyLog`: the duties it set, and the
parameters `calibrate` measured), so a pulse is measured in cards whatever the motor does.
Every function is closed-form per `Piece` (a stretch of constant drive in which the speed does
not change sign), so the same history gives the same times however it is cut up.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

from controller.launcher.pins import MotorPins, PinProfile

FULL_HOPPER = 112  # cards: a full UNO deck in the hopper is the load `sag` is measured at
REST = 1e-4  # a wheel slowing toward zero speed stands still once it is this slow


@dataclass(frozen=True)
class Wheel:
    """A feed wheel and its motor. `card_s`: one card's time at full duty, light hopper (s)."""

    card_s: float
    dead_zone: float = 0.0
    time_constant_s: float = 0.0
    coast_s: float = 0.0
    sag: float = 0.0

    def __post_init__(self) -> None:
        if self.card_s <= 0 or not 0 <= self.dead_zone < 1 or not 0 <= self.sag < 1:
            raise ValueError("wheel: card_s > 0, dead_zone and sag within [0, 1)")
        if self.time_constant_s < 0 or self.coast_s < 0:
            raise ValueError("wheel: time_constant_s and coast_s must be >= 0")

    @classmethod
    def of(cls, profile: PinProfile) -> Wheel:
        """The wheel as a pin profile knows it: one card's time as `calibrate` measured it if it
        ran (at the hopper's fill then), else from the wheel's size and speed."""
        return replace(cls.of_motor(profile.motor), card_s=profile.one_card_ms(1.0) / 1e3)

    @classmethod
    def of_motor(cls, motor: MotorPins) -> Wheel:
        """The wheel ``[motor]`` describes."""
        return cls(
            motor.card_ms(1.0) / 1e3,
            motor.dead_zone,
            motor.time_constant_ms / 1e3,
            motor.coast_ms / 1e3,
            motor.sag,
        )

    def scaled(self, factor: float) -> Wheel:
        """Every time multiplied by `factor` (a simulator running `1/factor` fast)."""
        return replace(
            self,
            card_s=self.card_s * factor,
            time_constant_s=self.time_constant_s * factor,
            coast_s=self.coast_s * factor,
        )

    def steady(self, duty: float, fill: float = 0.0) -> float:
        """The steady speed at `duty` (signed) with the hopper `fill` full (0..1)."""
        if abs(duty) <= self.dead_zone:
            return 0.0
        return self._target(duty, math.copysign(1.0, duty), fill)

    def _target(self, duty: float, moving: float, fill: float) -> float:
        """Where the speed heads, driven at `duty` while moving in direction `moving`."""
        return (duty - self.dead_zone * moving) / (1 - self.dead_zone) * (1 - self.sag * fill)

    def pieces(self, r0: float, duty: float, free: bool, fill: float = 0.0) -> Iterator[Piece]:
        """The motion from speed `r0` under a constant drive, piece by piece; the last piece
        lasts for ever. `free`: the driver is off (coasting); else the wheel is driven at
        `duty` (0: braked)."""
        r = r0
        while True:
            if r == 0:
                if free or abs(duty) <= self.dead_zone:
                    yield Piece(math.inf, 0.0)
                    return
                target = self._target(duty, math.copysign(1.0, duty), fill)
                yield self._lag(0.0, target)
                return
            moving = math.copysign(1.0, r)
            if free:
                if self.coast_s <= 0:
                    r = 0.0
                    continue
                stop = abs(r) * self.coast_s
                yield Piece(stop, r, decel=-moving / self.coast_s)
                r = 0.0
                continue
            target = self._target(duty, moving, fill)
            if target * moving > 0:  # heads somewhere in the same direction: never stops
                yield self._lag(r, target)
                return
            if self.time_constant_s <= 0:  # the load wins at once
                r = 0.0
                continue
            # braked with no dead zone the speed only tends to zero: call it still below REST
            target = min(target * moving, -REST) * moving
            zero = self.time_constant_s * math.log((r - target) / -target)
            yield Piece(zero, r, target=target, tau=self.time_constant_s)
            r = 0.0

    def _lag(self, r0: float, target: float) -> Piece:
        if self.time_constant_s <= 0:
            return Piece(math.inf, target)
        return Piece(math.inf, r0, target=target, tau=self.time_constant_s)


@dataclass(frozen=True)
class Piece:
    """A stretch of motion in which the speed keeps its sign: constant (`r0`), a lag from `r0`
    toward `target` with time constant `tau`, or a coast losing `decel` speed per second."""

    duration: float
    r0: float
    target: float = 0.0
    tau: float = 0.0
    decel: float = 0.0

    def speed(self, t: float) -> float:
        if self.tau > 0:
            return self.target + (self.r0 - self.target) * math.exp(-t / self.tau)
        return self.r0 + self.decel * t

    def travel(self, t: float) -> float:
        """Signed distance after `t` seconds (full-speed seconds)."""
        if t <= 0:
            return 0.0
        if self.tau > 0:
            return self.target * t + (self.r0 - self.target) * self.tau * -math.expm1(-t / self.tau)
        return self.r0 * t + self.decel * t * t / 2

    def time_to(self, distance: float) -> float:
        """The earliest time within the piece at which `travel` reaches `distance` (which has
        the motion's sign), or inf."""
        total = self.travel(self.duration) if self.duration < math.inf else None
        if total is not None and abs(total) < abs(distance):
            return math.inf
        if self.tau <= 0 and self.decel == 0:
            return distance / self.r0 if self.r0 != 0 else math.inf
        if self.decel != 0:  # r0 t + decel t^2 / 2 = distance, the root before the stop
            root = self.r0 * self.r0 + 2 * self.decel * distance
            return (-self.r0 + math.copysign(math.sqrt(max(root, 0.0)), self.r0)) / self.decel
        return self._solve(distance)

    def _solve(self, distance: float) -> float:
        """Bisection on the monotone travel of a lag piece."""
        high = self.duration if self.duration < math.inf else self.tau
        while self.duration == math.inf and abs(self.travel(high)) < abs(distance):
            high *= 2
            if high > 1e7:
                return math.inf
        low = 0.0
        for _ in range(80):
            mid = (low + high) / 2
            if abs(self.travel(mid)) < abs(distance):
                low = mid
            else:
                high = mid
            if high - low < 1e-10:
                break
        return high


@dataclass(frozen=True)
class _Stretch:
    """One entry of a duty log, with the wheel's state when it began and how long the motor
    had been driven forward by then."""

    t: float
    duty: float
    free: bool
    r0: float
    x0: float
    driven0: float = 0.0


class DutyLog:
    """The duties a run set, over time, and the wheel travel they give (the ejector's estimate
    of how far the cards moved). Starts at `start` with the wheel at rest and the driver off;
    `set()` appends a change (in time order)."""

    def __init__(self, start: float, wheel: Wheel) -> None:
        self.wheel = wheel
        self._log = [_Stretch(start, 0.0, True, 0.0, 0.0)]
        self._times = [start]

    @property
    def start(self) -> float:
        return self._log[0].t

    def set(self, t: float, duty: float, *, free: bool = False) -> None:
        """From `t` the motor is driven at `duty` (0 and not `free`: braked), or coasts."""
        last = self._log[-1]
        t = max(t, last.t)
        if (duty, free) == (last.duty, last.free):
            return
        r, x = self._state(last, t - last.t)
        driven = last.driven0 + (t - last.t if last.duty > 0 and not last.free else 0.0)
        self._log.append(_Stretch(t, duty, free, r, x, driven))
        self._times.append(t)

    @property
    def last_change(self) -> float:
        return self._log[-1].t

    def still_at(self) -> float:
        """When the wheel is at rest under the last drive set (inf: it keeps turning)."""
        last = self._log[-1]
        t = last.t
        for piece in self.wheel.pieces(last.r0, last.duty, last.free):
            if piece.duration == math.inf:
                still = piece.r0 == 0 and piece.tau == 0 and piece.decel == 0
                return t if still else math.inf
            t += piece.duration
        return math.inf

    def driven(self, t: float) -> float:
        """How long the motor has been driven forward from the start to `t`."""
        i = max(bisect.bisect_right(self._times, t) - 1, 0)
        stretch = self._log[i]
        running = stretch.duty > 0 and not stretch.free
        return stretch.driven0 + (max(t - stretch.t, 0.0) if running else 0.0)

    def when_driven(self, total: float) -> float:
        """When the motor will have been driven forward for `total`, as the log stands now
        (inf if it is not driven now and has not been driven that long)."""
        last = self._log[-1]
        if last.driven0 >= total:
            for stretch in self._log:
                if stretch.driven0 >= total:
                    return stretch.t
        if last.duty > 0 and not last.free:
            return last.t + (total - last.driven0)
        return math.inf

    def changes(self) -> list[tuple[float, float]]:
        """``(time, duty)`` of every change (coasting is duty 0)."""
        return [(s.t, 0.0 if s.free else s.duty) for s in self._log[1:]]

    def _state(self, stretch: _Stretch, dt: float) -> tuple[float, float]:
        """Speed and position `dt` after `stretch` began."""
        r, x, left = stretch.r0, stretch.x0, dt
        for piece in self.wheel.pieces(stretch.r0, stretch.duty, stretch.free):
            span = min(piece.duration, left)
            x += piece.travel(span)
            r = piece.speed(span)
            left -= span
            if left <= 0:
                break
        return r, x

    def position(self, t: float) -> float:
        """Wheel travel from the start to `t` (full-speed seconds)."""
        if t <= self._log[0].t:
            return 0.0
        i = bisect.bisect_right(self._times, t) - 1
        stretch = self._log[i]
        return self._state(stretch, t - stretch.t)[1]

    def speed(self, t: float) -> float:
        """The estimated wheel speed at `t`."""
        i = max(bisect.bisect_right(self._times, t) - 1, 0)
        stretch = self._log[i]
        return self._state(stretch, max(t - stretch.t, 0.0))[0]

    def __call__(self, t0: float, t1: float) -> float:
        """Wheel travel between two stamps (the `pulses.Pace` of a counter)."""
        return self.position(t1) - self.position(t0) if t1 > t0 else 0.0

    def when(self, t0: float, distance: float) -> float:
        """The earliest time the wheel has moved `distance` forward since `t0`, as the log
        stands now (inf if it never will)."""
        goal = self.position(t0) + distance
        i = max(bisect.bisect_right(self._times, t0) - 1, 0)
        for j in range(i, len(self._log)):
            stretch = self._log[j]
            end = self._log[j + 1].t if j + 1 < len(self._log) else math.inf
            t, x = stretch.t, stretch.x0
            for piece in self.wheel.pieces(stretch.r0, stretch.duty, stretch.free):
                span = min(piece.duration, end - t)
                if piece.r0 > 0 or piece.target > 0:
                    dt = piece.time_to(goal - x) if goal > x else 0.0
                    if dt <= span:
                        return max(t + dt, t0)
                x += piece.travel(span)
                t += span
                if t >= end:
                    break
        return math.inf
