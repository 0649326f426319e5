"""`calibrate` measures a motor the profile knows nothing about, at every duty the ejector
uses, and the profile it writes then counts exactly on that motor."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import Launcher, load_pin_profile
from controller.launcher.calibrate import CalibrationFailed, calibrate
from controller.launcher.pins import dump_pin_profile, pin_profile_from_toml
from controller.launcher.wheel import Wheel

from .helpers import SCALE, fast_profile, pin, states

# Calibration counts every card of many runs on a simulated machine four times as fast as a real
# one: a controller starved by the parallel workers lets extra cards through. Run alone (make
# pytest's second pass).
pytestmark = pytest.mark.serial

MakeLauncher = Callable[..., Launcher]
# the motor: nothing moves below duty 0.3, it lags 80 ms and a full hopper costs 10 %
MOTOR = Wheel(0.16, dead_zone=0.3, time_constant_s=0.08, coast_s=0.06, sag=0.1)


def test_calibrate_measures_the_dead_zone_and_the_last_card_then_counts_once(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(fast_profile(), wheel=MOTOR)  # the profile: an ideal motor
    tuned = calibrate(launcher, cards=10, runs=2)
    cal = tuned.calibration
    assert cal is not None and cal.samples == 40  # 10 ejected and 10 dealt, twice
    assert tuned.motor.dead_zone == pytest.approx(0.3, abs=0.03)
    speed = (cal.speed - 0.3) / 0.7 * (1 - 0.1 * 0.7)  # the wheel at the run speed, ~70 cards
    assert cal.pulse_ms_median == pytest.approx(MOTOR.card_s * SCALE * 1e3 / speed, rel=0.1)
    assert tuned.ejector.max_pulse_ms > 2 * tuned.one_card_ms(tuned.ejector.last_card_speed)
    assert states(pin(mock_factory, 12))[-1] == 0.0
    launcher.close()
    mock_factory.reset()  # fresh pins for the launcher with the tuned profile
    assert pin_profile_from_toml(dump_pin_profile(tuned), "tuned") == tuned
    counted = make_launcher(tuned, wheel=MOTOR)
    machine = counted.simulator
    for n in (10, 1, 4):
        before = machine.cards_out
        result = counted.eject(n)
        assert result.complete and result.doubles == 0, result
        assert machine.cards_out - before == n


def test_calibrate_says_which_duty_does_not_move_a_card(make_launcher: MakeLauncher) -> None:
    stuck = replace(MOTOR, dead_zone=0.52)  # the last card (duty 0.5) never moves
    launcher = make_launcher(fast_profile(card_gap_timeout_ms=100.0), wheel=stuck)
    with pytest.raises(CalibrationFailed, match=r"duty 0\.5 \(ejector\.last_card_speed\).*dead"):
        calibrate(launcher, cards=3, runs=1)


def test_calibrate_keeps_the_dead_zone_it_cannot_see(make_launcher: MakeLauncher) -> None:
    """A launcher that runs every card at one duty (a board without a slower last card, as the
    tuning here mimics) cannot tell a dead zone from a slow wheel: the profile's stays."""
    profile = fast_profile(deal_speed=0.8, last_card_speed=0.8)
    profile = replace(profile, motor=replace(profile.motor, dead_zone=0.1))
    launcher = make_launcher(profile, wheel=replace(MOTOR, dead_zone=0.1))
    tuned = calibrate(launcher, cards=4, runs=1)
    assert tuned.motor.dead_zone == 0.1
    assert tuned.calibration is not None and tuned.calibration.samples == 8


def test_calibrate_needs_two_cards() -> None:
    with pytest.raises(ValueError, match="2 cards"):
        calibrate(None, cards=1)  # type: ignore[arg-type]


def test_a_shipped_profile_is_an_ideal_motor_until_measured() -> None:
    motor = load_pin_profile("hbridge").motor
    assert (motor.dead_zone, motor.time_constant_ms, motor.coast_ms, motor.sag) == (0, 0, 0, 0)
