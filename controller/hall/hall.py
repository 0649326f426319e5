"""The hall: several tables followed at once (a `Follower` thread each), and what the wall
board shows of them (`view()`, the answer of `GET /api/hall`).

A table is followed at one address. Another address found to reach it (its state names the
same service event log and table: `http://127.0.0.1:8080/` and `http://localhost:8080/`, a
host's mDNS name and its IP address, a service's `/` and `/t/main/`) is kept among its `also`
addresses and not followed, so the table is listed once and its matches count once. The table
stays followed where it was unless it is offline there: then it is followed where it answers
(a Pi given a new IP address and found again on the network).
"""

from __future__ import annotations

import logging
from typing import Any

from .feed import OFFLINE, Changes, TableFeed
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
        self._others: dict[str, TableFeed] = {}  # a followed table's other addresses
        self._left: list[Follower] = []  # followers of another address of a followed table
        self._view: dict[str, Any] | None = None
        self._stopped = False

    def follow(self, url: str) -> TableFeed:
        """Follow the table at `url` (ValueError if it is no table's address); a table
        followed already, at this address or another it was found to have, is not followed
        twice."""
        url = table_url(url)
        with self._changes.lock:
            if self._stopped:
                raise RuntimeError("the hall is stopped")
            if url in self._others:
                return self._others[url]
            follower = self._followers.get(url)
            if follower is None:
                feed = TableFeed(url, self._changes, identified=self._identified)
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

    def _identified(self, feed: TableFeed) -> None:
        """`feed` heard which table it reaches (under the lock). When another feed follows
        that table already, one of the two is let go and its addresses become the other's:
        `feed`, unless the other is offline (the table answers here, not there)."""
        same = next(
            (
                follower.feed
                for follower in self._followers.values()
                if follower.feed is not feed and follower.feed.identity == feed.identity
            ),
            None,
        )
        following = self._followers.get(feed.url)
        if same is None or following is None or following.feed is not feed:
            return  # its table's only feed, or a feed let go already
        if same.status == OFFLINE:
            self._let_go(same, kept=feed)
        else:
            self._let_go(feed, kept=same)

    def _let_go(self, feed: TableFeed, kept: TableFeed) -> None:
        """Stop following `feed`, another address of `kept`'s table (under the lock)."""
        follower = self._followers.pop(feed.url)
        follower.leave()
        self._left.append(follower)
        for url in (feed.url, *feed.also):
            kept.also.append(url)
            self._others[url] = kept
        log.info("hall: %s is the table at %s: followed there", feed.url, kept.url)

    def _build(self) -> dict[str, Any]:
        feeds = [follower.feed for follower in self._followers.values()]
        return {
            "version": self._changes.version,
            "tables": [feed.view() for feed in feeds],
            "standings": standings((feed.matches for feed in feeds), self.since),
        }

    def stop(self) -> None:
        with self._changes.lock:
            self._stopped = True
            followers = [*self._followers.values(), *self._left]
        for follower in followers:
            follower.stop()
