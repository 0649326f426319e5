"""Fixtures for the serial backend: the production SerialLauncher against a fake board over a
real pty. Waits are on events and conditions with generous timeouts; nothing asserts latency."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from controller.launcher import PinProfile, load_pin_profile, open_launcher
from controller.launcher.board import FakeBoard, SerialLauncher
from controller.launcher.sim import SimOptions

# Simulated cards run twice as fast as real ones here (the GPIO tests use four times): the fake
# board adds threads of its own, and a busy machine must not squeeze two cards into one pulse.
SCALE = 0.5


def serial_profile(name: str = "hbridge") -> PinProfile:
    """A shipped profile scaled to the fast cards, with the jam window and timeouts kept wide."""
    profile = load_pin_profile(name)
    wide = {
        "max_pulse_ms": 400.0,
        "first_card_timeout_ms": 1500.0,
        "card_gap_timeout_ms": 1500.0,
        "per_card_ms": 500.0,
        "max_run_ms": 10_000.0,
    }
    return profile.with_ejector(**{**profile.ejector.scaled(SCALE).__dict__, **wide})


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
