"""The pin profile's tuning reaches the board: every TUNE value the host sends lies within the
firmware's own limits (an out-of-range value would make the board refuse the whole TUNE), and
the brake and the duty cap are among them and are applied (end to end, on the fake board)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.launcher.board import FakeBoard, IncompatibleBoard, SerialLauncher
from controller.launcher.board.firmware import make_importable, proto
from controller.launcher.board.launcher import tune_args
from controller.launcher.pins import PinProfile, load_pin_profile
from tests.launcher.helpers import WAIT
from tests.waiting import wait_until

from .conftest import board_of, serial_profile

make_importable()
from uno_eject import Tuning  # noqa: E402  (the firmware's limits)

Open = Callable[..., SerialLauncher]
PROFILES = sorted(p.stem for p in (Path(__file__).parents[2] / "hardware").glob("*.toml"))


def capped(profile: PinProfile, *, brake_ms: float = 120.0) -> PinProfile:
    """`profile` with a motor whose stall current the driver carries only to 75 % duty, and no
    soft start."""
    motor = dataclasses.replace(profile.motor, stall_current_a=2.0, driver_current_a=1.5)
    ejector = dataclasses.replace(
        profile.ejector,
        speed=0.7,
        start_speed=0.4,
        deal_speed=0.6,
        last_card_speed=0.5,
        retract_speed=0.6,
        brake_ms=brake_ms,
        soft_start_ms=0.0,  # the first forward duty is the run's: capped, whatever is asked
    )
    return dataclasses.replace(profile, motor=motor, ejector=ejector)


@pytest.mark.parametrize("name", PROFILES)
def test_every_tune_value_is_within_the_firmwares_limits(name: str) -> None:
    profile = load_pin_profile(name)
    for extreme in (
        profile,
        profile.with_ejector(brake_ms=0.0),
        profile.with_ejector(brake_ms=1000.0),
    ):
        given = proto.fields(tune_args(extreme))
        assert {"brake_ms", "max_duty"} <= set(given)
        for key, text in given.items():
            low, high = Tuning.LIMITS[key]
            assert low <= int(text) <= high, (name, key, text)
        Tuning().check()


def test_the_duty_cap_is_rounded_down_never_above_the_profiles() -> None:
    profile = capped(serial_profile())  # 1.5 A / 2.0 A = 0.75
    assert proto.fields(tune_args(profile))["max_duty"] == "750"
    pico = load_pin_profile("pico")  # 1.5 A / 1.6 A = 0.9375: 937, not 938
    assert proto.fields(tune_args(pico))["max_duty"] == "937"
    assert proto.fields(tune_args(pico))["brake_ms"] == str(round(pico.ejector.brake_ms))


def test_e2e_brake_and_duty_cap_reach_the_board_and_are_applied(open_board: Open) -> None:
    launcher = open_board(capped(serial_profile()))
    board = board_of(launcher)
    assert board.app.tuning.brake_ms == 120 and board.app.tuning.max_duty == 750
    assert board.app.hw.motor.max_duty == 750
    # (time, net speed the driver gives, the speed the firmware drives) at every pin change;
    # the net speed passes through 1.0 for the instant between brake()'s two writes (forward
    # first, never reverse), so the cap is judged on what the firmware drives
    changes: list[tuple[float, float, int]] = []
    motor = board.app.hw.motor
    launcher.simulator.add_motor_listener(lambda t, s: changes.append((t, s, motor.speed)))
    assert launcher.eject(2).complete
    assert wait_until(lambda: not board.app.ejector.busy and launcher.simulator.speed == 0)
    # braked (speed 0) for brake_ms between the last forward speed and the retract
    last_forward = max(i for i, change in enumerate(changes) if change[1] > 0)
    stopped = changes[last_forward + 1][0]
    reverse = next(change[0] for change in changes[last_forward:] if change[1] < 0)
    assert reverse - stopped >= 0.120 - 0.002, changes
    assert changes[-1][1] == 0 and max(abs(change[2]) for change in changes) <= 750, changes
    # a command asking for full speed is held to the cap by the board itself
    seen = len(changes)
    job = 2**30
    launcher.link.request("EJECT", f"job={job}", "n=1", "speed=1000", "deadline=5000")
    assert wait_until(
        lambda: board.app.ejector.last is not None and board.app.ejector.last[0] == job
    )
    assert wait_until(lambda: launcher.simulator.speed == 0)
    assert max(change[2] for change in changes[seen:]) == 750, changes[seen:]


def test_a_board_that_refuses_the_tuning_says_to_update_it(monkeypatch: pytest.MonkeyPatch) -> None:
    limits = dict(Tuning.LIMITS)
    limits["brake_ms"] = (0, 500)  # firmware 0.1.0's limit
    monkeypatch.setattr(Tuning, "LIMITS", limits)
    profile = serial_profile().with_ejector(brake_ms=600.0)
    with FakeBoard(profile) as board, pytest.raises(IncompatibleBoard) as caught:
        SerialLauncher(profile, lambda: board.port, connect_timeout=WAIT)
    message = str(caught.value)
    assert "brake_ms" in message and "make firmware-deploy" in message
