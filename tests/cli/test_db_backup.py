"""`uno-attack db backup`: the copy holds the PIN's hash, so only its owner may read it (0600);
it is written beside the target and takes the target's name only once whole, so a full disk
leaves no partial copy (and an older copy under that name untouched), with a clear message."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import controller.cli.db as db_cli
from controller.cli import main
from controller.store import FILE_NAME, Store


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data directory whose log holds a set-up and some 200 KB of records."""
    folder = tmp_path / "data"
    with Store(folder / FILE_NAME) as store:
        store.append("main", "setup", {"type": "setup", "setup": {"players": ["A", "B"]}}, [])
        for n in range(200):
            store.append("main", "deal", {"type": "deal", "note": f"{n:04} " + "x" * 1000}, [])
    return folder


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The umask most systems start with: files come out readable by everyone (0644)."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_the_copy_is_readable_by_its_owner_only(
    data: Path, tmp_path: Path, open_umask: None, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copies" / "copy.db"
    copy.parent.mkdir()
    assert main(["db", "backup", "--data-dir", str(data), "--to", str(copy)]) == 0
    assert "201 records copied" in capsys.readouterr().out
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert sorted(p.name for p in copy.parent.iterdir()) == ["copy.db"]  # no -wal, -shm, temp
    with Store(copy) as restored:
        assert len(restored.records("main")) == 201


def test_the_default_copy_beside_the_log_is_private_too(data: Path, open_umask: None) -> None:
    assert main(["db", "backup", "--data-dir", str(data)]) == 0
    (copy,) = data.glob("*.db.bak")
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600


def test_a_full_disk_leaves_no_partial_copy(
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SQLite itself says the disk is full: the copy may not grow past a few pages."""
    connect = sqlite3.connect

    def small_disk(target: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened = connect(target, *args, **kwargs)
        if "mode=ro" not in str(target):
            opened.execute("PRAGMA max_page_count = 8")
        return opened

    monkeypatch.setattr(db_cli.sqlite3, "connect", small_disk)
    folder = tmp_path / "copies"
    folder.mkdir()
    copy = folder / "copy.db"
    copy.write_bytes(b"yesterday's copy")
    assert main(["db", "backup", "--data-dir", str(data), "--to", str(copy)]) == 74
    error = capsys.readouterr().err
    assert error.startswith(f"uno-attack db backup: error: disk full: the disk holding {copy}")
    assert "no copy was written" in error and error.count("\n") == 1
    assert [p.name for p in folder.iterdir()] == ["copy.db"]
    assert copy.read_bytes() == b"yesterday's copy"


def _can_mount_tmpfs() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]
    return subprocess.run(probe, capture_output=True).returncode == 0


@pytest.mark.skipif(not _can_mount_tmpfs(), reason="needs unshare -rm and a tmpfs mount")
def test_a_really_full_disk_leaves_no_partial_copy(data: Path, tmp_path: Path) -> None:
    """A 64 KB file system (its own mount namespace) for a 200 KB log."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    backup = [sys.executable, "-m", "controller.cli", "db", "backup", "--data-dir", str(data)]
    script = (
        f'mount -t tmpfs -o size=64k tmpfs "{folder}" && '
        f'{" ".join(backup)} --to "{folder}/copy.db"; echo "status $?"; ls -A "{folder}"'
    )
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.stdout.splitlines() == ["status 74"], result.stdout + result.stderr
    assert f"disk full: the disk holding {folder}/copy.db is full" in result.stderr
    assert "Traceback" not in result.stderr
