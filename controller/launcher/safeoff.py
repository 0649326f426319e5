"""``uno-attack safe-off``: drive every motor line of a pin profile off, then release it.

systemd runs this after the service stops (``ExecStopPost=``), and the motor guard
(`controller.launcher.guard`) runs the same per-line code the moment a guarded process dies, so
a service that crashed or was killed mid-eject cannot leave the motor running. Each line is
claimed as an output driven low (every motor-driver input in the pin profiles is off when low;
the motor stops at once), then released, where the 10 kΩ pull-down on the driver input keeps it
low. Lines are handled one by one so one busy line does not stop the others.
"""

from __future__ import annotations

from typing import Any

from gpiozero import DigitalOutputDevice

from controller.launcher.pins import PinProfile


def drive_line_off(gpio: int, pin_factory: Any) -> str | None:
    """Claim `gpio` as an output driven low and release it. None if done, else why not."""
    try:
        line = DigitalOutputDevice(gpio, initial_value=False, pin_factory=pin_factory)
    except Exception as error:  # lgpio's own `lgpio.error` ("GPIO busy") is neither a
        return f"could not claim the line: {error}"  # gpiozero error nor an OSError
    try:
        line.off()
    finally:
        line.close()
    return None


def safe_off(profile: PinProfile, pin_factory: Any) -> tuple[list[str], list[str]]:
    """Drive each motor line low and release it. Returns (report lines, error lines)."""
    done: list[str] = []
    errors: list[str] = []
    for role, gpio in profile.motor.lines:
        name = f"motor.{role} (GPIO{gpio})"
        problem = drive_line_off(gpio, pin_factory)
        if problem is None:
            done.append(f"{name}: driven low, released to its pull-down")
        else:
            errors.append(f"{name}: {problem}")
    return done, errors
