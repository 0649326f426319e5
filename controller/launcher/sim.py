"""A simulated launcher: the physical machine, played on gpiozero's mock pins.

It is a participant on the pins, not a fake inside the controller. Its own thread watches the
motor driver's input lines (PWM duty, direction, enable), moves a virtual card stack at a rate
set by the resulting motor speed, and drives the beam pin blocked and clear as each card passes
the exit throat; it presses the button and opens the lid by driving those pins. The controller
code uses the same gpiozero devices as on a Pi and cannot tell the difference.

Card model: each card runs through a cycle ``0..1``; the beam is clear for the first
``1 - blocked_fraction`` of it and blocked for the rest, and the card is out at 1. Running the
motor backward pulls a half-fed card back behind the beam. Below `stall_speed` the wheel does not
move the card. Knobs: jam (a card sticks in the throat, beam blocked), empty hopper, noise
glitches on the beam while the motor runs, stuck button, open lid, and `time_scale` (0.1 runs
every card ten times faster, for benchmarks; tune the ejector with ``EjectorTuning.scaled``).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from controller.launcher.pins import PinProfile

MotorListener = Callable[[float, float], None]
LATE = 0.0005  # seconds: an edge later than this holds the card back instead of catching up


@dataclass(frozen=True)
class SimOptions:
    """The simulated machine. Rates are at ``time_scale = 1`` (real time)."""

    cards: int = 112
    cards_per_second: float = 10.0  # at full motor speed
    blocked_fraction: float = 0.45
    stall_speed: float = 0.15
    time_scale: float = 1.0
    noise_per_second: float = 0.0  # beam glitches per (scaled) second while the motor runs
    jam_at: int | None = None  # the jam_at-th card to reach the beam sticks there
    seed: int = 0

    def __post_init__(self) -> None:
        if self.cards < 0 or self.cards_per_second <= 0 or self.time_scale <= 0:
            raise ValueError("cards must be >= 0; cards_per_second and time_scale must be > 0")
        if not 0 < self.blocked_fraction < 1 or not 0 <= self.stall_speed < 1:
            raise ValueError("blocked_fraction must be within (0, 1), stall_speed within [0, 1)")


class _WatchedPWMPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """A mock PWM pin that tells the simulator when the controller changes it."""

    listener: Callable[[], None] | None = None

    def _change_state(self, value: Any) -> bool:
        changed = bool(super()._change_state(value))
        if changed and self.listener is not None:
            self.listener()
        return changed


class _DrivenPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """An input the simulated machine holds at a level: a closed switch beats the pull-up."""

    held: bool | None = None

    def hold(self, high: bool) -> None:
        self.held = high
        self.drive_high() if high else self.drive_low()

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.held is not None:
            self.drive_high() if self.held else self.drive_low()


class SimulatedLauncher:
    """The machine on the mock pins of `pin_factory`. Create it *before* the `Launcher`."""

    def __init__(
        self, profile: PinProfile, *, pin_factory: MockFactory, options: SimOptions | None = None
    ) -> None:
        self.profile = profile
        self.options = options or SimOptions()
        self._factory = pin_factory
        self._rng = random.Random(self.options.seed)
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._changes: list[tuple[float, float]] = []
        self._listeners: list[MotorListener] = []
        if not issubclass(pin_factory.pin_class, MockPWMPin):
            raise ValueError("the simulator needs MockFactory(pin_class=MockPWMPin)")
        self._motor_pins = {role: self._watch(pin) for role, pin in profile.motor.lines}
        self._beam = self._input(profile.beam.pin)
        self._button = self._input(profile.button.pin)
        self._lid = self._input(profile.lid.pin) if profile.lid else None
        if self._lid is not None:
            self.close_lid()
        self.stack = self.options.cards
        self.cards_out = 0
        self.cards_removed = 0
        self._jam_in = self.options.jam_at
        self.jammed = False
        self.jam_blocked_at: float | None = None  # when the jamming card blocked the beam
        self.speed = 0.0
        self._t = time.monotonic()
        self._pos = 0.0
        self._in_beam = False
        self._next_noise = math.inf
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="launcher-sim", daemon=True)
        self._thread.start()

    def _watch(self, gpio: int) -> _WatchedPWMPin:
        pin = self._new_pin(gpio, _WatchedPWMPin)
        assert isinstance(pin, _WatchedPWMPin)
        pin.listener = self._motor_changed
        return pin

    def _input(self, gpio: int) -> _DrivenPin:
        pin = self._new_pin(gpio, _DrivenPin)
        assert isinstance(pin, _DrivenPin)
        return pin

    def _new_pin(self, gpio: int, pin_class: type[MockPin]) -> MockPin:
        if any(info.name == f"GPIO{gpio}" for info in self._factory.pins):
            raise RuntimeError(f"GPIO{gpio} is already in use: create the simulator first")
        return self._factory.pin(f"GPIO{gpio}", pin_class=pin_class)

    # --- knobs and observations (any thread) ---

    def add_motor_listener(self, listener: MotorListener) -> None:
        """Call ``listener(t, speed)`` on every motor speed change, in the thread that made it."""
        self._listeners.append(listener)

    def load(self, cards: int) -> None:
        """Put `cards` cards in the hopper (replacing what is there)."""
        with self._lock:
            self.stack = cards
        self._wake.set()

    def jam_next(self) -> None:
        """The next card to reach the beam sticks there."""
        with self._lock:
            self._jam_in = 1 if not self._in_beam else 2
        self._wake.set()

    def clear_jam(self) -> None:
        """A person pulls the stuck card out."""
        with self._lock:
            if self.jammed:
                self.jammed = False
                self.stack -= 1
                self.cards_removed += 1
                self._pos = 0.0
                self._set_beam(False)
        self._wake.set()

    def set_noise(self, per_second: float) -> None:
        """Beam glitches per (scaled) second while the motor runs."""
        with self._lock:
            self.options = _replace(self.options, noise_per_second=per_second)
            self._next_noise = math.inf
        self._wake.set()

    def press(self, hold: float = 0.08, *, bounces: int = 0, rest: float = 0.05) -> None:
        """A finger's press: down for `hold` seconds, then up and away for `rest` seconds.

        Human timing, not scaled by `time_scale`: debounce works on real milliseconds.
        """
        self.hold_button(bounces=bounces)
        time.sleep(hold)
        self.release_button(bounces=bounces)
        time.sleep(rest)

    def hold_button(self, *, bounces: int = 0) -> None:
        """Push the button down (and keep it there: a stuck button)."""
        for _ in range(bounces):
            self._button.drive_low()
            self._button.drive_high()
        self._button.hold(False)

    def release_button(self, *, bounces: int = 0) -> None:
        for _ in range(bounces):
            self._button.drive_high()
            self._button.drive_low()
        self._button.hold(True)

    def open_lid(self) -> None:
        self._drive_lid(True)

    def close_lid(self) -> None:
        self._drive_lid(False)

    def _drive_lid(self, is_open: bool) -> None:
        if self._lid is None or self.profile.lid is None:
            raise RuntimeError("this pin profile has no lid switch")
        self._lid.hold(is_open == (self.profile.lid.open == "high"))

    @property
    def beam_blocked(self) -> bool:
        return self._in_beam

    def __enter__(self) -> SimulatedLauncher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the physics thread. Idempotent."""
        self._closed = True
        self._wake.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        for pin in self._motor_pins.values():
            pin.listener = None

    # --- the motor, as the driver chip sees its inputs ---

    def _motor_changed(self) -> None:
        t = time.monotonic()
        speed = self._driver_output()
        with self._lock:
            self._changes.append((t, speed))
        self._wake.set()
        for listener in self._listeners:
            listener(t, speed)

    def _driver_output(self) -> float:
        """Signed motor speed from the driver inputs (a stopped or braked bridge gives 0)."""
        level = {role: float(pin.state) for role, pin in self._motor_pins.items()}
        driver = self.profile.motor.driver
        if driver == "hbridge":
            return (level["forward"] - level["backward"]) * level.get("enable", 1.0)
        if driver == "phase_enable":
            return -level["enable"] if level["phase"] else level["enable"]
        return level["pin"]

    # --- physics thread ---

    def _run(self) -> None:
        while not self._closed:
            self._wake.clear()
            with self._lock:
                changes, self._changes = self._changes, []
                for t, speed in changes:
                    self._advance(t)
                    self.speed = speed
                self._advance(time.monotonic())
                self._maybe_noise()
                timeout = self._next_event_in()
            self._wake.wait(timeout)

    def _rate(self) -> float:
        """Card cycles per second (signed)."""
        speed = self.speed
        if abs(speed) < self.options.stall_speed or self.jammed:
            return 0.0
        if speed > 0 and self.stack <= 0:
            return 0.0
        if speed < 0 and self._pos <= 0:
            return 0.0
        return speed * self.options.cards_per_second / self.options.time_scale

    def _advance(self, until: float) -> None:
        while self._t < until:
            rate = self._rate()
            if rate == 0:
                self._t = until
                return
            target = self._boundary(rate)
            needed = (target - self._pos) / rate
            if self._t + needed > until:
                self._pos += rate * (until - self._t)
                self._t = until
                return
            self._t += needed
            self._pos = target
            self._cross(rate)
            if time.monotonic() - self._t > LATE:
                # The thread woke late and the edge went out late: the card waited at the beam
                # for it (as if the motor slowed), so pulses stretch but never shrink.
                self._t = until

    def _gap(self) -> float:
        return 1.0 - self.options.blocked_fraction

    def _boundary(self, rate: float) -> float:
        gap = self._gap()
        if rate < 0:
            return gap if self._in_beam else 0.0
        if not self._in_beam:
            return gap
        return gap + self.options.blocked_fraction / 2 if self._jam_in == 0 else 1.0

    def _cross(self, rate: float) -> None:
        if rate < 0:
            if self._in_beam:
                self._set_beam(False)
            return
        if not self._in_beam:
            self._set_beam(True)
            if self._jam_in is not None:
                self._jam_in -= 1
                if self._jam_in == 0:
                    self.jam_blocked_at = time.monotonic()
        elif self._jam_in == 0:
            self.jammed = True
            self._jam_in = None
        else:
            self._pos = 0.0
            self.stack -= 1
            self.cards_out += 1
            self._set_beam(False)

    def _set_beam(self, blocked: bool) -> None:
        self._in_beam = blocked
        self._drive_beam(blocked)

    def _drive_beam(self, blocked: bool) -> None:
        high = blocked == (self.profile.beam.blocked == "high")
        self._beam.drive_high() if high else self._beam.drive_low()

    def _next_event_in(self) -> float | None:
        rate = self._rate()
        due = [self._next_noise - time.monotonic()] if self._noisy() else []
        if rate != 0:
            due.append((self._boundary(rate) - self._pos) / rate)
        return max(min(due), 0.0) if due else None

    def _noisy(self) -> bool:
        return self.options.noise_per_second > 0 and abs(self.speed) >= self.options.stall_speed

    def _maybe_noise(self) -> None:
        """A glitch: the beam flips for microseconds (motor EMI, a flicker)."""
        if not self._noisy():
            self._next_noise = math.inf
            return
        now = time.monotonic()
        if self._next_noise == math.inf:
            self._next_noise = now + self._noise_gap()
        elif now >= self._next_noise:
            self._drive_beam(not self._in_beam)
            self._drive_beam(self._in_beam)
            self._next_noise = now + self._noise_gap()

    def _noise_gap(self) -> float:
        return self._rng.expovariate(self.options.noise_per_second / self.options.time_scale)


def _replace(options: SimOptions, **changes: Any) -> SimOptions:
    from dataclasses import replace

    return replace(options, **changes)
