"""Process-level safety: the motor is off however the process ends.

`motor_safe(launcher)` wraps a long-running command. SIGTERM (systemd stopping the service) and
SIGHUP become ``SystemExit`` in the main thread, so a running eject unwinds through its
``finally`` and the motor stops; leaving the block closes the launcher; the launcher also
registered itself with atexit. A SIGKILL cannot be caught: that is what the pull-down resistors
and ``uno-attack safe-off`` (systemd ``ExecStopPost=``) are for.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from controller.launcher.launcher import Launcher

CAUGHT = (signal.SIGTERM, signal.SIGHUP)


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def motor_safe(launcher: Launcher) -> Iterator[Launcher]:
    """Close `launcher` on the way out, and turn SIGTERM/SIGHUP into a clean exit (128 + n)."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {sig: signal.signal(sig, _exit_on_signal) for sig in CAUGHT}
    try:
        yield launcher
    finally:
        launcher.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
