"""The event log: an append-only SQLite table that is the source of truth for every table.

Each record is one accepted command (a tap, a button press, a deal, an undo...) with the events
it produced. A record is committed (WAL, synchronous FULL) before anyone hears of it, so a
killed process loses nothing that was acknowledged; on start the tables are rebuilt by
replaying their records. The schema is versioned (`PRAGMA user_version`); opening an older file
migrates it after keeping a backup copy of it beside the original.
"""

from __future__ import annotations

import errno
import json
import logging
import os
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
    (
        "CREATE INDEX log_table_kind ON log (table_id, kind, seq)",
        """CREATE TABLE set_aside (
            seq INTEGER PRIMARY KEY,
            table_id TEXT NOT NULL,
            at REAL NOT NULL,
            kind TEXT NOT NULL,
            actor TEXT NOT NULL,
            command TEXT NOT NULL,
            events TEXT NOT NULL,
            idem_key TEXT,
            reason TEXT NOT NULL,
            set_aside_at REAL NOT NULL
        )""",
    ),
)
"""Schema steps: MIGRATIONS[n] takes a file from version n to n + 1. Append, never edit."""

SCHEMA_VERSION = len(MIGRATIONS)

log = logging.getLogger(__name__)

FILE_NAME = "uno-attack.db"
PAGE = 64  # records read at a time when walking the log backwards


class StoreError(RuntimeError):
    """The event log cannot be used. The message names the file and what to do; `status` is
    the exit status `uno-attack run` ends with (one per kind of fault, sysexits-style)."""

    status = 70


class StoreDamaged(StoreError):
    status = 65


class StoreEmpty(StoreError):
    status = 66


class DataDirMissing(StoreError):
    status = 72


class StoreReadOnly(StoreError):
    status = 77


class ReadOnlyFileSystem(StoreReadOnly):
    status = 73


class StoreFull(StoreError):
    status = 74


