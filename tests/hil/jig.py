"""The test jig: GPIO outputs drive the launcher's inputs, spare GPIO inputs read its motor lines.

One class for both backends. On a Pi (``UNO_HIL=1``) the jig is jumper wires between spare pins
of the same Pi (hardware/JIG.md); in CI the same wires are `MockConnectedPin`s. The jig only
uses gpiozero devices, so the tests cannot tell which one they are talking to either.
"""

from __future__ import annotations

import threading
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins.mock import MockConnectedPin, MockFactory, MockPWMPin

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
    """The far end of a jig wire: while the near end is an output, it wins over the pull."""

    wire: MockConnectedPWMPin | None = None

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

    def __init__(self, wiring: JigWiring, *, pin_factory: Any) -> None:
        profile = wiring.profile
        self._beam_clear_high = profile.beam.blocked == "low"
        self._lid_open_high = profile.lid is None or profile.lid.open == "high"
        drive = wiring.drive
        self._button = DigitalOutputDevice(
            drive["button"], initial_value=True, pin_factory=pin_factory
        )
        self._beam = DigitalOutputDevice(
            drive["beam"], initial_value=self._beam_clear_high, pin_factory=pin_factory
        )
        self._lid = None
        if "lid" in drive and profile.lid is not None:
            self._lid = DigitalOutputDevice(
                drive["lid"], initial_value=not self._lid_open_high, pin_factory=pin_factory
            )
        self.sense = {
            role: DigitalInputDevice(gpio, pull_up=False, pin_factory=pin_factory)
            for role, gpio in wiring.sense.items()
        }
        self.seen_high = {role: False for role in self.sense}
        for role, device in self.sense.items():
            device.when_activated = self._seen(role)

    def _seen(self, role: str) -> Any:
        def mark() -> None:
            self.seen_high[role] = True

        return mark

    def reset_seen(self) -> None:
        self.seen_high = {role: False for role in self.sense}

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


class CardFeeder:
    """The jig's stand-in for cards: while the forward line is on, pulse the beam like cards.

    `jam_at`: that card blocks the beam and never clears. `cards`: how many are in the "hopper".
    """

    def __init__(
        self,
        jig: Jig,
        *,
        cards: int = 50,
        pulse: float = 0.03,
        gap: float = 0.04,
        jam_at: int | None = None,
    ) -> None:
        self.jig, self.cards, self.pulse, self.gap, self.jam_at = jig, cards, pulse, gap, jam_at
        self.emitted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="jig-feeder", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set() and self.cards > 0:
            if not self.jig.drives_forward(window=0.002):
                continue
            if self._stop.wait(self.gap):
                return
            if not self.jig.drives_forward(window=0.005):
                continue  # the motor stopped before this card reached the beam
            self.jig.block_beam()
            if self.jam_at == self.emitted + 1:
                return  # jammed: the beam stays blocked
            if self._stop.wait(self.pulse):
                self.jig.clear_beam()
                return
            self.jig.clear_beam()
            self.emitted += 1
            self.cards -= 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
