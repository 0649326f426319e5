"""The feed wheel's motion model (pure): dead zone, spin-up lag, coast, brake, sag."""

from __future__ import annotations

import math

import pytest

from controller.launcher import load_pin_profile
from controller.launcher.wheel import DutyLog, Wheel


def test_wheel_steady_speed_has_a_dead_zone_and_sags_with_a_full_hopper() -> None:
    wheel = Wheel(0.16, dead_zone=0.3, sag=0.1)
    assert wheel.steady(0.2) == 0 and wheel.steady(0.3) == 0
    assert wheel.steady(0.65) == pytest.approx(0.5)
    assert wheel.steady(-0.65) == pytest.approx(-0.5)
    assert wheel.steady(1.0) == pytest.approx(1.0)
    assert wheel.steady(1.0, fill=1.0) == pytest.approx(0.9)


def test_wheel_spins_up_with_its_time_constant() -> None:
    log = DutyLog(0.0, Wheel(0.16, time_constant_s=0.05))
    log.set(0.0, 1.0)
    assert log.speed(0.05) == pytest.approx(1 - math.exp(-1))
    assert log.position(0.2) == pytest.approx(0.2 - 0.05 * (1 - math.exp(-4)))
    assert log.still_at() == math.inf


def test_wheel_coasts_to_a_stop_at_a_constant_rate() -> None:
    log = DutyLog(0.0, Wheel(0.16, dead_zone=0.2, coast_s=0.1))
    log.set(0.0, 1.0)
    log.set(1.0, 0.0, free=True)
    assert log.still_at() == pytest.approx(1.1)  # full speed, lost in coast_s
    assert log(1.0, 5.0) == pytest.approx(0.1 / 2)


def test_wheel_braked_slows_with_its_time_constant_until_the_load_stops_it() -> None:
    wheel = Wheel(0.16, dead_zone=0.2, time_constant_s=0.05)
    log = DutyLog(0.0, wheel)
    log.set(0.0, 1.0)
    log.set(2.0, 0.0)  # braked: heads for -dead_zone / (1 - dead_zone), stops at zero
    r, target = log.speed(2.0), -0.25
    assert log.still_at() == pytest.approx(2.0 + 0.05 * math.log((r - target) / -target))
    assert log.speed(10.0) == 0


def test_wheel_driven_inside_its_dead_zone_stays_still() -> None:
    log = DutyLog(0.0, Wheel(0.16, dead_zone=0.3, time_constant_s=0.05))
    log.set(0.0, 0.25)
    assert log.position(5.0) == 0 and log.still_at() == 0.0
    assert log.when(0.0, 0.01) == math.inf


def test_wheel_when_is_the_inverse_of_position() -> None:
    log = DutyLog(1.0, Wheel(0.16, dead_zone=0.2, time_constant_s=0.08, coast_s=0.2))
    for t, duty in ((1.0, 0.5), (1.1, 0.9), (1.5, 0.55)):
        log.set(t, duty)
    log.set(2.0, 0.0, free=True)
    for distance in (0.001, 0.05, 0.2, 0.4):
        t = log.when(1.0, distance)
        assert log.position(t) == pytest.approx(distance, abs=1e-9)
    assert log.when(1.0, 10.0) == math.inf  # the wheel has coasted to a stop by then


def test_wheel_of_a_profile_reads_the_motor_section() -> None:
    profile = load_pin_profile("hbridge")
    wheel = Wheel.of(profile)
    assert wheel.card_s == pytest.approx(profile.one_card_ms(1.0) / 1e3)
    assert (wheel.dead_zone, wheel.time_constant_s, wheel.coast_s, wheel.sag) == (
        profile.motor.dead_zone,
        profile.motor.time_constant_ms / 1e3,
        profile.motor.coast_ms / 1e3,
        profile.motor.sag,
    )
    assert wheel.scaled(0.5).card_s == pytest.approx(wheel.card_s / 2)
