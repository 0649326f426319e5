"""sd_notify against a fake NOTIFY_SOCKET (a path and an abstract name): READY once the
service is up, WATCHDOG at about half the interval from the owner loop, and no WATCHDOG while
that loop is blocked."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.sdnotify import Notifier, Watchdog, watchdog_interval
from controller.store import Store
from controller.table.service import TableService
from tests.serving import free_port
from tests.waiting import wait_until


class FakeSystemd:
    """A datagram socket that records what a service tells systemd, and when."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind("\0" + address[1:] if address.startswith("@") else address)
        self.sock.settimeout(0.2)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except (TimeoutError, OSError):
                continue
            self.messages.append((time.monotonic(), data.decode()))

    def wait_for(self, text: str) -> float:
        """When systemd first heard `text` (waiting for it if need be)."""

        def heard() -> float | None:
            return next((at for at, m in list(self.messages) if text in m.splitlines()), None)

        wait_until(lambda: heard() is not None, f"systemd heard {text!r}")
        return heard() or 0.0

    def wait_for_after(self, mark: str, text: str) -> None:
        """Wait until `text` is heard after `mark` (both already or later)."""

        def heard() -> bool:
            messages = [message.splitlines() for _, message in list(self.messages)]
            after = next((i for i, lines in enumerate(messages) if mark in lines), None)
            return after is not None and any(text in lines for lines in messages[after + 1 :])

        wait_until(heard, f"{text!r} after {mark!r}")

    def pings(self) -> list[float]:
        return [at for at, message in self.messages if "WATCHDOG=1" in message.splitlines()]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture(params=["path", "abstract"])
def systemd(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FakeSystemd]:
    name = str(tmp_path / "notify") if request.param == "path" else f"@uno-test-{os.getpid()}"
    fake = FakeSystemd(name)
    yield fake
    fake.close()


def test_notifier_sends_to_path_and_abstract_sockets(systemd: FakeSystemd) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": systemd.address})
    notifier.ready("all good")
    systemd.wait_for("READY=1")
    assert any("STATUS=all good" in m for _, m in systemd.messages)
    notifier.close()


def test_notifier_is_silent_outside_systemd() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    notifier.ready("nobody listens")  # no error


def test_watchdog_interval_comes_from_systemd() -> None:
    pid = str(os.getpid())
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": pid}) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({}) is None


def test_watchdog_pings_at_half_the_interval() -> None:
    sent: list[str] = []
    now = [0.0]

    class Recorder(Notifier):
        def send(self, *lines: str) -> None:
            sent.extend(lines)

    watchdog = Watchdog(Recorder({}), 10.0, clock=lambda: now[0])
    for t in range(0, 21):  # a tick every second for 20 s
        now[0] = float(t)
        watchdog.tick()
    assert sent.count("WATCHDOG=1") == 5  # at 0, 5, 10, 15, 20


def test_no_watchdog_while_the_owner_loop_is_blocked(tmp_path: Path, systemd: FakeSystemd) -> None:
    marks = Notifier({"NOTIFY_SOCKET": systemd.address})

    def stuck() -> None:
        """The owner loop is stuck for 1.5 s, between two marks in systemd's queue (the
        datagrams are queued in the order they were sent)."""
        marks.send("MARK=stuck")
        time.sleep(1.5)  # the stimulus: three watchdog intervals without a tick
        marks.send("MARK=free")

    with Store(tmp_path / "log.db") as store:
        service = TableService(store)
        watchdog = Watchdog(Notifier({"NOTIFY_SOCKET": systemd.address}), 0.4)
        service.on_tick.append(watchdog.tick)
        service.start()
        try:
            wait_until(lambda: len(systemd.pings()) >= 3, "the owner loop feeds the watchdog")
            service.call(stuck, timeout=60)
            systemd.wait_for("MARK=free")
            systemd.wait_for_after("MARK=free", "WATCHDOG=1")  # fed again once it is free
        finally:
            service.stop()
        marks.close()
    heard = [message for _, message in systemd.messages]
    while_stuck = heard[heard.index("MARK=stuck") : heard.index("MARK=free")]
    assert not any("WATCHDOG=1" in message.splitlines() for message in while_stuck)


def test_service_says_ready_once_http_answers(tmp_path: Path, systemd: FakeSystemd) -> None:
    port = free_port()
    environ = os.environ | {"NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "1000000"}
    process = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys; os.environ['WATCHDOG_PID'] = str(os.getpid());"
         "from controller.cli import main; sys.exit(main())",
         "run", "--launcher", "none", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(tmp_path)],
        env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        systemd.wait_for("READY=1")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as answer:
            assert answer.status == 200
        systemd.wait_for("WATCHDOG=1")
        wait_until(lambda: len(systemd.pings()) >= 3, "the watchdog fed again and again")
        assert any(m.startswith("STATUS=") for _, m in systemd.messages)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
    assert any("STOPPING=1" in m for _, m in systemd.messages)
