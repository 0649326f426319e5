"""A simulated launcher: the physical machine, played on gpiozero's mock pins.

It is a participant on the pins, not a fake inside the controller. It watches the motor
driver's input lines (PWM duty, direction, enable, brake), moves a virtual card stack the way a
real motor would (`wheel.Wheel`: the pin profile's dead zone, spin-up lag, coast and sag), and
drives the beam pin blocked and clear as each card passes the exit throat; it presses the
button and opens the lid by driving those pins. The controller code uses the same gpiozero
devices as on a Pi and cannot tell the difference.

What is real and what is the simulator's are kept apart. The physics (`sim_cards.CardMachine`)
runs on *event time*: every motor change is stamped when the controller made it, every card
crosses the beam at the exact moment the motor's history puts it there, and a pin read sees the
level at the moment of the read, however late the simulator's own thread gets the CPU. A starved
host delays when edges are delivered, never what physically happened. The pins and the late
delivery are `sim_pins`.

Two kinds of controller sit on these pins. gpiozero devices on a Pi (``interrupts=False``,
what `factory.open_launcher` builds): their callbacks only queue the edge, so a pin read may
wait for the machine and is always exact. A microcontroller's firmware (the fake launcher board,
the default): its edge callbacks are interrupts that may stop the motor, which then stops at
that edge; a read from another thread never waits for the machine (the firmware may hold the
lock an interrupt needs) and may see the level of a moment ago.

Knobs: jam (a card sticks in the throat, beam blocked), empty hopper, doubles, spikes on the
beam and on the button while the motor runs (motor EMI), edges delivered late and in bursts
(`edge_delay`), stuck button, open lid, the machine's own motor (`wheel`, when it should differ
from what the profile says), and `time_scale` (0.1 runs every card ten times faster, for
benchmarks; tune the ejector with ``EjectorTuning.scaled``).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from controller.launcher.drivers import DRIVERS, levels
from controller.launcher.pins import CARD_MM, PinProfile
from controller.launcher.sim_cards import CardMachine, Cards, Event
from controller.launcher.sim_pins import Courier, DrivenPin, EdgeDelay, WatchedPWMPin
from controller.launcher.wheel import Wheel

__all__ = ["EdgeDelay", "SimOptions", "SimulatedLauncher"]

MotorListener = Callable[[float, float], None]
Clock = Callable[[], float]


@dataclass(frozen=True)
class SimOptions:
    """The simulated machine. Rates are at ``time_scale = 1`` (real time).

    The cards move as the profile's ``[motor]`` says (wheel speed and physics); `wheel` gives
    the machine a motor of its own instead (a launcher whose profile is not yet calibrated),
    and `cards_per_second` (at full duty) overrides its speed for tests that want slow cards.
    """

    cards: int = 112
    cards_per_second: float | None = None
    gap_mm: float = 60.0
    time_scale: float = 1.0
    noise_per_second: float = 0.0  # beam spikes per (scaled) second while the motor runs
    button_noise_per_second: float = 0.0  # button spikes per (scaled) second, motor running
    double_rate: float = 0.0  # the fraction of feeds that shoot two cards shingled
    double_offset: tuple[float, float] = (0.6, 1.0)  # the second card trails by this, in cards
    edge_delay: EdgeDelay | None = None  # None: callbacks at once, in the driving thread
    jam_at: int | None = None  # the jam_at-th card to reach the beam sticks there
    wheel: Wheel | None = None  # the machine's own motor, at time scale 1 (None: the profile's)
    seed: int = 0

    def __post_init__(self) -> None:
        if self.cards < 0 or self.time_scale <= 0 or self.gap_mm <= 0:
            raise ValueError("cards must be >= 0; time_scale and gap_mm must be > 0")
        if self.cards_per_second is not None and self.cards_per_second <= 0:
            raise ValueError("cards_per_second must be > 0")
        if not 0 <= self.double_rate <= 1:
            raise ValueError("double_rate must be within [0, 1]")
        low, high = self.double_offset
        if not 0 < low <= high:
            raise ValueError("double_offset must be (low, high) with 0 < low <= high")

    def machine_wheel(self, profile: PinProfile) -> Wheel:
        """The wheel the machine runs, at its time scale."""
        wheel = self.wheel or Wheel.of_motor(profile.motor)
        if self.cards_per_second is not None:
            card_s = CARD_MM / (self.cards_per_second * (CARD_MM + self.gap_mm))
            wheel = replace(wheel, card_s=card_s)
        return wheel.scaled(self.time_scale)

    def cards_fed(self) -> Cards:
        return Cards(self.cards, self.gap_mm, self.double_rate, self.double_offset, self.jam_at)

    def noise(self) -> dict[str, float]:
        """Spikes per second of the machine's (scaled) time, on each input."""
        scale = self.time_scale
        return {
            "beam": self.noise_per_second / scale,
            "button": self.button_noise_per_second / scale,
        }


def _held_here(lock: Any) -> bool:
    """Whether this thread holds the RLock `lock` (its own check, as `threading.Condition`
    uses it)."""
    return bool(lock._is_owned())


