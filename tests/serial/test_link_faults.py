"""The link under faults: a pulled cable, a board reset or a power loss mid-eject. The launcher
never blocks its owner: it goes offline and refuses at once what needs the board, a run cut off
returns what was heard so far, and when the board is back the run is settled from the board's
own count (its scratch registers after a reset; its last reports after a power loss)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from controller.launcher import LauncherFault, LauncherStatus
from controller.launcher.board import SerialLauncher, Settlement
from controller.launcher.ejector import EjectResult
from controller.policy import ScriptedPolicy
from controller.store import Store
from controller.table.service import TableService
from tests.launcher.helpers import WAIT
from tests.table.conftest import started
from tests.waiting import wait_until

from .conftest import board_of
from .test_end_to_end import eject_frames, in_thread

Open = Callable[..., SerialLauncher]


def settlements(launcher: SerialLauncher) -> list[Settlement]:
    seen: list[Settlement] = []
    launcher.add_settlement_consumer(seen.append)
    return seen


def cut_off(launcher: SerialLauncher, cards: int, fault: Callable[[], None]) -> EjectResult:
    """Start ejecting `cards`; once the first card is out, `fault()`; the eject's result."""
    before = launcher.simulator.cards_out
    thread, results = in_thread(lambda: launcher.eject(cards))
    assert wait_until(lambda: launcher.simulator.cards_out - before >= 1)
    fault()
    thread.join(WAIT)
    assert not thread.is_alive(), "the eject blocked while the board was away"
    (result,) = results
    return result


def test_cable_pulled_mid_eject_returns_at_once_then_settles_exactly(open_board: Open) -> None:
    launcher = open_board(cards_per_second=2.0)
    board = board_of(launcher)
    seen = settlements(launcher)
    before = launcher.simulator.cards_out
    result = cut_off(launcher, 8, board.disconnect)  # self-powered: the board runs on
    assert not board.connected  # the eject returned while the cable was still out
    assert result.reason == "stopped" and "settled" in result.detail
    assert launcher.status is LauncherStatus.OFFLINE and launcher.unsettled == 1
    # the board stops by itself after 3 s of silence; cards kept coming out meanwhile
    assert wait_until(lambda: board.app.ejector.phase == 0 and launcher.simulator.speed == 0)
    board.reconnect()
    assert wait_until(lambda: len(seen) == 1)
    (settled,) = seen
    out = launcher.simulator.cards_out - before
    assert settled.result is result and settled.ejected == out > result.ejected
    assert settled.difference == out - result.ejected
    assert launcher.unsettled == 0 and wait_until(lambda: launcher.fault is None)
    assert launcher.eject(1).complete


def test_offline_refuses_only_what_needs_the_board_and_at_once(open_board: Open) -> None:
    launcher = open_board()
    board = board_of(launcher)
    board.disconnect()
    assert wait_until(lambda: launcher.status is LauncherStatus.OFFLINE)
    sent = len(eject_frames(board))
    assert launcher.fault is not None and launcher.fault.kind == "link"
    with pytest.raises(LauncherFault, match="link"):
        launcher.eject(1)
    with pytest.raises(LauncherFault, match="link"):
        launcher.deal(3)
    launcher.show_colour("red")  # lights wait for the board; nobody waits for them
    launcher.show_tension(0.5)
    launcher.clear_fault()  # a person cannot clear a missing cable...
    assert launcher.status is LauncherStatus.OFFLINE  # ...it clears itself when it is back
    assert len(eject_frames(board)) == sent  # refused here, not tried on a dead port
    board.reconnect()
    assert wait_until(lambda: launcher.status is LauncherStatus.READY)
    assert launcher.eject(2).complete


def test_pull_cable_for_some_seconds_reconnects_by_itself(open_board: Open) -> None:
    launcher = open_board()
    board = board_of(launcher)
    board.pull_cable(0.5)
    assert wait_until(lambda: launcher.status is LauncherStatus.OFFLINE)
    assert wait_until(lambda: launcher.status is LauncherStatus.READY, timeout=WAIT * 2)
    assert board.connected and launcher.eject(1).complete


