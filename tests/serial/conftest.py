"""Fixtures for the serial backend: the production SerialLauncher against a fake board over a
real pty. Waits are on events and conditions with generous timeouts; nothing asserts latency.

Every test here is marked serial: `make pytest` runs them alone, after its parallel pass. The
fake board's firmware runs on this machine's threads and reads its clock when an interrupt
handler runs, so a thread starved by parallel workers looks to it like a card that took that
much longer; a real board runs on a chip of its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.launcher import PinProfile, open_launcher
from controller.launcher.board import FakeBoard, SerialLauncher
from controller.launcher.sim import SimOptions
from tests.launcher.helpers import fast_profile

# Simulated cards run twice as fast as real ones here (the GPIO tests use four times): the fake
# board adds threads of its own, and a busy machine must not squeeze two cards into one pulse.
SCALE = 0.5
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.serial)


def serial_profile(name: str = "hbridge") -> PinProfile:
    """The launcher tests' fast profile at this folder's scale; a pulse longer than two scaled
    cards is a double."""
    return fast_profile(name, scale=SCALE, max_pulse_ms=400.0)


@pytest.fixture
def open_board() -> Iterator[Callable[..., SerialLauncher]]:
    """Open fake-serial launchers (fast simulated cards); all are closed afterwards."""
    opened: list[SerialLauncher] = []

    def make(profile: Any = None, **sim: Any) -> SerialLauncher:
        options = SimOptions(**{"time_scale": SCALE, **sim})
        launcher = open_launcher(profile or serial_profile(), backend="fake-serial", sim=options)
        assert isinstance(launcher, SerialLauncher)
        opened.append(launcher)
        return launcher

    yield make
    for launcher in opened:
        launcher.close()


def board_of(launcher: SerialLauncher) -> FakeBoard:
    board = launcher.board
    assert isinstance(board, FakeBoard)
    return board
