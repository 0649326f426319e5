"""Everything that touches the table runs on its owner thread: launcher status changes, a
cleared fault and tablets' commands arriving together never show a state whose totals do not
match its sequence number."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from controller.launcher import Launcher, open_launcher
from controller.store import Store
from controller.table.service import TableService
from controller.table.session import TableSession, TableSetup

from .conftest import report, scale

SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "mode": "score_only", "options": {"target": 100000}}


@pytest.fixture
def launcher() -> Iterator[Launcher]:
    opened = open_launcher("hbridge", backend="sim")
    yield opened
    opened.close()


def expected_totals(store: Store) -> dict[int, list[int]]:
    """The totals the table must show after each record, by replaying the log."""
    totals: dict[int, list[int]] = {}
    session: TableSession | None = None
    for record in store.records("main"):
        if record.kind == "setup":
            session = TableSession(TableSetup.from_dict(record.command["setup"]))
        else:
            assert session is not None
            session.apply(record.command)
        assert session is not None
        totals[record.seq] = list(session.match.totals)
    return totals


def round_for(i: int) -> dict[str, Any]:
    points = [0, (i % 7) + 1, (i % 3) + 2, 1]
    return {"type": "round", "winner": 0, "points": points}


def test_threads_no_state_mixes_two_moments(store: Store, launcher: Launcher) -> None:
    service = TableService(store, launcher=launcher).start()
    service.submit({"type": "setup", "setup": SETUP})
    seen: list[tuple[int, list[int]]] = []
    stop = threading.Event()

    def clear_faults() -> None:  # a tablet's "jam cleared" taps, from HTTP threads
        while not stop.is_set():
            service.clear_fault()

    def lift_the_lid() -> None:  # the launcher's input thread reports each change
        simulator: Any = launcher.simulator  # type: ignore[attr-defined]
        while not stop.is_set():
            simulator.open_lid()
            simulator.close_lid()

    def watch() -> None:  # tablets reading /api/state
        last: dict[str, Any] = {}
        while not stop.is_set():
            state = service.snapshot()
            if state is not last:
                last = state
                seen.append((state["seq"], list(state["totals"])))

    helpers = [
        threading.Thread(target=f) for f in (clear_faults, clear_faults, lift_the_lid, watch)
    ]
    for helper in helpers:
        helper.start()
    sub = service.hub.subscribe()
    try:
        for i in range(scale(100, 3000)):
            service.submit(round_for(i))
    finally:
        stop.set()
        for helper in helpers:
            helper.join(10)
        service.stop()
    while (message := sub.get(0)) is not None:
        if "state" in message.data:
            state = message.data["state"]
            seen.append((state["seq"], list(state["totals"])))
    totals = expected_totals(store)
    wrong = [(seq, shown) for seq, shown in seen if seq in totals and totals[seq] != shown]
    report("threads.mixed_states", observed=len(seen), wrong=len(wrong))
    assert not wrong, f"{len(wrong)} of {len(seen)} states mix two moments, e.g. {wrong[:3]}"
