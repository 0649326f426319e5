"""Hardware-in-the-loop: the launcher against the jig (mock wires in CI, real wires on a Pi).

No motor is needed: the jig reads the motor driver's input lines back, and plays cards on the
beam input while the forward line is on.
"""

from __future__ import annotations

import threading
import time

import pytest

from controller.launcher import LauncherFault
from controller.launcher.safeoff import safe_off

from .conftest import Rig
from .jig import CardFeeder

WAIT = 10.0


def wait_until(condition, timeout: float = WAIT) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())


def test_hil_motor_lines_off_at_rest(rig: Rig) -> None:
    for role in ("forward", "backward"):
        assert not rig.jig.line_on(role, window=0.05), role


def test_hil_enable_line_high_while_open_and_low_after_close(rig: Rig) -> None:
    assert rig.jig.line_on("enable")
    rig.launcher.close()
    assert wait_until(lambda: not rig.jig.line_on("enable"))


def test_hil_press_reaches_the_consumer(rig: Rig) -> None:
    events: list[str] = []
    got = threading.Event()
    rig.launcher.add_press_consumer(lambda e: (events.append(e.kind), got.set()))
    rig.jig.press()
    assert wait_until(lambda: events[-2:] == ["press", "release"])


def test_hil_eject_counts_the_jig_cards_then_retracts(rig: Rig) -> None:
    feeder = CardFeeder(rig.jig)
    try:
        result = rig.launcher.eject(3)
    finally:
        feeder.close()
    assert result.complete, result
    assert feeder.emitted == 3
    assert rig.jig.seen_high["forward"] and rig.jig.seen_high["backward"]
    assert not rig.jig.line_on("forward", window=0.05)
    assert not rig.jig.line_on("backward", window=0.05)


def test_hil_jam_stops_the_motor(rig: Rig) -> None:
    feeder = CardFeeder(rig.jig, jam_at=2)
    try:
        result = rig.launcher.eject(5)
    finally:
        feeder.close()
        rig.jig.clear_beam()
    assert (result.ejected, result.reason) == (1, "jam")
    assert not rig.jig.line_on("forward", window=0.05)
    with pytest.raises(LauncherFault, match="jam"):
        rig.launcher.eject(1)


def test_hil_empty_stops_the_motor(rig: Rig) -> None:
    result = rig.launcher.eject(2)
    assert (result.ejected, result.reason) == (0, "empty")
    assert rig.jig.seen_high["forward"]
    assert not rig.jig.line_on("forward", window=0.05)


def test_hil_stuck_button_is_one_press_and_a_fault(rig: Rig) -> None:
    events: list[str] = []
    rig.launcher.add_press_consumer(lambda e: events.append(e.kind))
    rig.jig.hold_button()
    assert wait_until(lambda: "stuck" in events)
    rig.jig.release_button()
    assert wait_until(lambda: events[-1] == "release")
    assert events == ["press", "long_press", "stuck", "release"]
    assert rig.launcher.fault is not None and rig.launcher.fault.kind == "stuck_button"


def test_hil_open_lid_refuses_to_eject(rig: Rig) -> None:
    rig.jig.open_lid()
    assert wait_until(lambda: rig.launcher.fault is not None)
    with pytest.raises(LauncherFault, match="lid"):
        rig.launcher.eject(1)
    rig.jig.close_lid()
    assert wait_until(lambda: rig.launcher.fault is None)
    assert not rig.jig.line_on("forward", window=0.05)


def test_hil_safe_off_turns_off_a_line_left_on(rig: Rig) -> None:
    rig.launcher.close()
    forward_gpio = dict(rig.wiring.profile.motor.lines)["forward"]
    line = rig.factory.pin(f"GPIO{forward_gpio}")  # as a killed process would leave it
    line.function = "output"
    line.state = True
    assert rig.jig.line_on("forward")
    done, errors = safe_off(rig.wiring.profile, rig.factory)
    assert not errors and len(done) == len(rig.wiring.profile.motor.lines)
    assert wait_until(lambda: not rig.jig.line_on("forward"))
