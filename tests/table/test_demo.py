"""The demo's bots on the simulated launcher: they tend it as players do."""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller.launcher import Launcher, SimOptions, open_launcher
from controller.policy import ScriptedPolicy
from controller.store import Store
from controller.table.demo import DemoTable
from controller.table.service import TableService
from tests.waiting import FakeClock, wait_until


def simulated(double_rate: float) -> Launcher:
    return open_launcher(
        "hbridge", backend="sim", sim=SimOptions(time_scale=0.25, double_rate=double_rate)
    )


def step(bots: DemoTable, clock: FakeClock, service: TableService, done: Any, what: str) -> None:
    """Let the bots make their moves, one at a time, until `done()` holds."""
    while not done():
        clock.advance(bots.pace)
        service.post(lambda: None)  # wake the owner thread: it runs the bots' tick after it
        wait_until(lambda: bots._next > clock.now, what)  # the tick ran


@pytest.mark.parametrize(
    ("double_rate", "stuck"), [(0.0, 1), (1.0, 2)], ids=["one card", "a double"]
)
def test_a_jam_the_bots_clear_puts_its_cards_in_the_pressers_hand(
    store: Store, double_rate: float, stuck: int
) -> None:
    """With doubles, every card that reaches the beam has a second one shingled on it: the
    jam holds two cards, and both are the presser's."""
    launcher = simulated(double_rate)
    service = TableService(store, launcher=launcher, policy=ScriptedPolicy([3])).start()
    clock = FakeClock()
    bots = DemoTable(service, players=3, rng=random.Random(3), clock=clock)
    simulator = launcher.simulator  # type: ignore[attr-defined]
    try:
        step(bots, clock, service, lambda: phase(service) == "playing", "the bots dealt")
        assert not simulator.beam_blocked and simulator.cards_out == 0, "no card has moved yet"
        simulator.jam_next()
        sub = service.subscribe()
        simulator.press()  # a person presses: the launcher jams
        wait_until(lambda: launcher.fault is not None and launcher.fault.kind == "jam", "a jam")
        pressed = next_record_with(sub, "Pressed")
        seat, hand = pressed["seat"], service.snapshot()["deal"]["hands"][pressed["seat"]]
        out = simulator.cards_out
        assert pressed["cards"] == [] and simulator.jammed, f"{out} out, {pressed}"  # stuck
        step(bots, clock, service, lambda: launcher.fault is None, "the bots cleared the jam")
        assert simulator.cards_removed == stuck
        corrected = next_record_with(sub, "Corrected")
        assert corrected == {
            "type": "Corrected", "seat": seat, "before": hand, "after": hand + stuck,
        }  # fmt: skip
        assert service.snapshot()["deal"]["hands"][seat] == hand + stuck
    finally:
        service.stop()
        launcher.close()


def phase(service: TableService) -> str | None:
    deal = service.snapshot().get("deal") or {}
    return deal.get("phase")


def next_record_with(sub: Any, event_type: str) -> dict[str, Any]:
    """The first event of `event_type` in the next records published."""
    while True:
        message = sub.get(30.0)
        assert message is not None, f"no {event_type} was published in time"
        if message.event == "record":
            for event in message.data["events"]:
                if event["type"] == event_type:
                    return dict(event)
