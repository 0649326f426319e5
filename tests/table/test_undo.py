"""Undo goes back to a copy of the table kept before each step it can reach, instead of replaying
the match from its records: it costs the same at the hundredth round as at the first. The
table it leaves must be exactly the one a replay of the log gives (a restart), however the
undos fall: one or several in a row, across the end of a deal or of the match, after new
steps, and deeper than the copies kept (then it replays)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks.bench_history import tap
from controller.engine import IllegalAction
from controller.store import Store
from controller.table import service as service_module
from controller.table.service import TableService
from controller.table.session import SHOWN_DEALS, TableSession

from .conftest import SETUP, act, started


def replayed(store: Store) -> dict[str, Any]:
    """The table a start rebuilds from the log (a full replay), as its snapshot."""
    return TableService(store).snapshot()


def counting(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The commands any session applies from now on (a replay applies the match's again)."""
    applied: list[Any] = []
    apply = TableSession.apply

    def counted(session: TableSession, command: Any) -> list[dict[str, Any]]:
        applied.append(command)
        return apply(session, command)

    monkeypatch.setattr(TableSession, "apply", counted)
    return applied


def test_undo_rewinds_without_replaying_the_match(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    started(service)
    act(service, {"type": "Play", "seat": 0, "card": "R7"})
    act(service, {"type": "Play", "seat": 1, "card": "R9"})
    applied = counting(monkeypatch)
    service.submit({"type": "undo"})
    service.submit({"type": "undo"})
    assert applied == []  # no command of the match was applied again
    monkeypatch.undo()
    assert service.snapshot() == replayed(store)
    assert service.snapshot()["deal"]["top"] == "R5"


def test_undo_from_copies_equals_a_full_replay_all_along_a_match(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    applied = counting(monkeypatch)
    rng = random.Random(3)
    service.submit({"type": "setup", "setup": SETUP | {"options": {"target": 150}}})
    undos = 0
    for _ in range(400):
        state = service.snapshot()
        if state["match_over"]:
            break
        if rng.random() < 0.25:
            for _ in range(rng.choice([1, 1, 2, 3])):
                applied.clear()
                try:
                    service.submit({"type": "undo"})
                except IllegalAction:  # a press or a deal before it: it stays
                    break
                assert applied == [], "the undo replayed the match"
                undos += 1
                assert service.snapshot() == replayed(store), f"after undo {undos}"
            continue
        service.submit(tap(state, rng))
    deals = len(service.snapshot()["deals"])
    assert undos >= 40 and deals >= 2, (undos, deals)


def test_undoing_the_end_of_the_match_and_deeper_than_the_copies_kept(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "UNDO_DEPTH", 3)
    setup = SETUP | {"mode": "score_only", "options": {"target": 100}}
    service.submit({"type": "setup", "setup": setup})
    for winner in (0, 1, 2, 3, 0, 1, 2):
        points = [0 if seat == winner else 5 + seat for seat in range(4)]
        service.submit({"type": "round", "winner": winner, "points": points})
    service.submit({"type": "round", "winner": 3, "points": [60, 0, 40, 0]})
    assert service.snapshot()["match_over"]
    for _ in range(6):  # the match's end first, then past the 3 copies: a replay
        service.submit({"type": "undo"})
        assert service.snapshot() == replayed(store)
    assert not service.snapshot()["match_over"] and len(service.snapshot()["deals"]) == 2
    service.submit({"type": "round", "winner": 1, "points": [3, 0, 3, 3]})
    service.submit({"type": "undo"})
    assert service.snapshot() == replayed(store)


def test_the_finished_deals_are_not_made_again_for_each_state(service: TableService) -> None:
    """The state carries every finished deal: each is made once, not once per command."""
    service.submit({"type": "setup", "setup": SETUP | {"mode": "score_only"}})
    for winner in (0, 1, 2):
        points = [0 if seat == winner else 4 for seat in range(4)]
        service.submit({"type": "round", "winner": winner, "points": points})
    before = service.snapshot()["deals"]
    service.submit({"type": "round", "winner": 3, "points": [1, 2, 3, 0]})
    after = service.snapshot()["deals"]
    assert len(after) == 4 and all(a is b for a, b in zip(before, after, strict=False))
    service.submit({"type": "undo"})
    assert service.snapshot()["deals"] == before and before[0] is service.snapshot()["deals"][0]


def test_the_state_carries_the_latest_deals_whatever_the_match_length(store: Store) -> None:
    """A long score-only match: the state holds the last SHOWN_DEALS rounds and counts them all,
    and the totals before the first one shown follow from the totals (the chart starts there)."""
    service = TableService(store).start()
    try:
        setup = {"players": ["Ann", "Bob"], "mode": "score_only", "options": {"target": 100_000}}
        service.submit({"type": "setup", "setup": setup})
        for number in range(SHOWN_DEALS + 30):
            winner = number % 2
            points = [0 if seat == winner else 5 for seat in (0, 1)]
            service.submit({"type": "round", "winner": winner, "points": points})
        state = service.snapshot()
        assert state["deal_count"] == SHOWN_DEALS + 30 and len(state["deals"]) == SHOWN_DEALS
        assert state["deals"][0]["number"] == 31 and state["deals"][-1]["number"] == 130
        shown = [sum(d["deltas"][seat] for d in state["deals"]) for seat in (0, 1)]
        assert [t - s for t, s in zip(state["totals"], shown, strict=True)] == [75, 75]
    finally:
        service.stop()
