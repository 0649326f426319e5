"""The demo and a person's own table: a table a person sets up is theirs; "Let the bots play"
hands it to the bots and "Play it yourselves" takes it back; after a restart the bots carry on
with the table that is theirs by themselves, and leave a person's alone."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from controller.engine import IllegalAction
from controller.store import Store
from controller.table.demo import DemoTable
from controller.table.service import TableService
from tests.table.conftest import SETUP
from tests.waiting import FakeClock, wait_until


class Demo:
    """A table service with the demo's bots on it, moved by a hand-turned clock."""

    def __init__(self, store: Store) -> None:
        self.service = TableService(store).start()
        self.clock = FakeClock()
        self.bots = DemoTable(self.service, players=3, rng=random.Random(5), clock=self.clock)
        self.heard: list[dict[str, Any]] = []
        self.service.listen(self._hear)

    def _hear(self, message: Any) -> None:
        if message.event == "demo":
            self.heard.append(message.data)

    def moves(self, count: int) -> None:
        """Give the bots `count` chances to move (each tick runs on the owner thread)."""
        for _ in range(count):
            self.clock.advance(self.bots.pace)
            self.service.post(lambda: None)  # wake the owner thread: the tick follows the job
            wait_until(lambda: self.bots._next > self.clock.now, "the bots' tick began")
            self.service.call(lambda: None)  # a job after it: the tick has finished

    def seq(self) -> int:
        return int(self.service.snapshot().get("seq", 0))

    def on_owner(self, change: Callable[[], None]) -> dict[str, Any]:
        return self.bots.seats_after(change)

    def stop(self) -> None:
        self.service.stop()


@pytest.fixture
def demo(store: Store) -> Any:
    opened: list[Demo] = []

    def open_demo() -> Demo:
        opened.append(Demo(store))
        return opened[-1]

    yield open_demo
    for each in opened:
        each.stop()


def person_sets_up(demo: Demo, **setup: Any) -> None:
    demo.service.submit({"type": "setup", "setup": SETUP | setup}, actor="tablet")


def test_a_persons_table_is_theirs_until_handed_to_the_bots(demo: Any) -> None:
    table = demo()
    table.moves(1)  # the bots set up their own match
    assert table.bots.playing()
    person_sets_up(table)
    table.moves(3)
    before = table.seq()
    table.moves(5)
    assert table.seq() == before and not table.bots.playing()  # the bots leave it alone
    assert table.heard[-1] == {"playing": False, "humans": [], "table": True}

    assert table.on_owner(table.bots.hand_over)["playing"] is True
    assert table.service.snapshot()["setup"]["players"] == SETUP["players"]  # the same table
    table.moves(8)
    assert table.seq() > before  # the bots deal and play the person's table
    assert table.heard[-1]["playing"] is True

    table.on_owner(table.bots.take_back)
    after = table.seq()
    table.moves(5)
    assert table.seq() == after and table.heard[-1]["playing"] is False


def test_after_a_restart_the_bots_carry_on_with_their_table_and_leave_a_persons(
    demo: Any,
) -> None:
    table = demo()
    person_sets_up(table)
    table.stop()

    restarted = demo()
    restarted.moves(3)
    assert not restarted.bots.playing() and restarted.seq() == 1  # still the person's, frozen
    restarted.on_owner(restarted.bots.hand_over)
    restarted.stop()

    again = demo()
    before = again.seq()
    again.moves(6)
    assert again.bots.playing() and again.seq() > before  # the handed table: theirs by itself
    assert again.service.snapshot()["setup"]["players"] == SETUP["players"]
    again.on_owner(again.bots.take_back)
    again.stop()

    last = demo()
    before = last.seq()
    last.moves(4)
    assert not last.bots.playing() and last.seq() == before  # taken back: the person's again


def test_the_bots_enter_rounds_on_a_score_only_table_handed_to_them(demo: Any) -> None:
    table = demo()
    person_sets_up(table, mode="score_only")
    table.on_owner(table.bots.hand_over)
    wait_until(lambda: table.moves(1) or len(table.service.snapshot()["deals"]) >= 2, "rounds")
    assert all(sum(deal["points"]) >= 0 for deal in table.service.snapshot()["deals"])


def test_seats_are_taken_only_from_bots_that_play(demo: Any) -> None:
    table = demo()
    person_sets_up(table, players=["Ann", "Bob", "Cy", "Di", "Eve"])
    with pytest.raises(IllegalAction, match="all yours"):
        table.on_owner(lambda: table.bots.take_seat(0))
    with pytest.raises(IllegalAction, match="not playing"):
        table.on_owner(table.bots.take_back)
    table.on_owner(table.bots.hand_over)
    assert table.on_owner(lambda: table.bots.take_seat(4))["humans"] == [4]  # a fifth seat
