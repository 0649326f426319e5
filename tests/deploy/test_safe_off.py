"""`uno-attack safe-off` drives every motor line of each pin profile off (on mock pins)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.cli import main
from controller.launcher.pins import load_pin_profile, pin_profile_names
from controller.launcher.safeoff import safe_off


@pytest.mark.parametrize("name", pin_profile_names())
def test_safe_off_drives_every_motor_line_of_each_profile_off(name: str) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        profile = load_pin_profile(name)
        lines = [gpio for _, gpio in profile.motor.lines]
        assert lines
        for gpio in lines:  # a killed service left every motor line driven
            pin = factory.pin(gpio)
            pin.function = "output"
            pin.state = 1
        done, errors = safe_off(profile, factory)
        assert not errors and len(done) == len(lines)
        for gpio in lines:
            pin = factory.pin(gpio)
            assert pin.states[-1].state == 0 and pin.function == "input"
    finally:
        factory.close()


def test_safe_off_takes_the_profile_from_the_service_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[launcher]\npin_profile = "mosfet"\n')
    assert main(["safe-off", "--config", str(config), "--mock"]) == 0
    out = capsys.readouterr().out
    profile = load_pin_profile("mosfet")
    for role, gpio in profile.motor.lines:
        assert f"motor.{role} (GPIO{gpio})" in out
    config.write_text("[launcher]\npin_profil = 1\n")
    assert main(["safe-off", "--config", str(config), "--mock"]) == 2
