"""The test jig: GPIO outputs drive the launcher's inputs, spare GPIO inputs read its motor lines.

One class for both backends. On a Pi (``UNO_HIL=1``) the jig is jumper wires between spare pins
of the same Pi (hardware/JIG.md); in CI the same wires are `MockConnectedPin`s. The jig only
uses gpiozero devices, so the tests cannot tell which one they are talking to either.
"""

from __future__ import annotations

import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins.mock import MockConnectedPin, MockFactory, MockPin, MockPWMPin

from controller.launcher import PinProfile, load_pin_profile
from controller.launcher.pins import hardware_dir
from controller.sections import check_pin

JIG_FILE = hardware_dir() / "jig" / "jig.toml"


@dataclass(frozen=True)
class JigWiring:
    profile: PinProfile
    drive: dict[str, int]
    sense: dict[str, int]


def load_jig(path: Path = JIG_FILE) -> JigWiring:
    """Read and check the jig wiring: header pins, no clash with the launcher's own pins."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    profile = load_pin_profile(data["profile"])
    wiring = JigWiring(profile, dict(data["drive"]), dict(data["sense"]))
    used = {gpio: key for key, gpio in profile.pins()}
    for group in ("drive", "sense"):
        for role, gpio in getattr(wiring, group).items():
            check_pin(f"jig {group}.{role}", gpio)
            if gpio in used:
                raise ValueError(f"jig {group}.{role}: GPIO {gpio} is the launcher's {used[gpio]}")
            used[gpio] = f"jig {group}.{role}"
    return wiring


class MockConnectedPWMPin(MockConnectedPin, MockPWMPin):  # type: ignore[misc]
    """A PWM-capable pin wired to another mock pin (high while its duty is above zero).

    When it is released to an input, the far end falls back to its own pull resistor, as a
    real wire does: the launcher's pulled-up inputs read high, the jig's pulled-down sense
    inputs read low.
    """

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        target = self.input_pin
        if value == "input" and target is not None and target.function == "input":
            if target.pull == "up":
                target.drive_high()
            elif target.pull == "down":
                target.drive_low()


class MockWiredInputPin(MockPWMPin):  # type: ignore[misc]
    """The far end of a jig wire: while the near end is an output, it wins over the pull.

    An edge is stamped with `stamp` when the jig gives one (the moment the card generator made
    it, in its own process), as the kernel stamps a real edge however late Python sees it.
    """

    wire: MockConnectedPWMPin | None = None
    stamp: float | None = None
    live: Any = None  # () -> level: what the wire carries right now (the generator's process)

    def _get_state(self) -> Any:
        live = self.live
        return super()._get_state() if live is None else live()

    def _call_when_changed(self, ticks: Any = None, state: Any = None) -> None:
        if self.stamp is None:
            super()._call_when_changed()
        else:
            super(MockPin, self)._call_when_changed(self.stamp, self._state)

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        wire = self.wire
        if wire is not None and wire.function == "output":
            self.drive_high() if wire.state else self.drive_low()


def _wire(factory: MockFactory, source: int, target: int) -> None:
    far = factory.pin(f"GPIO{target}", pin_class=MockWiredInputPin)
    near = factory.pin(f"GPIO{source}", pin_class=MockConnectedPWMPin, input_pin=far)
    far.wire = near


def mock_jig_factory(wiring: JigWiring) -> MockFactory:
    """Mock pins with the jig's wires in place. Create it before the launcher and the jig."""
    factory = MockFactory(pin_class=MockPWMPin)
    profile = wiring.profile
    lines = dict(profile.motor.lines)
    for role, gpio in wiring.sense.items():
        _wire(factory, lines[role], gpio)
    targets = {"button": profile.button.pin, "beam": profile.beam.pin}
    if profile.lid is not None:
        targets["lid"] = profile.lid.pin
    for role, gpio in wiring.drive.items():
        _wire(factory, gpio, targets[role])
    return factory


