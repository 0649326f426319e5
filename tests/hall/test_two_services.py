"""A hall follows two real `uno-attack run --demo` services on loopback while the bots play;
one is killed with SIGKILL mid-deal and started again. Meanwhile the hall shows it offline;
afterwards its standings equal the sums worked out from both services' own event logs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.hall import Hall
from controller.store import FILE_NAME
from tests.api.test_recovery import Client, free_port
from tests.e2e.served import get_state
from tests.hall.logs import hall_totals, last_seq, logged_deals, logged_totals
from tests.serving import wait_answering
from tests.waiting import wait_until

SPEED = "100"  # the fastest demo: a deal takes 3-12 s quietly, over a minute beside CPU hogs
PLAYING = 240.0  # seconds a condition of the bots' play may take on a busy machine (a deal's
# length has a long tail: at --demo-speed 20 one took over 120 s in CI)


class Service:
    """`uno-attack run --demo` in a child process, on a port and data folder of its own."""

    def __init__(self, folder: Path) -> None:
        self.port, self.folder = free_port(), folder
        self.log_path = folder / FILE_NAME
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--demo", "--demo-speed", SPEED,
             "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.folder),
             "--no-announce"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_answering(self.port, self.process)

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def take_back_from_the_bots(self) -> None:
        """The bots stop playing (the table is the people's): nothing more is logged."""
        tablet = Client(self.port)
        tablet.post("/api/session/pin", {"pin": "1234"})
        tablet.post("/api/demo/mine", {})

    def seq(self) -> int:
        return int(get_state(self.url)["seq"])


def listed(hall: Hall, url: str) -> dict[str, Any]:
    return next(table for table in hall.view()["tables"] if table["url"] == url)


def in_a_deal(service: Service) -> bool:
    state = get_state(service.url)
    return bool(state.get("deal")) and state["deal"]["phase"] == "playing"


@pytest.mark.timeout(600)
def test_hall_standings_equal_both_logs_across_a_kill_9_and_restart(tmp_path: Path) -> None:
    here, killed = Service(tmp_path / "a"), Service(tmp_path / "b")
    hall = Hall(retry=0.1)
    try:
        here.start()
        killed.start()
        hall.follow(here.url)
        hall.follow(killed.url)
        wait_until(
            lambda: logged_deals(killed.log_path) >= 1 and in_a_deal(killed),
            "the table to be killed scored a deal and plays the next",
            PLAYING,
        )
        wait_until(lambda: listed(hall, killed.url)["status"] == "live", "followed live")
        deals_before = logged_deals(killed.log_path)

        killed.kill()  # mid-deal
        wait_until(lambda: listed(hall, killed.url)["status"] == "offline", "shown offline")
        assert listed(hall, here.url)["status"] == "live"

        killed.start()
        wait_until(
            lambda: logged_deals(killed.log_path) > deals_before,
            "the restarted table scored again",
            PLAYING,
        )
        for service in (here, killed):
            service.take_back_from_the_bots()

        def exact() -> bool:
            services = (here, killed)
            caught_up = all(
                listed(hall, s.url)["status"] == "live"
                and listed(hall, s.url)["seq"] == s.seq() == last_seq(s.log_path)
                for s in services
            )
            logged = logged_totals(s.log_path for s in services)
            return caught_up and hall_totals(hall.view()) == logged

        wait_until(exact, "the hall's standings equal the sums of both logs")
        assert {row["name"] for row in hall.view()["standings"]} >= {"Ada", "Bo", "Lin"}
    finally:
        hall.stop()
        here.stop()
        killed.stop()
