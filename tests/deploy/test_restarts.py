"""After a crash the restarted service says why it restarted.

systemd's ``ExecStopPost=`` runs ``uno-attack safe-off --record-stop FILE`` with
``$SERVICE_RESULT``/``$EXIT_CODE``/``$EXIT_STATUS``; the next ``run`` logs the reason and puts it
in front of its ``STATUS=`` line (what ``systemctl status`` shows).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.stops import FILE, describe, last_stop, record_stop
from tests.serving import free_port
from tests.waiting import wait_until

from .test_sdnotify import FakeSystemd


@pytest.mark.parametrize(
    ("result", "code", "status", "expected"),
    [
        ("signal", "killed", "KILL", "killed by signal KILL"),
        ("core-dump", "dumped", "SEGV", "it crashed; crashed (signal SEGV, core dumped)"),
        ("exit-code", "exited", "1", "exited with status 1"),
        ("watchdog", "killed", "ABRT", "the watchdog fired"),
        ("oom-kill", "killed", "KILL", "OOM killer"),
        ("protocol", "", "", "stopped (protocol)"),
    ],
)
def test_stops_describe_says_why(result: str, code: str, status: str, expected: str) -> None:
    assert expected in describe(result, code, status)


def test_stops_clean_stop_forgets_and_a_plain_run_records_nothing(tmp_path: Path) -> None:
    path = tmp_path / FILE
    assert record_stop(path, {}) is None and not path.exists()
    record_stop(path, {"SERVICE_RESULT": "signal", "EXIT_CODE": "killed", "EXIT_STATUS": "KILL"})
    assert "killed by signal KILL" in (last_stop(path) or "")
    assert record_stop(path, {"SERVICE_RESULT": "success"}) is None
    assert last_stop(path) is None


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from controller.cli import main; raise SystemExit(main())", *args],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(str(tmp_path / "notify"))
    yield fake
    fake.close()


def status_line(systemd: FakeSystemd, prefix: str) -> str:
    def found() -> str | None:
        lines = [line for _, message in list(systemd.messages) for line in message.splitlines()]
        return next((line for line in lines if line.startswith(prefix)), None)

    wait_until(lambda: found() is not None, f"systemd heard {prefix!r}")
    return found() or ""


def test_restarted_service_status_says_why(tmp_path: Path, systemd: FakeSystemd) -> None:
    data = tmp_path / "data"
    data.mkdir()
    stopped = {"SERVICE_RESULT": "signal", "EXIT_CODE": "killed", "EXIT_STATUS": "KILL"}
    record = ["safe-off", "--mock", "--record-stop", str(data / FILE)]
    done = _cli(record, stopped)
    assert done.returncode == 0 and "killed by signal KILL" in done.stdout
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", "from controller.cli import main; raise SystemExit(main())",
         "run", "--launcher", "none", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data)],
        env={**os.environ, "NOTIFY_SOCKET": systemd.address},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        systemd.wait_for("READY=1")
        line = status_line(systemd, "STATUS=restarted after: ")
        assert "killed by signal KILL" in line
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert "the last run ended badly: killed by signal KILL" in err
    clean = _cli(record, {"SERVICE_RESULT": "success", "EXIT_CODE": "exited", "EXIT_STATUS": "0"})
    assert clean.returncode == 0 and not (data / FILE).exists()
