"""Storage faults, on real files and real file systems: each ends `uno-attack run` with one
line naming the file and what to do, and an exit status of its own; a full disk answers 507
"disk full" and keeps what was recorded; a bad record is set aside, never a refusal to start.

The read-only and full-disk cases run the service in its own user and mount namespace
(`unshare`), where a read-only bind mount or a tiny tmpfs is real; they skip where the kernel
does not allow that."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from controller.store import FILE_NAME, Store
from tests.api.test_recovery import Client, free_port
from tests.serving import wait_answering

from .conftest import report

SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "game": "attack", "first_dealer": 3, "seed": 1}
RUN = [sys.executable, "-m", "controller.cli", "run", "--launcher", "none", "--host", "127.0.0.1"]


def can_unshare(*flags: str) -> bool:
    if shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", *flags, "true"], capture_output=True).returncode == 0


def run_once(data: Path, *, wrapper: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """`uno-attack run` on `data`, expected to refuse to start."""
    command = [*RUN, "--port", str(free_port()), "--data-dir", str(data)]
    if wrapper:  # sh -c "<set-up> && exec <command>"
        command = [*wrapper[:-1], f"{wrapper[-1]} {' '.join(command)}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def assert_refused(result: subprocess.CompletedProcess[str], status: int, *words: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == status, result.stderr
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert all(word in lines[0] for word in words), lines[0]


@pytest.fixture
def logged(tmp_path: Path) -> Path:
    """A data directory whose log holds a set-up match."""
    with Store(tmp_path / FILE_NAME) as store:
        store.append("main", "setup", {"type": "setup", "setup": SETUP}, [], actor="t")
    return tmp_path


def test_storage_corrupt_database(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"this is not a database " * 200)
    assert_refused(run_once(tmp_path), 65, str(tmp_path / FILE_NAME), "damaged", "backup")


def test_storage_zero_length_database(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"")
    assert_refused(run_once(tmp_path), 66, str(tmp_path / FILE_NAME), "empty", "backup")


def test_storage_missing_data_directory(tmp_path: Path) -> None:
    missing = tmp_path / "not-mounted"
    assert_refused(run_once(missing), 72, str(missing), "does not exist", "mkdir -p")
    assert not missing.exists()


@pytest.mark.skipif(not can_unshare("-rm"), reason="needs unshare -rm (user+mount namespaces)")
def test_storage_read_only_file_system(logged: Path) -> None:
    remount = f"mount --bind {logged} {logged} && mount -o remount,bind,ro {logged} && exec"
    result = run_once(logged, wrapper=["unshare", "-rm", "sh", "-c", remount])
    assert_refused(result, 73, str(logged / FILE_NAME), "read-only", "remount")


@pytest.mark.skipif(not can_unshare("-U"), reason="needs unshare -U (a user namespace)")
def test_storage_read_only_database(logged: Path) -> None:
    (logged / FILE_NAME).chmod(0o444)
    logged.chmod(0o555)
    try:  # as an unmapped user: root's right to write anything does not apply
        result = run_once(logged, wrapper=["unshare", "-U", "sh", "-c", "exec"])
    finally:
        logged.chmod(0o755)
    assert_refused(result, 77, str(logged / FILE_NAME), "write access")


def test_storage_a_bad_record_is_set_aside(logged: Path) -> None:
    db = sqlite3.connect(logged / FILE_NAME)
    with db:
        for command in ('{"type": "deal"', '{"type": "action", "action": {"type": "Nope"}}'):
            db.execute(
                "INSERT INTO log (table_id, at, kind, actor, command, events)"
                " VALUES ('main', 1.0, 'action', 't', ?, '[]')",
                (command,),
            )
    db.close()
    with serving(logged) as (port, process):
        state = Client(port).get("/api/state")
        assert state["setup"]["players"] == SETUP["players"] and state["deal"] is None
    warnings = process_output(process)
    assert "record 2 set aside" in warnings and "record 3 set aside" in warnings
    check = db_command("check", logged)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "record 2 was set aside" in check.stdout and "ok, 1 records" in check.stdout


@pytest.mark.skipif(not can_unshare("-rm"), reason="needs unshare -rm (user+mount namespaces)")
def test_storage_full_disk_answers_507_and_keeps_the_log(tmp_path: Path) -> None:
    port = free_port()
    tiny = f"mount -t tmpfs -o size=256k tmpfs {tmp_path} && exec"
    command = " ".join([*RUN, "--port", str(port), "--data-dir", str(tmp_path)])
    process = subprocess.Popen(
        ["unshare", "-rm", "sh", "-c", f"{tiny} {command}"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        wait_answering(port, process, lambda: process_output(process))
        tablet = Client(port)
        tablet.post("/api/session/pin", {"pin": "1234"})
        status, answer, acknowledged = 200, {}, 0
        while status == 200:
            status, answer = post(tablet, "/api/setup", {"setup": SETUP})
            acknowledged += status == 200
        assert status == 507 and answer["error"].startswith("disk full"), answer
        assert str(tmp_path / FILE_NAME) in answer["error"]
        assert Client(port).get("/api/state")["seq"] == acknowledged  # nothing half-done
        report("storage.disk_full", acknowledged=acknowledged)
    finally:
        process.terminate()
        process.wait(15)


def test_storage_db_backup_while_serving(logged: Path, tmp_path: Path) -> None:
    with serving(logged) as (port, _):
        tablet = Client(port)
        tablet.post("/api/session/pin", {"pin": "1234"})
        tablet.post("/api/deal", {})
        copy = tmp_path / "copy.db"
        result = db_command("backup", logged, "--to", str(copy))
        assert result.returncode == 0 and "2 records" in result.stdout, result.stderr
    with Store(copy) as restored:
        assert [r.kind for r in restored.records("main")] == ["setup", "deal"]


def test_storage_db_check_finds_damage(logged: Path) -> None:
    data = bytearray((logged / FILE_NAME).read_bytes())
    for page in range(1, len(data) // 4096):  # every b-tree page's header
        data[page * 4096 : page * 4096 + 12] = b"\xff" * 12
    (logged / FILE_NAME).write_bytes(bytes(data))
    for name in ("-wal", "-shm"):
        (logged / (FILE_NAME + name)).unlink(missing_ok=True)
    result = db_command("check", logged)
    assert result.returncode == 65 and str(logged / FILE_NAME) in result.stdout + result.stderr


def test_storage_unknown_config_section_is_a_usage_error(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[nosuch]\nx = 1\n")
    result = subprocess.run([*RUN, "--config", str(config)], capture_output=True, text=True)
    assert_refused(result, 2, "unknown section [nosuch]")


# ---------------------------------------------------------------------------- helpers


def db_command(action: str, data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "controller.cli", "db", action, "--data-dir", str(data)]
    return subprocess.run([*command, *extra], capture_output=True, text=True, timeout=60)


def post(client: Client, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    try:
        return 200, client.post(path, body)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


class serving:
    """`uno-attack run` on `data` for the `with` block; its stderr kept for later."""

    def __init__(self, data: Path) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [*RUN, "--port", str(self.port), "--data-dir", str(data)],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        )  # fmt: skip

    def __enter__(self) -> tuple[int, subprocess.Popen[str]]:
        wait_answering(self.port, self.process, lambda: process_output(self.process))
        return self.port, self.process

    def __exit__(self, *_: object) -> None:
        self.process.terminate()
        self.process.wait(15)


def process_output(process: subprocess.Popen[str]) -> str:
    return process.stderr.read() if process.stderr else ""
