"""A simulated launcher: the physical machine, played on gpiozero's mock pins.

It is a participant on the pins, not a fake inside the controller. Its own thread watches the
motor driver's input lines (PWM duty, direction, enable), moves a virtual card stack at the
speed the pin profile's feed wheel gives at that duty, and drives the beam pin blocked and clear
as each card passes the exit throat; it presses the button and opens the lid by driving those
pins. The controller code uses the same gpiozero devices as on a Pi and cannot tell the
difference.

Card model (in mm of card travel): after a card leaves, the next one travels `gap_mm` before
its leading edge reaches the beam, then blocks it for its length (87 mm); a *double* (a second
card shingled onto the first, trailing it by `double_offset` of a card) blocks it for longer and
two cards leave. Running the motor backward pulls a half-fed card back behind the beam (a
braked bridge stops the wheel). Below `stall_speed` the wheel does not move the card.

Like a busy Raspberry Pi, it can deliver edges *late and in bursts* (`edge_delay`): every edge
carries its true stamp (the moment the card crossed, the button closed), but the callback runs
on one courier thread after a random delay, in order, so a long delay holds back the edges
behind it and they arrive together. Knobs: jam (a card sticks in the throat, beam blocked),
empty hopper, doubles, spikes on the beam and on the button while the motor runs (motor EMI),
stuck button, open lid, and `time_scale` (0.1 runs every card ten times faster, for benchmarks;
tune the ejector with ``EjectorTuning.scaled``).
"""

from __future__ import annotations

import collections
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from controller.launcher.drivers import DRIVERS
from controller.launcher.pins import CARD_MM, PinProfile

MotorListener = Callable[[float, float], None]
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


@dataclass(frozen=True)
class SimOptions:
    """The simulated machine. Rates are at ``time_scale = 1`` (real time).

    The card speed comes from the profile's wheel (``[motor] wheel_rpm``, ``wheel_mm``);
    `cards_per_second` (at full duty) overrides it for tests that want slow cards.
    """

    cards: int = 112
    cards_per_second: float | None = None
    gap_mm: float = 60.0
    stall_speed: float = 0.15
    time_scale: float = 1.0
    noise_per_second: float = 0.0  # beam spikes per (scaled) second while the motor runs
    button_noise_per_second: float = 0.0  # button spikes per (scaled) second, motor running
    double_rate: float = 0.0  # the fraction of feeds that shoot two cards shingled
    double_offset: tuple[float, float] = (0.6, 1.0)  # the second card trails by this, in cards
    edge_delay: EdgeDelay | None = None  # None: callbacks at once, in the driving thread
    jam_at: int | None = None  # the jam_at-th card to reach the beam sticks there
    seed: int = 0

    def __post_init__(self) -> None:
        if self.cards < 0 or self.time_scale <= 0 or self.gap_mm <= 0:
            raise ValueError("cards must be >= 0; time_scale and gap_mm must be > 0")
        if self.cards_per_second is not None and self.cards_per_second <= 0:
            raise ValueError("cards_per_second must be > 0")
        if not 0 <= self.stall_speed < 1 or not 0 <= self.double_rate <= 1:
            raise ValueError("stall_speed must be within [0, 1), double_rate within [0, 1]")
        low, high = self.double_offset
        if not 0 < low <= high:
            raise ValueError("double_offset must be (low, high) with 0 < low <= high")


class _WatchedPWMPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """A mock PWM pin that tells the simulator when the controller changes it."""

    listener: Callable[[], None] | None = None

    def _change_state(self, value: Any) -> bool:
        changed = bool(super()._change_state(value))
        if changed and self.listener is not None:
            self.listener()
        return changed


