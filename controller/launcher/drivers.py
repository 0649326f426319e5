"""The motor driver kinds, declared once: each kind's lines, and what each line carries when the
motor runs forward, runs backward, brakes and is off.

gpiozero's split is the model: an H-bridge is a `Motor` (a PWM line per direction, an optional
enable), a PHASE/ENABLE driver a `PhaseEnableMotor`, a single MOSFET a `PWMOutputDevice`. The
host builds its gpiozero device from this table (`devices.FeedMotor`: a motor's line for role
`r` is its ``r_device``, as gpiozero names them), checks pin profiles against it
(`pins.MotorPins`) and simulates the motor from it (`sim`); the board's firmware
(firmware/uno_motor.py) drives the same lines the same way, and tests/firmware checks it does.

A line's level is 0 or 1, or ``DUTY``: the PWM duty asked for. Safe-off is the same for every
kind: every line driven low, then released to its pull-down (`safeoff`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

DUTY: Final = "duty"
Level = float | Literal["duty"]
Lines = Mapping[str, Level]
DriverName = Literal["hbridge", "phase_enable", "mosfet"]


@dataclass(frozen=True)
class Driver:
    """One kind of motor driver."""

    name: DriverName
    lines: tuple[str, ...]  # the lines it needs
    optional: tuple[str, ...]  # and those it may have
    forward: Lines
    backward: Lines | None  # None: it cannot reverse (and so cannot retract)
    brake: Lines  # "stop now": shorts the windings where the driver can, else lets it coast
    speed: Callable[[Mapping[str, float]], float]  # signed speed from the lines' levels
    device: str  # its gpiozero class: required lines positional, optional ones by keyword
    about: str

    @property
    def can_reverse(self) -> bool:
        return self.backward is not None

    @property
    def roles(self) -> tuple[str, ...]:
        return self.lines + self.optional


def _hbridge_speed(level: Mapping[str, float]) -> float:
    return (level["forward"] - level["backward"]) * level.get("enable", 1.0)


def _phase_enable_speed(level: Mapping[str, float]) -> float:
    return -level["enable"] if level["phase"] else level["enable"]


DRIVERS: dict[str, Driver] = {
    driver.name: driver
    for driver in (
        Driver(
            "hbridge",
            lines=("forward", "backward"),
            optional=("enable",),
            forward={"forward": DUTY, "backward": 0, "enable": 1},
            backward={"forward": 0, "backward": DUTY, "enable": 1},
            brake={"forward": 1, "backward": 1, "enable": 1},
            speed=_hbridge_speed,
            device="Motor",
            about="DRV8833 / TB6612 / L293D / L298N: a PWM input per direction, an optional "
            "enable (nSLEEP / STBY / EN)",
        ),
        Driver(
            "phase_enable",
            lines=("phase", "enable"),
            optional=(),
            forward={"phase": 0, "enable": DUTY},
            backward={"phase": 1, "enable": DUTY},
            brake={"phase": 0, "enable": 0},
            speed=_phase_enable_speed,
            device="PhaseEnableMotor",
            about="PHASE/ENABLE drivers (DRV8838, DRV8835 in PH/EN mode): PWM on ENABLE, the "
            "direction on PHASE",
        ),
        Driver(
            "mosfet",
            lines=("pin",),
            optional=(),
            forward={"pin": DUTY},
            backward=None,
            brake={"pin": 0},
            speed=lambda level: level["pin"],
            device="PWMOutputDevice",  # DigitalOutputDevice when the profile has no PWM
            about="one logic-level MOSFET on `pin`: it cannot reverse (no retract) nor brake",
        ),
    )
}
ROLES = ("enable", "forward", "backward", "phase", "pin")  # every line role, in a fixed order


def levels(lines: Lines, duty: float) -> dict[str, float]:
    """`lines` with ``DUTY`` replaced by `duty`."""
    return {role: duty if level == DUTY else float(level) for role, level in lines.items()}
