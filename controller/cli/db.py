"""`uno-attack db check | backup`: the operator's tools for the event log.

`check` opens the file read-only and reports SQLite's integrity check, the records whose JSON
cannot be read and the ones set aside earlier; `backup` writes a consistent copy (safe while
the service runs) and checks the copy. Both name the file, and end with the same exit status
as `uno-attack run` for the same fault.

The copy holds the PIN's hash: it is written readable by its owner only (0600), to a temporary
file beside the target that takes the target's name only once it is whole and checked; a copy
that fails (a full disk) leaves nothing behind.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from controller.cli import UsageError
from controller.config import load_config
from controller.sections import ConfigError
from controller.store import (
    FILE_NAME,
    DataDirMissing,
    StoreDamaged,
    StoreEmpty,
    StoreError,
    fault,
    faults,
)

UNREADABLE = (
    "SELECT seq FROM log WHERE NOT (json_valid(command) AND json_valid(events)"
    " AND json_type(command) = 'object' AND json_type(events) = 'array')"
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "db", help="check or back up the event log", description=__doc__.split("\n\n")[0]
    )
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="check the event log's integrity (read-only)")
    backup = actions.add_parser("backup", help="write a consistent copy of the event log")
    backup.add_argument("--to", help="the copy's path (default: beside the log, dated)")
    for sub in (check, backup):
        sub.add_argument("--config", help="TOML configuration file (for its data_dir)")
        sub.add_argument("--data-dir", help="where the event log lives (default from the config)")
    check.set_defaults(handler=run_check)
    backup.set_defaults(handler=run_backup)


def log_path(args: argparse.Namespace) -> Path:
    try:
        config = load_config(args.config)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    return Path(args.data_dir or config.service.data_dir) / FILE_NAME


def open_read_only(path: Path) -> sqlite3.Connection:
    if not path.parent.is_dir():
        raise DataDirMissing(f"the data directory {path.parent} does not exist")
    if not path.is_file():
        raise StoreError(f"{path} does not exist: is --data-dir right?")
    if path.stat().st_size == 0:
        raise StoreEmpty(f"{path} is empty (0 bytes): restore a backup over it")
    with faults(path):
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def problems(path: Path) -> tuple[int, list[str]]:
    """How many records the log holds, and what is wrong with it ([] when nothing)."""
    db = open_read_only(path)
    try:
        with faults(path):
            found = [str(row[0]) for row in db.execute("PRAGMA integrity_check")]
            found = [] if found == ["ok"] else found
            count = int(db.execute("SELECT COUNT(*) FROM log").fetchone()[0])
            found += [f"record {seq}: unreadable JSON" for (seq,) in db.execute(UNREADABLE)]
    finally:
        db.close()
    return count, found


def set_aside(path: Path) -> list[str]:
    """The records set aside so far (kept in the file's `set_aside` table), one line each."""
    db = open_read_only(path)
    try:
        with faults(path):
            if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'set_aside'").fetchone():
                return []
            rows = db.execute("SELECT seq, reason FROM set_aside ORDER BY seq").fetchall()
    finally:
        db.close()
    return [f"record {seq} was set aside: {why}" for seq, why in rows]


def run_check(args: argparse.Namespace) -> int:
    path = log_path(args)
    try:
        count, found = problems(path)
        notes = set_aside(path)
    except StoreError as error:
        print(f"uno-attack db check: error: {error}", file=sys.stderr)
        return error.status
    for line in notes + found:
        print(f"{path}: {line}")
    if found:
        print(f"{path}: {len(found)} problem(s) in {count} records", file=sys.stderr)
        return StoreDamaged.status
    print(f"{path}: ok, {count} records")
    return 0


def run_backup(args: argparse.Namespace) -> int:
    path = log_path(args)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = Path(args.to) if args.to else path.with_name(f"{path.stem}-{stamp}.db.bak")
    try:
        source = open_read_only(path)
        try:
            count, found = copy_to(source, target)
        finally:
            source.close()
    except StoreError as error:
        print(f"uno-attack db backup: error: {error}; no copy was written", file=sys.stderr)
        return error.status
    if found:
        print(f"{target}: the copy is not sound: {found[0]}", file=sys.stderr)
        return StoreDamaged.status
    print(f"{target}: {count} records copied from {path}")
    return 0


def copy_to(source: sqlite3.Connection, target: Path) -> tuple[int, list[str]]:
    """Copy the log into `target` (0600) through a temporary file beside it, renamed only once
    the copy is whole, synced and checked; on any failure the temporary file is removed and
    `target` left as it was. Returns what `problems` found in the copy."""
    if not target.parent.is_dir():
        raise StoreError(f"cannot write {target}: the folder {target.parent} does not exist")
    with faults(target):
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(handle)  # mkstemp made it 0600, whatever the umask
    partial = Path(name)
    try:
        with faults(target):
            copy = sqlite3.connect(partial)
            try:
                with copy:
                    source.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file: no -wal or -shm beside it
            finally:
                copy.close()
            _sync(partial)
        count, found = problems(partial)
        if not found:
            with faults(target):
                os.replace(partial, target)
                _sync(target.parent)
    except StoreError:
        _remove(partial)
        raise
    except BaseException as error:
        _remove(partial)
        if isinstance(error, sqlite3.Error | OSError):
            raise fault(error, target) from error
        raise
    if found:
        _remove(partial)
    return count, found


def _sync(path: Path) -> None:
    """Flush a file, or a folder's entries, to the disk."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _remove(partial: Path) -> None:
    """Remove a partial copy and whatever SQLite left beside it."""
    for name in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{partial}{name}").unlink()
