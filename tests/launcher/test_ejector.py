"""Closed-loop ejection on the simulator: counts, every abort reason, motor pin histories."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import (
    Launcher,
    LauncherBusy,
    LauncherClosed,
    LauncherFault,
    LauncherStatus,
    load_pin_profile,
)
from tests.waiting import FakeClock, wait_until

from .helpers import fast_profile, pin, states

# The simulated cards run in real time, four times as fast as real ones, and each test counts
# them exactly: a controller starved by the parallel workers lets extra cards through (a fresh
# clone's parallel pass gave 6 of 4 and 13 of 12). Run alone (make pytest's second pass).
pytestmark = pytest.mark.serial

MakeLauncher = Callable[..., Launcher]


def run_part(history: list[float]) -> list[float]:
    """A forward line's history up to the first stop (the brake and retract follow it)."""
    end = history.index(0.0, 1)
    return history[: end + 1]


def assert_ran_then_stopped(history: list[float], top: float, last: float) -> None:
    """The line rose (soft start, never above `top`), slowed to `last` for the last card and
    ended off."""
    history = run_part(history)
    assert history[0] == 0.0 and history[-1] == 0.0
    running = history[1:-1]
    assert running and max(running) == pytest.approx(top)
    ramp = running[: running.index(max(running)) + 1]
    assert ramp == sorted(ramp), "soft start only ramps up"
    assert running[-1] == pytest.approx(min(last, top))


