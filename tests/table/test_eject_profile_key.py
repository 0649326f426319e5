"""The set-up names its eject profile `eject_profile`. Logs written before the key had that
name carry `profile`: they replay to the same table with the same profile, and a request in
the older shape (a tablet still showing an older page) is read the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.store import Store
from controller.table.codec import InvalidInput
from controller.table.service import TableService

from .conftest import SETUP, act, started


def _older_shape(command: dict[str, Any]) -> dict[str, Any]:
    """A set-up command as the log stored it before the rename."""
    if command.get("type") != "setup":
        return command
    setup = dict(command["setup"])
    setup["profile"] = setup.pop("eject_profile")
    return command | {"setup": setup}


def _copy_in_older_shape(new: Store, path: Path) -> Store:
    old = Store(path)
    for record in new.records("main"):
        old.append("main", record.kind, _older_shape(record.command), record.events,
                   actor=record.actor, idem_key=record.idem_key)  # fmt: skip
    return old


def test_a_log_in_the_older_shape_replays_the_same_table(tmp_path: Path) -> None:
    new = Store(tmp_path / "new.db")
    first = TableService(new).start()
    try:
        first.submit({"type": "setup", "setup": SETUP | {"eject_profile": "brutal"}},
                     idem_key="setup-tap-1")  # fmt: skip
        first.submit({"type": "deal"})
        act(first, {"type": "TurnUp", "card": "R5"})
        act(first, {"type": "Play", "seat": 0, "card": "RH2"})
        act(first, {"type": "Press", "seat": 1, "cards": 2})
        state = first.snapshot()
    finally:
        first.stop()
    assert new.records("main")[0].command["setup"]["eject_profile"] == "brutal"
    assert "profile" not in new.records("main")[0].command["setup"]

    old = _copy_in_older_shape(new, tmp_path / "old.db")
    assert old.records("main")[0].command["setup"]["profile"] == "brutal"
    second = TableService(old).start()
    try:
        same_log = {"log_id": new.log_id}  # the copy is another log: only its id differs
        assert second.snapshot() | same_log == state
        assert second.snapshot()["setup"]["eject_profile"] == "brutal"
        assert second.call(lambda: second.launcher_side.policy().profile.name) == "brutal"
        again = second.submit({"type": "setup", "setup": SETUP | {"eject_profile": "brutal"}},
                              idem_key="setup-tap-1")  # fmt: skip
        assert again.seq == old.records("main")[0].seq  # the same tap, not another command
    finally:
        second.stop()
    assert old.set_aside_records() == []


def test_a_request_with_the_older_key_chooses_the_eject_profile(service: TableService) -> None:
    started(service, profile="gentle")
    assert service.snapshot()["setup"]["eject_profile"] == "gentle"
    assert "profile" not in service.snapshot()["setup"]
    assert service.call(lambda: service.launcher_side.policy().profile.name) == "gentle"


def test_the_older_and_the_newer_key_must_agree(service: TableService) -> None:
    same = SETUP | {"profile": "gentle", "eject_profile": "gentle"}
    service.submit({"type": "setup", "setup": same})
    assert service.snapshot()["setup"]["eject_profile"] == "gentle"
    with pytest.raises(InvalidInput, match="eject_profile"):
        both = SETUP | {"profile": "toy", "eject_profile": "brutal"}
        service.submit({"type": "setup", "setup": both})
    with pytest.raises(InvalidInput, match="eject profile must be one of"):
        service.submit({"type": "setup", "setup": SETUP | {"eject_profile": "laser"}})
