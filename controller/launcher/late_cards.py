"""Cards the beam saw after a run returned: real cards, charged late by a logged correction.

A run stops the motor when its count is reached, but the wheel moves on a little (it coasts,
or the decision came late on a busy host), and an edge may reach Python long after the card
crossed the beam. Until the run's forward motion ended (the retract reversed the wheel, or the
wheel coasted to a stop) every card that crossed the beam came out, and it belongs to that run
whenever its edges arrive. The ejector counts those it hears before the run returns; a
`RunTail` keeps counting the run's edges that arrive afterwards, and each change of its count
becomes a `Settlement` (reason ``late``) for the run's consumers (the table corrects the
presser's hand by it, with the audited count correction a person would use:
controller/table/launcher_side.py). `RunTails` keeps the latest finished runs' tails, hands
each late edge to the run it belongs to, and reports a burst of them once, on a ``late-count``
timer thread.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.launcher.pulses import PulseCounter

if TYPE_CHECKING:
    from controller.launcher.ejector import EjectResult

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settlement:
    """A run's count, settled after the run returned. `result` is what `eject()` returned (the
    very object); `ejected` the cards that really came out; `reason` why it settled: ``late``
    for a card this Pi heard late (a `RunTail`), else a launcher board's own reason for a run
    its link cut off (``count``, ``jam``, ``empty``, ``timeout``, ``stopped``, ``reset`` after
    a reset, ``unknown`` if it no longer knows the run, having lost power or kept only a later
    run through a reset: then `ejected` is what it reported before). One consumer takes both."""

    result: EjectResult
    ejected: int
    reason: str
    detail: str

    @property
    def difference(self) -> int:
        """Cards more (or fewer) than the result said."""
        return self.ejected - self.result.ejected


SettlementConsumer = Callable[[Settlement], None]


class RunTail:
    """A finished run's counter, judging the run's edges that arrive late: those stamped from
    its start until its forward motion ended (`end`). One still blocked at `end` is no card.
    Its count changes are reported once they have settled (`report`), so a burst of late edges
    makes one correction."""

    def __init__(self, result: EjectResult, counter: PulseCounter, end: float) -> None:
        self.result = result
        self.counter = counter
        self.end = end
        self.reported = counter.count

    def covers(self, t: float) -> bool:
        return self.counter.start <= t <= self.end

    def edge(self, t: float, blocked: bool) -> bool:
        """A late edge of this run; True when the count moved."""
        before = self.counter.count
        self.counter.edge(t, blocked)
        self.counter.finish_at(self.end)
        return self.counter.count != before

    def report(self) -> Settlement | None:
        """The correction the late edges since the last report make, if any."""
        if self.counter.count == self.reported:
            return None
        self.reported = self.counter.count
        log.warning(
            "eject %d: a card crossed the beam as the run ended and was heard late: %d came "
            "out, not %d",
            self.result.requested,
            self.counter.count,
            self.result.ejected,
        )
        return Settlement(
            self.result,
            self.counter.count,
            "late",
            "a card crossed the beam as the run ended; its edges came after the result",
        )


class RunTails:
    """The finished runs still listening for late edges (the latest `KEEP`), and the settlement
    consumers who hear what they count. An edge's count change is reported once the run's edges
    have stopped coming for `settle_s()` seconds (a ``late-count`` timer), so a burst of them
    makes one correction."""

    KEEP = 4

    def __init__(self, settle_s: Callable[[], float]) -> None:
        self._settle_s = settle_s
        self._lock = threading.Lock()  # the tails' counters: the edge's thread, the timers'
        self._tails: collections.deque[RunTail] = collections.deque(maxlen=self.KEEP)
        self._consumers: list[SettlementConsumer] = []
        self._timers: dict[int, threading.Timer] = {}  # a tail's report, waiting for quiet

    def add_consumer(self, consumer: SettlementConsumer) -> None:
        """Receive a `Settlement` whenever a finished run's count changes (a card heard late),
        on a ``late-count`` timer thread: be quick."""
        self._consumers.append(consumer)

    def add(self, tail: RunTail) -> None:
        """A run finished: its tail listens from now on (the oldest one stops)."""
        with self._lock:
            self._tails.append(tail)

    def edge(self, t: float, blocked: bool) -> None:
        """An edge no run is collecting (the edge's thread): to the finished run whose time it
        is in, if any (it only advances that tail's counter and sets a timer to report it)."""
        with self._lock:
            for tail in self._tails:
                if tail.covers(t):
                    if tail.edge(t, blocked):
                        self._report_later(tail)
                    return

    def _report_later(self, tail: RunTail) -> None:
        """Report `tail`'s count once its late edges have stopped coming for a while (the lock
        held)."""
        timer = self._timers.pop(id(tail), None)
        if timer is not None:
            timer.cancel()
        timer = threading.Timer(self._settle_s(), self._report, args=(tail,))
        timer.name, timer.daemon = "late-count", True
        self._timers[id(tail)] = timer
        timer.start()

    def _report(self, tail: RunTail) -> None:
        with self._lock:
            self._timers.pop(id(tail), None)
            late = tail.report()
        if late is None:
            return
        for consumer in list(self._consumers):
            try:
                consumer(late)
            except Exception:  # one broken consumer must not stop the others
                log.exception("late count consumer %r failed", consumer)
