"""End to end over a pty: every fault knob survived, no eject lost or fired twice."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from controller.launcher import LauncherFault, LauncherStatus
from controller.launcher.board import FakeBoard, IncompatibleBoard, SerialLauncher
from controller.launcher.board.launcher import SerialLauncher as _SL
from controller.launcher.board.ports import find_port
from controller.launcher.ejector import EjectResult
from tests.launcher.helpers import WAIT, Recorder
from tests.waiting import wait_until

from .conftest import board_of, serial_profile

Open = Callable[..., SerialLauncher]


def eject_frames(board: FakeBoard) -> list[bytes]:
    return [line for chunk in board.received for line in chunk.splitlines() if b" EJECT " in line]


def executed_jobs(board: FakeBoard) -> int:
    """Runs the firmware started (each EJECT that was executed, not answered from memory)."""
    seqs = {line.split(b" ")[0] for line in eject_frames(board)}
    return len(seqs)


def in_thread(function: Callable[[], EjectResult]) -> tuple[threading.Thread, list[EjectResult]]:
    results: list[EjectResult] = []
    thread = threading.Thread(target=lambda: results.append(function()), daemon=True)
    thread.start()
    return thread, results


def test_e2e_eject_counts_cards(open_board: Open) -> None:
    launcher = open_board()
    machine = launcher.simulator
    for n in (1, 3, 5):
        before = machine.cards_out
        result = launcher.eject(n)
        assert result.complete, result
        assert machine.cards_out - before == n
        assert len(result.pulse_ms) == n
    assert launcher.status is LauncherStatus.READY


def test_e2e_deal_and_zero(open_board: Open) -> None:
    launcher = open_board()
    assert launcher.eject(0).complete
    assert launcher.deal(2).ejected == 2


def test_e2e_presses_reach_the_consumer(open_board: Open) -> None:
    launcher = open_board()
    seen = Recorder()
    launcher.add_press_consumer(lambda event: seen(event.kind))
    launcher.simulator.press()
    launcher.simulator.press()
    seen.wait_for(lambda items: items.count("release") == 2)
    assert seen.items == ["press", "release", "press", "release"]


def test_e2e_lid_open_is_a_fault_and_refuses(open_board: Open) -> None:
    launcher = open_board()
    launcher.simulator.open_lid()
    assert wait_until(lambda: launcher.fault is not None)
    with pytest.raises(LauncherFault, match="lid"):
        launcher.eject(1)
    launcher.simulator.close_lid()
    assert wait_until(lambda: launcher.fault is None)


@pytest.mark.parametrize("knob", ["drop", "corrupt_out", "corrupt_in", "delay"])
def test_e2e_faulty_link_still_ejects_exactly_once(open_board: Open, knob: str) -> None:
    launcher = open_board()
    board = board_of(launcher)
    if knob == "drop":
        board.drop_replies(2)
    elif knob == "corrupt_out":
        board.corrupt(2)
    elif knob == "corrupt_in":
        board.corrupt(1, inbound=True)
    else:
        board.delay(0.4)
    before = launcher.simulator.cards_out
    result = launcher.eject(3)
    board.delay(0)
    assert result.complete, result
    assert launcher.simulator.cards_out - before == 3
    assert executed_jobs(board) == 1
    if knob in ("drop", "delay", "corrupt_in"):
        assert len(eject_frames(board)) > 1  # it was retransmitted, and still ran once


def test_e2e_retransmitted_eject_never_fires_twice(open_board: Open) -> None:
    launcher = open_board()
    board = board_of(launcher)
    for n in (2, 1, 3):
        board.drop_replies(3)  # the first three answers to EJECT are lost
        before = launcher.simulator.cards_out
        result = launcher.eject(n)
        assert result.ejected == n and launcher.simulator.cards_out - before == n
    assert board.app.ejector.job != 0


def test_e2e_silence_is_a_link_fault_then_recovers(open_board: Open) -> None:
    launcher = open_board()
    board = board_of(launcher)
    statuses = Recorder()
    launcher.add_status_consumer(lambda status, fault: statuses((status, fault)))
    board.go_silent(6.0)
    statuses.wait_for(lambda items: any(f is not None and f.kind == "link" for _, f in items))
    assert launcher.status is LauncherStatus.OFFLINE
    with pytest.raises(LauncherFault, match="link"):
        launcher.eject(1)
    assert wait_until(lambda: launcher.fault is None, timeout=20)
    assert launcher.eject(2).complete


def test_e2e_cable_pull_and_reconnect(open_board: Open) -> None:
    launcher = open_board()
    board = board_of(launcher)
    board.disconnect()
    assert wait_until(lambda: launcher.fault is not None and launcher.fault.kind == "link")
    assert "launcher board" in launcher.fault.detail
    board.reconnect()
    assert wait_until(lambda: launcher.fault is None)
    assert launcher.eject(2).complete


def test_e2e_jam_and_empty(open_board: Open) -> None:
    launcher = open_board()
    board = board_of(launcher)
    board.jam()
    result = launcher.eject(3)
    assert result.reason == "jam" and launcher.status is LauncherStatus.JAM
    launcher.simulator.clear_jam()
    launcher.clear_fault()
    board.empty()
    result = launcher.eject(2)
    assert (result.reason, result.ejected) == ("empty", 0)
    assert launcher.status is LauncherStatus.EMPTY


def test_e2e_stop_ends_a_run(open_board: Open) -> None:
    launcher = open_board(cards_per_second=1.0)
    thread, results = in_thread(lambda: launcher.eject(10))
    assert wait_until(lambda: launcher.simulator.speed > 0)
    launcher.stop("enough")
    thread.join(WAIT)
    (result,) = results
    assert (result.reason, result.detail) == ("stopped", "enough")
    assert wait_until(lambda: launcher.simulator.speed == 0)


def test_e2e_close_puts_the_driver_to_sleep() -> None:
    profile = serial_profile()
    with FakeBoard(profile) as board:
        launcher = _SL(profile, lambda: board.port, connect_timeout=WAIT)
        assert board.app.session and board.app.hw.motor.enabled
        launcher.close()
        assert not board.app.session and not board.app.hw.motor.enabled
        assert launcher.status is LauncherStatus.CLOSED


def test_e2e_incompatible_firmware_is_refused_clearly() -> None:
    profile = serial_profile()
    with (
        FakeBoard(profile, protocol=(2, 3), version="9.0.0") as board,
        pytest.raises(IncompatibleBoard) as caught,
    ):
        _SL(profile, lambda: board.port, connect_timeout=WAIT)
    message = str(caught.value)
    assert "9.0.0" in message and "protocol 2..3" in message and "make firmware-deploy" in message


def test_e2e_no_board_is_a_link_fault_not_a_crash() -> None:
    launcher = _SL(serial_profile(), lambda: None, connect_timeout=0.5)
    try:
        assert launcher.fault is not None and launcher.fault.kind == "link"
        assert "no launcher board found" in launcher.fault.detail
    finally:
        launcher.close()


def test_e2e_port_discovery(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    class Port:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    monkeypatch.delenv("UNO_ATTACK_SERIAL_PORT", raising=False)
    missing = str(tmp_path / "none")
    pico = [Port("/dev/ttyACM0", 0x2E8A, 0x0005), Port("/dev/ttyUSB0", 0x0403, 0x6001)]
    assert find_port(symlink=missing, list_ports=lambda: pico) == "/dev/ttyACM0"
    assert find_port(symlink=missing, list_ports=lambda: []) is None
    link = tmp_path / "uno-launcher"
    link.write_text("")
    assert find_port(symlink=str(link), list_ports=lambda: pico) == str(link)
    assert find_port("/dev/ttyS9", symlink=str(link)) == "/dev/ttyS9"
    with pytest.raises(LookupError, match="several"):
        find_port(symlink=missing, list_ports=lambda: pico * 2)


def test_e2e_a_lost_button_event_is_recovered_from_status(open_board: Open) -> None:
    launcher = open_board()
    board = board_of(launcher)
    seen = Recorder()
    launcher.add_press_consumer(lambda event: seen(event.kind))
    launcher.simulator.press()
    seen.wait_for(lambda items: "release" in items)
    board.corrupt(1)  # the next press's BUTTON down is damaged on the way: a gap follows
    launcher.simulator.press()
    seen.wait_for(lambda items: items.count("press") == 2)


def test_e2e_backend_names_reach_the_config_and_the_factory() -> None:
    from controller.config import parse_config
    from controller.launcher import resolve_backend

    for name in ("serial", "fake-serial"):
        assert parse_config(f'[launcher]\nbackend = "{name}"\n').launcher.backend == name
        assert resolve_backend(name) == name


def test_e2e_a_firmware_error_is_a_fault_then_a_new_session(
    open_board: Open, monkeypatch: pytest.MonkeyPatch
) -> None:
    launcher = open_board()
    board = board_of(launcher)
    boots = board.boots

    def broken(*_args: object) -> None:
        raise RuntimeError("a firmware bug")

    monkeypatch.setattr(board.app.hw.lights, "show", broken)
    launcher.show_colour("red")
    assert wait_until(lambda: launcher.fault is not None and launcher.fault.kind == "board")
    assert wait_until(lambda: board.app.session)  # the host said HELLO again
    monkeypatch.undo()
    launcher.clear_fault()
    assert wait_until(lambda: launcher.fault is None)
    assert launcher.eject(1).complete and board.boots == boots
