"""The beam counter in its interrupt: the same verdicts as the Pi's PulseCounter, edge for edge."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from uno_beam import Beam

from controller.launcher.pulses import PulseCounter, PulseWindow
from tests.exploring import examples

from .fakes import FakeMachine, FakeTime

WINDOW_US = (4000, 400_000, 10_000)


def make_beam() -> tuple[Beam, FakeTime, object]:
    machine = FakeMachine()
    clock = FakeTime()
    pin = machine.Pin(7, machine.Pin.IN, machine.Pin.PULL_UP)
    beam = Beam(pin, clock, machine.disable_irq, machine.enable_irq, 0)
    beam.set_window(*WINDOW_US)
    pin.irq(beam.irq, 0, True)
    return beam, clock, pin


def play(durations: list[int]) -> tuple[Beam, PulseCounter]:
    """Alternate blocked/clear spells of `durations` us through both counters."""
    beam, clock, pin = make_beam()
    # the reference runs on seconds-like floats in units of 2**-20 s: every sum and difference
    # of whole microseconds is then exact, so the two agree even on the window's edges
    unit = 2.0**-20
    start = 1024.0
    window = PulseWindow(*(w * unit for w in WINDOW_US))
    reference = PulseCounter(window, start)
    beam.arm(clock.ticks_us())
    t_us = 0
    for index, spell in enumerate(durations):
        blocked = index % 2 == 0
        pin.drive(0 if blocked else 1)  # type: ignore[attr-defined]
        reference.edge(start + t_us * unit, blocked)
        clock.advance(us=spell)
        t_us += spell
    if len(durations) % 2:  # end clear
        pin.drive(1)  # type: ignore[attr-defined]
        reference.edge(start + t_us * unit, False)
    clock.advance(us=50_000)
    beam.poll(clock.ticks_us())
    reference.poll(start + (t_us + 50_000) * unit)
    return beam, reference


def test_beam_counts_complete_pulses_in_the_window() -> None:
    beam, _ = play([30_000, 40_000, 25_000, 40_000])
    assert beam.count == 2


def test_beam_ignores_noise_and_merges_dropouts() -> None:
    beam, _ = play([1_000, 40_000, 12_000, 2_000, 12_000, 40_000])
    count, noise, *_ = beam.snapshot()
    assert (count, noise) == (1, 1)


def test_beam_overlong_pulse_is_a_jam() -> None:
    beam, clock, pin = make_beam()
    beam.arm(clock.ticks_us())
    pin.drive(0)  # type: ignore[attr-defined]
    clock.advance(us=500_000)
    assert beam.jammed(clock.ticks_us())
    assert beam.count == 0


def test_beam_counts_nothing_while_disarmed() -> None:
    beam, clock, pin = make_beam()
    for level in (0, 1, 0, 1):
        pin.drive(level)  # type: ignore[attr-defined]
        clock.advance(us=30_000)
    assert beam.count == 0


@settings(max_examples=examples(300))
@given(
    st.lists(
        st.one_of(st.integers(200, 120_000), st.sampled_from([3999, 4000, 9999, 10_000])),
        min_size=1,
        max_size=40,
    )
)
def test_beam_agrees_with_the_pi_pulse_counter(durations: list[int]) -> None:
    beam, reference = play(durations)
    count, noise, _activity, _idle, overlong, _since, _last = beam.snapshot()
    assert (count, noise, overlong) == (reference.count, reference.noise, reference.overlong)
