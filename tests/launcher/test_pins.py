"""Pin profiles: the shipped builds load and round-trip; every validation error names its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.launcher.errors import PinProfileError
from controller.launcher.pins import (
    EjectorTuning,
    dump_pin_profile,
    load_pin_profile,
    pin_profile_from_toml,
    pin_profile_names,
)

MINIMAL = """
[motor]
driver = "hbridge"
forward = 12
backward = 13

[button]
pin = 17

[beam]
pin = 27
"""


def test_pin_profiles_shipped_builds_load_and_round_trip() -> None:
    names = pin_profile_names()
    assert {"hbridge", "mosfet", "phase-enable"} <= set(names)
    for name in names:
        profile = load_pin_profile(name)
        assert pin_profile_from_toml(dump_pin_profile(profile), name) == profile


def test_pin_profiles_hbridge_and_mosfet_builds() -> None:
    hbridge, mosfet = load_pin_profile("hbridge"), load_pin_profile("mosfet")
    assert hbridge.motor.driver == "hbridge" and hbridge.motor.can_reverse
    assert mosfet.motor.driver == "mosfet" and not mosfet.motor.can_reverse
    assert dict(hbridge.motor.lines) == {"enable": 26, "forward": 12, "backward": 13}


def test_pin_profile_minimal_uses_defaults_and_a_window_from_the_wheel() -> None:
    profile = pin_profile_from_toml(MINIMAL, "mini")
    assert profile.name == "mini" and profile.buzzer is None and profile.lid is None
    # one card at 0.8 with a 35 mm wheel at 300 rpm: 198 ms; at 0.5: 316 ms
    assert (profile.ejector.min_pulse_ms, profile.ejector.max_pulse_ms) == (49.4, 792.0)
    assert profile.ejector == EjectorTuning(min_pulse_ms=49.4, max_pulse_ms=792.0)
    slow = pin_profile_from_toml(
        MINIMAL.replace("backward = 13", "backward = 13\nwheel_rpm = 150"), "slow"
    )
    assert slow.ejector.max_pulse_ms == 1583.0


def test_pin_profile_load_by_path(tmp_path: Path) -> None:
    path = tmp_path / "mybuild.toml"
    path.write_text(MINIMAL)
    assert load_pin_profile(path).name == "mybuild"


def test_pin_profile_error_is_a_value_error() -> None:
    assert issubclass(PinProfileError, ValueError)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("", "colour = 1\n"), "unknown key 'colour'"),
        (("[button]\npin = 17", "[button]\npin = 17\npull = true"), "unknown key 'button.pull'"),
        (("[beam]\npin = 27", ""), r"missing section \[beam\]"),
        (("[button]\npin = 17", "[button]"), "missing key 'button.pin'"),
        (("pin = 17", "pin = 40"), "button.pin: GPIO 40 does not exist"),
        (("pin = 17", "pin = 1"), "button.pin: GPIO 1 is reserved"),
        (("pin = 27", "pin = 12"), "beam.pin: GPIO 12 is already used by motor.forward"),
        (("pin = 17", 'pin = "GPIO17"'), "button.pin: expected an integer"),
        (('driver = "hbridge"', 'driver = "servo"'), "motor.driver: expected one of"),
        (("backward = 13", ""), "motor.backward: required by driver 'hbridge'"),
        (("backward = 13", "backward = 13\nphase = 5"), "motor.phase: not used by driver"),
        (("backward = 13", "backward = 13\npwm = 1"), "motor.pwm: expected true or false"),
        (("backward = 13", "backward = 13\npwm_frequency = 5"), "motor.pwm_frequency: must be >="),
        (("pin = 27", 'pin = 27\nblocked = "up"'), "beam.blocked: expected one of"),
        (("", "[ejector]\nspeed = 1.5\n"), "ejector.speed: must be <= 1"),
        (("", "[ejector]\nspeed = 0.3\nstart_speed = 0.5\n"), "ejector.start_speed: must be <="),
        (("", "[ejector]\nmax_pulse_ms = 2\n"), "ejector.max_pulse_ms: must be >"),
        (("", "[ejector]\nretract_ms = -1\n"), "ejector.retract_ms: must be >= 0"),
        (("", "[ejector]\nsped = 1\n"), "unknown key 'ejector.sped'"),
        (("", "[press]\nstuck_ms = 1000\n"), "press.stuck_ms: must be >"),
        (("", "[lid]\npin = 5\nopen = true\n"), "lid.open: expected one of"),
        (("", "[rgb_led]\nred = 22\ngreen = 23\n"), "missing key 'rgb_led.blue'"),
        (("", "[buzzer]\npin = 25\nkind = 'loud'\n"), "buzzer.kind: expected one of"),
        (("", "[button_led]\npin = 17\n"), "button_led.pin: GPIO 17 is already used"),
        (("", "motor = 3\n"), "invalid TOML"),
        (("", "name = 3\n"), "name must be a string"),
        (("", "[ejector]\nspeed = true\n"), "ejector.speed: expected a number"),
        (("forward = 12", "forward = 4"), "motor.forward: GPIO 4 is pulled up at boot"),
        (("", "[ejector]\nmax_pulse_ms = 400\n"), r"max_pulse_ms: 400 ms is a false jam.*633"),
        (("", "[ejector]\nmin_pulse_ms = 80\n"), r"min_pulse_ms: 80 ms would drop real cards"),
        (
            ("[button]", "wheel_rpm = 100\n\n[ejector]\nmax_pulse_ms = 1000\n\n[button]"),
            r"max_pulse_ms: 1000 ms is a false jam.*last_card_speed 0.5.*35 mm wheel at 100 rpm",
        ),
        (
            ("backward = 13", "backward = 13\nstall_current_a = 3.0"),
            r"ejector.speed: duty 0.8 .* 2.40 A, more than the driver's 1.5 A",
        ),
    ],
)
def test_pin_profile_validation_names_the_key(edit: tuple[str, str], message: str) -> None:
    old, new = edit
    text = MINIMAL.replace(old, new, 1) if old else new + MINIMAL
    with pytest.raises(PinProfileError, match=message):
        pin_profile_from_toml(text, "bad")


def test_pin_profile_unknown_name_lists_shipped_profiles() -> None:
    with pytest.raises(PinProfileError, match=r"unknown pin profile 'warp'.*hbridge"):
        load_pin_profile("warp")


def test_pin_profile_unreadable_path(tmp_path: Path) -> None:
    with pytest.raises(PinProfileError, match="cannot read"):
        load_pin_profile(tmp_path / "gone.toml")


def test_ejector_tuning_scaled_and_deadline() -> None:
    tuning = EjectorTuning()
    fast = tuning.scaled(0.1)
    assert fast.max_pulse_ms == pytest.approx(100.0) and fast.speed == tuning.speed
    assert tuning.deadline_ms(3) == 120 + 1500 + 3 * 500
    assert tuning.deadline_ms(100) == tuning.max_run_ms
