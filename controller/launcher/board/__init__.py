"""The launcher board backend: a Pico runs the motor, the Pi runs the game (see firmware/).

`open_serial_launcher(profile, "serial")` finds the board (``/dev/uno-launcher`` or the Pico's
USB id) and returns a `SerialLauncher`; ``"fake-serial"`` starts a `FakeBoard` (the real firmware
on simulated hardware behind a pty) and connects to it the same way, with the simulated machine
as ``launcher.simulator`` and the fake board as ``launcher.board``.
"""

from __future__ import annotations

from typing import Any

from controller.launcher.board.fake import FakeBoard
from controller.launcher.board.launcher import SerialLauncher
from controller.launcher.board.link import (
    BoardRefused,
    IncompatibleBoard,
    LinkDown,
    LinkTiming,
)
from controller.launcher.board.ports import SYMLINK, find_port
from controller.launcher.ejector import Clock
from controller.launcher.late_cards import Settlement
from controller.launcher.pins import PinProfile
from controller.launcher.sim import SimOptions

__all__ = [
    "SYMLINK",
    "BoardRefused",
    "FakeBoard",
    "IncompatibleBoard",
    "LinkDown",
    "LinkTiming",
    "SerialLauncher",
    "Settlement",
    "find_port",
    "open_serial_launcher",
]


def open_serial_launcher(
    profile: PinProfile,
    backend: str,
    *,
    port: str | None = None,
    serial_number: str | None = None,
    pin_factory: Any = None,
    sim: SimOptions | None = None,
    clock: Clock | None = None,
    timing: LinkTiming | None = None,
) -> SerialLauncher:
    """A `SerialLauncher` on the real board (``serial``: at `port`, or the board with the USB
    `serial_number`, else where `find_port` looks) or on a fresh fake one (``fake-serial``;
    with `pin_factory`, the fake board's pins are those mock pins and no simulated machine is
    added: the caller wires its own, as the HIL jig does)."""
    options: dict[str, Any] = {"timing": timing}
    if clock is not None:
        options["clock"] = clock
    if backend == "serial":
        return SerialLauncher(
            profile, lambda: find_port(port, serial_number=serial_number), **options
        )
    board = FakeBoard(profile, pin_factory=pin_factory, machine=pin_factory is None, sim=sim)
    try:
        launcher = SerialLauncher(profile, lambda: board.port, board=board, **options)
    except BaseException:
        board.close()
        raise
    launcher.add_closer(board.close)
    return launcher
