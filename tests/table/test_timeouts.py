"""A command whose caller stopped waiting: it either never runs, or it finishes and its outcome
is found by its key; the message says which."""

from __future__ import annotations

import threading

import pytest

import controller.table.service as service_module
from controller.config import Config
from controller.store import Store
from controller.table.service import TableBusy, TableService
from web_ui.app import create_app

from .conftest import SETUP


def hold(service: TableService) -> threading.Event:
    """Keep the owner thread busy until the returned event is set."""
    release = threading.Event()
    service.post(lambda: release.wait(30))
    return release


def test_timeouts_a_queued_command_that_timed_out_never_runs(
    service: TableService, store: Store
) -> None:
    release = hold(service)
    with pytest.raises(TableBusy, match="was not applied, send it again") as busy:
        service.submit({"type": "setup", "setup": SETUP}, idem_key="setup-0001", timeout=0.2)
    assert not busy.value.running
    release.set()
    service.call(lambda: None)  # everything queued before has run (or been skipped)
    assert store.records("main") == []
    record = service.submit({"type": "setup", "setup": SETUP}, idem_key="setup-0002")
    assert [r.seq for r in store.records("main")] == [record.seq]


def test_timeouts_a_running_command_is_found_by_its_key(
    service: TableService, store: Store
) -> None:
    started, release = threading.Event(), threading.Event()
    original = store.append

    def slow_append(*args: object, **kw: object) -> object:
        started.set()
        release.wait(30)
        return original(*args, **kw)  # type: ignore[arg-type]

    store.append = slow_append  # type: ignore[method-assign]  # a disk that stalls
    with pytest.raises(TableBusy, match="same key to learn its outcome") as busy:
        service.submit({"type": "setup", "setup": SETUP}, idem_key="setup-0003", timeout=0.2)
    assert busy.value.running and started.is_set()
    release.set()
    again = service.submit({"type": "setup", "setup": SETUP}, idem_key="setup-0003")
    assert [r.seq for r in store.records("main")] == [again.seq]


def test_timeouts_busy_is_503_with_the_reason(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(service, Config(), secret_key="t")
    client = app.test_client()
    csrf = client.get("/api/session").get_json()["csrf"]
    client.post("/api/session/pin", json={"pin": "1234"}, headers={"X-CSRF-Token": csrf})
    monkeypatch.setattr(service_module, "COMMAND_TIMEOUT", 0.2)
    release = hold(service)
    try:
        answer = client.post("/api/setup", json={"setup": SETUP}, headers={"X-CSRF-Token": csrf})
    finally:
        release.set()
    assert answer.status_code == 503 and answer.headers["Retry-After"].isdigit()
    assert "not applied" in answer.get_json()["error"]
