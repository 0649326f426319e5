"""The board's firmware drives each motor driver kind as the host's table says
(`controller.launcher.drivers.DRIVERS`): the same kinds, the same lines, and the same level on
each line when the motor runs forward, runs backward, brakes and is off."""

from __future__ import annotations

import pytest
import uno_motor

from controller.launcher.drivers import DRIVERS, Driver, Lines, levels
from tests.firmware.fakes import FakeMachine

GPIO = {"forward": 10, "backward": 11, "enable": 12, "phase": 13, "pin": 14}
HALF = 500  # per mille
FIRMWARE_HALF = uno_motor.duty(HALF) / 65535


def test_the_firmware_knows_exactly_the_hosts_driver_kinds() -> None:
    machine = FakeMachine()
    for name in DRIVERS:
        uno_motor.build_motor(machine, {"driver": name, **GPIO}, 20_000)
    with pytest.raises(ValueError, match="unknown driver"):
        uno_motor.Motor("stepper", machine.PWM(machine.Pin(20)))


def _board(driver: Driver) -> tuple[FakeMachine, uno_motor.Motor]:
    machine = FakeMachine()
    pins = {"driver": driver.name, **{role: GPIO[role] for role in driver.roles}}
    motor = uno_motor.build_motor(machine, pins, 20_000)
    motor.enable()
    return machine, motor


def _lines(machine: FakeMachine, driver: Driver) -> dict[str, float]:
    """The level each of the kind's lines was last driven to (a PWM's duty as a fraction)."""
    return {
        role: round(machine.pins[GPIO[role]].history[-1], 3)
        for role in driver.roles
        if GPIO[role] in machine.pins
    }


def _expected(lines: Lines) -> dict[str, float]:
    return {role: round(level, 3) for role, level in levels(lines, FIRMWARE_HALF).items()}


@pytest.mark.parametrize("name", DRIVERS)
def test_the_firmware_drives_each_kinds_lines_as_the_table_says(name: str) -> None:
    driver = DRIVERS[name]
    machine, motor = _board(driver)
    assert set(_lines(machine, driver)) == set(driver.roles)  # every line claimed

    motor.forward(HALF)
    assert _lines(machine, driver) == _expected(driver.forward)
    assert motor.can_reverse == driver.can_reverse
    motor.backward(HALF)
    if driver.backward is None:  # it cannot reverse: it stops instead
        assert all(level == 0 for level in _lines(machine, driver).values())
    else:
        assert _lines(machine, driver) == _expected(driver.backward)

    motor.forward(HALF)
    motor.brake()
    assert _lines(machine, driver) == _expected(driver.brake)

    motor.disable()  # safe-off: every line low
    assert all(level == 0 for level in _lines(machine, driver).values())
