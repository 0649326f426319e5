"""What the hall knows of one table, kept up to date by its follower (`follower.py`).

Every change happens under the hall's one lock (`Changes`) and moves the hall's version on, so
a page waiting for news wakes up. Readers take `view()` under the same lock.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .views import PlayedMatch, launcher_view, match_view

CONNECTING, LIVE, OFFLINE = "connecting", "live", "offline"


class Changes:
    """The hall's lock and a version number that grows with every change."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.version = 0

    def changed(self) -> None:
        """Note a change (the caller holds `lock`) and wake whoever waits for one."""
        self.version += 1
        self.lock.notify_all()


class TableFeed:
    """One followed table: its state, its matches, how far its stream was read, whether the
    hall hears it. `status` is `connecting` during the first attempt to reach the table,
    `live` while its stream is open and read up to date, and `offline` from a lost or refused
    connection until the table is caught up again."""

    def __init__(self, url: str, changes: Changes, clock: Any = time.time) -> None:
        self.url = url
        self._changes = changes
        self._clock = clock
        self.status = CONNECTING
        self.state: dict[str, Any] | None = None
        self.matches: tuple[PlayedMatch, ...] = ()
        self.seq = 0  # the last record of the table's log the hall has read
        self.error: str | None = None
        self.offline_since: float | None = None  # Unix seconds

    @property
    def table_id(self) -> str | None:
        return None if self.state is None else self.state.get("table_id")

    def took_record(self, record: dict[str, Any]) -> None:
        """A logged record from the stream (with the state after it, unless it was resent)."""
        with self._changes.lock:
            self.seq = int(record["seq"])
            if isinstance(record.get("state"), dict):
                self.state = record["state"]
            self._changes.changed()

    def took_state(self, state: dict[str, Any]) -> None:
        """The whole state: a stream's snapshot."""
        with self._changes.lock:
            self.state, self.seq = state, int(state.get("seq", 0))
            self._changes.changed()

    def took_launcher(self, launcher: dict[str, Any]) -> None:
        """The launcher's status changed (the stream's `launcher` event)."""
        with self._changes.lock:
            if self.state is not None:
                self.state = self.state | {"launcher": launcher}
                self._changes.changed()

    def took_matches(self, matches: tuple[PlayedMatch, ...]) -> None:
        """Every match of the table's log (its `GET /api/matches`), replacing those known."""
        with self._changes.lock:
            self.matches = matches
            self._changes.changed()

    def went_live(self) -> None:
        with self._changes.lock:
            self.status, self.error, self.offline_since = LIVE, None, None
            self._changes.changed()

    def lost(self, reason: str) -> None:
        """The table's stream ended, or the table could not be reached or read."""
        with self._changes.lock:
            if self.status != OFFLINE:
                self.offline_since = self._clock()
            self.status, self.error = OFFLINE, reason
            self._changes.changed()

    def view(self) -> dict[str, Any]:
        """The table as `GET /api/hall` lists it (the caller holds the hall's lock)."""
        state = self.state or {}
        return {
            "url": self.url,
            "id": self.table_id,
            "status": self.status,
            "deals": int(state.get("deal_count") or 0),
            "match": match_view(state),
            "launcher": launcher_view(state),
            "seq": self.seq,
            "error": self.error,
            "offline_since": self.offline_since,
        }