class _Courier:
    """The callback thread of a busy Pi: delivers stamped edges late, in order, in bursts.

    Its delays are real time (an interpreter's), whatever clock stamps the edges.
    """

    def __init__(self, delay: EdgeDelay, rng: random.Random) -> None:
        self._delay, self._rng, self._clock = delay, rng, time.monotonic
        self._items: collections.deque[tuple[float, _DrivenPin, float, Any]] = collections.deque()
        self._ready = threading.Condition()
        self._last_due = 0.0
        self._closed = False
        self.delays: list[float] = []  # how late each callback ran, seconds (for benchmarks)
        self._thread = threading.Thread(target=self._run, name="sim-edges", daemon=True)
        self._thread.start()

    def send(self, pin: _DrivenPin, stamp: float, state: Any) -> None:
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

    def _due_now(self) -> bool:
        return bool(self._items) and self._items[0][0] <= self._clock()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)


def _held_here(lock: Any) -> bool:
    """Whether this thread holds the RLock `lock` (its own check, as `threading.Condition`
    uses it)."""
    return bool(lock._is_owned())


class _DrivenPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """An input the simulated machine holds at a level: a closed switch beats the pull-up.

    Each edge is stamped when it happens (or with the stamp the machine gives it) and reaches
    the callback at once, or through the courier, late.
    """

    held: bool | None = None
    clock: Clock = time.monotonic
    courier: _Courier | None = None
    catch_up: Callable[[], object] | None = None  # brings the machine up to now before a read
    _stamp: float | None = None

    def _get_state(self) -> Any:
        if self.catch_up is not None:  # a real pin reads the level *now*, however busy we are
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
        stamp = self.clock() if self._stamp is None else self._stamp
        if self.courier is None:
            self.deliver(stamp, self._state)
        else:
            self.courier.send(self, stamp, self._state)

    def spike(self, at: float) -> None:
        """A spike of a microsecond at `at`: two edges, and a level no read can catch changed."""
        level = self._state
        for state, t in ((not level, at), (level, at + SPIKE)):
            if self.courier is None:
                self.deliver(t, state)
            else:
                self.courier.send(self, t, state)

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