class StoreTooNew(StoreError):
    status = 78


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
    """One SQLite file. Safe to share between threads; every append is its own transaction.

    Opening checks the file first: a missing directory, an empty (0-byte) file, a damaged or
    read-only one each raise their own `StoreError`. Records whose stored JSON cannot be read
    are moved to the `set_aside` table with a warning, so one bad record never stops a start.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        clock: Callable[[], float] = time.time,
        create_dir: bool = True,
    ) -> None:
        self.path = Path(path)
        _check_location(self.path, create_dir)
        self._clock = clock
        self._lock = threading.Lock()
        with faults(self.path):
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self.migrated_from = migrate(self._db, self.path)
                self._db.execute("BEGIN IMMEDIATE")  # can we write? (read-only file, full disk)
                self._db.execute("ROLLBACK")
            except BaseException:
                self._db.close()
                raise
        self.set_aside_unreadable()

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

    def records(self, table_id: str, after: int = 0, limit: int | None = None) -> list[Record]:
        """The table's records with seq > `after`, in order (the first `limit` of them)."""
        where = "WHERE table_id = ? AND seq > ? ORDER BY seq"
        if limit is None:
            return self._select(where, (table_id, after))
        return self._select(where + " LIMIT ?", (table_id, after, limit))

    def latest(
        self, table_id: str, limit: int, *, since: int = 0, before: int | None = None
    ) -> list[Record]:
        """The table's newest `limit` records with `since` <= seq < `before`, newest first."""
        top = (1 << 62) if before is None else before
        return self._select(
            "WHERE table_id = ? AND seq >= ? AND seq < ? ORDER BY seq DESC LIMIT ?",
            (table_id, since, top, limit),
        )

    def backwards(self, table_id: str, since: int = 0) -> Iterator[Record]:
        """The table's records from the newest back to seq `since`, read a page at a time."""
        before: int | None = None
        while True:
            page = self.latest(table_id, PAGE, since=since, before=before)
            yield from page
            if len(page) < PAGE:
                return
            before = page[-1].seq

    def match_start(self, table_id: str) -> int:
        """The seq of the table's latest set-up (0 when it has none): where its match begins."""
        with self._lock, faults(self.path):
            row = self._db.execute(
                "SELECT MAX(seq) FROM log WHERE table_id = ? AND kind = 'setup'", (table_id,)
            ).fetchone()
        return int(row[0] or 0)

    def tables(self) -> list[str]:
        with self._lock, faults(self.path):
            rows = self._db.execute("SELECT DISTINCT table_id FROM log ORDER BY table_id")
            return [row[0] for row in rows]

    def last_seq(self) -> int:
        with self._lock, faults(self.path):
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM log").fetchone()
        return int(row[0])

    def setting(self, key: str) -> str | None:
        with self._lock, faults(self.path):
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def set_aside(self, seq: int, reason: str) -> None:
        """Move record `seq` out of the log into `set_aside`, with the reason, and warn. Kept,
        not deleted: an operator can look at it (`uno-attack db check` lists them)."""
        log.warning("%s: record %d set aside: %s", self.path, seq, reason)
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO set_aside SELECT *, ?, ? FROM log WHERE seq = ?",
                (reason, self._clock(), seq),
            )
            db.execute("DELETE FROM log WHERE seq = ?", (seq,))

    def set_aside_unreadable(self) -> list[int]:
        """Set aside every record whose stored command or events are not readable JSON."""
        with self._lock, faults(self.path):
            rows = self._db.execute(
                "SELECT seq FROM log WHERE NOT (json_valid(command) AND json_valid(events)"
                " AND json_type(command) = 'object' AND json_type(events) = 'array')"
            ).fetchall()
        for (seq,) in rows:
            self.set_aside(seq, "its command or events are not readable JSON")
        return [seq for (seq,) in rows]

    def set_aside_records(self) -> list[tuple[int, str]]:
        """(seq, reason) of every record set aside so far."""
        with self._lock, faults(self.path):
            rows = self._db.execute("SELECT seq, reason FROM set_aside ORDER BY seq").fetchall()
        return [(int(seq), str(reason)) for seq, reason in rows]

    def check(self) -> list[str]:
        """SQLite's integrity check: [] when the file is sound, else what is wrong."""
        with self._lock, faults(self.path):
            rows = self._db.execute("PRAGMA integrity_check").fetchall()
        problems = [str(row[0]) for row in rows]
        return [] if problems == ["ok"] else problems

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole file (safe while the service writes)."""
        copy = sqlite3.connect(target)
        try:
            with self._lock, faults(self.path), copy:
                self._db.backup(copy)
        finally:
            copy.close()

    def _select(self, where: str, args: tuple[object, ...]) -> list[Record]:
        sql = f"SELECT seq, table_id, at, kind, actor, command, events, idem_key FROM log {where}"
        with self._lock, faults(self.path):
            rows = self._db.execute(sql, args).fetchall()
        return [record for record in map(_decode, rows) if record is not None]

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock, faults(self.path):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")


def _decode(row: tuple[Any, ...]) -> Record | None:
    """A row as a Record; None (and a warning) if its JSON cannot be read: stored data never
    stops a replay or a stream."""
    seq, table, at, kind, actor, command, events, key = row
    try:
        command, events = json.loads(command), json.loads(events)
    except (ValueError, TypeError) as error:
        log.warning("record %d skipped: unreadable (%s)", seq, error)
        return None
    if not isinstance(command, dict) or not isinstance(events, list):
        log.warning("record %d skipped: not a command and a list of events", seq)
        return None
    return Record(seq, table, at, kind, actor, command, events, key)


def _check_location(path: Path, create_dir: bool) -> None:
    folder = path.parent
    if not folder.is_dir():
        if not create_dir:
            raise DataDirMissing(
                f"the data directory {folder} does not exist: mount the disk that holds it, "
                f"or create it (mkdir -p {folder}) for a new event log"
            )
        with faults(path):
            folder.mkdir(parents=True, exist_ok=True)
    if path.is_file() and path.stat().st_size == 0:
        raise StoreEmpty(
            f"{path} is empty (0 bytes): its records are gone. Restore a backup over it, "
            "or delete it to start a new event log"
        )


@contextmanager
def faults(path: Path) -> Iterator[None]:
    """Turn SQLite's and the OS's storage errors into a `StoreError` naming `path`."""
    try:
        yield
    except (sqlite3.OperationalError, sqlite3.DatabaseError, OSError) as error:
        if isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError):
            raise
        raise fault(error, path) from error


def fault(error: BaseException, path: Path) -> StoreError:
    """The `StoreError` that says what `error` means for the event log at `path`."""
    name = getattr(error, "sqlite_errorname", "")
    number = getattr(error, "errno", None)
    if name == "SQLITE_FULL" or number == errno.ENOSPC:
        return StoreFull(f"disk full: the disk holding {path} is full; free some space")
    if name.startswith("SQLITE_READONLY") or name == "SQLITE_CANTOPEN" or number in _DENIED:
        if _read_only_fs(path.parent):
            return ReadOnlyFileSystem(
                f"the file system holding {path} is read-only: remount it read-write "
                "(an SD card the kernel made read-only after errors needs checking first)"
            )
        return StoreReadOnly(
            f"{path} cannot be written: give the service's user write access to it and to "
            f"{path.parent}"
        )
    if name in ("SQLITE_NOTADB", "SQLITE_CORRUPT") or name.startswith("SQLITE_CORRUPT"):
        return StoreDamaged(
            f"{path} is damaged ({error}): restore a backup over it, or move it aside to start "
            "a new event log (`uno-attack db check` tells more)"
        )
    if isinstance(error, StoreError):
        return error
    return StoreError(f"{path}: {error}")


_DENIED = (errno.EROFS, errno.EACCES, errno.EPERM)


def _read_only_fs(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def migrate(db: sqlite3.Connection, path: Path, target: int = SCHEMA_VERSION) -> int:
    """Bring the file up to `target`; return the version it had. A file with data is copied to
    `<name>.v<old>.bak` first, so an upgrade can always be undone by hand."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreTooNew(
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
