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

A record lives only in the `-wal` file until a checkpoint copies it into the main file, so a
`-wal` file deleted after a kill (or an older copy put back) takes acknowledged records with it.
That never passes silently: every append also writes its seq into a small file beside the log
(`<file>.acked`, with the log's own id), and a start that finds the log behind it says which
records are gone, in the journal and (`LOSSES`, `loss_warnings`) on the tablets, and numbers the
next record past them, so no seq a tablet saw is used twice.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import pwd
import queue
import sqlite3
import threading
import time
import uuid
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
ACKED = ".acked"  # beside the file: "<log id> <highest seq acknowledged>", written every append
LOG_ID = "log_id"  # the settings row naming this log (an `.acked` file of another is not its)
LOSSES = "log_losses"  # the settings row of records found missing at a start, until a set-up
KEPT_LOSSES = 10
SET_ASIDE = "set_aside_notices"  # the settings row of what was set aside, per table, until the
# table's next set-up (`set_aside_notices`): the tablets are told, not only the journal
KEPT_NOTICES = 20


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


class NotADirectory(StoreError):
    """The data directory is a file (or the log's file a directory): the configuration points
    at the wrong thing, which a restart cannot fix."""

    status = 78


class StoreReadOnly(StoreError):
    status = 77


class DataDirDenied(StoreReadOnly):
    """The data directory is another user's: the service's user may not read or write it."""


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
        self._acked_lock = threading.Lock()
        self._acked_fd: int | None = None
        self._acked = 0
        self._log_id = ""
        self._losses_shown = False  # a LOSSES row is there: the next set-up clears it
        self._notices_kept = False  # a SET_ASIDE row is there: a set-up clears its table's
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
        try:
            self.log_id = self._own_id()  # this log's: a service's identity at every address
            self.lost = self._notice_losses()
        except BaseException:
            self.close()
            raise
        self.set_aside_unreadable()

    def close(self) -> None:
        with self._lock, self._readers_lock:
            self._closed = True
            for reader in self._readers:
                reader.close()
            self._readers.clear()
            self._db.close()
        with self._acked_lock:
            if self._acked_fd is not None:
                os.close(self._acked_fd)
                self._acked_fd = None

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
            if kind == "setup" and self._losses_shown:  # a new match: the tablets were told
                db.execute("DELETE FROM settings WHERE key = ?", (LOSSES,))
            if kind == "setup" and self._notices_kept:
                _keep_notices(db, [n for n in _notices(db) if n["table"] != table_id])
        if kind == "setup":
            self._losses_shown = False
        seq = cursor.lastrowid
        assert seq is not None
        self._acknowledge(seq)  # only once committed: the file never runs ahead of the log
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
        """Move record `seq` out of the log into `set_aside`, with the reason, and warn (the
        journal, and its table's tablets until its next set-up: `set_aside_notices`). Kept,
        not deleted: an operator can look at it (`uno-attack db check` lists them)."""
        log.warning("%s: record %d set aside: %s", self.path, seq, reason)
        at = self._clock()
        with self._transaction() as db:
            row = db.execute("SELECT table_id FROM log WHERE seq = ?", (seq,)).fetchone()
            db.execute(
                "INSERT OR REPLACE INTO set_aside SELECT *, ?, ? FROM log WHERE seq = ?",
                (reason, at, seq),
            )
            db.execute("DELETE FROM log WHERE seq = ?", (seq,))
            if row is not None:
                self._add_notice(db, SetAside(str(row[0]), seq, 1, reason, at))

    def set_aside_match(self, table_id: str, setup_seq: int, reason: str) -> int:
        """Move the match set-up `setup_seq` began out of the log: the set-up (with `reason`)
        and every later record of the table (they belong to it: without it they would be
        replayed as part of the match before). Warn as `set_aside` does; return how many
        records were moved."""
        at = self._clock()
        later = f"its match's set-up (record {setup_seq}) was set aside: {reason}"
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO set_aside SELECT *, CASE WHEN seq = ? THEN ? ELSE ? END,"
                " ? FROM log WHERE table_id = ? AND seq >= ?",
                (setup_seq, reason, later, at, table_id, setup_seq),
            )
            moved = db.execute(
                "DELETE FROM log WHERE table_id = ? AND seq >= ?", (table_id, setup_seq)
            ).rowcount
            self._add_notice(db, SetAside(table_id, setup_seq, moved, reason, at, match=True))
        log.warning("%s: the match set up at record %d set aside (%s): %s",
                    self.path, setup_seq, _records(moved), reason)  # fmt: skip
        return int(moved)

    def set_aside_notices(self, table_id: str) -> list[SetAside]:
        """What was set aside from the table's log since its last set-up, oldest first."""
        with self._lock, faults(self.path):
            found = _notices(self._db)
        self._notices_kept = bool(found)
        return [SetAside.from_dict(n) for n in found if n["table"] == table_id]

    def _add_notice(self, db: sqlite3.Connection, notice: SetAside) -> None:
        _keep_notices(db, [*_notices(db), notice.to_dict()][-KEPT_NOTICES:])
        self._notices_kept = True

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

    # --- records acknowledged, then missing from the file: never lost silently ---

    @property
    def acked_path(self) -> Path:
        """The small file beside the log holding the highest seq ever acknowledged."""
        return self.path.with_name(self.path.name + ACKED)

    def _notice_losses(self) -> tuple[int, int] | None:
        """Compare the log with its `.acked` file; return the (first, last) seqs found missing
        (None: nothing is), after saying so and keeping it in `LOSSES`. Then keep the file
        from here on."""
        log_id = self.log_id
        with self._lock, faults(self.path):
            top = max(
                int(row[0] or 0)
                for row in self._db.execute(
                    "SELECT MAX(seq) FROM sqlite_sequence WHERE name = 'log'"
                    " UNION ALL SELECT MAX(seq) FROM log UNION ALL SELECT MAX(seq) FROM set_aside"
                )
            )
            self._losses_shown = (
                self._db.execute("SELECT 1 FROM settings WHERE key = ?", (LOSSES,)).fetchone()
                is not None
            )
            self._notices_kept = bool(_notices(self._db))
        known = _read_acked(self.acked_path)
        lost = None
        if known is not None and known[0] != log_id:
            log.info("%s: a different event log from the one %s was kept for: it starts afresh",
                     self.path, self.acked_path)  # fmt: skip
        elif known is not None and known[1] > top:
            lost = (top + 1, known[1])
            self._keep_loss(*lost)
            top = known[1]
        self._keep_acked(log_id, top)
        return lost

    def _own_id(self) -> str:
        """This log's id (made, and checkpointed into the main file, on its first start)."""
        with self._lock, faults(self.path):
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (LOG_ID,))
            found = row.fetchone()
        if found is not None and found[0]:
            return str(found[0])
        made = uuid.uuid4().hex
        self.set_setting(LOG_ID, made)
        with self._lock, faults(self.path):
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # the id outlives a lost -wal
        return made

    def _keep_loss(self, first: int, last: int) -> None:
        """Say what is missing (the journal), keep it for the tablets (`LOSSES`, until a
        set-up) and number the next record after the missing ones."""
        loss = {"first": first, "last": last, "at": self._clock()}
        log.warning("%s: %s", self.path, describe_loss(loss))
        with self._transaction() as db:
            row = db.execute("SELECT value FROM settings WHERE key = ?", (LOSSES,)).fetchone()
            kept = _losses(row[0] if row else None)[-(KEPT_LOSSES - 1) :]
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (LOSSES, json.dumps([*kept, loss])),
            )
            bumped = db.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'log'", (last,))
            if bumped.rowcount == 0:
                db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('log', ?)", (last,))
        self._losses_shown = True

    def _keep_acked(self, log_id: str, seq: int) -> None:
        """Open the `.acked` file and write (log id, seq) into it; a file that cannot be kept is
        a warning (losses would go unnoticed), never a refusal to start."""
        try:
            fd = os.open(self.acked_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            log.warning("%s: cannot be kept (%s): a deleted -wal file would go unnoticed",
                        self.acked_path, error)  # fmt: skip
            return
        with self._acked_lock:
            self._acked_fd, self._log_id, self._acked = fd, log_id, seq
            if self._write_acked():
                try:
                    os.ftruncate(fd, len(_acked_line(log_id, seq)))
                    os.fsync(fd)  # once a start: the id is there after a power cut too
                except OSError as error:
                    self._drop_acked(error)

    def _acknowledge(self, seq: int) -> None:
        with self._acked_lock:
            if self._acked_fd is not None and seq > self._acked:
                self._acked = seq
                self._write_acked()

    def _write_acked(self) -> bool:
        """One write in place (no fsync: it only needs to outlive the process, and being
        behind the log after a power cut is harmless). Called under `_acked_lock`."""
        assert self._acked_fd is not None
        try:
            os.pwrite(self._acked_fd, _acked_line(self._log_id, self._acked), 0)
        except OSError as error:
            self._drop_acked(error)
            return False
        return True

    def _drop_acked(self, error: OSError) -> None:
        log.warning("%s: cannot be written (%s): a deleted -wal file would go unnoticed",
                    self.acked_path, error)  # fmt: skip
        if self._acked_fd is not None:
            os.close(self._acked_fd)
        self._acked_fd = None

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


def _acked_line(log_id: str, seq: int) -> bytes:
    return f"{log_id} {seq:20d}\n".encode("ascii")  # one width: a write in place replaces it


def _read_acked(path: Path) -> tuple[str, int] | None:
    """(log id, seq) from an `.acked` file; None when there is none or it cannot be read."""
    try:
        parts = path.read_text(encoding="ascii").split()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        log.warning("%s: unreadable (%s): cannot tell whether records went missing", path, error)
        return None
    if len(parts) != 2 or not parts[1].isdigit():
        log.warning("%s: unreadable: cannot tell whether records went missing", path)
        return None
    return parts[0], int(parts[1])


def _losses(raw: str | None) -> list[dict[str, Any]]:
    try:
        found = json.loads(raw or "[]")
    except ValueError:
        return []
    if not isinstance(found, list):
        return []
    return [
        loss for loss in found
        if isinstance(loss, dict) and all(isinstance(loss.get(k), int) for k in ("first", "last"))
    ]  # fmt: skip


@dataclass(frozen=True)
class SetAside:
    """What was set aside from a table's log, to tell whoever looks at the table: one record,
    or (`match`) a whole match from its set-up (`records` of them), and why."""

    table: str
    seq: int
    records: int
    reason: str
    at: float
    match: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table, "seq": self.seq, "records": self.records,
            "reason": self.reason, "at": self.at, "match": self.match,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SetAside:
        return cls(
            str(data["table"]), int(data["seq"]), int(data["records"]), str(data["reason"]),
            float(data["at"]), bool(data.get("match")),
        )  # fmt: skip

    def describe(self) -> str:
        """In words, for the journal and the API."""
        if self.match:
            return (
                f"the match set up at record {self.seq} could not be replayed and was set "
                f"aside ({_records(self.records)}): {self.reason}"
            )
        return f"record {self.seq} could not be replayed and was set aside: {self.reason}"


def _records(count: int) -> str:
    return f"{count} record{'' if count == 1 else 's'}"


def _notices(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """The `SET_ASIDE` row's notices; a row that cannot be read counts as none."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", (SET_ASIDE,)).fetchone()
    try:
        found = json.loads(row[0]) if row else []
    except ValueError:
        return []
    keys = {"table": str, "seq": int, "records": int, "reason": str, "at": int | float}
    return [
        n for n in (found if isinstance(found, list) else [])
        if isinstance(n, dict) and all(isinstance(n.get(k), t) for k, t in keys.items())
    ]  # fmt: skip


def _keep_notices(db: sqlite3.Connection, notices: list[dict[str, Any]]) -> None:
    if notices:
        db.execute(
            "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
            (SET_ASIDE, json.dumps(notices)),
        )
    else:
        db.execute("DELETE FROM settings WHERE key = ?", (SET_ASIDE,))


def describe_loss(loss: dict[str, Any]) -> str:
    """One loss found at a start, in words: which records, how many, why, what to do."""
    first, last = int(loss["first"]), int(loss["last"])
    count = last - first + 1
    which = (
        f"1 record the table had acknowledged (seq {first}) is"
        if count == 1
        else f"{count} records the table had acknowledged (seq {first} to {last}) are"
    )
    at = loss.get("at")
    when = ""
    if isinstance(at, int | float):
        when = time.strftime(" (found at the start of %Y-%m-%d %H:%M)", time.localtime(at))
    return (
        f"{which} missing from the event log{when}: its -wal file was deleted after the "
        "service was stopped hard, or an older copy of the file was put back. The table went "
        f"back to before them: check the scores. Never delete {FILE_NAME}-wal: it holds the "
        "newest records"
    )


def loss_warnings(raw: str | None) -> list[str]:
    """The losses kept in the `LOSSES` setting (`raw`), in words, oldest first."""
    return [describe_loss(loss) for loss in _losses(raw)]


def recorded_losses(raw: str | None) -> list[tuple[int, int]]:
    """The losses kept in the `LOSSES` setting (`raw`): the first and last seq of each."""
    return [(int(loss["first"]), int(loss["last"])) for loss in _losses(raw)]


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
    try:
        _check_folder(folder, create_dir, path)
        if path.is_dir():
            raise NotADirectory(
                f"{path} is a directory, not the event log: move it aside, or point --data-dir "
                "(data_dir in the config's [service]) at the folder that holds the log"
            )
        if path.is_file() and path.stat().st_size == 0:
            raise StoreEmpty(
                f"{path} is empty (0 bytes): its records are gone. Restore a backup over it, "
                "or delete it to start a new event log"
            )
    except PermissionError:  # a folder on the way may not be searched or read
        raise _denied(folder, path) from None


def _check_folder(folder: Path, create_dir: bool, path: Path) -> None:
    """The data directory: there (or made, if `create_dir`), a directory, and the service's."""
    existing = next((p for p in (folder, *folder.parents) if p.exists()), folder)
    if existing.exists() and not existing.is_dir():
        where = "is a file" if existing == folder else f"cannot be made: {existing} is a file"
        raise NotADirectory(
            f"the data directory {folder} {where}, not a directory: point --data-dir "
            "(data_dir in the config's [service]) at a directory, or move the file aside"
        )
    if not folder.is_dir():
        if not create_dir:
            raise DataDirMissing(
                f"the data directory {folder} does not exist: mount the disk that holds it, "
                f"or create it (mkdir -p {folder}) for a new event log"
            )
        with faults(path):
            folder.mkdir(parents=True, exist_ok=True)
    usable = os.access(folder, os.R_OK | os.W_OK | os.X_OK)
    if not usable and not _read_only_fs(folder) and _owner(folder) != os.geteuid():
        raise _denied(folder, path)  # another user's (its own one is SQLite's to say: `fault`)


def _denied(folder: Path, path: Path) -> DataDirDenied:
    """The data directory (or a folder above it) may not be used: whose it is, what to do."""
    me, owner = os.geteuid(), _owner(folder)
    if owner == me:
        return DataDirDenied(
            f"{path} cannot be read or written: give the service's user, {_user(me)}, write "
            f"access to {folder}, its own folder (chmod u+rwx {folder})"
        )
    whose = " (or a folder above it)" if owner is None else f" belongs to {_user(owner)} and"
    return DataDirDenied(
        f"the data directory {folder}{whose} may not be used by the service's user "
        f"{_user(me)}: give it to that user (sudo chown -R {_name(me)} {folder}), or run the "
        "service as its owner"
    )


def _owner(folder: Path) -> int | None:
    try:
        return folder.stat().st_uid
    except OSError:
        return None


def _name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _user(uid: int) -> str:
    name = _name(uid)
    return f"uid {uid}" if name == str(uid) else f"{name} (uid {uid})"


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
