"""The host's gpiozero devices drive each motor driver kind as the table says
(`controller.launcher.drivers.DRIVERS`; tests/firmware/test_drivers.py checks the board), and the
simulator reads the motor's speed back from those lines the same way."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher.devices import FeedMotor
from controller.launcher.drivers import DRIVERS, Lines, levels
from controller.launcher.pins import load_pin_profile, pin_profile_names

HALF = 0.5


def _shipped() -> dict[str, str]:
    """One shipped pin profile for each driver kind (the first by name)."""
    found: dict[str, str] = {}
    for name in pin_profile_names():
        found.setdefault(load_pin_profile(name).motor.driver, name)
    return found


PROFILES = _shipped()


def test_every_driver_kind_has_a_shipped_profile() -> None:
    assert set(PROFILES) == set(DRIVERS)


@pytest.mark.parametrize("name", DRIVERS)
def test_the_hosts_devices_drive_each_kinds_lines_as_the_table_says(
    name: str, mock_factory: MockFactory
) -> None:
    driver = DRIVERS[name]
    config = load_pin_profile(PROFILES[name]).motor
    assert {role for role, _ in config.lines} <= set(driver.roles)
    assert set(driver.lines) <= {role for role, _ in config.lines}
    motor = FeedMotor(config, pin_factory=mock_factory)

    def now() -> dict[str, float]:
        return {role: float(mock_factory.pin(gpio).state) for role, gpio in config.lines}

    def expected(lines: Lines) -> dict[str, float]:
        return {role: level for role, level in levels(lines, HALF).items() if role in now()}

    try:
        motor.forward(HALF)
        assert now() == expected(driver.forward)
        assert driver.speed(now()) == HALF
        assert motor.can_reverse == driver.can_reverse
        if driver.backward is None:
            with pytest.raises(ValueError, match="cannot reverse"):
                motor.backward(HALF)
        else:
            motor.backward(HALF)
            assert now() == expected(driver.backward)
            assert driver.speed(now()) == -HALF
        motor.brake()
        assert now() == expected(driver.brake)
        assert driver.speed(now()) == 0
        motor.stop()
        assert driver.speed(now()) == 0
    finally:
        motor.close()
