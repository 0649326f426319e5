"""A tablet's taps on the launcher are logged as the tablet's: a press of the simulated button
(its key answers the recorded press, after a restart too, and never presses again) and a
cleared fault (a record of its own, the game unchanged)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from controller.config import Config
from controller.launcher import Fault, Launcher, open_launcher
from controller.launcher.sim import SimOptions
from controller.policy import ScriptedPolicy
from controller.store import Record, Store
from controller.table.service import TableService
from tests.waiting import wait_until
from web_ui.app import create_app

from .conftest import SETUP, Tablet


@pytest.fixture
def launcher() -> Iterator[Launcher]:
    opened = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25))
    yield opened
    opened.close()


class Table:
    """A table service on `store` with a simulated launcher, and a tablet on its web app."""

    def __init__(self, store: Store, launcher: Launcher) -> None:
        self.service = TableService(store, launcher=launcher, policy=ScriptedPolicy([0] * 9))
        self.service.start()
        self.tablet = Tablet(create_app(self.service, Config(), secret_key="k").test_client())
        assert self.tablet.unlock().status_code == 200
        self.actor = "tablet:" + self.tablet.get("/api/session").get_json()["tablet"]["id"]


@pytest.fixture
def table(store: Store, launcher: Launcher) -> Iterator[Table]:
    opened = Table(store, launcher)
    tablet = opened.tablet
    assert tablet.post("/api/setup", {"setup": SETUP}).status_code == 200
    assert tablet.post("/api/deal").status_code == 200
    assert tablet.act({"type": "TurnUp", "card": "R5"}).status_code == 200
    yield opened
    opened.service.stop()


def presses(store: Store) -> list[Record]:
    return [r for r in store.records("main") if '"Press"' in json.dumps(r.command)]


def test_a_tablets_press_is_logged_as_the_tablets(table: Table, store: Store) -> None:
    assert table.tablet.post("/api/launcher/press", {"key": "press-tap-1"}).status_code == 200
    wait_until(lambda: presses(store), "the press is recorded")
    (press,) = presses(store)
    assert press.actor == table.actor and press.idem_key is not None
    assert press.idem_key.endswith(":press-tap-1")


def test_a_press_key_retried_after_a_restart_answers_the_recorded_press(
    table: Table, store: Store, launcher: Launcher
) -> None:
    assert table.tablet.post("/api/launcher/press", {"key": "press-tap-1"}).status_code == 200
    wait_until(lambda: presses(store), "the first press is recorded")
    first = presses(store)[0]
    table.service.stop()
    again = Table(store, launcher)  # a restart: a new service and app, no key in memory
    try:
        retried = again.tablet.post("/api/launcher/press", {"key": "press-tap-1"})
        assert retried.status_code == 200
        answer = retried.get_json()
        assert answer["pressed"] and answer["repeated"] and answer["seq"] == first.seq
        reused = again.tablet.act({"type": "Draw", "seat": 0}, key="press-tap-1")
        assert reused.status_code == 409  # the key was a press's
        assert again.tablet.post("/api/launcher/press", {"key": "press-tap-2"}).status_code == 200
        wait_until(lambda: len(presses(store)) >= 2, "the second tap's press is recorded")
        later = presses(store)  # a retry pressing again would come before the second tap's
        match = (first.idem_key or "").partition(":")[0]
        assert [r.idem_key for r in later] == [first.idem_key, f"{match}:press-tap-2"]
        assert [e["seat"] for r in later for e in r.events if e["type"] == "Pressed"] == [0, 1]
    finally:
        again.service.stop()


def test_clearing_a_fault_is_logged_and_changes_nothing_else(
    table: Table, store: Store, launcher: Launcher
) -> None:
    launcher.latch(Fault("jam", "a card is stuck"))
    wait_until(lambda: table.service.snapshot()["launcher"]["status"] == "jam", "the jam shows")
    before = table.tablet.get("/api/state").get_json()
    answer = table.tablet.post("/api/launcher/clear", {"key": "clear-tap-1"})
    assert answer.status_code == 200 and answer.get_json()["cleared"]
    assert launcher.fault is None
    record = store.records("main")[-1]
    assert (record.kind, record.actor, record.seq) == (
        "clear",
        table.actor,
        answer.get_json()["seq"],
    )
    assert record.events == [
        {"type": "FaultCleared", "fault": {"kind": "jam", "detail": "a card is stuck"}}
    ]
    after = answer.get_json()["state"]
    assert {k: v for k, v in after.items() if k not in ("seq", "launcher")} == {
        k: v for k, v in before.items() if k not in ("seq", "launcher")
    }
    retried = table.tablet.post("/api/launcher/clear", {"key": "clear-tap-1"})
    assert retried.get_json()["seq"] == record.seq  # a retry clears once
    table.service.stop()
    again = TableService(store, launcher=launcher)  # the replay takes the record as it is
    try:
        assert json.loads(json.dumps(again.snapshot()["deal"])) == after["deal"]
        assert [seq for seq, _ in store.set_aside_records()] == []
    finally:
        again.stop()


def test_clearing_a_fault_with_no_match_is_logged_too(store: Store, launcher: Launcher) -> None:
    opened = Table(store, launcher)
    try:
        answer = opened.tablet.post("/api/launcher/clear")
        assert answer.status_code == 200
        assert [(r.kind, r.actor) for r in store.records("main")] == [("clear", opened.actor)]
    finally:
        opened.service.stop()


def test_an_undo_looks_past_a_cleared_fault(table: Table, launcher: Launcher) -> None:
    """Clearing a fault is no step of the game: the undo after it takes back the last play."""
    played = table.tablet.act({"type": "Play", "seat": 0, "card": "R7"})
    assert played.status_code == 200
    launcher.latch(Fault("jam", "a card is stuck"))
    wait_until(lambda: table.service.snapshot()["launcher"]["status"] == "jam", "the jam shows")
    assert table.tablet.post("/api/launcher/clear").status_code == 200
    undone = table.tablet.post("/api/undo")
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["state"]["deal"]["top"] == "R5"
