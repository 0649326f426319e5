"""Why the service last stopped, kept across a restart so that its status can say it.

systemd runs ``uno-attack safe-off --record-stop FILE`` after every stop (``ExecStopPost=``) with
``$SERVICE_RESULT``, ``$EXIT_CODE`` and ``$EXIT_STATUS`` set. A clean stop removes the file; any
other end (a crash, a kill, the watchdog) writes one line that the next start logs and shows in
``systemctl status`` (the ``STATUS=`` line), so a person sees why the table went away.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

FILE = "last-stop.txt"

_RESULTS = {
    "watchdog": "the watchdog fired (the table's loop stopped answering)",
    "timeout": "a start or stop timed out",
    "oom-kill": "the kernel's OOM killer ended it (out of memory)",
    "core-dump": "it crashed",
    "resources": "systemd could not start it",
}


EXIT_STATUSES = {
    "2": "bad configuration or arguments",
    "65": "the event log is damaged",
    "66": "the event log is empty",
    "70": "the event log could not be used",
    "72": "the data directory does not exist",
    "73": "the file system holding the data is read-only",
    "74": "the disk is full",
    "77": "the event log or its data directory cannot be written by the service's user",
    "78": "the event log is newer than this program, or the data directory is not a directory",
}
"""What `uno-attack run`'s own exit statuses mean (README's table; `controller.store`)."""


def describe(result: str, code: str, status: str) -> str:
    """A person-readable reason from systemd's three values."""
    if code == "killed":
        how = f"killed by signal {status}"
    elif code == "dumped":
        how = f"crashed (signal {status}, core dumped)"
    elif code == "exited":
        meaning = EXIT_STATUSES.get(status)
        how = f"exited with status {status}" + (f" ({meaning})" if meaning else "")
    else:
        how = ""
    why = _RESULTS.get(result, "")
    return "; ".join(part for part in (why, how) if part) or f"stopped ({result})"


def record_stop(path: Path, env: Mapping[str, str] = os.environ) -> str | None:
    """Write why the service stopped to `path` (or remove it after a clean stop)."""
    result = env.get("SERVICE_RESULT")
    if result is None:
        return None  # not run by systemd
    if result == "success":
        path.unlink(missing_ok=True)
        return None
    line = describe(result, env.get("EXIT_CODE", ""), env.get("EXIT_STATUS", ""))
    line = f"{line} at {time.strftime('%Y-%m-%d %H:%M:%S')}"
    path.write_text(line + "\n", encoding="utf-8")
    return line


def last_stop(path: Path) -> str | None:
    """The recorded reason, or None after a clean stop (or a first start)."""
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None
