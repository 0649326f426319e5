"""A late counter is not a fault: edges that reach the ejector late (a starved callback thread)
never make a jam or an empty hopper out of cards that came out, and a card heard only after
the run returned is charged by a late count. Edges are held back by the simulator and let go
from the test, so none of this depends on how busy the machine is."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import Launcher, LauncherStatus, load_pin_profile
from controller.launcher.late_cards import Settlement
from controller.launcher.wheel import Wheel

from .helpers import Recorder, fast_profile, pin, states

# the simulated cards run in real time against the launcher: alone, after the parallel pass
pytestmark = pytest.mark.serial

MakeLauncher = Callable[..., Launcher]


def release_on_first_stop(launcher: Launcher) -> list[float]:
    """Let the held edges go the moment the ejector first stops the motor (it suspects a jam
    or an empty hopper and listens); the duties the motor was given, in order."""
    machine = launcher.simulator
    duties: list[float] = []
    released = threading.Event()

    def on_motor(t: float, duty: float) -> None:
        duties.append(duty)
        if duty == 0 and any(d > 0 for d in duties) and not released.is_set():
            released.set()
            machine.release_edges()

    machine.add_motor_listener(on_motor)
    return duties


def test_late_edges_are_no_empty_hopper(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(fast_profile(first_card_timeout_ms=300.0))
    machine = launcher.simulator
    machine.hold_edges()  # the callback thread stalls: the cards cross, nobody hears them
    release_on_first_stop(launcher)
    result = launcher.eject(2)
    assert result.reason == "count", result
    assert result.ejected == machine.cards_out >= 2, "every card that came out is charged"
    assert launcher.fault is None and launcher.status is LauncherStatus.READY
    forward = states(pin(mock_factory, 12))
    assert forward[-3:] == [0.0, 1.0, 0.0], "stopped, braked, off"
    assert forward.count(0.0) >= 3, "it stopped to listen before it braked"


def test_late_edges_are_no_jam(make_launcher: MakeLauncher, mock_factory: MockFactory) -> None:
    launcher = make_launcher()
    machine = launcher.simulator
    ejector = launcher.drive.ejector  # type: ignore[attr-defined]  # a PinDrive
    hear = ejector.on_beam

    def hear_one_edge_then_stall(t: float, blocked: bool) -> None:
        hear(t, blocked)
        if ejector.on_beam is hear_one_edge_then_stall:
            ejector.on_beam = hear  # the first card's blocked edge came; then nothing for a while
            machine.hold_edges()

    ejector.on_beam = hear_one_edge_then_stall  # the beam "stays blocked" for card after card
    release_on_first_stop(launcher)
    result = launcher.eject(3)
    assert result.reason == "count", result
    assert result.ejected == machine.cards_out >= 3, "every card that came out is charged"
    assert launcher.fault is None
    assert states(pin(mock_factory, 12))[-1] == 0.0


def test_cards_heard_after_the_run_are_charged_by_a_late_count(
    make_launcher: MakeLauncher,
) -> None:
    launcher = make_launcher(fast_profile(first_card_timeout_ms=200.0))
    machine = launcher.simulator
    late = Recorder()
    launcher.add_settlement_consumer(late)
    machine.hold_edges()  # nothing is heard until the run is over
    result = launcher.eject(2)
    assert (result.ejected, result.reason) == (0, "empty")
    out = machine.cards_out
    assert out >= 1, "the motor ran and cards came out"
    machine.release_edges()
    late.wait_for(lambda items: bool(items))
    (count,) = late.items
    assert isinstance(count, Settlement) and count.result is result
    assert (count.ejected, count.difference, count.reason) == (out, out, "late")


def test_a_slow_last_card_on_a_motor_with_a_dead_zone_counts_once(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    """The issue's motor: a dead zone of 0.3 makes the last card (duty 0.5) crawl at 0.29 of
    full speed, not 0.5; judged by duty alone it measured 1.75 cards and counted as two."""
    profile = load_pin_profile("hbridge")
    profile = replace(profile, motor=replace(profile.motor, dead_zone=0.3, time_constant_ms=40.0))
    launcher = make_launcher(profile, time_scale=1.0)
    for n in (1, 3):
        result = launcher.eject(n)
        assert result.complete and result.doubles == 0, result
        assert all(0.8 < c < 1.2 for c in result.pulse_cards), result.pulse_cards
    assert launcher.simulator.cards_out == 4
    assert states(pin(mock_factory, 12))[-1] == 0.0


def test_a_profile_refuses_a_running_duty_inside_the_dead_zone() -> None:
    profile = load_pin_profile("hbridge")
    with pytest.raises(ValueError, match=r"ejector.last_card_speed.*dead zone"):
        replace(profile, motor=replace(profile.motor, dead_zone=0.55))


def test_the_machine_may_have_a_motor_of_its_own(make_launcher: MakeLauncher) -> None:
    wheel = Wheel(0.16, dead_zone=0.2, time_constant_s=0.05, coast_s=0.05, sag=0.1)
    launcher = make_launcher(wheel=wheel)
    assert launcher.simulator.options.wheel == wheel
    assert launcher.eject(2).ejected == launcher.simulator.cards_out
