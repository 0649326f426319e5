"""Presses through the real path: pin edge → callback → queue → input thread → consumer.

Tests wait on events with generous timeouts; they never rely on the mock's synchronous
callbacks delivering a press before `drive_low()` returns.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import (
    ButtonEvent,
    Launcher,
    LauncherStatus,
    PressRunner,
    SimOptions,
    SimulatedLauncher,
    handle_press,
    open_launcher,
)
from controller.policy import ScriptedPolicy
from tests.waiting import FakeClock, wait_until

from .helpers import Recorder, fast_profile, pin, states

# the simulated cards run in real time against the launcher: alone, after the parallel pass
pytestmark = pytest.mark.serial

MakeLauncher = Callable[..., Launcher]


def kinds(recorder: Recorder, kind: str) -> list[ButtonEvent]:
    return [e for e in recorder.items if e.kind == kind]


def motor_runs(history: list[float]) -> int:
    """How many times the forward line went from off to a running duty (a brake after a run
    holds it fully on: that is not a run)."""
    return sum(1 for a, b in itertools.pairwise(history) if a == 0 and 0 < b < 1)


def test_press_is_delivered_on_the_input_thread(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher()
    recorder, threads = Recorder(), []
    launcher.add_press_consumer(
        lambda e: (threads.append(threading.current_thread().name), recorder(e))
    )
    launcher.simulator.press(hold=0.2)
    recorder.wait_for(lambda items: [e.kind for e in items] == ["press", "release"])
    press, release = recorder.items
    assert (press.seq, release.seq) == (1, 1) and release.held > 0
    assert set(threads) == {"launcher-input"}


def test_press_1000_bouncy_presses_are_exactly_1000(mock_factory: MockFactory) -> None:
    clock = FakeClock()
    profile = fast_profile().with_press(debounce_ms=10.0, long_press_ms=5_000.0, stuck_ms=60_000.0)
    launcher = open_launcher(
        profile, backend="sim", pin_factory=mock_factory, sim=SimOptions(), clock=clock
    )
    recorder = Recorder()
    launcher.add_press_consumer(recorder)
    button, rng = pin(mock_factory, 17), random.Random(2026)
    try:
        for _ in range(1000):
            for level in ("low", "high"):
                for _ in range(rng.randint(0, 6)):  # contact bounce: < 5 ms in all
                    first, second = (button.drive_low, button.drive_high)[
                        :: 1 if level == "low" else -1
                    ]
                    first()
                    clock.advance(rng.uniform(0.0001, 0.0004))
                    second()
                    clock.advance(rng.uniform(0.0001, 0.0004))
                button.drive_low() if level == "low" else button.drive_high()
                clock.advance(rng.uniform(0.015, 0.3))  # held down, then idle
        clock.advance(1.0)
        recorder.wait_for(lambda items: len(items) >= 2000, timeout=30)
        time.sleep(0.05)
        assert len(kinds(recorder, "press")) == 1000
        assert len(kinds(recorder, "release")) == 1000
        assert [e.seq for e in kinds(recorder, "press")] == list(range(1, 1001))
    finally:
        launcher.close()


def test_press_stuck_button_is_one_press_and_one_fault(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    profile = fast_profile().with_press(long_press_ms=150.0, stuck_ms=400.0)
    launcher = make_launcher(profile)
    recorder = Recorder()
    launcher.add_press_consumer(recorder)
    with PressRunner(launcher, ScriptedPolicy([2, 2, 2])) as runner:
        launcher.simulator.hold_button()
        recorder.wait_for(lambda items: any(e.kind == "stuck" for e in items))
        outcome = runner.outcomes.get(timeout=10)
        assert outcome.ejected == 2
        assert launcher.status is LauncherStatus.FAULT
        assert launcher.fault is not None and launcher.fault.kind == "stuck_button"
        time.sleep(0.3)  # held on: still nothing more
        assert [e.kind for e in recorder.items] == ["press", "long_press", "stuck"]
        assert runner.outcomes.empty()
        launcher.simulator.release_button()
        recorder.wait_for(lambda items: items[-1].kind == "release")
    assert motor_runs(states(pin(mock_factory, 12))) == 1
    assert launcher.status is LauncherStatus.FAULT
    launcher.clear_fault()
    assert launcher.status is LauncherStatus.READY


def test_press_long_press_event(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher(fast_profile().with_press(long_press_ms=100.0, stuck_ms=5000.0))
    recorder = Recorder()
    launcher.add_press_consumer(recorder)
    launcher.simulator.hold_button()
    recorder.wait_for(lambda items: any(e.kind == "long_press" for e in items))
    launcher.simulator.release_button()
    recorder.wait_for(lambda items: items[-1].kind == "release")
    assert [e.kind for e in recorder.items] == ["press", "long_press", "release"]
    assert launcher.fault is None


def test_press_button_held_at_start_gives_no_press(mock_factory: MockFactory) -> None:
    profile = fast_profile().with_press(long_press_ms=100.0, stuck_ms=300.0)
    machine = SimulatedLauncher(profile, pin_factory=mock_factory)
    machine.hold_button()
    launcher = Launcher(profile, pin_factory=mock_factory)
    try:
        recorder = Recorder()
        launcher.add_press_consumer(recorder)
        recorder.wait_for(lambda items: bool(items))
        assert [(e.kind, e.seq) for e in recorder.items] == [("stuck", 0)]
        assert launcher.fault is not None
    finally:
        launcher.close()
        machine.close()


def test_press_runner_miss_then_fire(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher()
    with PressRunner(launcher, ScriptedPolicy([0, 3])) as runner:
        launcher.simulator.press()
        miss = runner.outcomes.get(timeout=10)
        assert miss.decision is not None and miss.decision.reason == "miss"
        assert miss.result is None and states(pin(mock_factory, 12)) == [0.0]
        launcher.simulator.press()
        fire = runner.outcomes.get(timeout=10)
    assert fire.result is not None and fire.result.complete and fire.ejected == 3
    assert launcher.simulator.cards_out == 3
    assert motor_runs(states(pin(mock_factory, 12))) == 1


def test_press_refused_while_faulted_keeps_the_countdown(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher(jam_at=1)
    policy = ScriptedPolicy([2, 5])
    with PressRunner(launcher, policy) as runner:
        launcher.simulator.press()
        jammed = runner.outcomes.get(timeout=10)
        assert jammed.result is not None and jammed.result.reason == "jam"
        launcher.simulator.press()
        refused = runner.outcomes.get(timeout=10)
    assert "jam" in refused.refused and refused.decision is None
    assert policy.left == 1


def test_press_suspense_then_fire_and_stop_cuts_suspense(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher()
    seen = Recorder()
    launcher.add_status_consumer(seen)
    press = ButtonEvent("press", 1, time.monotonic())
    outcome = handle_press(launcher, ScriptedPolicy([1]), press, remaining=50, suspense=0.1)
    assert outcome.ejected == 1
    statuses = [status for status, _ in seen.items]
    assert statuses[:3] == [LauncherStatus.SUSPENSE, LauncherStatus.READY, LauncherStatus.FIRING]
    threading.Timer(0.2, launcher.stop).start()
    started = time.monotonic()
    outcome = handle_press(launcher, ScriptedPolicy([1]), press, remaining=50, suspense=30.0)
    assert outcome.refused == "stopped during suspense" and outcome.result is None
    assert time.monotonic() - started < 25


def test_press_a_failing_consumer_does_not_stop_delivery(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher()

    def broken(event: ButtonEvent) -> None:
        raise RuntimeError("consumer bug")

    launcher.add_press_consumer(broken)
    recorder = Recorder()
    launcher.add_press_consumer(recorder)
    for count in (1, 2):  # the second press comes after the broken consumer failed on the first
        launcher.simulator.press()
        recorder.wait_for(lambda items, n=count: len([e for e in items if e.kind == "press"]) == n)


def test_press_policy_capped_by_remaining(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher()
    press = ButtonEvent("press", 1, time.monotonic())
    outcome = handle_press(launcher, ScriptedPolicy([9]), press, remaining=2)
    assert outcome.decision is not None and outcome.decision.reason == "capped"
    assert outcome.ejected == 2


@pytest.mark.parametrize("colour", ["red", "yellow", "green", "blue", None])
def test_feedback_shows_the_active_colour(
    make_launcher: MakeLauncher, mock_factory: MockFactory, colour: str | None
) -> None:
    from controller.launcher.feedback import UNO_COLOURS

    launcher = make_launcher()
    launcher.show_colour(colour)
    expected = UNO_COLOURS.get(colour or "", (0.0, 0.0, 0.0))
    rgb = [pin(mock_factory, n) for n in (22, 23, 24)]
    wait_until(lambda: [float(p.state) for p in rgb] == list(expected), "the LED shows it")
    assert [float(p.state) for p in rgb] == list(expected)


def test_feedback_rejects_unknown_colour(make_launcher: MakeLauncher) -> None:
    with pytest.raises(ValueError, match="colour"):
        make_launcher().show_colour("purple")


def test_feedback_fire_and_jam_drive_buzzer_and_led(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(jam_at=1)
    buzzer = pin(mock_factory, 25)
    launcher.eject(1)
    wait_until(lambda: len(buzzer.states) >= 4, "the buzzer sounded")
    assert any(s.state for s in buzzer.states), "the buzzer sounded"
    assert launcher.feedback.latched == "jam"
    launcher.simulator.clear_jam()
    launcher.clear_fault()
    wait_until(lambda: not launcher.feedback.latched, "the jam light went out")
    assert launcher.feedback.latched is None


def test_feedback_active_buzzer_build(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher(fast_profile("mosfet"))
    launcher.eject(1)
    buzzer = pin(mock_factory, 25)
    wait_until(lambda: any(s.state for s in buzzer.states), "the buzzer sounded")
    assert any(s.state for s in buzzer.states)


def test_press_runner_survives_a_policy_that_runs_out(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher()
    with PressRunner(launcher, ScriptedPolicy([1])) as runner:
        launcher.simulator.press()
        assert runner.outcomes.get(timeout=10).ejected == 1
        launcher.simulator.press()
        failed = runner.outcomes.get(timeout=10)
        assert "ran out" in failed.refused
        launcher.simulator.press()
        assert "ran out" in runner.outcomes.get(timeout=10).refused
