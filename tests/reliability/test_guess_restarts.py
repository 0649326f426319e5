"""Wrong PINs against a real `uno-attack run`, killed with -9 and started again between them:
the budget carries over (a crash-restart loop once gave 25 guesses a minute), and a right PIN
from someone else's new tablet gives the stranger no fresh guesses."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from tests.api.test_recovery import free_port, start
from tests.waiting import wait_until
from web_ui import security

from .conftest import report, scale
from .loopback import Client, address

RESTARTS = scale(1, 10)  # kill -9 and start again, a streak of wrong PINs after each


def streak(port: int, first: int) -> tuple[int, int]:
    """Wrong PINs, each from a new address, until one is refused: (how many were checked,
    the refusal's Retry-After)."""
    n = first
    while True:
        status, _, headers = Client(port, address(n)).post("/api/session/pin", {"pin": "0000"})
        if status == 429:
            return n - first, int(headers["Retry-After"])
        assert status == 403, status
        n += 1


def killed(process: subprocess.Popen[bytes]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(30)


def test_guess_budget_carries_over_a_kill_and_another_tablets_right_pin(tmp_path: Path) -> None:
    port = free_port()
    process = start(port, tmp_path)
    try:
        checked, _ = streak(port, 0)
        assert checked == security.FREE
        killed(process)

        after_restarts = []
        for restart in range(RESTARTS):
            process = start(port, tmp_path)
            checked, _ = streak(port, 100 * (restart + 1))
            assert checked < security.FREE  # a fresh budget would check 5 (at most the one
            after_restarts.append(checked)  # the wait allowed meanwhile, if starting was slow)
            killed(process)

        process = start(port, tmp_path)
        family = Client(port, "127.0.0.1")  # a new tablet with the right PIN: it waits too
        wait_until(lambda: family.unlock("1234") != 429, "the family's tablet let in")
        assert family.request("GET", "/api/session")[1]["unlocked"] is True
        checked, retry_after = streak(port, 100 * (RESTARTS + 1))
        assert checked < security.FREE and retry_after >= 1  # no fresh guesses for strangers
        report("guess_restarts", restarts=RESTARTS, checked_after_each=after_restarts,
               checked_after_family_unlock=checked, retry_after_s=retry_after)  # fmt: skip
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
