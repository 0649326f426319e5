"""Physical presses: the UNO button on the (simulated) launcher, attributed by the game state,
with the count the card sensor saw."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from controller.launcher import Launcher, open_launcher
from controller.launcher.sim import SimOptions
from controller.policy import EjectDecision, ScriptedPolicy
from controller.store import Store
from controller.table.service import TableService

from .conftest import SETUP, act, started

# The simulated launcher's cards move on the clock, four times as fast as real ones: a controller
# starved by the parallel workers lets one more through. Run alone (make pytest's second pass).
pytestmark = pytest.mark.serial


@pytest.fixture
def launcher() -> Iterator[Launcher]:
    opened = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25))
    yield opened
    opened.close()


def table_with(store: Store, launcher: Launcher, script: list[int]) -> TableService:
    return TableService(store, launcher=launcher, policy=ScriptedPolicy(script)).start()


def press_and_wait(service: TableService, launcher: Launcher) -> dict[str, Any]:
    """Press the simulated button; wait for the press's record to be published."""
    sub = service.hub.subscribe()
    finger = threading.Thread(target=launcher.simulator.press)  # type: ignore[attr-defined]
    finger.start()
    try:
        while True:
            message = sub.get(10.0)
            assert message is not None, "the press was not recorded in time"
            if message.event == "record" and pressed(message.data):
                return message.data
    finally:
        finger.join()
        service.hub.unsubscribe(sub)


def pressed(data: dict[str, Any]) -> bool:
    return any(e["type"] == "Pressed" for e in data["events"])


def test_a_press_on_the_button_is_the_turn_players_press(store: Store, launcher: Launcher) -> None:
    service = started(table_with(store, launcher, [3]))
    try:
        data = press_and_wait(service, launcher)
        event = next(e for e in data["events"] if e["type"] == "Pressed")
        assert event["seat"] == 0 and len(event["cards"]) == 3 and event["reported"] == 3
        assert data["actor"] == "button"
        assert service.snapshot()["deal"]["hands"] == [10, 7, 7, 7]
        assert service.snapshot()["deal"]["to_move"] == 1
    finally:
        service.stop()


class RisingTension:
    """Fires one card a press, its tension different each time (as a countdown's is)."""

    def __init__(self, tensions: list[float]) -> None:
        self.tensions = tensions
        self.tension = 0.0

    def decide(self, remaining: int) -> EjectDecision:
        self.tension = self.tensions.pop(0)
        return EjectDecision(1, 1, "fire", self.tension)

    def reset(self) -> None:
        self.tension = 0.0


def test_the_suspense_shows_the_tension_of_the_press_it_decides(
    store: Store, launcher: Launcher
) -> None:
    policy = RisingTension([0.25, 0.75])
    service = started(TableService(store, launcher=launcher, policy=policy, suspense=0.01).start())
    sub = service.hub.subscribe()
    try:
        for _ in range(2):
            press_and_wait(service, launcher)
        shown = []
        while (message := sub.get(0.0)) is not None:
            if message.event == "launcher" and message.data["status"] == "suspense":
                shown.append(message.data["tension"])
        assert shown == [0.25, 0.75]
    finally:
        service.hub.unsubscribe(sub)
        service.stop()


def test_owed_presses_go_to_whoever_owes_them(store: Store, launcher: Launcher) -> None:
    service = started(table_with(store, launcher, [0, 2]))
    try:
        act(service, {"type": "Play", "seat": 0, "card": "RH2"})
        for _ in range(2):
            press_and_wait(service, launcher)
        assert service.snapshot()["deal"]["hands"][1] == 9
        assert service.snapshot()["deal"]["to_move"] == 2
    finally:
        service.stop()


def test_a_press_nobody_owes_is_ignored(store: Store, launcher: Launcher) -> None:
    service = TableService(store, launcher=launcher).start()
    sub = service.hub.subscribe()
    try:
        launcher.simulator.press()  # type: ignore[attr-defined]
        message = sub.get(10.0)
        assert message is not None and message.event == "notice"
        assert message.data["code"] == "press_ignored"
        assert store.records("main") == []
    finally:
        service.stop()


def test_the_launcher_deals_every_hand_and_corrects_short_ones(
    store: Store, launcher: Launcher
) -> None:
    service = TableService(store, launcher=launcher, deal_pause=0.0).start()
    try:
        service.submit({"type": "setup", "setup": SETUP | {"players": ["Ann", "Bob"],
                                                             "first_dealer": 1}})  # fmt: skip
        service.submit({"type": "deal"})
        launcher.simulator.load(9)  # type: ignore[attr-defined]
        sub = service.hub.subscribe()
        service.deal_by_launcher()
        notices = []
        while not notices or notices[-1]["code"] not in ("dealt", "deal_stopped"):
            message = sub.get(30.0)
            assert message is not None, "dealing did not finish in time"
            if message.event == "notice":
                notices.append(message.data)
        assert [n["code"] for n in notices][:2] == ["dealing", "dealing"]
        assert notices[-1]["code"] == "deal_stopped"  # 9 cards for two hands of 7: empty
        assert service.snapshot()["deal"]["hands"] == [7, 2]
    finally:
        service.stop()


def test_the_rgb_led_shows_the_active_colour(store: Store, launcher: Launcher) -> None:
    shown: list[str | None] = []
    launcher.show_colour = shown.append  # type: ignore[method-assign]
    service = started(TableService(store, launcher=launcher).start(), top="G4")
    try:
        act(service, {"type": "Play", "seat": 0, "card": "B4"})
        act(service, {"type": "Play", "seat": 1, "card": "B9"})
        assert shown == ["green", "blue"]
    finally:
        service.stop()