class Jig:
    """Press the button, block the beam, open the lid, and watch the motor lines."""

    LENT = ("button", "beam", "forward", "backward")  # what the card generator's process uses

    def __init__(self, wiring: JigWiring, *, pin_factory: Any) -> None:
        self.wiring, self._factory = wiring, pin_factory
        profile = wiring.profile
        self._beam_clear_high = profile.beam.blocked == "low"
        self._lid_open_high = profile.lid is None or profile.lid.open == "high"
        self._lid = None
        if "lid" in wiring.drive and profile.lid is not None:
            self._lid = DigitalOutputDevice(
                wiring.drive["lid"], initial_value=not self._lid_open_high, pin_factory=pin_factory
            )
        self.sense: dict[str, DigitalInputDevice] = {}
        self.seen_high: dict[str, bool] = {}
        self._lent = False
        self._open(set(wiring.sense) | {"button", "beam"})

    def _open(self, roles: set[str]) -> None:
        drive, factory = self.wiring.drive, self._factory
        if "button" in roles:
            self._button = DigitalOutputDevice(
                drive["button"], initial_value=True, pin_factory=factory
            )
        if "beam" in roles:
            self._beam = DigitalOutputDevice(
                drive["beam"], initial_value=self._beam_clear_high, pin_factory=factory
            )
        for role, gpio in self.wiring.sense.items():
            if role in roles:
                device = DigitalInputDevice(gpio, pull_up=False, pin_factory=factory)
                device.when_activated = self._seen(role)
                device.when_deactivated = self._motor_changed
                self.sense[role] = device
                self.seen_high.setdefault(role, False)

    on_motor: Any = None  # called with (forward, backward) whenever a motor line changes

    def _seen(self, role: str) -> Any:
        def mark() -> None:
            self.seen_high[role] = True
            self._motor_changed()

        return mark

    def _motor_changed(self) -> None:
        listener = self.on_motor
        if listener is not None and {"forward", "backward"} <= set(self.sense):
            listener(self.motor_levels())

    def reset_seen(self) -> None:
        self.seen_high = dict.fromkeys(self.sense, False)

    def press(self, hold: float = 0.1, rest: float = 0.1) -> None:
        self.hold_button()
        time.sleep(hold)
        self.release_button()
        time.sleep(rest)

    def hold_button(self) -> None:
        self._button.off()

    def release_button(self) -> None:
        self._button.on()

    def block_beam(self) -> None:
        self._beam.value = not self._beam_clear_high

    def clear_beam(self) -> None:
        self._beam.value = self._beam_clear_high

    def open_lid(self) -> None:
        assert self._lid is not None, "this jig has no lid wire"
        self._lid.value = self._lid_open_high

    def close_lid(self) -> None:
        assert self._lid is not None, "this jig has no lid wire"
        self._lid.value = not self._lid_open_high

    def motor_levels(self) -> tuple[bool, bool]:
        """(forward, backward) as read now (a PWM line reads its level at this instant)."""
        return bool(self.sense["forward"].value), bool(self.sense["backward"].value)

    def drive_line(self, line: str, asserted: bool, *, at: float | None = None) -> None:
        """Block/clear the beam or press/release the button, stamped `at` (mock wires)."""
        device = self._beam if line == "beam" else self._button
        far = getattr(device.pin, "input_pin", None)
        if far is not None:
            far.stamp = at
        try:
            if line == "beam":
                self.block_beam() if asserted else self.clear_beam()
            else:
                self.hold_button() if asserted else self.release_button()
        finally:
            if far is not None:
                far.stamp = None

    def set_live(self, line: str, asserted: Any) -> None:
        """Mock wires: read `line`'s level from ``asserted()`` (None: from its last edge), so a
        read is current however late the edges are applied, as a real pin's is."""
        device = self._beam if line == "beam" else self._button
        far = getattr(device.pin, "input_pin", None)
        if far is None:
            return
        if asserted is None:
            far.live = None
            return
        high_when_asserted = not self._beam_clear_high if line == "beam" else False
        far.live = lambda: bool(asserted()) == high_when_asserted

    def lend_to_feeder(self) -> dict[str, Any]:
        """Release the beam, button and motor sense pins to the card generator's process (real
        jig: two processes cannot hold one line); returns what it needs to open them."""
        drive, sense = self.wiring.drive, self.wiring.sense
        for device in (self._button, self._beam, self.sense["forward"], self.sense["backward"]):
            device.close()
        self._lent = True
        return {
            "beam": drive["beam"],
            "button": drive["button"],
            "forward": sense["forward"],
            "backward": sense["backward"],
            "beam_clear_high": self._beam_clear_high,
        }

    def take_back_from_feeder(self) -> None:
        if self._lent:
            self._lent = False
            self._open(set(self.LENT))

    def line_on(self, role: str, window: float = 0.02) -> bool:
        """True if the motor line is high at any moment in `window` (a PWM line toggles)."""
        device = self.sense[role]
        end = time.monotonic() + window
        while True:
            if device.value:
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(0.0005)

    def drives_forward(self, window: float = 0.02) -> bool:
        """Forward on and backward off: both on is an H-bridge's brake, which feeds no card."""
        if not self.line_on("forward", window):
            return False
        return "backward" not in self.sense or not self.line_on("backward", 0.0)

    def close(self) -> None:
        for device in (self._button, self._beam, self._lid, *self.sense.values()):
            if device is not None:
                device.close()
