"""What a careless operator does to the data, and what the service says about it.

- A `-wal` file deleted after a `kill -9` takes the records only it held: the next start says
  which records the table had acknowledged are missing, in the journal, in systemd's status and
  on the tablets (until the next set-up), and never numbers a new record like a lost one.
- A data directory that is a file, that sits under a file, or that belongs to another user, and
  an event log that is a directory: one line naming the path and what to do, and an exit
  status of its own (77: a restart cannot fix it; 78: the configuration points at the wrong
  thing). "Another user" is real in a user namespace (`unshare`), where the tests' root is no
  longer privileged; a seam covers the path where there is none.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import controller.store as store_module
from controller.stops import EXIT_STATUSES, describe
from controller.store import (
    FILE_NAME,
    LOSSES,
    DataDirDenied,
    Store,
    StoreError,
    loss_warnings,
)
from tests.api.test_recovery import Client, free_port
from tests.deploy.test_sdnotify import FakeSystemd
from tests.serving import wait_answering
from tests.waiting import wait_until

from .conftest import report, scale
from .test_storage import RUN, SETUP, assert_refused, can_unshare, run_once

OTHER_USER = 4321  # owns the data directory: not the service's user
SERVICE_USER = 1000  # the service's user inside its user namespace

# A process that appends records, checkpoints the first `argv[2]` into the main file, appends
# `argv[3]` more (in the -wal file only), and is killed.
KILLED = """
import os, signal, sys
from controller.store import Store
store = Store(sys.argv[1])
for n in range(int(sys.argv[2])):
    store.append("main", "setup" if n == 0 else "action", {"n": n}, [])
store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
for n in range(int(sys.argv[3])):
    store.append("main", "action", {"n": n}, [])
os.kill(os.getpid(), signal.SIGKILL)
"""


def killed_after(database: Path, checkpointed: int, in_wal: int) -> None:
    done = subprocess.run([sys.executable, "-c", KILLED, str(database), str(checkpointed),
                           str(in_wal)], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert database.with_name(FILE_NAME + "-wal").stat().st_size > 0


def delete_wal(database: Path) -> None:
    for suffix in ("-wal", "-shm"):  # what `rm uno-attack.db-*` does
        database.with_name(FILE_NAME + suffix).unlink(missing_ok=True)


# ------------------------------------------------------------------ a -wal file deleted


def test_careless_a_deleted_wal_is_said_never_silent(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / FILE_NAME
    killed_after(database, checkpointed=3, in_wal=2)
    delete_wal(database)
    with caplog.at_level(logging.WARNING), Store(database) as store:
        assert store.lost == (4, 5)
        assert [record.seq for record in store.records("main")] == [1, 2, 3]
        said = [r.getMessage() for r in caplog.records if "missing" in r.getMessage()]
        assert len(said) == 1 and str(database) in said[0], said
        assert "2 records the table had acknowledged (seq 4 to 5)" in said[0]
        assert "-wal" in said[0]
        (shown,) = loss_warnings(store.setting(LOSSES))
        assert "(seq 4 to 5) are missing from the event log" in shown
        assert store.append("main", "action", {}, []).seq == 6  # never a lost record's seq
        assert store.setting(LOSSES) is not None  # shown until a set-up
        store.append("main", "setup", {}, [])
        assert store.setting(LOSSES) is None
    caplog.clear()
    with caplog.at_level(logging.WARNING), Store(database) as store:  # said once, not forever
        assert store.lost is None and "missing" not in caplog.text


def test_careless_deleted_wals_one_after_another_each_said_exactly(tmp_path: Path) -> None:
    """Kill, delete the -wal file, start again, over and over: every start names exactly the
    records that were lost, and no record ever takes a lost one's number."""
    database, rng = tmp_path / FILE_NAME, random.Random(19)
    acknowledged = 0  # the highest seq any process acknowledged
    for _ in range(scale(2, 25)):
        checkpointed, in_wal = rng.randint(1, 6), rng.randint(1, 6)
        killed_after(database, checkpointed, in_wal)
        delete_wal(database)
        kept, lost = acknowledged + checkpointed, acknowledged + checkpointed + in_wal
        with Store(database) as store:
            assert store.lost == (kept + 1, lost)
            assert max(record.seq for record in store.records("main")) == kept
        acknowledged = lost
    with Store(database) as store:
        assert store.append("main", "action", {}, []).seq == acknowledged + 1
    report("deleted_wals", cycles=scale(2, 25), last_seq=acknowledged + 1)


