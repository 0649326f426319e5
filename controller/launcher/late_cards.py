"""Cards the beam saw after a run returned: real cards, charged late by a logged correction.

A run stops the motor when its count is reached, but the wheel moves on a little (it coasts,
or the decision came late on a busy host), and an edge may reach Python long after the card
crossed the beam. Until the run's forward motion ended (the retract reversed the wheel, or the
wheel coasted to a stop) every card that crossed the beam came out, and it belongs to that run
whenever its edges arrive. The ejector counts those it hears before the run returns; a
`RunTail` keeps counting the run's edges that arrive afterwards, and each change of its count
becomes a `Settlement` (reason ``late``) for the run's consumers (the table corrects the
presser's hand by it, with the audited count correction a person would use:
controller/table/launcher_side.py).
"""

from __future__ import annotations

import logging
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
