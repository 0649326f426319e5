"""The event log: an append-only SQLite table that is the source of truth for every table.

Each record is one accepted command (a tap, a button press, a deal, an undo...) with the events
it produced. A record is committed (WAL, synchronous FULL) before anyone hears of it, so a
killed process loses nothing that was acknowledged; on start the tables are rebuilt by
replaying their records. The schema is versioned (`PRAGMA user_version`); opening an older file
migrates it after keeping a backup copy of it beside the original.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE log (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id TEXT NOT NULL,
            at REAL NOT NULL,
            kind TEXT NOT NULL,
            actor TEXT NOT NULL,
            command TEXT NOT NULL,
            events TEXT NOT NULL,
            idem_key TEXT
        )""",
        "CREATE UNIQUE INDEX log_idem ON log (table_id, idem_key) WHERE idem_key IS NOT NULL",
    ),
    (
        "CREATE INDEX log_table_seq ON log (table_id, seq)",
        """CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
    ),
)
"""Schema steps: MIGRATIONS[n] takes a file from version n to n + 1. Append, never edit."""

SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(RuntimeError):
    """The database cannot be used (newer than this program, or damaged)."""


@dataclass(frozen=True)
class Record:
    seq: int
    table_id: str
    at: float
    kind: str
    actor: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    idem_key: str | None


class Store:
    """One SQLite file. Safe to share between threads; every append is its own transaction."""

    def __init__(self, path: Path | str, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self.migrated_from = migrate(self._db, self.path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def append(
        self,
        table_id: str,
        kind: str,
        command: dict[str, Any],
        events: list[dict[str, Any]],
        *,
        actor: str = "",
        idem_key: str | None = None,
    ) -> Record:
        """Commit one record and return it with its sequence number."""
        at = self._clock()
        row = (table_id, at, kind, actor, json.dumps(command), json.dumps(events), idem_key)
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO log (table_id, at, kind, actor, command, events, idem_key)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                row,
            )
        seq = cursor.lastrowid
        assert seq is not None
        return Record(seq, table_id, at, kind, actor, command, events, idem_key)

    def find(self, table_id: str, idem_key: str) -> Record | None:
        """The record made with this idempotency key, if any (a retried tap)."""
        rows = self._select("WHERE table_id = ? AND idem_key = ?", (table_id, idem_key))
        return rows[0] if rows else None

    def records(self, table_id: str, after: int = 0) -> list[Record]:
        """The table's records with seq > `after`, in order."""
        return self._select("WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after))

    def tables(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT table_id FROM log ORDER BY table_id")
            return [row[0] for row in rows]

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM log").fetchone()
        return int(row[0])

    def setting(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def _select(self, where: str, args: tuple[object, ...]) -> list[Record]:
        sql = f"SELECT seq, table_id, at, kind, actor, command, events, idem_key FROM log {where}"
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [
            Record(seq, table, at, kind, actor, json.loads(command), json.loads(events), key)
            for seq, table, at, kind, actor, command, events, key in rows
        ]

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")


def migrate(db: sqlite3.Connection, path: Path, target: int = SCHEMA_VERSION) -> int:
    """Bring the file up to `target`; return the version it had. A file with data is copied to
    `<name>.v<old>.bak` first, so an upgrade can always be undone by hand."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} has schema version {version}, newer than this program's {SCHEMA_VERSION}: "
            "upgrade uno-attack or restore an older backup"
        )
    if version < target and version > 0:
        backup = sqlite3.connect(path.with_name(f"{path.name}.v{version}.bak"))
        with backup:
            db.backup(backup)
        backup.close()
    for step in range(version, target):
        db.execute("BEGIN IMMEDIATE")
        for statement in MIGRATIONS[step]:
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {step + 1}")
        db.execute("COMMIT")
    return version
