"""`uno-attack run` as a real child process, as a person starts it: its address, its printed
lines, and the table's state read over HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

from tests.serving import free_port

__all__ = ["Process", "free_port", "get_state"]

# --no-announce: a test's service sends no mDNS packet onto the network
RUN = [sys.executable, "-m", "controller.cli", "run", "--no-announce"]


def get_state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}api/state", timeout=10) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


class Process:
    """`uno-attack run` in a child process; its printed lines collected as they come."""

    def __init__(self, *args: str, data_dir: Path) -> None:
        env = os.environ | {"PYTHONUNBUFFERED": "1"}
        self.child = subprocess.Popen(
            [*RUN, *args, "--data-dir", str(data_dir)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.child.stdout is not None
        for line in self.child.stdout:
            self.lines.append(line.rstrip("\n"))

    def stop(self) -> None:
        self.child.terminate()
        try:
            self.child.wait(15)
        except subprocess.TimeoutExpired:
            self.child.kill()
