"""What the hall knows of one table, kept up to date by its follower (`follower.py`).

Every change happens under the hall's one lock (`Changes`) and moves the hall's version on, so
a page waiting for news wakes up. Readers take `view()` under the same lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from .views import PlayedMatch, launcher_view, match_view

CONNECTING, LIVE, OFFLINE = "connecting", "live", "offline"


class ReasonCode(StrEnum):
    """Why a table is offline, as `GET /api/hall` codes it: the board shows each in the
    page's language (`hall_reason_<code>` in `web_ui/hall/words.toml`)."""

    CLOSED = "closed"  # the table ended its event stream (it is stopping)
    REFUSED = "refused"  # nothing listens at the address
    TIMEOUT = "timeout"  # no answer in time
    UNKNOWN_HOST = "unknown_host"  # the host's name is not found
    UNREACHABLE = "unreachable"  # the network does not reach the host
    DROPPED = "dropped"  # the connection was cut
    NOT_A_TABLE = "not_a_table"  # something answers there, but not an uno-attack table
    HTTP_ERROR = "http_error"  # the table answered an HTTP error (`status`)
    UNREADABLE = "unreadable"  # an answer the hall cannot read
    FAILED = "failed"  # any other failure to reach or read the table


@dataclass(frozen=True)
class Reason:
    """Why a table is offline: its code, a few English words for the API's readers and the
    log, and the HTTP status of an `http_error`."""

    code: ReasonCode
    text: str
    status: int | None = None


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

    def __init__(
        self,
        url: str,
        changes: Changes,
        clock: Any = time.time,
        *,
        identified: Callable[[TableFeed], object] = lambda feed: None,
    ) -> None:
        self.url = url
        self._changes = changes
        self._clock = clock
        self._identified = identified
        self.status = CONNECTING
        self.state: dict[str, Any] | None = None
        self.matches: tuple[PlayedMatch, ...] = ()
        self.seq = 0  # the last record of the table's log the hall has read
        self.reason: Reason | None = None  # why it is offline
        self.offline_since: float | None = None  # Unix seconds
        self.also: list[str] = []  # the table's other addresses, not followed

    @property
    def table_id(self) -> str | None:
        return None if self.state is None else self.state.get("table_id")

    @property
    def identity(self) -> tuple[str, str | None] | None:
        """What tells this table from every other, once it answered: its service's event log
        (`log_id`, the same at every address) and its table id. A service that names no log
        (an older version) is told by its host and port."""
        if self.state is None:
            return None
        service = self.state.get("log_id") or urlsplit(self.url).netloc
        return str(service), self.table_id

    def took_record(self, record: dict[str, Any]) -> None:
        """A logged record from the stream (with the state after it, unless it was resent)."""
        with self._changes.lock:
            self.seq = int(record["seq"])
            if isinstance(record.get("state"), dict):
                self.state = record["state"]
            self._changes.changed()

    def took_state(self, state: dict[str, Any]) -> None:
        """The whole state: a stream's snapshot. It says which table this is (`identity`):
        `identified` is told, under the lock (the hall stops following one of two addresses
        of the same table)."""
        with self._changes.lock:
            self.state, self.seq = state, int(state.get("seq", 0))
            self._identified(self)
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
            self.status, self.reason, self.offline_since = LIVE, None, None
            self._changes.changed()

    def lost(self, reason: Reason) -> None:
        """The table's stream ended, or the table could not be reached or read."""
        with self._changes.lock:
            if self.status != OFFLINE:
                self.offline_since = self._clock()
            self.status, self.reason = OFFLINE, reason
            self._changes.changed()

    def view(self) -> dict[str, Any]:
        """The table as `GET /api/hall` lists it (the caller holds the hall's lock)."""
        state, reason = self.state or {}, self.reason
        return {
            "url": self.url,
            "also": list(self.also),
            "id": self.table_id,
            "status": self.status,
            "deals": int(state.get("deal_count") or 0),
            "match": match_view(state),
            "launcher": launcher_view(state),
            "seq": self.seq,
            "error": None if reason is None else reason.text,
            "error_code": None if reason is None else reason.code.value,
            "error_status": None if reason is None else reason.status,
            "offline_since": self.offline_since,
        }
