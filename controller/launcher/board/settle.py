"""Settling runs the link cut off: the board kept counting, so once it is back it is asked.

When the link to the board is lost mid-run, `SerialLauncher.eject` does not wait for it: it
returns at once what it heard so far (the cards the board reported, and a card it said was
leaving the beam). The board meanwhile finishes or stops the run on its own (3 s of host
silence) and keeps the count of its last 8 runs (in RAM; through a reset, only its last run's,
in its scratch registers). A `Settler` thread asks for every such job
(``STATUS job=<id>``) whenever the link is up, until the board's answer is final, and hands a
`Settlement` (the result returned, and the board's count) to the consumers: the table corrects
its record of the press with it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from controller.launcher.board.views import Requester
from controller.launcher.ejector import EjectResult
from controller.launcher.errors import LauncherError
from controller.launcher.late_cards import Settlement, SettlementConsumer

log = logging.getLogger(__name__)

POLL = 0.25  # seconds between questions about a run the board is still finishing


# judge(job id, result, STATUS fields) -> Settlement, or None while the board is still running it
Judge = Callable[[int, EjectResult, dict[str, str]], Settlement | None]


class Settler:
    """Asks the board about cut-off runs until each is settled. `close()` ends the thread."""

    def __init__(self, link: Requester, judge: Judge) -> None:
        self._link = link
        self._judge = judge
        self._open: dict[int, EjectResult] = {}
        self._consumers: list[SettlementConsumer] = []
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="board-settle", daemon=True)
        self._thread.start()

    def __len__(self) -> int:
        with self._changed:
            return len(self._open)

    def add_consumer(self, consumer: SettlementConsumer) -> None:
        self._consumers.append(consumer)

    def add(self, job: int, result: EjectResult) -> None:
        """Settle `job` (whose `eject()` returned `result`) when the board can say."""
        with self._changed:
            self._open[job] = result
            self._changed.notify_all()

    def wake(self) -> None:
        """The link is back: ask now."""
        with self._changed:
            self._changed.notify_all()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._closed or bool(self._open), POLL)
                if self._closed:
                    return
                jobs = dict(self._open)
            if jobs and self._link.up:
                self._ask(jobs)
            with self._changed:
                if self._open and not self._closed:
                    self._changed.wait(POLL)

    def _ask(self, jobs: dict[int, EjectResult]) -> None:
        for job, result in jobs.items():
            try:
                status = self._link.request("STATUS", f"job={job}")
            except LauncherError as error:
                log.info("cannot settle run %d yet: %s", job, error)
                return
            settled = self._judge(job, result, status)
            if settled is None:
                continue
            with self._changed:
                self._open.pop(job, None)
            log.info("run %d settled: %d card(s), %s", job, settled.ejected, settled.reason)
            for consumer in list(self._consumers):
                try:
                    consumer(settled)
                except Exception:  # one broken consumer must not stop the others
                    log.exception("settlement consumer %r failed", consumer)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
