"""Fan-out of a table's messages to every open scoreboard stream.

`publish` never blocks the owner thread: each subscriber has a bounded queue, and a subscriber
that falls that far behind is dropped (its tablet reconnects and resumes from the event log).
A listener (`listen`) is called with each message instead: the web server's stream loop hands
it on to its own thread at once.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BACKLOG = 256


@dataclass(frozen=True)
class Message:
    """One thing to tell the tablets. `seq` is set for logged records (the SSE id)."""

    event: str
    data: dict[str, Any]
    seq: int | None = None


@dataclass
class Subscription:
    messages: queue.Queue[Message | None] = field(
        default_factory=lambda: queue.Queue(maxsize=BACKLOG)
    )
    dropped: bool = False

    def get(self, timeout: float) -> Message | None:
        """The next message, or None after `timeout` seconds (or once dropped)."""
        if self.dropped:
            return None
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            return None


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Subscription] = []
        self._listeners: list[Callable[[Message], None]] = []

    def listen(self, listener: Callable[[Message], None]) -> None:
        """Call `listener(message)` on every publish, on the publishing thread: be quick."""
        with self._lock:
            self._listeners.append(listener)

    def unlisten(self, listener: Callable[[Message], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def subscribe(self) -> Subscription:
        subscription = Subscription()
        with self._lock:
            self._subscribers.append(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    def publish(self, message: Message) -> None:
        with self._lock:
            subscribers, listeners = list(self._subscribers), list(self._listeners)
        for listener in listeners:
            listener(message)
        for subscription in subscribers:
            try:
                subscription.messages.put_nowait(message)
            except queue.Full:
                subscription.dropped = True
                self.unsubscribe(subscription)
