"""Fan-out of a table's messages to every open scoreboard stream.

`publish` never blocks the owner thread: each subscriber has a bounded queue, and a subscriber
that falls that far behind is dropped (its tablet reconnects and resumes from the event log).
"""

from __future__ import annotations

import queue
import threading
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
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            try:
                subscription.messages.put_nowait(message)
            except queue.Full:
                subscription.dropped = True
                self.unsubscribe(subscription)
