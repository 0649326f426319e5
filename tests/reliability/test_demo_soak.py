"""The demo plays an evening without a stall or a fault: `uno-attack run --demo --demo-speed 20`
(bots on the simulated launcher, twenty times faster) for an hour in `make soak`, watched as a
tablet watches it. A stall is a state that stops changing; a fault is a launcher fault that
stays, a record the rules set aside, or a warning in the service's log. The launcher running
empty (the bots reload it) and a jam the bots clear are part of the game, and are counted.

In `make test` it is skipped: a short run would only repeat the browser test that plays several
matches at `--demo-speed` (tests/e2e/test_game_night.py)."""

from __future__ import annotations

import collections
import json
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from controller.store import FILE_NAME
from tests.serving import free_port, wait_answering

from .conftest import SOAK, report, scale

SPEED = 20
STALL_S = 60.0  # the state unchanged this long is a stall (matches hold 2 s, moves ~0.1 s)
FAULT_S = 30.0  # a launcher fault the bots have not cleared in this long has stayed

pytestmark = pytest.mark.skipif(not SOAK, reason="the hour-long demo runs in `make soak`")


class Watch:
    """What a tablet polling /api/state sees: changes, gaps, finished matches, faults."""

    def __init__(self) -> None:
        self.seq, self.changed = -1, time.monotonic()
        self.longest_gap, self.matches, self.over = 0.0, 0, False
        self.statuses: collections.Counter[str] = collections.Counter()
        self.fault_since: float | None = None

    def see(self, state: dict[str, Any]) -> None:
        now = time.monotonic()
        if state["seq"] != self.seq:
            if self.seq >= 0:
                self.longest_gap = max(self.longest_gap, now - self.changed)
            self.seq, self.changed = state["seq"], now
        assert now - self.changed < STALL_S, f"stalled at seq {self.seq} for {STALL_S:g} s"
        launcher = state["launcher"]
        self.statuses[launcher["status"]] += 1
        self.fault_since = (self.fault_since or now) if launcher["fault"] else None
        assert self.fault_since is None or now - self.fault_since < FAULT_S, launcher["fault"]
        self.matches += state["match_over"] and not self.over
        self.over = state["match_over"]


def kinds(data: Path) -> collections.Counter[str]:
    """How many records of each kind (actions by their type) the log holds."""
    with sqlite3.connect(data / FILE_NAME) as db:
        found: collections.Counter[str] = collections.Counter()
        for (text,) in db.execute("SELECT command FROM log"):
            command = json.loads(text)
            action = command.get("action")
            found[action["type"] if isinstance(action, dict) else command["type"]] += 1
        found["set aside"] = db.execute("SELECT count(*) FROM set_aside").fetchone()[0]
    return found


@pytest.mark.timeout(3600 + 600)  # beyond `make soak`'s limit for the other tests
def test_the_demo_plays_an_hour_without_a_stall_or_a_fault(tmp_path: Path) -> None:
    port, seconds, log = free_port(), scale(0, 3600), tmp_path / "service.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--demo", "--demo-speed",
             str(SPEED), "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)],
            stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    watch, ends = Watch(), time.monotonic() + seconds
    try:
        wait_answering(port, process, log.read_text)
        while time.monotonic() < ends:
            assert process.poll() is None, log.read_text()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=30) as r:
                watch.see(json.load(r))
            time.sleep(0.25)  # a tablet's pace; what is judged is the state, not this wait
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    found = kinds(tmp_path)
    troubles = [line for line in log.read_text().splitlines()
                if any(word in line for word in (" WARNING ", " ERROR ", "Traceback"))]  # fmt: skip
    assert not troubles, troubles
    assert found["set aside"] == 0, found
    assert watch.matches > 0 and found["reload"] > 0, (watch.matches, found)  # a whole evening
    report(
        "demo.hour", seconds=seconds, matches=watch.matches, presses=found["Press"],
        reloads=found["reload"], deals=found["deal"], longest_gap_s=round(watch.longest_gap, 2),
        statuses=dict(watch.statuses),
    )  # fmt: skip
