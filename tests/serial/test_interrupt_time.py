"""The fake board's interrupts read their edge's time, as a Pico's do microseconds after the
edge, however late this machine's threads deliver the edge; outside a handler the clock is
the monotonic clock."""

from __future__ import annotations

import time

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.launcher.board.fake_machine import FakeMachine, TicksClock
from controller.launcher.sim_pins import DrivenPin


def test_a_late_edge_is_handled_at_its_own_time() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        machine = FakeMachine(factory)
        clock = TicksClock(machine.now_ns)
        line = factory.pin("GPIO7", pin_class=DrivenPin)
        seen: list[int] = []
        pin = machine.Pin(7, machine.Pin.IN, machine.Pin.PULL_UP)
        pin.irq(lambda _pin: seen.append(clock.ticks_us()))
        edge = time.monotonic() - 0.25  # a quarter of a second before it is delivered
        line.drive(False, at=edge)
        line.drive(True, at=edge + 0.030)  # a card's 30 ms in the beam
        after = clock.ticks_us()
    finally:
        factory.reset()
    assert _within_a_microsecond(seen, [edge * 1e6, (edge + 0.030) * 1e6]), seen
    assert clock.ticks_diff(seen[1], seen[0]) in range(29_999, 30_002)
    assert clock.ticks_diff(after, seen[1]) >= 200_000  # outside a handler: now


def _within_a_microsecond(seen: list[int], wanted: list[float]) -> bool:
    period = TicksClock.PERIOD
    return len(seen) == len(wanted) and all(
        abs(s - int(w) % period) <= 1 for s, w in zip(seen, wanted, strict=True)
    )
