"""The launcher in a world as unkind as a real one: edges that reach Python late and in bursts,
cards shot out two at a time, and motor noise on the button and the beam."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import Launcher, SimOptions, load_pin_profile, open_launcher
from controller.launcher.errors import PinProfileError
from controller.launcher.sim import EdgeDelay
from tests.waiting import wait_until

from .helpers import Recorder, pin

# the simulated cards run in real time against the launcher: alone, after the parallel pass
pytestmark = pytest.mark.serial

MakeLauncher = Callable[..., Launcher]
BUSY_PI = EdgeDelay(median_ms=5.0, p99_ms=100.0)
BUSIER_PI = EdgeDelay(median_ms=10.0, p99_ms=150.0)


def test_sim_delivers_edges_late_in_bursts_with_true_stamps(make_launcher: MakeLauncher) -> None:
    profile = load_pin_profile("hbridge")
    launcher = make_launcher(profile, time_scale=1.0, edge_delay=BUSY_PI, seed=3)
    machine = launcher.simulator
    stamps: list[tuple[float, float]] = []
    launcher.devices.beam.device.on_edge = lambda t, active: stamps.append((t, time.monotonic()))
    for _ in range(150):
        machine._spike("beam", time.monotonic())  # two edges a microsecond apart
        time.sleep(0.002)
    wait_until(lambda: len(stamps) >= 300, "every edge delivered")
    assert len(stamps) == 300
    delays = sorted(arrived - t for t, arrived in stamps)
    assert delays[len(delays) * 99 // 100] >= 0.05, "late edges: p99 tens of ms"
    assert all(b - a < 1e-5 for (a, _), (b, _) in zip(stamps[::2], stamps[1::2], strict=True))
    bursts = sum(1 for (_, x), (_, y) in zip(stamps, stamps[2:], strict=False) if y - x < 1e-3)
    assert bursts > 10, "several edges from different moments arrive together"


def test_sim_motor_change_never_waits_for_the_machine(make_launcher: MakeLauncher) -> None:
    """A launcher board changes the motor while it holds its interrupt lock, and the physics
    holds the machine while it delivers a beam edge to that board's interrupt handler (which
    takes the interrupt lock): a motor change that waited for the machine would wait for ever
    (a full run once hung so)."""
    machine = make_launcher().simulator
    held, let_go, changed = threading.Event(), threading.Event(), threading.Event()

    def physics_delivering_an_edge() -> None:
        with machine._lock:
            held.set()
            let_go.wait(120)

    threading.Thread(target=physics_delivering_an_edge, daemon=True).start()
    held.wait(120)
    try:
        changer = threading.Thread(target=lambda: (machine._motor_changed(), changed.set()))
        changer.start()
        wait_until(changed.is_set, "a motor change while another thread holds the machine", 30)
    finally:
        let_go.set()


@pytest.mark.parametrize("seed", [7, 8])
def test_eject_counts_exactly_with_late_and_bursty_edges(
    make_launcher: MakeLauncher, seed: int
) -> None:
    # Fast cards (34 ms apart) and edges up to ~150 ms late: the clear edge of one card and the
    # blocked edge of the next often arrive together. Judged on arrival they would merge two
    # cards into one (and an uncounted card comes out); judged on their stamps they never do.
    launcher = make_launcher(edge_delay=BUSIER_PI, seed=seed)
    machine = launcher.simulator
    for n in (3, 1, 6, 2, 5, 4, 6):
        before = machine.cards_out
        result = launcher.eject(n)
        # every card that came out was counted (at four times real speed a starved thread may
        # stop a card late; the benchmark checks exactness at real speed)
        assert result.ejected == machine.cards_out - before, result
        assert result.reason == "count" and result.ejected >= n and result.noise == 0, result
    assert machine.courier is not None and max(machine.courier.delays) > 0.05


def test_eject_flags_a_shingled_double_and_counts_it_as_two(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher(load_pin_profile("hbridge"), time_scale=1.0, double_rate=1.0, seed=1)
    machine = launcher.simulator
    result = launcher.eject(4)
    # two doubles make the four; a launcher starved as the fourth card left may let one more in
    assert result.reason == "count" and result.ejected == machine.cards_out >= 4, result
    assert result.doubles == machine.doubles_fed >= 2
    assert all(1.5 < n < 2.1 for n in result.pulse_cards), result.pulse_cards


def test_eject_a_double_on_the_last_card_reports_the_extra_card(
    make_launcher: MakeLauncher,
) -> None:
    launcher = make_launcher(load_pin_profile("hbridge"), time_scale=1.0, double_rate=1.0, seed=2)
    result = launcher.eject(3)
    machine = launcher.simulator
    assert result.ejected == machine.cards_out >= 4 and result.requested == 3, result
    assert result.doubles == machine.doubles_fed >= 2 and not result.complete


def test_eject_slows_for_the_last_card(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher()
    tuning = launcher.profile.ejector
    assert launcher.eject(3).complete
    forward = [float(s.state) for s in pin(mock_factory, 12).states]
    assert tuning.speed in forward
    assert forward[-4:] == [pytest.approx(tuning.last_card_speed), 0.0, 1.0, 0.0], "then brake"


def test_eject_deal_speed_and_slow_last_card_are_not_doubles(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher(load_pin_profile("hbridge"), time_scale=1.0)
    result = launcher.deal(3)
    assert result.complete and result.doubles == 0
    assert all(0.8 < n < 1.2 for n in result.pulse_cards), result.pulse_cards


def test_eject_retract_brakes_before_reversing(
    make_launcher: MakeLauncher, mock_factory: MockFactory
) -> None:
    launcher = make_launcher()
    assert launcher.eject(1).complete
    forward = [float(s.state) for s in pin(mock_factory, 12).states]
    backward = [float(s.state) for s in pin(mock_factory, 13).states]
    assert backward == [0.0, 1.0, 0.0, launcher.profile.ejector.retract_speed, 0.0]
    assert forward[-2:] == [1.0, 0.0], "both inputs high (brake), then off before reversing"


def bounce(button: Any, down: bool, rng: random.Random) -> None:
    """A contact closing (or opening) with bounce: edges a fraction of a millisecond apart, as
    stamped by the kernel, however long this thread is kept from the CPU between them."""
    t = time.monotonic()
    for _ in range(rng.randint(0, 4)):
        for level in (down, not down):  # the pin is high when the button is up
            button.drive(level, t)
            t += rng.uniform(0.0001, 0.0008)
    button.hold(not down, t)
    while time.monotonic() < t:
        time.sleep(0.0002)


def test_press_spikes_on_the_button_are_never_presses(mock_factory: MockFactory) -> None:
    # 600 spikes of a microsecond and 60 real, bouncy presses, all delivered late and in bursts
    # (as on a busy Pi): every press counted once, no spike ever a press or a release.
    profile = load_pin_profile("hbridge").with_press(long_press_ms=5_000.0, stuck_ms=60_000.0)
    options = SimOptions(edge_delay=BUSY_PI, seed=4)
    launcher = open_launcher(profile, backend="sim", pin_factory=mock_factory, sim=options)
    recorder = Recorder()
    launcher.add_press_consumer(recorder)
    machine, rng = launcher.simulator, random.Random(5)
    button = machine._button
    try:
        for _ in range(60):
            for _ in range(10):
                time.sleep(rng.uniform(0.0005, 0.004))
                machine._spike("button", time.monotonic())
            for down in (True, False):
                bounce(button, down, rng)
                time.sleep(rng.uniform(0.03, 0.08))
        recorder.wait_for(lambda items: len(items) >= 120, timeout=30)
        time.sleep(0.3)
        assert machine.spikes["button"] == 600
        assert [e.kind for e in recorder.items] == ["press", "release"] * 60
    finally:
        launcher.close()


def test_profile_refuses_a_pwm_frequency_lgpio_cannot_make(mock_factory: MockFactory) -> None:
    profile = load_pin_profile("hbridge")
    fast = profile.__class__(**{**profile.__dict__, "motor": profile.motor.__class__(
        **{**profile.motor.__dict__, "pwm_frequency": 20_000})})  # fmt: skip
    with pytest.raises(PinProfileError, match=r"motor.pwm_frequency.*10000 Hz"):
        open_launcher(fast, backend="sim", pin_factory=mock_factory)
