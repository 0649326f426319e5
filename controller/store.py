"""The event log: an append-only SQLite table that is the source of truth for every table.

Each record is one accepted command (a tap, a button press, a deal, an undo...) with the events
it produced. A record is committed (WAL, synchronous FULL) before anyone hears of it, so a
killed process loses nothing that was acknowledged; on start the tables are rebuilt by
replaying their records. The schema is versioned (`PRAGMA user_version`); opening an older file
migrates it after keeping a backup copy of it beside the original.

Writes (and the few reads the owner thread needs at once) use one connection under a lock;
the reads of records and match summaries use a small pool of read-only connections of their
own, so a long read (a scoreboard catching up, the history) never holds up a command: under WAL
a reader sees the last committed state and does not block the writer.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
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
    (
        """CREATE TABLE match_summary (
            setup_seq INTEGER PRIMARY KEY,
            table_id TEXT NOT NULL,
            summary TEXT NOT NULL
        )""",
        "CREATE INDEX match_summary_table ON match_summary (table_id, setup_seq)",
    ),
)
"""Schema steps: MIGRATIONS[n] takes a file from version n to n + 1. Append, never edit."""

SCHEMA_VERSION = len(MIGRATIONS)

log = logging.getLogger(__name__)

FILE_NAME = "uno-attack.db"
PAGE = 64  # records read at a time when walking the log backwards
READERS = 4  # read-only connections at most; more readers at once wait for one
WRITE_CHECK = "uno-attack.write-check"  # the settings row written, and rolled back, at start


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


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection to the log at `path`, shareable between threads (one at a time). A
    read-only one (`mode=ro`) never writes, whatever the file's permissions."""
    if read_only:
        target, uri = f"{path.resolve().as_uri()}?mode=ro", True
    else:
        target, uri = str(path), False
    return sqlite3.connect(target, uri=uri, check_same_thread=False, isolation_level=None)


class Store:
    """One SQLite file. Safe to share between threads; every append is its own transaction.

    Opening checks the file first: a missing directory, an empty (0-byte) file, a damaged or
    read-only one each raise their own `StoreError` (read-only: a row is written and rolled back,
    since SQLite opens a file it may not write read-only and only refuses the first write).
    Records whose stored JSON cannot be read are moved to the `set_aside` table with a warning,
    so one bad record never stops a start.
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
        self._idle: queue.LifoQueue[sqlite3.Connection] = queue.LifoQueue()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._closed = False
        with faults(self.path):
            self._db = connect(self.path)
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self.migrated_from = migrate(self._db, self.path)
                _check_writable(self._db)
            except BaseException:
                self._db.close()
                raise
        self.set_aside_unreadable()

    def close(self) -> None:
        with self._lock, self._readers_lock:
            self._closed = True
            for reader in self._readers:
                reader.close()
            self._readers.clear()
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

    def records(
        self, table_id: str, after: int = 0, limit: int | None = None, *, before: int | None = None
    ) -> list[Record]:
        """The table's records with `after` < seq < `before`, in order (the first `limit`)."""
        top = (1 << 62) if before is None else before
        where = "WHERE table_id = ? AND seq > ? AND seq < ? ORDER BY seq"
        if limit is None:
            return self._select(where, (table_id, after, top))
        return self._select(where + " LIMIT ?", (table_id, after, top, limit))

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

    def setups(self, table_id: str) -> list[int]:
        """The seq of every set-up of the table, oldest first: where each of its matches begins."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT seq FROM log WHERE table_id = ? AND kind = 'setup' ORDER BY seq",
                (table_id,),
            ).fetchall()
        return [int(seq) for (seq,) in rows]

    # --- match summaries: one row per finished match of a table (kept by its service) ---

    def summaries(self, table_id: str, limit: int | None = None) -> list[tuple[int, Any]]:
        """(set-up seq, summary) of the table's summarised matches, oldest first (the first
        `limit`). Read on a read-only connection: never waits for a command."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT setup_seq, summary FROM match_summary WHERE table_id = ?"
                " ORDER BY setup_seq LIMIT ?",
                (table_id, -1 if limit is None else limit),
            ).fetchall()
        return [(int(seq), json.loads(text)) for seq, text in rows]

    def save_summary(self, table_id: str, setup_seq: int, summary: Any) -> None:
        """Keep the summary of the match that set-up `setup_seq` began (replacing any)."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO match_summary (setup_seq, table_id, summary)"
                " VALUES (?, ?, ?)",
                (setup_seq, table_id, json.dumps(summary)),
            )

    def keep_summaries(self, table_id: str, setup_seqs: Iterable[int]) -> set[int]:
        """Drop the table's summaries of any match but these (their set-ups set aside, or the
        match is the table's current one again); return the set-up seqs still summarised."""
        keep = set(setup_seqs)
        with self._lock, faults(self.path):
            rows = self._db.execute(
                "SELECT setup_seq FROM match_summary WHERE table_id = ?", (table_id,)
            ).fetchall()
        have = {int(seq) for (seq,) in rows}
        if have - keep:
            with self._transaction() as db:
                db.executemany(
                    "DELETE FROM match_summary WHERE setup_seq = ?",
                    [(seq,) for seq in sorted(have - keep)],
                )
        return have & keep

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
        with self._reading() as db:
            rows = db.execute(sql, args).fetchall()
        return [record for record in map(_decode, rows) if record is not None]

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection of the pool for one read (not the writer's lock): an idle
        one, a new one while there are fewer than READERS, else the next one handed back."""
        with faults(self.path):
            try:
                db = self._idle.get_nowait()
            except queue.Empty:
                db = self._new_reader() or self._idle.get()
            try:
                yield db
            finally:
                self._idle.put(db)

    def _new_reader(self) -> sqlite3.Connection | None:
        with self._readers_lock:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            if len(self._readers) >= READERS:
                return None
            reader = connect(self.path, read_only=True)
            self._readers.append(reader)
            return reader

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


def _check_writable(db: sqlite3.Connection) -> None:
    """Write a row and roll it back. SQLite opens a file it may not write read-only (a file of
    another user, mode 0644) and takes `BEGIN IMMEDIATE` even then: only a real write fails."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, '')", (WRITE_CHECK,))
    finally:
        if db.in_transaction:
            db.execute("ROLLBACK")


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
