"""The web layer meets the table through its public doors: a logged record reads the same in
a command's answer, the history and the event stream (live or resent to a reconnecting
tablet), and what the table has (a launcher, a simulated one, its eject profiles) is what the
table tells."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from controller.launcher import open_launcher
from controller.policy import PROFILES
from controller.store import Store
from controller.table.service import TableService
from tests.serving import serve

from .conftest import SETUP, Tablet
from .test_stream import Stream

RECORD = {"seq", "kind", "actor", "at", "events"}


@pytest.fixture
def port(app: Flask) -> Iterator[int]:
    url, stop = serve(app)
    yield int(url.rsplit(":", 1)[1])
    stop()


def _without_state(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "state"}


def test_doors_a_record_reads_the_same_everywhere(
    port: int, tablet: Tablet, service: TableService
) -> None:
    live = Stream(port)
    try:
        live.next()  # the snapshot
        assert tablet.unlock().status_code == 200
        answer = tablet.post("/api/setup", {"setup": SETUP}).get_json()
        streamed = live.next()["data"]
    finally:
        live.close()
    resent_stream = Stream(port, last=0)
    try:
        resent = resent_stream.next()["data"]
    finally:
        resent_stream.close()
    (history,) = tablet.get("/api/history").get_json()["records"]
    assert set(history) == RECORD and history["kind"] == "setup"
    assert history["actor"].startswith("tablet:")
    assert _without_state(answer) == _without_state(streamed) == resent == history
    assert answer["state"]["seq"] == streamed["state"]["seq"] == history["seq"]


def test_doors_a_table_without_a_launcher_says_so(tablet: Tablet, service: TableService) -> None:
    can = service.capabilities()
    assert (can.has_launcher, can.simulated_launcher) == (False, False)
    assert list(can.eject_profiles)[: len(PROFILES)] == list(PROFILES)  # built-ins first
    assert tablet.get("/api/options").get_json()["eject_profiles"] == list(can.eject_profiles)
    assert tablet.unlock().status_code == 200
    answer = tablet.post("/api/launcher/press")
    assert answer.status_code == 409 and "no launcher" in answer.get_json()["error"]


def test_doors_a_simulated_launcher_is_told_not_found(store: Store) -> None:
    launcher = open_launcher("hbridge", backend="sim")
    service = TableService(store, launcher=launcher)
    try:
        can = service.capabilities()
        assert (can.has_launcher, can.simulated_launcher) == (True, True)
    finally:
        service.stop()
        launcher.close()
