"""The simulated machine keeps the physics' time, not the CPU's: a physics thread that runs
late (a busy machine) changes when edges are delivered, never where the cards are; and its
motor is a motor (dead zone, spin-up lag, coast, a full hopper's sag)."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import PinProfile, SimOptions, load_pin_profile
from controller.launcher.pins import CARD_MM
from controller.launcher.sim import SimulatedLauncher
from controller.launcher.sim_cards import CardMachine, Cards, Event
from controller.launcher.wheel import Wheel
from tests.waiting import FakeClock

from .helpers import fast_profile, pin

CARD_S = 0.16  # one card's beam time at full duty (an N20 and a 35 mm wheel)
# (time, duty, free): run, slow down, coast, run, brake
DRIVES = [
    (0.0, 0.8, False),
    (1.3, 0.5, False),
    (2.0, 0.0, True),
    (2.4, 0.9, False),
    (3.1, 0.0, False),
]


def test_a_brake_from_the_beam_callback_takes_effect_at_that_edge(
    mock_factory: MockFactory,
) -> None:
    profile = fast_profile("mosfet")
    clock = FakeClock()
    options = SimOptions(cards=20, cards_per_second=5.0, time_scale=1.0)
    machine = SimulatedLauncher(profile, pin_factory=mock_factory, options=options, clock=clock)
    try:
        motor, beam = (
            pin(mock_factory, dict(profile.motor.lines)["pin"]),
            pin(mock_factory, profile.beam.pin),
        )
        blocked_level = profile.beam.blocked == "high"
        entered: list[float] = []

        def interrupt(ticks: Any, state: Any) -> None:
            """As the board's firmware does: the fourth card's edge confirms the third, and the
            interrupt brakes the motor there and then."""
            if bool(state) == blocked_level:
                entered.append(ticks)
                if len(entered) == 4:
                    motor.state = 0

        motor.function = "output"
        beam.pull = "down" if blocked_level else "up"  # clear until a card blocks it
        beam.when_changed = interrupt
        motor.state = 1
        clock.advance(10.0)  # the physics thread gets no CPU for ten seconds of cards
        assert machine.cards_out == 3, "the fourth card stopped in the beam"
        assert len(entered) == 4, entered
        assert machine.speed == 0
    finally:
        machine.close()


def _run(wheel: Wheel, steps: list[float]) -> tuple[list[Event], int]:
    """The drives of `DRIVES` on a fresh machine, moved to each time in `steps` in turn."""
    machine = CardMachine(wheel, Cards(50, double_rate=0.2), random.Random(4), 0.0, {"beam": 30})
    events: list[Event] = []
    drives = list(DRIVES)
    for until in steps:
        while drives and drives[0][0] <= until:
            t, duty, free = drives.pop(0)
            while (event := machine.advance(t)) is not None:
                events.append(event)
            machine.drive(t, duty, free)
        while (event := machine.advance(until)) is not None:
            events.append(event)
    return events, machine.cards_out


def test_sim_the_same_motor_history_gives_the_same_cards_however_late_it_is_moved() -> None:
    wheel = Wheel(CARD_S, dead_zone=0.2, time_constant_s=0.06, coast_s=0.3, sag=0.1)
    at_once, out = _run(wheel, [5.0])
    rng = random.Random(1)
    steps = [*sorted(rng.uniform(0, 5.0) for _ in range(400)), 5.0]
    in_bits, out_in_bits = _run(wheel, steps)
    assert out == out_in_bits and out > 4
    assert [(e.kind, e.blocked, e.pin) for e in at_once] == [
        (e.kind, e.blocked, e.pin) for e in in_bits
    ]
    assert [e.t for e in at_once] == pytest.approx([e.t for e in in_bits], abs=1e-9)


def _machine(
    mock_factory: MockFactory, profile: PinProfile, wheel: Wheel, clock: FakeClock, cards: int
) -> SimulatedLauncher:
    options = SimOptions(cards=cards, wheel=wheel)
    return SimulatedLauncher(
        profile, pin_factory=mock_factory, options=options, clock=clock, interrupts=False
    )


class BeamEdges(list[tuple[float, bool]]):
    """Every beam edge as ``(stamp, blocked)``, as a gpiozero callback gets it (keep it: the
    pin holds its callback weakly)."""

    def __init__(self, mock_factory: MockFactory, profile: PinProfile) -> None:
        super().__init__()
        beam = pin(mock_factory, profile.beam.pin)
        self._blocked_level = profile.beam.blocked == "high"
        beam.pull = "down" if self._blocked_level else "up"
        beam.when_changed = self.changed

    def changed(self, ticks: float, state: Any) -> None:
        self.append((ticks, bool(state) == self._blocked_level))

    def widths(self) -> list[float]:
        return [b[0] - a[0] for a, b in itertools.pairwise(self) if a[1] and not b[1]]


def test_sim_a_duty_inside_the_dead_zone_moves_no_card_and_one_above_it_is_slow(
    mock_factory: MockFactory,
) -> None:
    profile, clock = load_pin_profile("mosfet"), FakeClock()
    wheel = Wheel(CARD_S, dead_zone=0.3)
    machine = _machine(mock_factory, profile, wheel, clock, cards=20)
    try:
        edges = BeamEdges(mock_factory, profile)
        motor = pin(mock_factory, profile.motor.pin)
        motor.function = "output"
        motor.state = 0.25
        clock.advance(10.0)
        assert machine.cards_out == 0 and edges == []
        motor.state = 0.65  # half the wheel's full speed
        clock.advance(10.0)
        assert machine.cards_out > 3
        widths = edges.widths()
        assert len(widths) >= 3 and widths == pytest.approx([CARD_S / 0.5] * len(widths))
        assert motor.states[-1].state == 0.65
    finally:
        machine.close()


def test_sim_a_full_hopper_slows_the_wheel_by_its_sag(mock_factory: MockFactory) -> None:
    profile, clock = load_pin_profile("mosfet"), FakeClock()
    wheel = Wheel(CARD_S, sag=0.2)
    widths = []
    for cards in (112, 3):
        factory = MockFactory(pin_class=mock_factory.pin_class)
        machine = _machine(factory, profile, wheel, clock, cards=cards)
        try:
            edges = BeamEdges(factory, profile)
            motor = pin(factory, profile.motor.pin)
            motor.function = "output"
            motor.state = 1.0
            clock.advance(1.0)
            assert machine.cards_out >= 1
            widths.append(edges.widths()[0])
        finally:
            machine.close()
            factory.reset()
    full, light = widths
    assert full == pytest.approx(CARD_S / 0.8)
    assert light == pytest.approx(CARD_S / (1 - 0.2 * 3 / 112))


def test_sim_a_card_coasts_out_after_the_motor_is_off_and_a_braked_wheel_stops_it(
    mock_factory: MockFactory,
) -> None:
    profile, clock = load_pin_profile("hbridge"), FakeClock()
    wheel = Wheel(CARD_S, dead_zone=0.2, time_constant_s=0.03, coast_s=0.4)  # ~108 mm
    machine = _machine(mock_factory, profile, wheel, clock, cards=20)
    try:
        edges = BeamEdges(mock_factory, profile)
        forward, backward, enable = (pin(mock_factory, gpio) for gpio in (12, 13, 26))
        for line in (forward, backward, enable):
            line.function = "output"
        enable.state = 1
        forward.state = 1.0
        while not machine.beam_blocked:  # the first card reaches the beam
            clock.advance(0.001)
        forward.state = 0.0  # off: the driver lets the motor coast
        off = clock()
        clock.advance(2.0)
        assert machine.cards_out == 1 and machine.wheel_speed == 0  # (brings it up to now)
        assert edges[-1][1] is False and edges[-1][0] > off, "it coasted out of the beam"
        forward.state = 1.0
        while not machine.beam_blocked:
            clock.advance(0.001)
        backward.state = 1.0  # both inputs high: the bridge brakes the motor
        clock.advance(2.0)
        assert machine.beam_blocked and machine.cards_out == 1, "braked with a card in the beam"
        assert machine.speed == 0 and machine.wheel_speed == 0
    finally:
        machine.close()


def test_sim_a_pin_read_sees_the_level_at_the_moment_of_the_read(
    mock_factory: MockFactory,
) -> None:
    profile, clock = load_pin_profile("mosfet"), FakeClock()
    wheel = Wheel(CARD_S)
    machine = _machine(mock_factory, profile, wheel, clock, cards=5)
    try:
        beam = pin(mock_factory, profile.beam.pin)
        beam.pull = "up"
        motor = pin(mock_factory, profile.motor.pin)
        motor.function = "output"
        motor.state = 1.0
        gap_s = 60.0 / (CARD_MM / CARD_S)
        clock.advance(gap_s + CARD_S / 2)  # halfway through the first card
        assert beam.state == 0, "blocked reads low"
        clock.advance(CARD_S)  # the first card has left, the second is not there yet
        assert beam.state == 1
    finally:
        machine.close()


def test_sim_options_give_the_machine_its_own_motor() -> None:
    profile = load_pin_profile("hbridge")
    own = Wheel(0.2, dead_zone=0.3, time_constant_s=0.1, coast_s=0.05, sag=0.1)
    assert SimOptions(wheel=own, time_scale=0.5).machine_wheel(profile) == own.scaled(0.5)
    theirs = SimOptions().machine_wheel(profile)
    assert theirs == Wheel.of_motor(profile.motor)
    slow = SimOptions(cards_per_second=2.0).machine_wheel(profile)
    assert slow.card_s == pytest.approx(CARD_MM / (2.0 * (CARD_MM + 60.0)))
    assert replace(own, card_s=1.0).dead_zone == 0.3


def _run_to_rest(machine: CardMachine, until: float) -> None:
    while machine.advance(until) is not None:
        pass


@pytest.mark.parametrize("in_beam", [False, True], ids=["beam clear", "a card in the beam"])
def test_sim_the_next_card_to_reach_the_beam_is_the_one_that_jams(in_beam: bool) -> None:
    """A card the last run left in the beam has reached it already: it leaves, and the card
    after it sticks."""
    machine = CardMachine(Wheel(CARD_S), Cards(20), random.Random(1), 0.0, {})
    if in_beam:
        machine.drive(0.0, 1.0, False)
        while (event := machine.advance(5.0)) is None or not event.blocked:
            pass
        machine.drive(machine.t, 0.0, False)  # braked with the card half through
        _run_to_rest(machine, machine.t + 1.0)
    assert machine.in_beam == in_beam and machine.cards_out == 0
    machine.jam_next()
    machine.drive(machine.t, 1.0, False)
    _run_to_rest(machine, machine.t + 5.0)
    assert machine.jammed and machine.cards_out == int(in_beam)