class SimulatedLauncher:
    """The machine on the mock pins of `pin_factory`. Create it *before* the `Launcher`.

    `clock` stamps every edge and every motor change and is the machine's time (a test's fake
    clock, or the monotonic clock the launcher uses too). `interrupts`: see the module.
    """

    def __init__(
        self,
        profile: PinProfile,
        *,
        pin_factory: MockFactory,
        options: SimOptions | None = None,
        clock: Clock = time.monotonic,
        interrupts: bool = True,
    ) -> None:
        self.profile = profile
        self.options = options or SimOptions()
        self._factory = pin_factory
        self._clock = clock
        self._interrupts = interrupts
        self._lock = threading.RLock()  # the machine: held while it moves and delivers at once
        self._wake = threading.Event()
        self._changes: list[tuple[float, float, bool]] = []  # (t, duty, free) not yet applied
        self._changes_lock = threading.Lock()  # never held while calling out
        self._at_edge: list[tuple[float, float, bool]] = []  # made by the edge being delivered
        self._edge_at: float | None = None  # the stamp of the edge being delivered at once
        self._listeners: list[MotorListener] = []
        if not issubclass(pin_factory.pin_class, MockPWMPin):
            raise ValueError("the simulator needs MockFactory(pin_class=MockPWMPin)")
        o = self.options
        self.machine = CardMachine(
            o.machine_wheel(profile), o.cards_fed(), random.Random(o.seed), clock(), o.noise()
        )
        delay = o.edge_delay
        self.courier = Courier(delay, random.Random(o.seed + 1)) if delay is not None else None
        self._motor_pins = {role: self._watch(pin) for role, pin in profile.motor.lines}
        self._beam = self._input(profile.beam.pin)
        self._beam.catch_up = self.catch_up
        self._button = self._input(profile.button.pin)
        self._lid = self._input(profile.lid.pin) if profile.lid else None
        if self._lid is not None:
            self.close_lid()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="launcher-sim", daemon=True)
        self._thread.start()

    def _watch(self, gpio: int) -> WatchedPWMPin:
        pin = self._new_pin(gpio, WatchedPWMPin)
        assert isinstance(pin, WatchedPWMPin)
        pin.listener = self._motor_changed
        return pin

    def _input(self, gpio: int) -> DrivenPin:
        pin = self._new_pin(gpio, DrivenPin)
        assert isinstance(pin, DrivenPin)
        pin.clock = self._clock
        pin.courier = self.courier
        return pin

    def _new_pin(self, gpio: int, pin_class: type[MockPin]) -> MockPin:
        if any(info.name == f"GPIO{gpio}" for info in self._factory.pins):
            raise RuntimeError(f"GPIO{gpio} is already in use: create the simulator first")
        return self._factory.pin(f"GPIO{gpio}", pin_class=pin_class)

    # --- observations (any thread; each brings the machine up to now first) ---

    def _observe(self, read: Callable[[CardMachine], Any]) -> Any:
        with self._lock:
            self._catch_up()
            return read(self.machine)

    @property
    def stack(self) -> int:
        """Cards in the hopper (the one crossing the beam included)."""
        return int(self._observe(lambda m: m.stack))

    @property
    def cards_out(self) -> int:
        """Cards that have left the machine."""
        return int(self._observe(lambda m: m.cards_out))

    @property
    def cards_removed(self) -> int:
        """Cards a person pulled out of a jam."""
        return int(self._observe(lambda m: m.cards_removed))

    @property
    def doubles_fed(self) -> int:
        """Feeds that shot two cards together."""
        return int(self._observe(lambda m: m.doubles_fed))

    @property
    def spikes(self) -> dict[str, int]:
        return dict(self._observe(lambda m: m.spikes))

    @property
    def jammed(self) -> bool:
        return bool(self._observe(lambda m: m.jammed))

    @property
    def jam_blocked_at(self) -> float | None:
        """When the jamming card blocked the beam."""
        at: float | None = self._observe(lambda m: m.jam_blocked_at)
        return at

    @property
    def beam_blocked(self) -> bool:
        return bool(self._observe(lambda m: m.in_beam))

    @property
    def speed(self) -> float:
        """The motor driver's output now: the signed duty (0 stopped or braked)."""
        return self._driver_output()[0]

    @property
    def wheel_speed(self) -> float:
        """The wheel's real speed now, a fraction of its full-duty speed (it lags the duty and
        coasts after it)."""
        return float(self._observe(lambda m: m.r))

    def wait_still(self, timeout: float = 10.0) -> bool:
        """Wait (real time) until the wheel stands still, so every card it moved is out;
        False if it is still turning after `timeout` s (the motor is driven)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                now = self._catch_up()
                rest = self.machine.rest_at()
            if rest <= now:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(min(max(rest - now, 0.0), 0.005))

    def wait_delivered(self, timeout: float = 10.0) -> bool:
        """Wait (real time) until every edge the machine made has reached its callback."""
        return self.courier is None or self.courier.wait_delivered(timeout)

    # --- knobs (any thread) ---

    def add_motor_listener(self, listener: MotorListener) -> None:
        """Call ``listener(t, speed)`` on every change of the motor driver's inputs, with the
        signed duty they give (it may not have changed), in the thread that made the change."""
        self._listeners.append(listener)

    def load(self, cards: int) -> None:
        """Put `cards` cards in the hopper (replacing what is there)."""
        with self._lock:
            self._catch_up()
            self.machine.load(cards)
        self._wake.set()

    def jam_next(self) -> None:
        """The next card to reach the beam sticks there."""
        with self._lock:
            self._catch_up()
            self.machine.jam_next()
        self._wake.set()

    def clear_jam(self) -> int:
        """A person pulls the stuck card out (two, if a double stuck): returns how many."""
        with self._lock:
            self._catch_up()
            pulled, event = self.machine.clear_jam()
            if event is not None:
                self._deliver(event)
        self._wake.set()
        return pulled

    def set_options(self, **changes: Any) -> None:
        """Change knobs while running (noise rates, doubles, ...)."""
        with self._lock:
            self._catch_up()
            self.options = replace(self.options, **changes)
            o, m = self.options, self.machine
            m.cards = replace(o.cards_fed(), stack=m.stack)
            m.wheel = o.machine_wheel(self.profile)
            m.set_noise(o.noise())
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

    def hold_edges(self) -> None:
        """Keep the beam's edges from their callbacks (a callback thread that stalls for as
        long as a test likes) until `release_edges`; the machine itself runs on."""
        with self._lock:
            self._beam.held_back = []

    def release_edges(self) -> None:
        """Send on every beam edge held back, in order, from this thread."""
        with self._lock:
            self._beam.release()

    def _spike(self, name: str, t: float) -> None:
        """A spike of motor noise on input `name` ("beam" or "button") at `t`, now."""
        with self._lock:
            self.machine.spikes[name] += 1
            (self._beam if name == "beam" else self._button).spike(t)

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
        duty, free = self._driver_output()
        if self._edge_at is not None and _held_here(self._lock):
            # made by the callback of the edge being delivered (a firmware interrupt braking on
            # the last card): it happens at that edge, however late the machine got to it
            t = self._edge_at
            self._at_edge.append((t, duty, free))
        else:
            # stamped now without waiting for the machine: this thread may hold a lock of its
            # own (a launcher board's interrupt lock) that the machine needs to deliver an edge.
            # The machine reads `now` under the same lock, so it never moves past this stamp
            # without this change.
            with self._changes_lock:
                t = self._clock()
                self._changes.append((t, duty, free))
        self._wake.set()
        for listener in self._listeners:
            listener(t, duty)

    def _driver_output(self) -> tuple[float, bool]:
        """The driver's signed duty from its inputs, and whether the motor is left free (off
        and not braked: it coasts). A bridge that can reverse brakes with its brake levels."""
        level = {role: float(pin.state) for role, pin in self._motor_pins.items()}
        kind = DRIVERS[self.profile.motor.driver]
        duty = kind.speed(level)
        brake = levels(kind.brake, 0.0)
        braking = kind.can_reverse and all(level.get(r, v) == v for r, v in brake.items())
        return duty, duty == 0 and not braking

    # --- moving the machine ---

    def _run(self) -> None:
        while not self._closed:
            self._wake.clear()
            with self._lock:
                now = self._catch_up()
                due = self.machine.next_event_at()
            self._wake.wait(None if due == math.inf else max(due - now, 0.0))

    def catch_up(self) -> None:
        """The machine at this moment, every edge due delivered (in this thread): before a beam
        read, and before a board's main-loop step. Inside an edge's own callback the level is
        that edge's. With a firmware on the pins a caller never waits for the machine (an
        interrupt may need a lock the caller holds): it may see the level of a moment ago while
        the machine is busy."""
        if _held_here(self._lock):
            if self._edge_at is None:
                self._catch_up()
            return
        if self._interrupts:
            if self._lock.acquire(blocking=False):
                try:
                    self._catch_up()
                finally:
                    self._lock.release()
            return
        with self._lock:
            self._catch_up()

    def _catch_up(self) -> float:
        """Move the machine to now, applying every motor change at its stamp (the lock held)."""
        if self._closed:
            return self._clock()
        if self._edge_at is not None:  # inside an edge's callback: the machine is at the edge
            return self.machine.t
        with self._changes_lock:
            changes, self._changes = self._changes, []
            now = self._clock()
        for t, duty, free in changes:
            self._move_to(t)
            self.machine.drive(t, duty, free)
        self._move_to(now)
        return now

    def _move_to(self, until: float) -> None:
        while (event := self.machine.advance(until)) is not None:
            self._deliver(event)
            for _, duty, free in self._at_edge:  # an interrupt's change: at the edge
                self.machine.drive(event.t, duty, free)
            self._at_edge.clear()

    def _deliver(self, event: Event) -> None:
        self._edge_at = event.t
        try:
            if event.kind == "spike":
                (self._beam if event.pin == "beam" else self._button).spike(event.t)
            else:
                high = event.blocked == (self.profile.beam.blocked == "high")
                self._beam.drive(high, event.t)
        finally:
            self._edge_at = None
