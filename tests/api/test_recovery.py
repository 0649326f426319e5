"""kill -9 a running service in the middle of a game, start it again: everything that was
acknowledged is still there, and the table is rebuilt to exactly the state it had."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from controller.store import Store
from tests.serving import free_port, wait_answering
from tests.waiting import wait_until

from .conftest import SETUP


class Client:
    """A tablet over real HTTP, with its session cookie and CSRF token."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.csrf = self.get("/api/session")["csrf"]

    def get(self, path: str) -> Any:
        with self.opener.open(self.base + path, timeout=10) as response:
            return json.load(response)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf},
        )
        with self.opener.open(request, timeout=10) as response:
            return json.load(response)


def start(port: int, data: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--launcher", "none",
         "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_answering(port, process)
    except AssertionError:
        process.kill()
        process.wait(10)
        raise
    return process


def play_until_killed(tablet: Client, acknowledged: list[tuple[int, dict[str, Any]]]) -> None:
    """Keep pressing for whoever is to move, recording every acknowledged answer."""
    seat, turn = 0, 0
    try:
        while True:
            body = {"action": {"type": "Press", "seat": seat, "cards": turn % 3}}
            answer = tablet.post("/api/actions", body)
            acknowledged.append((answer["seq"], answer["state"]))
            seat, turn = answer["state"]["deal"]["to_move"], turn + 1
    except (OSError, urllib.error.URLError):
        return  # the service was killed under us


def test_kill_9_mid_game_loses_nothing_acknowledged(tmp_path: Path) -> None:
    port = free_port()
    process = start(port, tmp_path)
    acknowledged: list[tuple[int, dict[str, Any]]] = []
    try:
        tablet = Client(port)
        tablet.post("/api/session/pin", {"pin": "1234"})
        tablet.post("/api/setup", {"setup": SETUP})
        tablet.post("/api/deal", {})
        tablet.post("/api/actions", {"action": {"type": "TurnUp", "card": "R5"}})
        player = threading.Thread(target=play_until_killed, args=(tablet, acknowledged))
        player.start()
        wait_until(lambda: len(acknowledged) >= 30 or not player.is_alive(), "30 taps answered")
        assert len(acknowledged) >= 30, "the tablet stopped before the kill"
        os.kill(process.pid, signal.SIGKILL)  # while a request is in flight
        process.wait(10)
        player.join(10)
    finally:
        process.kill()
        process.wait(10)

    with Store(tmp_path / "uno-attack.db") as store:
        logged = [record.seq for record in store.records("main")]
    assert {seq for seq, _ in acknowledged} <= set(logged)
    last_seq, last_state = acknowledged[-1]
    assert logged[-1] in (last_seq, last_seq + 1)  # at most the unanswered request got in

    process = start(port, tmp_path)
    try:
        state = Client(port).get("/api/state")
        assert state["seq"] == logged[-1]
        if state["seq"] == last_seq:  # else the unanswered press was committed: also fine
            assert state == last_state
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
