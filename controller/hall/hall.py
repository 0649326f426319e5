"""The hall: several tables followed at once (a `Follower` thread each), and what the wall
board shows of them (`view()`, the answer of `GET /api/hall`)."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from .feed import Changes, TableFeed
from .follower import RETRY, STALE, Follower
from .urls import table_url
from .views import standings

log = logging.getLogger(__name__)

LONGEST_WAIT = 30.0  # seconds a reader may wait for news (`view(after=..., wait=...)`)


class Hall:
    """The followed tables, in the order they were added. `follow()` adds one (and starts
    following it), `view()` reads, `stop()` ends every follower."""

    def __init__(
        self, *, since: float | None = None, retry: float = RETRY, stale: float = STALE
    ) -> None:
        self.since = since  # Unix seconds: only matches started since count in the standings
        self.retry, self.stale = retry, stale
        self._changes = Changes()
        self._followers: dict[str, Follower] = {}
        self._view: dict[str, Any] | None = None
        self._stopped = False

    def follow(self, url: str) -> TableFeed:
        """Follow the table at `url` (ValueError if it is no table's address); a table
        followed already is not followed twice."""
        url = table_url(url)
        with self._changes.lock:
            if self._stopped:
                raise RuntimeError("the hall is stopped")
            follower = self._followers.get(url)
            if follower is None:
                feed = TableFeed(url, self._changes)
                follower = Follower(feed, retry=self.retry, stale=self.stale)
                self._followers[url] = follower
                self._changes.changed()
                log.info("hall: following %s", url)
                follower.start()
            return follower.feed

    @property
    def feeds(self) -> list[TableFeed]:
        with self._changes.lock:
            return [follower.feed for follower in self._followers.values()]

    def view(self, after: int | None = None, wait: float = 0.0) -> dict[str, Any]:
        """`{version, tables, standings}`; with `after` (a version a reader has) and `wait`,
        first wait up to `wait` seconds (at most LONGEST_WAIT) for a newer version."""
        changes = self._changes
        with changes.lock:
            if after is not None and wait > 0:
                changes.lock.wait_for(lambda: changes.version != after, min(wait, LONGEST_WAIT))
            if self._view is None or self._view["version"] != changes.version:
                self._view = self._build()
            return self._view

    def _build(self) -> dict[str, Any]:
        feeds = [follower.feed for follower in self._followers.values()]
        return {
            "version": self._changes.version,
            "tables": [feed.view() for feed in feeds],
            "standings": standings(
                (feed.matches for feed in _one_feed_per_table(feeds)), self.since
            ),
        }

    def stop(self) -> None:
        with self._changes.lock:
            self._stopped = True
            followers = list(self._followers.values())
        for follower in followers:
            follower.stop()


def _one_feed_per_table(feeds: list[TableFeed]) -> list[TableFeed]:
    """The feeds to count, each table once: two addresses of one service that reach the same
    table (its first table is at `/` and at `/t/<id>/`) count once, the first one followed."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for feed in feeds:
        key = (urlsplit(feed.url).netloc, feed.table_id or feed.url)
        if key not in seen:
            seen.add(key)
            kept.append(feed)
    return kept
