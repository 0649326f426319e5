"""`kill -9` the service again and again in the middle of a burst of taps: nothing that was
acknowledged is lost, and the tap that was in flight, sent again with its key after the
restart, is applied exactly once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import threading
import urllib.error
from pathlib import Path
from typing import Any

from controller.store import FILE_NAME
from tests.api.test_recovery import Client, free_port, start
from tests.waiting import wait_until

from .conftest import report, scale

SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "game": "attack", "first_dealer": 3, "seed": 1}


class Burst(threading.Thread):
    """Taps as fast as answers come, each with its own key, until the service dies."""

    def __init__(self, tablet: Client, first: int) -> None:
        super().__init__(daemon=True)
        self.tablet, self.n = tablet, first
        self.acknowledged: dict[str, int] = {}
        self.in_flight: tuple[str, dict[str, Any]] | None = None
        self.start()

    def run(self) -> None:
        state = self.tablet.get("/api/state")
        while True:
            body = tap(state, self.n)
            self.in_flight = (body["key"], body)
            try:
                answer = self.tablet.post("/api/actions", body)
            except (OSError, urllib.error.URLError):
                return  # killed under us: the tap is left in flight
            self.acknowledged[body["key"]] = answer["seq"]
            self.in_flight, state, self.n = None, answer["state"], self.n + 1


def tap(state: dict[str, Any], n: int) -> dict[str, Any]:
    seat = state["deal"]["to_move"]
    return {"action": {"type": "Press", "seat": seat, "cards": n % 3}, "key": f"tap-{n:08d}"}


def logged(data: Path) -> dict[str, list[int]]:
    """Every record's seq by idempotency key, read straight from the file."""
    db = sqlite3.connect(f"file:{data / FILE_NAME}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT idem_key, seq FROM log WHERE idem_key IS NOT NULL").fetchall()
    finally:
        db.close()
    found: dict[str, list[int]] = {}
    for key, seq in rows:  # stored scoped to the match: m<seq of its set-up>:<key>
        found.setdefault(key.partition(":")[2], []).append(seq)
    return found


def killed_mid_burst(process: subprocess.Popen[bytes], burst: Burst, taps: int) -> None:
    # the kill lands while taps are in flight
    wait_until(lambda: len(burst.acknowledged) >= taps or not burst.is_alive(), "taps answered")
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    burst.join(10)


def test_kill_9_loop_loses_nothing_and_applies_retries_once(tmp_path: Path) -> None:
    port, kills = free_port(), scale(3, 40)
    process = start(port, tmp_path)
    tablet = Client(port)
    tablet.post("/api/session/pin", {"pin": "1234"})
    tablet.post("/api/setup", {"setup": SETUP})
    tablet.post("/api/deal", {})
    tablet.post("/api/actions", {"action": {"type": "TurnUp", "card": "R5"}})
    acknowledged: dict[str, int] = {}
    retried = 0
    try:
        for round_ in range(kills):
            burst = Burst(tablet, first=round_ * 10_000)
            killed_mid_burst(process, burst, taps=20)
            acknowledged |= burst.acknowledged
            process = start(port, tmp_path)
            tablet = Client(port)
            tablet.post("/api/session/pin", {"pin": "1234"})
            if burst.in_flight is not None:  # the tablet sends its tap again, same key
                key, body = burst.in_flight
                acknowledged[key] = tablet.post("/api/actions", body)["seq"]
                retried += 1
            found = logged(tmp_path)
            assert all(found.get(key) == [seq] for key, seq in acknowledged.items())
            assert tablet.get("/api/state")["seq"] == max(max(s) for s in found.values())
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
    report("kill.loop", kills=kills, acknowledged=len(acknowledged), lost=0, retried=retried)
