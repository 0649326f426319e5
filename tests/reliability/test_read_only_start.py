"""A database the service can read but not write must stop the start with exit status 77 and a
line naming the file, never a READY service whose every command is 503.

The case a restore with `sudo cp` leaves: the file owned by another user, mode 0644, in a data
directory the service may write (so SQLite opens the file read-only and makes its -wal and
-shm files beside it). Tests run as root, whose right to write anything would hide it: the
service runs in a user namespace of its own (`unshare -U`), where it is no longer privileged
over files it does not own."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from controller.store import FILE_NAME, Store
from tests.serving import free_port

from .test_storage import RUN, SETUP, can_unshare

OTHER_USER = 4321  # not the test's user: the file is someone else's, as `sudo cp` leaves it


@pytest.mark.skipif(not can_unshare("-U"), reason="needs unshare -U (a user namespace)")
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the file to another user")
def test_storage_a_database_of_another_user_is_refused_at_start(tmp_path: Path) -> None:
    database = tmp_path / FILE_NAME
    with Store(database) as store:  # a log the service has run on: its settings are kept
        store.append("main", "setup", {"type": "setup", "setup": SETUP}, [], actor="t")
        store.set_setting("secret_key", "0" * 64)
    os.chown(database, OTHER_USER, OTHER_USER)
    database.chmod(0o644)  # readable by all, writable by its owner only
    command = ["unshare", "-U", *RUN, "--port", str(free_port()), "--data-dir", str(tmp_path)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path.cwd()
    )
    assert process.stdout is not None
    started = ""
    for line in process.stdout:  # ends when the process does; a served table says so first
        if line.startswith("Scoreboard:"):
            started = line
            process.kill()
            break
    _, errors = process.communicate(timeout=60)
    assert not started, f"the service started on a database it cannot write: {started}"
    lines = errors.strip().splitlines()
    assert process.returncode == 77, errors
    assert lines and "Traceback" not in errors, errors
    assert str(database) in lines[-1] and "write access" in lines[-1], lines[-1]
