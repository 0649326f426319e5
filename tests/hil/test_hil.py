"""Hardware-in-the-loop: the launcher against the jig (mock wires in CI, real wires on a Pi).

No motor is needed: the jig reads the motor driver's input lines back, and a card generator in
a process of its own plays cards on the beam input while the motor runs forward. The world is
made unkind on purpose: a busy interpreter in the launcher's process (edges reach it late and
in bursts), shingled doubles, and spikes of motor noise on the beam and the button.
"""

from __future__ import annotations

import threading
import time

import pytest

from controller.launcher import LauncherFault
from controller.launcher.safeoff import safe_off
from tests.waiting import wait_until

from .conftest import Rig
from .feeder import CardFeeder

# the jig's cards run in real time against the launcher: alone, after the parallel pass
pytestmark = pytest.mark.serial


def test_hil_motor_lines_off_at_rest(rig: Rig) -> None:
    for role in ("forward", "backward"):
        assert not rig.jig.line_on(role, window=0.05), role


def test_hil_enable_line_high_while_open_and_low_after_close(rig: Rig) -> None:
    assert rig.jig.line_on("enable")
    rig.launcher.close()
    assert wait_until(lambda: not rig.jig.line_on("enable"))


def test_hil_press_reaches_the_consumer(rig: Rig) -> None:
    """A press of 0.1 s is a press and a release. A busy machine may hold the jig's finger
    down longer than it asked (its sleep overruns): past the rig's `long_press_ms` (0.2 s) the
    press is a long one, and that is right too. Through a launcher board the host hears the
    release only when its frame arrives: on a starved machine that can be after the host's
    clock has judged the press long (nothing acts on a long press: it is still one press)."""
    events: list[str] = []
    rig.launcher.add_press_consumer(lambda e: events.append(e.kind))
    start = time.monotonic()
    rig.jig.press(rest=0)
    held = time.monotonic() - start  # at least the time between the two edges' stamps
    assert wait_until(lambda: events[-1:] == ["release"], "the press's release heard")
    if held < 0.2 and rig.backend != "fake-serial":
        assert events == ["press", "release"]
    else:
        assert events[0] == "press" and set(events[1:-1]) <= {"long_press", "stuck"}, events


def feeder(rig: Rig, **plan: object) -> CardFeeder:
    return CardFeeder(rig.jig, real=rig.backend == "real", **plan)


class BusyInterpreter:
    """Threads in the launcher's process that keep the GIL busy: edge callbacks wait for it
    (tens of ms late on a 2-core machine, several at once), as on a loaded Pi."""

    def __init__(self, threads: int = 1) -> None:
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._spin, daemon=True) for _ in range(threads)]
        for thread in self._threads:
            thread.start()

    def _spin(self) -> None:
        while not self._stop.is_set():
            sum(i * i for i in range(20_000))

    def __enter__(self) -> BusyInterpreter:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()


def test_hil_eject_counts_the_jig_cards_then_retracts(rig: Rig) -> None:
    feeder = CardFeeder(rig.jig, real=rig.backend == "real")
    try:
        result = rig.launcher.eject(3)
    finally:
        feeder.close()
    assert result.complete, result
    assert feeder.emitted == 3
    assert rig.jig.seen_high["forward"] and rig.jig.seen_high["backward"]
    assert not rig.jig.line_on("forward", window=0.05)
    assert not rig.jig.line_on("backward", window=0.05)


def test_hil_counts_exactly_with_a_busy_interpreter(rig: Rig) -> None:
    """Edges reach a busy interpreter late and in bursts: every card that came out is counted,
    none twice. A launcher starved for longer than the gap between two cards (80 ms) stops the
    motor late enough for one more card to come out, as a loaded Pi would (seen beside CPU
    hogs: 2 cards for 1): that card is counted too, and the run still ends on its count."""
    if rig.backend == "fake-serial":
        pytest.skip("a launcher board counts in its own interrupts; its fake shares our GIL")
    cards = feeder(rig)
    try:
        with BusyInterpreter():
            results = [rig.launcher.eject(n) for n in (4, 1, 6)]
    finally:
        cards.close()
    said = [(r.requested, r.ejected, r.reason, r.detail) for r in results]
    assert all(r.reason == "count" and r.ejected >= r.requested for r in results), said
    assert sum(r.ejected for r in results) == cards.emitted, said
    assert not rig.jig.line_on("forward", window=0.05)


def test_hil_a_double_is_counted_and_flagged(rig: Rig) -> None:
    if rig.backend == "fake-serial":
        pytest.skip("the launcher board counts pulses in its firmware (hardware/PICO.md)")
    cards = feeder(rig, doubles=frozenset({3}))
    try:
        result = rig.launcher.eject(5)
    finally:
        cards.close()
    assert cards.emitted == 5
    assert (result.ejected, result.doubles, result.reason) == (5, 1, "count")


def test_hil_motor_noise_spikes_are_neither_presses_nor_cards(rig: Rig) -> None:
    if rig.backend == "fake-serial":
        pytest.skip("the launcher board debounces its button in its firmware (hardware/PICO.md)")
    presses: list[str] = []
    rig.launcher.add_press_consumer(lambda e: presses.append(e.kind))
    cards = feeder(rig, spikes_per_second=300.0)
    try:
        results = [rig.launcher.eject(n) for n in (3, 5)]
    finally:
        cards.close()
    assert cards.spikes > 20, "the generator spiked the lines while the motor ran"
    assert all(r.complete for r in results) and cards.emitted == 8, results
    assert presses == []


def test_hil_jam_stops_the_motor(rig: Rig) -> None:
    feeder = CardFeeder(rig.jig, real=rig.backend == "real", jam_at=2)
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
