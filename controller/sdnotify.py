"""Talking to systemd (`Type=notify`, `WatchdogSec=`): a datagram to `$NOTIFY_SOCKET`.

`READY=1` once pins, store and HTTP are up; `STATUS=` lines a person reads in
`systemctl status uno-attack`; `WATCHDOG=1` from the table's owner loop itself, so a wedged loop
stops the pings and systemd restarts the service. Everything is a no-op outside systemd.

Every line sent is one printable line: a player's name in a status can never start a line of
its own (`WATCHDOG=trigger` would restart the service).
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable, Mapping


class Notifier:
    """Sends sd_notify messages; silent when `$NOTIFY_SOCKET` is not set."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        address = environ.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # the abstract namespace
            address = "\0" + address[1:]
        self.address = address
        self._socket: socket.socket | None = None
        if address:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        return self._socket is not None

    def send(self, *lines: str) -> None:
        if self._socket is None:
            return
        with contextlib.suppress(OSError):  # systemd went away: nothing useful to do
            self._socket.sendto("\n".join(map(one_line, lines)).encode(), self.address)

    def ready(self, status: str) -> None:
        self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> None:
        self.send(f"STATUS={status}")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


STATUS_LENGTH = 200


def one_line(text: str) -> str:
    """`text` as one printable line of valid UTF-8: line breaks, controls and invisible or
    unpaired characters become spaces; at most 200 characters."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    printable = "".join(char if char.isprintable() else " " for char in text)
    return printable[:STATUS_LENGTH]


def watchdog_interval(environ: Mapping[str, str] = os.environ) -> float | None:
    """Seconds between watchdog pings systemd expects (`WatchdogSec`), or None if none are
    wanted (or they are meant for another process)."""
    usec = environ.get("WATCHDOG_USEC", "")
    pid = environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 1e6


class Watchdog:
    """Pings `WATCHDOG=1` at half systemd's interval, when `tick()` is called often enough.

    Call `tick()` from the loop whose health it vouches for (the table's owner loop): if that
    loop stops turning, the pings stop and systemd restarts the service."""

    def __init__(
        self,
        notifier: Notifier,
        interval: float | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.notifier = notifier
        self.every = None if interval is None else interval / 2
        self._clock = clock
        self._last = -float("inf")

    def tick(self) -> None:
        if self.every is None:
            return
        now = self._clock()
        if now - self._last >= self.every:
            self._last = now
            self.notifier.send("WATCHDOG=1")