WHEN: dict[str, Callable[[Any], bool]] = {
    # a card blocks the beam (it stays in the throat)
    "blocked": lambda app: app.ejector.beam.count >= 1 and app.hw.beam.blocked,
    # a card has just cleared the beam and waits out min_gap to be confirmed
    "leaving": lambda app: app.ejector.beam.count >= 1 and app.hw.beam.pending,
}


@pytest.mark.parametrize("instant", sorted(WHEN))
def test_a_board_reset_mid_eject_counts_exactly(open_board: Open, instant: str) -> None:
    launcher = open_board(cards_per_second=2.0)
    board = board_of(launcher)
    seen = settlements(launcher)
    before = launcher.simulator.cards_out
    board.fault_when(WHEN[instant], "reboot")
    thread, results = in_thread(lambda: launcher.eject(8))
    thread.join(WAIT * 2)
    (result,) = results
    assert wait_until(lambda: launcher.unsettled == 0)
    out = launcher.simulator.cards_out - before
    ejected = seen[0].ejected if seen else result.ejected
    assert ejected == out, (instant, result, seen)  # the scratch registers had it, to the card
    assert launcher.fault is not None and launcher.fault.kind == "board"  # someone looks
    assert launcher.simulator.speed == 0
    launcher.clear_fault()
    assert wait_until(lambda: launcher.fault is None)
    assert launcher.eject(1).complete  # the next job is a new job


@pytest.mark.parametrize("instant", sorted(WHEN))
def test_a_power_loss_mid_eject_counts_what_the_board_said(open_board: Open, instant: str) -> None:
    launcher = open_board(cards_per_second=2.0)
    board = board_of(launcher)
    seen = settlements(launcher)
    before = launcher.simulator.cards_out

    def heard(app: Any) -> bool:  # the board is at `instant` and the host has heard it
        board_says = (app.ejector.beam.count, app.hw.beam.pending)
        return WHEN[instant](app) and launcher.heard == board_says

    board.fault_when(heard, "power_loss")
    thread, results = in_thread(lambda: launcher.eject(8))
    thread.join(WAIT * 2)
    (result,) = results
    board.reconnect()
    assert wait_until(lambda: launcher.unsettled == 0)
    out = launcher.simulator.cards_out - before
    ejected = seen[0].ejected if seen else result.ejected
    assert ejected == out, (instant, result, seen)  # a leaving card that was announced counts
    assert launcher.fault is not None and launcher.fault.kind == "board"
    assert "power" in launcher.fault.detail


def test_the_table_keeps_answering_while_offline_and_corrects_the_press(
    store: Store, open_board: Open
) -> None:
    launcher = open_board(cards_per_second=2.0)
    board = board_of(launcher)
    service = started(TableService(store, launcher=launcher, policy=ScriptedPolicy([6])).start())
    sub = service.hub.subscribe()
    try:
        before = launcher.simulator.cards_out
        threading.Thread(target=launcher.simulator.press, daemon=True).start()
        assert wait_until(lambda: launcher.simulator.cards_out - before >= 1)
        board.disconnect()
        # a tablet's command is answered while the cable is still out
        record = service.submit({"type": "action", "action": {"type": "CallUno", "seat": 2}})
        assert record.seq > 0 and not board.connected
        assert service.snapshot()["launcher"]["status"] == "offline"
        board.reconnect()

        def fixes() -> list[dict[str, Any]]:
            return [r for r in service.history() if r["actor"] == "launcher"]

        assert wait_until(lambda: bool(fixes()), timeout=WAIT * 2)
        out = launcher.simulator.cards_out - before
        press = next(r for r in service.history() if r["actor"] == "button")
        (corrected,) = [e for e in fixes()[-1]["events"] if e["type"] == "Corrected"]
        pressed = next(e for e in press["events"] if e["type"] == "Pressed")
        assert corrected["seat"] == pressed["seat"] == 0
        assert corrected["after"] - corrected["before"] == out - len(pressed["cards"])
        assert service.snapshot()["deal"]["hands"][0] == 7 + out
    finally:
        service.hub.unsubscribe(sub)
        service.stop()
