"""Finding the launcher board's serial port.

In order: ``$UNO_ATTACK_SERIAL_PORT`` (any path, e.g. a fake board's pty), the udev symlink
`SYMLINK` (``/dev/uno-launcher``; the rule that makes it matches the Pico's USB id), then any
port whose USB id is `VID`:`PID` (2E8A:0005, MicroPython on an RP2040). More than one candidate
by USB id is refused with a message: plug in one board, or install the udev rule. A service
driving several boards names each by its USB serial number instead: only the port of the board
with that number is taken, looked up again at every reconnection (a board plugged back in may
come back under another device name).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

SYMLINK = "/dev/uno-launcher"
VID, PID = 0x2E8A, 0x0005
ENV = "UNO_ATTACK_SERIAL_PORT"


class AmbiguousPort(LookupError):
    """Several boards answer to the USB id: which one is the launcher?"""


def _list_ports() -> Iterable[Any]:
    from serial.tools import list_ports

    return list(list_ports.comports())


def find_port(
    configured: str | None = None,
    *,
    serial_number: str | None = None,
    symlink: str = SYMLINK,
    list_ports: Callable[[], Iterable[Any]] = _list_ports,
) -> str | None:
    """The port to open, or None when no board (or none with `serial_number`) is plugged in."""
    if serial_number:
        return next((p.device for p in list_ports() if p.serial_number == serial_number), None)
    explicit = configured or os.environ.get(ENV)
    if explicit:
        return explicit
    if Path(symlink).exists():
        return symlink
    matches = sorted(p.device for p in list_ports() if (p.vid, p.pid) == (VID, PID))
    if len(matches) > 1:
        raise AmbiguousPort(
            f"several RP2040 boards are plugged in ({', '.join(matches)}): unplug the others, "
            f"or install the udev rule that names the launcher {symlink}"
        )
    return matches[0] if matches else None


def describe_search(configured: str | None = None) -> str:
    """Where `find_port` looks, for messages."""
    explicit = configured or os.environ.get(ENV)
    if explicit:
        return explicit
    return f"{SYMLINK} or a USB device {VID:04X}:{PID:04X}"
