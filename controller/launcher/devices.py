"""The launcher's gpiozero devices, composed like a gpiozero board from a pin profile.

`LauncherDevices` builds every fitted part with the injected pin factory (keyword-only
``pin_factory``, as gpiozero does) and closes them all, motor first. It only wires parts to pins;
behaviour (debounce, counting, feedback) lives in the modules that use it. Inputs report edges
through plain callables that the owner must keep quick: they run on gpiozero's callback thread
(lgpio's single thread on a Pi, the caller's thread on mock pins).

Every edge carries its own time: lgpio stamps it in the kernel (CLOCK_MONOTONIC, the clock of
`time.monotonic()`) and gpiozero hands the stamp to the device. The callback itself may run tens
of milliseconds later, and several edges may arrive at once, when other Python threads hold the
GIL: so the owner judges widths and gaps on the stamps, never on when the callback ran.

lgpio delivers every input's edges on one thread, and an exception escaping a callback ends that
thread: every input of the process would go deaf, silently. So no exception leaves an input's
callback: it is logged and handed to the owner's ``on_error(input name, error)``, and the inputs
keep working. `alert_thread_dead()` says when lgpio's thread has ended anyway.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

import gpiozero
from gpiozero import (
    PWMLED,
    RGBLED,
    Buzzer,
    DigitalInputDevice,
    DigitalOutputDevice,
    OutputDevice,
    PhaseEnableMotor,
    PWMOutputDevice,
    TonalBuzzer,
)
from gpiozero.exc import GPIOZeroError

from controller.launcher.drivers import DRIVERS, levels
from controller.launcher.errors import PinProfileError
from controller.launcher.pins import LGPIO_MAX_PWM_HZ, MotorPins, PinProfile

log = logging.getLogger(__name__)

EdgeCallback = Callable[[float, bool], None]  # (stamp in monotonic seconds, asserted)
ErrorCallback = Callable[[str, Exception], None]  # (input name, what its callback raised)


class FeedMotor:
    """The feed motor behind whichever driver the profile names, with one small interface.

    Wire each driver input with a 10 kΩ pull-down to GND so a released line (pins reset to
    inputs) means "motor off". `stop()` is safe to call at any time, even after `close()`.
    Every duty is capped at the profile's `max_duty` (the driver's current rating against the
    motor's stall current). `brake()` shorts the motor through the bridge (both H-bridge inputs
    high; ENABLE low on a PHASE/ENABLE driver), which stops it far quicker than coasting: the
    ejector brakes before it reverses, so the gearbox never takes a full-speed reversal.
    """

    def __init__(self, config: MotorPins, *, pin_factory: Any) -> None:
        check_pwm_frequency(config, pin_factory)
        self.config = config
        self._device = _build_motor(config, pin_factory)
        self._lines = _line_devices(self._device, config.driver)
        for line in self._lines.values():
            if isinstance(line, PWMOutputDevice):
                line.frequency = config.pwm_frequency
        self._single = isinstance(self._device, OutputDevice)
        self._closed = False

    @property
    def can_reverse(self) -> bool:
        return self.config.can_reverse

    @property
    def value(self) -> float:
        """Signed speed: positive forward, negative backward, 0 stopped."""
        return 0.0 if self._closed else float(self._device.value)

    def forward(self, speed: float) -> None:
        speed = self._duty(speed)
        if self._single:
            self._device.value = speed
        else:
            self._device.forward(speed)

    def backward(self, speed: float) -> None:
        if not self.can_reverse:
            raise ValueError(f"a {self.config.driver} driver cannot reverse")
        self._device.backward(self._duty(speed))

    def brake(self) -> None:
        """Short the motor's terminals (an H-bridge's both inputs high, a PHASE/ENABLE driver's
        enable low); a MOSFET build can only let it coast."""
        if self._closed:
            return
        self.stop()
        for role, level in levels(DRIVERS[self.config.driver].brake, 0.0).items():
            line = self._lines.get(role)
            if line is not None and line.value != level:
                line.value = level

    def _duty(self, speed: float) -> float:
        speed = min(_clamp(speed), self.config.max_duty)
        if not self.config.pwm:
            return 1.0 if speed > 0 else 0.0
        return speed

    def stop(self) -> None:
        """Motor off. Never raises for a closed device: closed pins are released (off)."""
        if self._closed:
            return
        try:
            if self._single:
                self._device.off()
            else:
                self._device.stop()
            if isinstance(self._device, PhaseEnableMotor):
                self._device.phase_device.off()  # every line at rest, not just enable
        except GPIOZeroError:
            if not self._device.closed:
                raise

    def close(self) -> None:
        if self._closed:
            return
        self.stop()
        self._closed = True
        self._device.close()


def _clamp(speed: float) -> float:
    return min(1.0, max(0.0, float(speed)))


def check_pwm_frequency(config: MotorPins, pin_factory: Any) -> None:
    """Refuse a PWM frequency the Pi's pins cannot make. lgpio (the default factory, and the
    only one on a Pi 5) runs PWM as a software thread that tops out near 10 kHz; the simulator
    stands for those pins and refuses the same."""
    if config.pwm and config.pwm_frequency > LGPIO_MAX_PWM_HZ:
        kind = type(pin_factory).__name__
        raise PinProfileError(
            f"motor.pwm_frequency: {config.pwm_frequency} Hz is more than the Pi's software "
            f"PWM can make ({LGPIO_MAX_PWM_HZ} Hz with lgpio; pins: {kind}); use 500-10000 Hz, "
            "or a launcher board (Pico) for 20 kHz"
        )


def _build_motor(config: MotorPins, pin_factory: Any) -> Any:
    """gpiozero's device for the profile's driver (`Driver.device`): its required lines in
    order and its optional ones by keyword; a one-line device is a PWM or an on/off output as
    the profile says."""
    kind = DRIVERS[config.driver]
    device = getattr(gpiozero, kind.device)
    required = [getattr(config, role) for role in kind.lines]
    if issubclass(device, OutputDevice):
        device = device if config.pwm else DigitalOutputDevice
        return device(*required, pin_factory=pin_factory)
    optional = {role: getattr(config, role) for role in kind.optional}
    return device(*required, **optional, pwm=config.pwm, pin_factory=pin_factory)


def _line_devices(device: Any, driver: str) -> dict[str, Any]:
    """The output device on each of the motor's lines, by role (`drivers.ROLES`): a one-line
    device is its own, a gpiozero motor names its line for role ``r`` ``r_device``."""
    kind = DRIVERS[driver]
    if isinstance(device, OutputDevice):
        return {kind.lines[0]: device}
    found = {role: getattr(device, f"{role}_device", None) for role in kind.roles}
    return {role: line for role, line in found.items() if line is not None}


class LauncherDevices:
    """Every fitted part of one launcher build, on pins from a `PinProfile`.

    ``on_button(pressed)``, ``on_beam(blocked)`` and ``on_lid(open)`` are called on each edge,
    from gpiozero's callback thread: they must only hand the edge on (enqueue), never block.
    Whatever one of them raises goes to ``on_error(name, error)`` (by default only logged).
    """

    def __init__(
        self,
        profile: PinProfile,
        *,
        pin_factory: Any,
        on_button: EdgeCallback,
        on_beam: EdgeCallback,
        on_lid: EdgeCallback | None = None,
        on_error: ErrorCallback | None = None,
    ) -> None:
        self.profile = profile
        self._closables: list[Any] = []
        self._on_error = on_error
        try:
            self.motor = self._keep(FeedMotor(profile.motor, pin_factory=pin_factory))
            self.button = self._input("button", profile.button.pin, True, True, on_button,
                                      pin_factory)  # fmt: skip
            beam_low = profile.beam.blocked == "low"
            self.beam = self._input("beam", profile.beam.pin, beam_low, beam_low, on_beam,
                                    pin_factory)  # fmt: skip
            self.lid: _Input | None = None
            if profile.lid is not None and on_lid is not None:
                open_low = profile.lid.open == "low"
                self.lid = self._input("lid", profile.lid.pin, True, open_low, on_lid,
                                       pin_factory)  # fmt: skip
            self._outputs(profile, pin_factory)
        except BaseException:
            self.close()
            raise

    def _outputs(self, profile: PinProfile, pin_factory: Any) -> None:
        self.button_led = None
        self.rgb_led = None
        self.buzzer: Buzzer | TonalBuzzer | None = None
        if profile.button_led is not None:
            self.button_led = self._keep(PWMLED(profile.button_led.pin, pin_factory=pin_factory))
        if profile.rgb_led is not None:
            rgb = profile.rgb_led
            self.rgb_led = self._keep(
                RGBLED(
                    rgb.red,
                    rgb.green,
                    rgb.blue,
                    active_high=rgb.active_high,
                    pin_factory=pin_factory,
                )
            )
        if profile.buzzer is not None:
            kind = TonalBuzzer if profile.buzzer.kind == "tonal" else Buzzer
            self.buzzer = self._keep(kind(profile.buzzer.pin, pin_factory=pin_factory))

    def _keep(self, device: Any) -> Any:
        self._closables.append(device)
        return device

    def _input(
        self,
        name: str,
        pin: int,
        pull_up: bool,
        asserted_low: bool,
        callback: EdgeCallback,
        pin_factory: Any,
    ) -> _Input:
        device = StampedInputDevice(pin, pull_up=pull_up, pin_factory=pin_factory)
        device.name = name
        device.on_error = self._on_error
        self._keep(device)
        return _Input(device, invert=pull_up != asserted_low, callback=callback)

    @property
    def button_pressed(self) -> bool:
        return self.button.asserted

    @property
    def beam_blocked(self) -> bool:
        return self.beam.asserted

    @property
    def lid_open(self) -> bool:
        return self.lid is not None and self.lid.asserted

    def close(self) -> None:
        """Motor off and closed first, then everything else. Idempotent."""
        for device in self._closables:
            if isinstance(device, FeedMotor):
                device.close()
        while self._closables:
            device = self._closables.pop()
            if not isinstance(device, FeedMotor):
                device.close()


class StampedInputDevice(DigitalInputDevice):  # type: ignore[misc]  # gpiozero is untyped
    """A `DigitalInputDevice` that passes each edge's own timestamp on.

    gpiozero calls ``_fire_events(ticks, active)`` with the stamp the pin reported (lgpio's
    kernel timestamp, or the mock's); `on_edge(stamp, active)` gets it with every change.
    """

    on_edge: Callable[[float, bool], None] | None = None
    on_error: ErrorCallback | None = None
    name = "input"

    def _fire_events(self, ticks: Any, new_active: bool) -> None:
        try:
            before = self._last_active
            super()._fire_events(ticks, new_active)
            handler = self.on_edge
            if handler is not None and before is not None and before != new_active:
                handler(float(ticks), bool(new_active))
        except Exception as error:  # the callback thread is every input's: it must live on
            log.exception("the %s input's edge handler failed", self.name)
            self._report(error)

    def _report(self, error: Exception) -> None:
        report = self.on_error
        if report is None:
            return
        try:
            report(self.name, error)
        except Exception:
            log.exception("reporting the %s input's failure failed too", self.name)


def alert_thread_dead() -> bool:
    """lgpio's one edge-delivering thread has ended: no input of this process hears an edge.

    Only where lgpio is already loaded (the gpio backend on a Pi); never imports it."""
    lgpio = sys.modules.get("lgpio")
    thread = getattr(lgpio, "_notify_thread", None)
    started = getattr(thread, "ident", None) is not None
    return started and not thread.is_alive()  # type: ignore[union-attr]


class _Input:
    """A digital input read as "asserted" (pressed / blocked / open), whatever its wiring.

    No gpiozero debounce (backends differ and the mock ignores it): the owner filters edges,
    on their stamps.
    """

    def __init__(self, device: StampedInputDevice, *, invert: bool, callback: EdgeCallback) -> None:
        self.device = device
        self._invert = invert
        device.on_edge = lambda t, active: callback(t, active != invert)

    @property
    def asserted(self) -> bool:
        return bool(self.device.is_active) != self._invert
