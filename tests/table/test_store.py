"""The event log: append-only, durable settings, idempotency keys, schema migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.store import MIGRATIONS, SCHEMA_VERSION, Store, StoreError, migrate


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