def test_eject_counts_cards_soft_starts_and_retracts(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher()
    tuning = launcher.profile.ejector
    result = launcher.eject(3)
    assert (result.requested, result.ejected, result.reason) == (3, 3, "count")
    assert result.complete and len(result.pulse_ms) == 3
    assert launcher.simulator.cards_out == 3
    forward = states(pin(mock_factory, 12))
    assert_ran_then_stopped(forward, tuning.speed, tuning.last_card_speed)
    assert forward[1] == pytest.approx(tuning.start_speed)
    assert forward[-2:] == [1.0, 0.0], "braked (both inputs high) before the retract"
    assert states(pin(mock_factory, 13)) == [0.0, 1.0, 0.0, tuning.retract_speed, 0.0]
    assert launcher.status is LauncherStatus.READY


def test_eject_zero_cards_does_not_touch_the_motor(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher()
    result = launcher.eject(0)
    assert (result.ejected, result.reason) == (0, "count")
    assert states(pin(mock_factory, 12)) == [0.0]


def test_eject_twelve_in_a_row_exactly(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher()
    total = 0
    for n in (1, 12, 5):
        result = launcher.eject(n)
        assert result.complete, result
        total += n
        assert launcher.simulator.cards_out == total


def test_eject_jam_stops_motor_and_latches_a_fault(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(jam_at=2)
    result = launcher.eject(4)
    assert (result.ejected, result.reason) == (1, "jam")
    assert "blocked" in result.detail
    assert states(pin(mock_factory, 12))[-1] == 0.0
    assert states(pin(mock_factory, 13)) == [0.0], "no retract into a jam"
    assert launcher.status is LauncherStatus.JAM
    with pytest.raises(LauncherFault, match="jam"):
        launcher.eject(1)
    launcher.simulator.clear_jam()
    launcher.clear_fault()
    assert launcher.eject(2).complete


def test_eject_empty_hopper(make_launcher: MakeLauncher, mock_factory: MockFactory) -> None:
    launcher = make_launcher(fast_profile(first_card_timeout_ms=300.0), cards=0)
    result = launcher.eject(3)
    assert (result.ejected, result.reason) == (0, "empty")
    assert states(pin(mock_factory, 12))[-1] == 0.0
    assert launcher.status is LauncherStatus.EMPTY


@pytest.mark.parametrize("name", ["hbridge", "mosfet"])
def test_one_card_from_an_empty_hopper_says_empty(make_launcher: MakeLauncher, name: str) -> None:
    """The commonest press asks one card, fed at the slower last-card speed: the hopper is
    found empty before the hard deadline (it once said "timeout", and the table refuses a
    reload until the launcher says empty), with the shipped profile's own timings."""
    launcher = make_launcher(load_pin_profile(name), cards=0, time_scale=1.0)
    result = launcher.eject(1)
    assert (result.ejected, result.reason) == (0, "empty"), result.detail
    assert launcher.status is LauncherStatus.EMPTY


def test_eject_runs_out_midway(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher(fast_profile(card_gap_timeout_ms=300.0), cards=2)
    result = launcher.eject(5)
    assert (result.ejected, result.reason) == (2, "empty")
    assert "next card" in result.detail


def test_eject_beam_activity_without_a_card_is_a_jam(
    make_launcher: MakeLauncher, mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Flickers of 0.2 ms on the beam and no card. Time is faked so a busy machine cannot stretch
    # a flicker into something that looks like a card.
    clock = FakeClock()
    launcher = make_launcher(fast_profile(first_card_timeout_ms=300.0), cards=0)
    monkeypatch.setattr(launcher.drive.ejector, "_clock", clock)  # type: ignore[attr-defined]  # a PinDrive
    monkeypatch.setattr(launcher.simulator._beam, "clock", clock)  # edges stamped on it too
    firing = threading.Event()
    launcher.add_status_consumer(
        lambda status, fault: firing.set() if status is LauncherStatus.FIRING else None
    )
    results = []
    worker = threading.Thread(target=lambda: results.append(launcher.eject(2)))
    worker.start()
    assert firing.wait(10)
    beam = pin(mock_factory, 27)
    for _ in range(5):
        clock.advance(0.02)
        beam.drive_low()
        clock.advance(0.0002)
        beam.drive_high()
    clock.advance(1.0)
    worker.join(10)
    (result,) = results
    assert (result.ejected, result.reason) == (0, "jam")
    assert result.noise == 5 and "movement" in result.detail


def test_eject_hard_deadline(make_launcher: MakeLauncher, mock_factory: MockFactory) -> None:
    launcher = make_launcher(fast_profile(max_run_ms=150.0), cards_per_second=3.0)
    result = launcher.eject(12)
    assert result.reason == "timeout" and result.ejected < 12
    assert states(pin(mock_factory, 12))[-1] == 0.0
    assert launcher.status is LauncherStatus.FAULT


def test_eject_with_noise_still_counts_exactly(make_launcher: MakeLauncher) -> None:
    # Real-time cards and the shipped pulse window: a flicker would have to be stretched past
    # 4 ms by the scheduler to pass for a card.
    launcher = make_launcher(load_pin_profile("hbridge"), time_scale=1.0, noise_per_second=20.0)
    for n in (2, 3):
        result = launcher.eject(n)
        assert result.complete, result
    assert launcher.simulator.cards_out == 5


def test_eject_stop_from_another_thread(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(cards_per_second=1.0)
    threading.Timer(0.2, launcher.stop).start()
    result = launcher.eject(12)
    assert result.reason == "stopped"
    assert states(pin(mock_factory, 12))[-1] == 0.0
    assert launcher.status is LauncherStatus.READY


def test_eject_close_from_another_thread_leaves_motor_off(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(cards_per_second=1.0)
    threading.Timer(0.2, launcher.close).start()
    result = launcher.eject(12)
    assert result.reason == "stopped"
    wait_until(lambda: launcher.closed, "the launcher closed")
    assert states(pin(mock_factory, 12))[-1] == 0.0
    with pytest.raises(LauncherClosed):
        launcher.eject(1)
    launcher.close()  # idempotent


def test_eject_exception_mid_run_leaves_motor_off(
    make_launcher: MakeLauncher, mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    launcher = make_launcher()
    motor = launcher.devices.motor
    real_forward = motor.forward
    calls = []

    def failing_forward(speed: float) -> None:
        calls.append(speed)
        real_forward(speed)
        if len(calls) == 3:
            raise RuntimeError("driver fault")

    monkeypatch.setattr(motor, "forward", failing_forward)
    with pytest.raises(RuntimeError, match="driver fault"):
        launcher.eject(5)
    forward = states(pin(mock_factory, 12))
    assert forward[-1] == 0.0 and max(forward) > 0
    assert launcher.status is LauncherStatus.READY
    monkeypatch.undo()
    assert launcher.eject(1).complete


def test_eject_busy_refuses_a_second_run(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher(cards_per_second=2.0)
    started = threading.Event()
    launcher.add_status_consumer(
        lambda status, fault: started.set() if status is LauncherStatus.FIRING else None
    )
    worker = threading.Thread(target=launcher.eject, args=(3,))
    worker.start()
    assert started.wait(10)
    with pytest.raises(LauncherBusy):
        launcher.eject(1)
    launcher.stop()
    worker.join(10)


def test_firing_is_said_once_the_motor_runs(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    """Scoreboards, lights and chime hear "firing" once the motor's forward line is on: nothing
    they do stands between a press and the motor."""
    launcher = make_launcher()
    forward = pin(mock_factory, 12)
    heard: list[float] = []
    launcher.add_status_consumer(
        lambda status, fault: (
            heard.append(forward.state) if status is LauncherStatus.FIRING else None
        )
    )
    assert launcher.eject(1).complete
    assert len(heard) == 1 and heard[0] > 0


def test_deal_uses_the_deal_speed(make_launcher: MakeLauncher, mock_factory: MockFactory) -> None:
    launcher = make_launcher()
    result = launcher.deal(7)
    assert result.complete and launcher.simulator.cards_out == 7
    run = run_part(states(pin(mock_factory, 12)))
    assert max(run) == pytest.approx(launcher.profile.ejector.deal_speed)


def test_eject_mosfet_build_has_no_retract(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(fast_profile("mosfet"))
    assert launcher.eject(4).complete
    tuning = launcher.profile.ejector
    assert_ran_then_stopped(states(pin(mock_factory, 12)), tuning.speed, tuning.last_card_speed)
    assert launcher.simulator.cards_out == 4


def test_eject_phase_enable_build_retracts_with_phase(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(fast_profile("phase-enable"))
    tuning = launcher.profile.ejector
    assert launcher.eject(2).complete
    enable, phase = states(pin(mock_factory, 12)), states(pin(mock_factory, 13))
    assert enable[-1] == 0.0 and tuning.retract_speed in enable
    assert phase == [0.0, 1.0, 0.0], "phase goes high only for the retract"


def test_eject_hbridge_enable_line_is_released_on_close(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher()
    enable = pin(mock_factory, 26)
    assert enable.state, "gpiozero holds the driver enabled while open"
    launcher.eject(1)
    launcher.close()
    assert enable.function == "input" and pin(mock_factory, 12).function == "input"
    assert states(pin(mock_factory, 12))[-1] == 0.0


def test_eject_lid_opened_mid_run_stops_and_refuses(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(cards_per_second=1.0)
    threading.Timer(0.2, launcher.simulator.open_lid).start()
    result = launcher.eject(10)
    assert result.reason == "stopped" and "lid" in result.detail
    assert states(pin(mock_factory, 12))[-1] == 0.0
    wait_until(lambda: launcher.fault is not None, "the open lid is a fault")
    assert launcher.fault is not None and launcher.fault.kind == "lid_open"
    with pytest.raises(LauncherFault, match="lid"):
        launcher.eject(1)
    launcher.simulator.close_lid()
    wait_until(lambda: launcher.fault is None, "the shut lid cleared the fault")
    assert launcher.eject(1).complete


def test_eject_a_spike_on_the_lid_line_never_stops_a_run(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    """Motor noise on the lid's wire (microseconds open) is not an open lid: the run goes on
    and no fault stands, on the gpio backend as on the Pico, which filters it too."""
    launcher = make_launcher(cards_per_second=4.0)
    lid = pin(mock_factory, 5)
    spikes = threading.Timer(0.3, lambda: [(lid.drive_high(), lid.drive_low()) for _ in range(5)])
    spikes.start()
    result = launcher.eject(4)
    spikes.join()
    # the run ended on its count (more than 4 only when a starved CPU let the motor run on)
    assert result.reason == "count" and result.ejected >= 4, result
    assert launcher.fault is None


def test_eject_negative_count_is_an_error(make_launcher: MakeLauncher) -> None:
    with pytest.raises(ValueError, match="cards"):
        make_launcher().eject(-1)
