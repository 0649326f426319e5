"""The simulated machine keeps the physics' time, not the CPU's: a physics thread that runs
late (a busy machine) must not let a card out that the firmware's interrupt stopped."""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory

from controller.launcher import SimOptions
from controller.launcher.sim import SimulatedLauncher
from tests.waiting import FakeClock

from .helpers import fast_profile, pin


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
        beam.state  # noqa: B018  # a read brings the machine up to now
        assert len(entered) == 4, entered
        assert machine.cards_out == 3, "the fourth card stopped in the beam"
        assert machine.speed == 0
    finally:
        machine.close()
