"""The event log: append-only, durable settings, idempotency keys, schema migrations."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from controller import store as store_module
from controller.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Store,
    StoreError,
    StoreReadOnly,
    migrate,
)
from tests.waiting import wait_until


def test_store_appends_and_reads_back_in_order(tmp_path: Path) -> None:
    with Store(tmp_path / "log.db", clock=lambda: 12.5) as store:
        a = store.append("main", "setup", {"type": "setup"}, [{"type": "MatchStarted"}])
        b = store.append("main", "deal", {"type": "deal"}, [], actor="tablet:x", idem_key="k" * 8)
        store.append("other", "deal", {"type": "deal"}, [])
        assert [r.seq for r in store.records("main")] == [a.seq, b.seq]
        assert store.records("main", after=a.seq) == [b]
        assert b.at == 12.5 and b.actor == "tablet:x"
        assert store.tables() == ["main", "other"]
        assert store.last_seq() == b.seq + 1


def test_store_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with Store(path) as store:
        store.append("main", "deal", {"type": "deal", "n": 1}, [{"x": "中文"}])
        store.set_setting("secret_key", "abc")
    with Store(path) as store:
        (record,) = store.records("main")
        assert record.command == {"type": "deal", "n": 1} and record.events == [{"x": "中文"}]
        assert store.setting("secret_key") == "abc" and store.setting("nothing") is None


def test_store_uses_wal_and_full_sync(tmp_path: Path) -> None:
    with Store(tmp_path / "log.db") as store:
        db = store._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_idempotency_keys_are_unique_per_table(tmp_path: Path) -> None:
    with Store(tmp_path / "log.db") as store:
        first = store.append("main", "deal", {}, [], idem_key="tap-0001")
        with pytest.raises(sqlite3.IntegrityError):
            store.append("main", "deal", {}, [], idem_key="tap-0001")
        assert store.find("main", "tap-0001") == first
        assert store.find("other", "tap-0001") is None
        store.append("other", "deal", {}, [], idem_key="tap-0001")
        assert len(store.records("main")) == 1


def test_old_schema_is_migrated_with_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, path, target=1)
    db.execute(
        "INSERT INTO log (table_id, at, kind, actor, command, events) "
        "VALUES ('main', 1.0, 'deal', 'old', '{\"type\": \"deal\"}', '[]')"
    )
    db.close()
    with Store(path) as store:
        assert store.migrated_from == 1
        assert [r.actor for r in store.records("main")] == ["old"]
        store.set_setting("after", "migration")  # a table version 2 added
        version = store._db.execute("PRAGMA user_version").fetchone()[0]
        assert version == SCHEMA_VERSION == len(MIGRATIONS)
    backup = sqlite3.connect(tmp_path / "log.db.v1.bak")
    assert backup.execute("PRAGMA user_version").fetchone()[0] == 1
    assert backup.execute("SELECT actor FROM log").fetchall() == [("old",)]


def test_new_file_needs_no_backup(tmp_path: Path) -> None:
    Store(tmp_path / "log.db").close()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".bak"] == []


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this program"):
        Store(path)


def test_a_file_that_cannot_be_written_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite opens a file it may not write read-only, and `BEGIN IMMEDIATE; ROLLBACK` works
    on it: the store must prove it can write. Root may write any file, so the file is opened
    read-only as SQLite opens a file of another user (`mode=ro`)."""
    path = tmp_path / "log.db"
    with Store(path) as store:
        store.set_setting("secret_key", "kept")  # a log a service has run on
    opened_read_only = []

    def read_only(target: Path, *, read_only: bool = False) -> sqlite3.Connection:
        opened_read_only.append(target)
        return real_connect(target, read_only=True)

    real_connect = store_module.connect
    monkeypatch.setattr(store_module, "connect", read_only)
    with pytest.raises(StoreReadOnly, match="cannot be written") as refused:
        Store(path)
    assert opened_read_only and refused.value.status == 77
    assert str(path) in str(refused.value) and "write access" in str(refused.value)
    monkeypatch.undo()
    with Store(path) as store:  # and the check left nothing behind
        assert store.setting("secret_key") == "kept"
        assert store.setting(store_module.WRITE_CHECK) is None


def test_reading_records_does_not_wait_for_the_writers_lock(tmp_path: Path) -> None:
    """A long read (a scoreboard catching up, the history) never holds up a command, and a
    command in progress never holds up a read: reads have connections of their own."""
    with Store(tmp_path / "log.db") as store:
        first = store.append("main", "setup", {"type": "setup"}, [])
        read: list[object] = []
        with store._lock:  # a command being committed
            reader = threading.Thread(
                target=lambda: read.append((store.records("main"), store.summaries("main")))
            )
            reader.start()
            wait_until(lambda: read, "a read while the writer's lock is held")
        reader.join()
        assert read == [([first], [])]


def test_version_3_file_gains_the_match_summaries(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, path, target=3)
    db.close()
    with Store(path) as store:
        assert store.migrated_from == 3 and store.summaries("main") == []
        store.save_summary("main", 7, {"players": ["Ann"]})
        store.save_summary("other", 9, {"players": ["Bob"]})
        assert store.summaries("main") == [(7, {"players": ["Ann"]})]
        store.keep_summaries("main", [])
        assert store.summaries("main") == [] and len(store.summaries("other")) == 1