def test_careless_a_kill_alone_loses_nothing_and_says_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / FILE_NAME
    killed_after(database, checkpointed=2, in_wal=3)  # the -wal file is kept: all is there
    with caplog.at_level(logging.WARNING), Store(database) as store:
        assert store.lost is None and store.setting(LOSSES) is None
        assert [record.seq for record in store.records("main")] == [1, 2, 3, 4, 5]
    assert "missing" not in caplog.text


def test_careless_a_new_log_in_place_of_the_old_is_no_loss(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Deleting the whole file (what the messages advise for a damaged one) starts a new log:
    the old log's `.acked` file is not its, so nothing is said missing."""
    database = tmp_path / FILE_NAME
    with Store(database) as store:
        for n in range(4):
            store.append("main", "action", {"n": n}, [])
    delete_wal(database)  # closed cleanly: there is none, and nothing in it
    database.unlink()
    with caplog.at_level(logging.WARNING), Store(database) as store:
        assert store.lost is None and store.setting(LOSSES) is None
        assert store.append("main", "setup", {}, []).seq == 1
    assert "missing" not in caplog.text


def test_careless_an_older_copy_put_back_is_said(tmp_path: Path) -> None:
    database = tmp_path / FILE_NAME
    with Store(database) as store:
        store.append("main", "setup", {}, [])
        store.backup(tmp_path / "copy.db")
        store.append("main", "action", {}, [])
    (tmp_path / "copy.db").replace(database)
    with Store(database) as store:
        assert store.lost == (2, 2)
        (shown,) = loss_warnings(store.setting(LOSSES))
        assert shown.startswith("1 record the table had acknowledged (seq 2) is missing")


def test_careless_a_deleted_wal_under_the_service(tmp_path: Path) -> None:
    """The real service: played, killed, its -wal deleted, started again. The journal, the
    status line and the scoreboard say what went missing; the next record follows it."""
    port = free_port()
    first = subprocess.Popen([*RUN, "--port", str(port), "--data-dir", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        wait_answering(port, first)
        tablet = Client(port)
        tablet.post("/api/session/pin", {"pin": "1234"})
        seqs = [tablet.post("/api/setup", {"setup": SETUP})["seq"]]
        seqs.append(tablet.post("/api/deal", {})["seq"])
        turned = tablet.post("/api/actions", {"action": {"type": "TurnUp", "card": "R5"}})
        seqs.append(turned["seq"])
    finally:
        first.kill()
        first.wait(15)
    delete_wal(tmp_path / FILE_NAME)

    systemd = FakeSystemd(str(tmp_path / "notify"))
    second = subprocess.Popen(
        [*RUN, "--port", str(port), "--data-dir", str(tmp_path)],
        env=os.environ | {"NOTIFY_SOCKET": systemd.address},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_answering(port, second)
        assert Client(port).get("/api/state")["seq"] == 0  # the match went with the -wal file
        said = f"STATUS={len(seqs)} acknowledged records missing from the event log; "
        wait_until(lambda: status_lines(systemd, said), f"systemd's status begins {said!r}")
        for page in ("/", "/setup", "/admin"):
            (warning,) = page_warnings(port, page)
            assert f"{len(seqs)} records the table had acknowledged" in warning, page
            assert f"(seq {seqs[0]} to {seqs[-1]}) are missing" in warning, page

        tablet = Client(port)
        tablet.post("/api/session/pin", {"pin": "1234"})
        assert tablet.post("/api/setup", {"setup": SETUP})["seq"] == seqs[-1] + 1
        assert page_warnings(port, "/") == []  # told until the next set-up
    finally:
        second.send_signal(signal.SIGTERM)
        _, errors = second.communicate(timeout=20)
        systemd.close()
    assert second.returncode == 0, errors
    (line,) = [line for line in errors.splitlines() if "missing from the event log" in line]
    assert "WARNING" in line and str(tmp_path / FILE_NAME) in line
    assert re.search(rf"\(seq {seqs[0]} to {seqs[-1]}\)", line), line


def status_lines(systemd: FakeSystemd, start: str) -> list[str]:
    """The STATUS= lines systemd heard that begin with `start`."""
    return [line for _, m in list(systemd.messages) for line in m.splitlines()
            if line.startswith(start)]  # fmt: skip


def page_warnings(port: int, path: str) -> list[str]:
    """The warnings a page hands its script (`page-data`), as any tablet gets it."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
        html = answer.read().decode()
    found = re.search(r'<script[^>]*id="page-data"[^>]*>(.*?)</script>', html, re.S)
    assert found, html[:500]
    data: dict[str, Any] = json.loads(found.group(1))
    return list(data.get("warnings", []))


# ------------------------------------------------------------------ the data directory


def test_careless_a_data_dir_that_is_a_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder")
    assert_refused(run_once(data), 78, str(data), "is a file, not a directory", "--data-dir")
    assert_refused(run_once(data / "sub"), 78, str(data), "is a file, not a directory")
    assert data.read_text() == "not a folder"


def test_careless_an_event_log_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).mkdir()
    assert_refused(run_once(tmp_path), 78, str(tmp_path / FILE_NAME), "is a directory",
                   "move it aside")  # fmt: skip


@pytest.mark.skipif(
    not can_unshare("-U", "--map-user=1000"),
    reason="needs unshare -U --map-user (a user namespace with a mapped user)",
)
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the folder to another user")
@pytest.mark.parametrize("mode", [0o700, 0o755])
def test_careless_a_data_dir_of_another_user(tmp_path: Path, mode: int) -> None:
    data = tmp_path / "data"
    data.mkdir()
    if mode == 0o755:  # a log of its own in it, readable by all
        with Store(data / FILE_NAME) as store:
            store.append("main", "setup", {"type": "setup", "setup": SETUP}, [])
        delete_wal(data / FILE_NAME)
    os.chown(data, OTHER_USER, OTHER_USER)
    data.chmod(mode)
    wrapper = ["unshare", "-U", f"--map-user={SERVICE_USER}", "sh", "-c", "exec"]
    result = run_once(data, wrapper=wrapper)
    assert_refused(result, 77, str(data), "may not be used by the service's user", "chown -R")


def test_careless_a_data_dir_that_may_not_be_searched_seam(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no user namespace is allowed: the refusal the OS makes, made by a seam."""
    data = tmp_path / "data"
    data.mkdir()
    real_stat = Path.stat

    def stat(path: Path, **kw: Any) -> os.stat_result:
        if path.parent == data:
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, **kw)

    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(store_module, "_owner", lambda folder: OTHER_USER)
    with pytest.raises(DataDirDenied, match="may not be used by the service's user") as refused:
        Store(data / FILE_NAME)
    assert refused.value.status == 77 and str(data) in str(refused.value)
    assert "chown -R" in str(refused.value)


def test_careless_exit_statuses_say_what_they_mean() -> None:
    """The line a restart logs after a refused start says what the status means."""
    statuses = {kind.status for kind in _kinds(StoreError)}
    assert statuses <= {int(status) for status in EXIT_STATUSES}
    line = describe("exit-code", "exited", "77")
    assert "exited with status 77" in line and "cannot be written" in line
    assert "not a directory" in describe("exit-code", "exited", "78")


def _kinds(kind: type[StoreError]) -> list[type[StoreError]]:
    return [kind, *(k for sub in kind.__subclasses__() for k in _kinds(sub))]