class SimulatedLauncher:
    """The machine on the mock pins of `pin_factory`. Create it *before* the `Launcher`.

    `clock` stamps every edge and drives the physics (a test's fake clock, or the monotonic
    clock the launcher uses too).
    """

    def __init__(
        self,
        profile: PinProfile,
        *,
        pin_factory: MockFactory,
        options: SimOptions | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.profile = profile
        self.options = options or SimOptions()
        self._factory = pin_factory
        self._clock = clock
        self._rng = random.Random(self.options.seed)
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._changes: list[tuple[float, float]] = []  # motor changes the physics has not seen
        self._changes_lock = threading.Lock()  # never held while calling out
        self._listeners: list[MotorListener] = []
        if not issubclass(pin_factory.pin_class, MockPWMPin):
            raise ValueError("the simulator needs MockFactory(pin_class=MockPWMPin)")
        delay = self.options.edge_delay
        rng = random.Random(self.options.seed + 1)
        self.courier = _Courier(delay, rng) if delay is not None else None
        self._motor_pins = {role: self._watch(pin) for role, pin in profile.motor.lines}
        self._beam = self._input(profile.beam.pin)
        self._beam.catch_up = self._catch_up_if_free
        self._button = self._input(profile.button.pin)
        self._lid = self._input(profile.lid.pin) if profile.lid else None
        if self._lid is not None:
            self.close_lid()
        self.stack = self.options.cards
        self.cards_out = 0
        self.cards_removed = 0
        self.doubles_fed = 0  # feeds that shot two cards together
        self.spikes = {"beam": 0, "button": 0}
        self._jam_in = self.options.jam_at
        self.jammed = False
        self.jam_blocked_at: float | None = None  # when the jamming card blocked the beam
        self.speed = 0.0
        self._t = clock()
        self._pos = 0.0  # mm travelled in the current card's cycle (gap, then blocked)
        self._blocked_mm = CARD_MM
        self._group = 1  # cards in the pulse now crossing (2: a double)
        self._in_beam = False
        self._next_noise = {"beam": math.inf, "button": math.inf}
        self._edge_at: float | None = None  # the beam edge whose callbacks run now
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
        pin.clock = self._clock
        pin.courier = self.courier
        return pin

    def _new_pin(self, gpio: int, pin_class: type[MockPin]) -> MockPin:
        if any(info.name == f"GPIO{gpio}" for info in self._factory.pins):
            raise RuntimeError(f"GPIO{gpio} is already in use: create the simulator first")
        return self._factory.pin(f"GPIO{gpio}", pin_class=pin_class)

    # --- knobs and observations (any thread) ---

    def add_motor_listener(self, listener: MotorListener) -> None:
        """Call ``listener(t, speed)`` on every change of the motor driver's inputs, with the
        speed they give (it may not have changed), in the thread that made the change."""
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

    def clear_jam(self) -> int:
        """A person pulls the stuck card out (two, if a double stuck): returns how many."""
        pulled = 0
        with self._lock:
            if self.jammed:
                self.jammed = False
                pulled = self._group
                self.stack -= pulled
                self.cards_removed += pulled
                self._pos = 0.0
                self._set_beam(False, self._clock())
        self._wake.set()
        return pulled

    def set_options(self, **changes: Any) -> None:
        """Change knobs while running (noise rates, doubles, ...)."""
        with self._lock:
            self.options = replace(self.options, **changes)
            self._next_noise = {"beam": math.inf, "button": math.inf}
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
            self._button.drive(False)
            self._button.drive(True)
        with self._lock:
            self._button.hold(False)

    def release_button(self, *, bounces: int = 0) -> None:
        for _ in range(bounces):
            self._button.drive(True)
            self._button.drive(False)
        with self._lock:
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
        """Stop the physics and courier threads. Idempotent."""
        self._closed = True
        self._wake.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        if self.courier is not None:
            self.courier.close()
        for pin in self._motor_pins.values():
            pin.listener = None

    # --- the motor, as the driver chip sees its inputs ---

    def _motor_changed(self) -> None:
        speed = self._driver_output()
        # A change made by an edge's own callback (a firmware interrupt braking on the last
        # card: it runs on the physics thread, inside the machine) happens at that edge, however
        # late this thread got to run the physics. Any other change is stamped now without
        # waiting for the machine: its thread may hold a lock of its own (a launcher board's
        # interrupt lock) that the physics needs to deliver an edge; a change stamped before
        # where the physics has got to takes effect there.
        at_edge = self._edge_at if _held_here(self._lock) else None
        t = self._clock() if at_edge is None else at_edge
        with self._changes_lock:
            self._changes.append((t, speed))
        self._wake.set()
        for listener in self._listeners:
            listener(t, speed)

    def _driver_output(self) -> float:
        """Signed motor speed from the driver inputs (a stopped or braked bridge gives 0)."""
        level = {role: float(pin.state) for role, pin in self._motor_pins.items()}
        return DRIVERS[self.profile.motor.driver].speed(level)

    # --- physics thread ---

    def _run(self) -> None:
        while not self._closed:
            self._wake.clear()
            with self._lock:
                now = self._catch_up()
                self._maybe_noise(now)
                timeout = self._next_event_in(now)
            self._wake.wait(timeout)

    def _catch_up_if_free(self) -> None:
        """Before a beam read: catch up, unless another thread holds the machine (it is the
        physics thread moving it right now, or a firmware interrupt: never wait for it)."""
        if self._lock.acquire(blocking=False):
            try:
                self._catch_up()
            finally:
                self._lock.release()

    def _catch_up(self) -> float:
        """Move the machine to now (from the physics thread, or before a pin read)."""
        with self._lock:
            if self._closed:
                return self._clock()
            with self._changes_lock:
                changes, self._changes = self._changes, []
            for t, speed in changes:
                self._advance(t)
                self.speed = speed
            now = self._clock()
            self._advance(now)
            return now

    def _full_mm_s(self) -> float:
        cps = self.options.cards_per_second
        if cps is not None:
            return cps * (CARD_MM + self.options.gap_mm)
        return self.profile.motor.surface_mm_s

    def _rate(self) -> float:
        """Card travel in mm per second (signed)."""
        speed = self.speed
        if abs(speed) < self.options.stall_speed or self.jammed:
            return 0.0
        if speed > 0 and self.stack <= 0:
            return 0.0
        if speed < 0 and self._pos <= 0:
            return 0.0
        return speed * self._full_mm_s() / self.options.time_scale

    def _advance(self, until: float) -> None:
        """Move the cards to time `until`, crossing the beam at the exact times cards do."""
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
            self._cross(rate, self._t)
            self._apply_changes_made_at(self._t)

    def _apply_changes_made_at(self, t: float) -> None:
        """Motor changes the edge at `t` caused through its callbacks take effect at `t`."""
        with self._changes_lock:
            while self._changes and self._changes[0][0] <= t:
                _, self.speed = self._changes.pop(0)

    def _boundary(self, rate: float) -> float:
        gap = self.options.gap_mm
        if rate < 0:
            return gap if self._in_beam else 0.0
        if not self._in_beam:
            return gap
        return gap + self._blocked_mm / 2 if self._jam_in == 0 else gap + self._blocked_mm

    def _cross(self, rate: float, t: float) -> None:
        if rate < 0:
            if self._in_beam:
                self._set_beam(False, t)
            return
        if not self._in_beam:
            self._feed_group()
            self._set_beam(True, t)
            if self._jam_in is not None:
                self._jam_in -= 1
                if self._jam_in == 0:
                    self.jam_blocked_at = t
        elif self._jam_in == 0:
            self.jammed = True
            self._jam_in = None
        else:
            self._pos = 0.0
            self.stack -= self._group
            self.cards_out += self._group
            self._set_beam(False, t)

    def _feed_group(self) -> None:
        """Decide as the card reaches the beam whether a second one rides on it."""
        double = self.stack >= 2 and self._rng.random() < self.options.double_rate
        if double:
            self.doubles_fed += 1
            self._blocked_mm = CARD_MM * (1 + self._rng.uniform(*self.options.double_offset))
        else:
            self._blocked_mm = CARD_MM
        self._group = 2 if double else 1

    def _set_beam(self, blocked: bool, t: float) -> None:
        self._in_beam = blocked
        self._drive_beam(blocked, t)

    def _drive_beam(self, blocked: bool, t: float) -> None:
        high = blocked == (self.profile.beam.blocked == "high")
        self._edge_at = t
        try:
            self._beam.drive(high, t)
        finally:
            self._edge_at = None

    def _next_event_in(self, now: float) -> float | None:
        rate = self._rate()
        due = [t - now for t in self._next_noise.values() if t < math.inf]
        if rate != 0:
            due.append((self._boundary(rate) - self._pos) / rate)
        return max(min(due), 0.0) if due else None

    def _noise_rates(self) -> dict[str, float]:
        running = abs(self.speed) >= self.options.stall_speed
        o = self.options
        rates = {"beam": o.noise_per_second, "button": o.button_noise_per_second}
        return {k: (r / o.time_scale if running else 0.0) for k, r in rates.items()}

    def _maybe_noise(self, now: float) -> None:
        """Spikes of a microsecond on the inputs while the motor runs (its EMI)."""
        for name, rate in self._noise_rates().items():
            due = self._next_noise[name]
            if rate <= 0:
                self._next_noise[name] = math.inf
            elif due == math.inf:
                self._next_noise[name] = now + self._rng.expovariate(rate)
            elif now >= due:
                self._spike(name, now)
                self._next_noise[name] = now + self._rng.expovariate(rate)

    def _spike(self, name: str, t: float) -> None:
        self.spikes[name] += 1
        (self._beam if name == "beam" else self._button).spike(t)
