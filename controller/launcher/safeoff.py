"""``uno-attack safe-off``: drive every motor line of a pin profile off, then release it.

systemd runs this after the service stops (``ExecStopPost=``), so a service that crashed or was
killed mid-eject cannot leave the motor running. Each line is claimed as an output driven low
(the motor stops at once), then released as an input, where the 10 kΩ pull-down on the driver
input keeps it low. Lines are handled one by one so one busy line does not stop the others.
"""

from __future__ import annotations

from typing import Any

from gpiozero import DigitalOutputDevice
from gpiozero.exc import GPIOZeroError

from controller.launcher.pins import PinProfile


def safe_off(profile: PinProfile, pin_factory: Any) -> tuple[list[str], list[str]]:
    """Drive each motor line low and release it. Returns (report lines, error lines)."""
    done: list[str] = []
    errors: list[str] = []
    for role, gpio in profile.motor.lines:
        name = f"motor.{role} (GPIO{gpio})"
        try:
            line = DigitalOutputDevice(gpio, initial_value=False, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as error:
            errors.append(f"{name}: could not claim the line: {error}")
            continue
        try:
            line.off()
        finally:
            line.close()
        done.append(f"{name}: driven low, released to its pull-down")
    return done, errors
