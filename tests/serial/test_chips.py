"""The fake board as a Pico (RP2040), a Pico 2 (RP2350) and a chip the firmware does not know,
through the production serial code: each keeps its last run where its own chip's scratch
registers are (the RP2040's address is the RP2350's USB PLL), an unknown chip touches none and
says so, and a layout left by an older firmware is discarded and said to be."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from controller.launcher.board import FakeBoard, SerialLauncher
from controller.launcher.sim import SimOptions
from tests.launcher.helpers import WAIT
from tests.waiting import wait_until

from .conftest import SCALE, serial_profile
from .test_end_to_end import in_thread

RP2040 = range(0x4005800C, 0x4005801C, 4)  # WATCHDOG_BASE + SCRATCH0..3 on the RP2040
RP2350 = range(0x400D800C, 0x400D801C, 4)  # ...on the RP2350
PLL_USB = range(0x40058000, 0x40059000)  # the RP2350's USB PLL, where the RP2040's watchdog is


@contextmanager
def launcher_on(machine_name: str) -> Iterator[tuple[SerialLauncher, FakeBoard]]:
    profile = serial_profile()
    with FakeBoard(profile, sim=SimOptions(time_scale=SCALE), machine_name=machine_name) as board:
        launcher = SerialLauncher(profile, lambda: board.port, connect_timeout=WAIT)
        try:
            yield launcher, board
        finally:
            launcher.close()


def rebooted(launcher: SerialLauncher, board: FakeBoard) -> None:
    """Reset the board as its watchdog would; wait until the host has said HELLO to it."""
    boot = launcher.board_info.boot if launcher.board_info else 0
    board.reboot()
    assert wait_until(
        lambda: (
            launcher.board_info is not None
            and launcher.board_info.boot != boot
            and launcher.fault is None
        )
    )


@pytest.mark.parametrize(
    ("machine_name", "chip", "registers"),
    [
        ("Raspberry Pi Pico with RP2040", "RP2040", RP2040),
        ("Raspberry Pi Pico2 with RP2350", "RP2350", RP2350),
        ("Raspberry Pi Pico2 with RP2350-RISCV", "RP2350", RP2350),
    ],
)
def test_each_chip_keeps_its_last_run_in_its_own_registers(
    machine_name: str, chip: str, registers: range
) -> None:
    with launcher_on(machine_name) as (launcher, board):
        assert launcher.board_info is not None and launcher.board_info.chip == chip
        assert launcher.board_info.memory == "none"
        assert launcher.eject(2).complete
        job = board.app.ejector.last[0]
        assert set(board.mem32.words) == set(registers)
        if chip == "RP2350":
            assert not set(board.mem32.words) & set(PLL_USB)
        rebooted(launcher, board)
        assert launcher.board_info.memory == "run"
        given = launcher.link.request("STATUS", f"job={job}")
        assert (given["reason"], given["ejected"]) == ("count", "2")


def test_an_unknown_chip_keeps_nothing_across_a_reset_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.WARNING),
        launcher_on("Some Board with RP9999") as (
            launcher,
            board,
        ),
    ):
        assert launcher.board_info is not None
        assert (launcher.board_info.chip, launcher.board_info.memory) == ("unknown", "off")
        assert "keeps nothing across a reset" in caplog.text
        assert launcher.eject(1).complete  # it still runs the motor, counts and stops
        job = board.app.ejector.last[0]
        assert board.mem32.words == {}
        rebooted(launcher, board)
        assert launcher.link.request("STATUS", f"job={job}")["reason"] == "unknown"


def test_after_an_upgrade_the_old_layout_is_discarded_and_said_to_be(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with launcher_on("Raspberry Pi Pico with RP2040") as (launcher, board):
        # what firmware 0.1.0 left: job 4711 cut short at 5 of 8 cards, in its own layout
        old = {0x4005800C: 0x554E4F00 ^ 4711, 0x40058010: 4711, 0x40058014: (8 << 16) | 10}
        board.mem32.words.clear()
        board.mem32.words.update({**old, 0x40058018: 0})
        with caplog.at_level(logging.WARNING):
            rebooted(launcher, board)
        assert launcher.board_info is not None and launcher.board_info.memory == "old"
        assert "another firmware's layout" in caplog.text
        given = launcher.link.request("STATUS", "job=4711")
        assert given["reason"] == "unknown" and "ejected" not in given  # never misread
        assert launcher.eject(1).complete


def test_a_reset_mid_eject_on_an_unknown_chip_is_a_fault_saying_why() -> None:
    profile = serial_profile()
    options = SimOptions(time_scale=SCALE, cards_per_second=2.0)
    with FakeBoard(profile, sim=options, machine_name="Some Board with RP9999") as board:
        launcher = SerialLauncher(profile, lambda: board.port, connect_timeout=WAIT)
        try:

            def heard(app: Any) -> bool:  # a card is out, and the host has heard of it
                said = (app.ejector.beam.count, app.hw.beam.pending)
                return app.ejector.beam.count >= 1 and launcher.heard == said

            board.fault_when(heard, "reboot")
            thread, results = in_thread(lambda: launcher.eject(8))
            thread.join(WAIT * 2)
            assert results and wait_until(lambda: launcher.unsettled == 0)
            assert launcher.fault is not None and launcher.fault.kind == "board"
            assert "keeps nothing across a reset" in launcher.fault.detail, launcher.fault
            assert board.simulator is not None
            assert wait_until(lambda: board.simulator.speed == 0)
        finally:
            launcher.close()


def test_what_a_restarted_board_says_it_forgot() -> None:
    with launcher_on("Raspberry Pi Pico with RP2040") as (launcher, _board):
        drive = launcher._drive_
        info = drive.board_info
        assert info is not None
        for reset, memory, said in (
            ("power", "none", "lost power"),
            ("wdt", "run", "keeps only its last run across a reset"),
            ("wdt", "old", "discarded its memory (old)"),
            ("other", "off", "keeps nothing across a reset"),
        ):
            drive.board_info = dataclasses.replace(info, reset=reset, memory=memory)
            assert said in drive._forgot(), (reset, memory)
