"""The hall board catching up with a table that was away (`controller/hall/`, docs/HALL.md).

- hall.catch_up_ms: a table served by waitress in this process, followed by a hall (its own
  threads, the product's defaults: a new attempt every `RETRY` s) through a TCP relay on
  loopback. The relay is cut (the table leaves the network: every connection closed, new ones
  refused) for `OFFLINE_S` seconds, while the table logs `BEHIND` records (score-only rounds,
  set-ups of new matches, now and then an undo: far more than a reconnecting stream is
  resent, and several finished matches). The value is the time from the relay listening again
  to the hall being exact: the table live, read to its last record, and the standings equal
  to those worked out from the table's own log. `reconnect_ms` is the part until the hall's
  first connection came (it waits up to `RETRY` s for its next attempt), `after_reconnect_ms`
  the rest: the stream's opening and reading the matches whole. The table comes back a random
  part of `RETRY` after `OFFLINE_S`, so the hall's wait for its next attempt is whatever it
  happens to be. `run(offline_s=...)` takes a shorter time away; the line says which it used.
"""

from __future__ import annotations

import logging
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.hall import Hall
from controller.hall.follower import RETRY
from tests.hall.logs import hall_totals, logged_matches, logged_totals
from tests.hall.playing import ServedTable, play

OFFLINE_S = 60.0
BEHIND = 500  # records the table logs while it is away
EXACT_WITHIN_S = 60.0  # the hall not exact by then: the benchmark fails


def catch_up(offline_s: float = OFFLINE_S, behind: int = BEHIND) -> dict[str, Any]:
    logging.getLogger("uno-attack").setLevel(logging.ERROR)  # the default PIN's warnings
    with tempfile.TemporaryDirectory() as folder:
        table = ServedTable(Path(folder))
        hall = Hall()
        try:
            rng = random.Random(23)
            play(table.service, 40, rng)
            hall.follow(table.url)
            _wait(lambda: _exact(hall, table, hall_totals_of(table), table.seq), "followed")

            table.cut()
            cut_at = time.monotonic()
            _wait(lambda: _listed(hall)["status"] == "offline", "shown offline")
            play(table.service, behind, rng)
            expected, seq = hall_totals_of(table), table.seq
            away = offline_s + random.uniform(0, RETRY)  # back at any moment of the hall's wait
            time.sleep(max(0.0, away - (time.monotonic() - cut_at)))

            back = time.perf_counter()
            table.back()
            _wait(lambda: _exact(hall, table, expected, seq), "exact again")
            done = time.perf_counter()
            reconnected = table.relay.accepted_at or done
            return {
                "name": "hall.catch_up_ms",
                "value": round((done - back) * 1000, 1),
                "unit": "ms",
                "offline_s": round(time.monotonic() - cut_at - (done - back), 1),
                "behind": behind,
                "matches": logged_matches(table.log_path),
                "retry_s": RETRY,
                "reconnect_ms": round((reconnected - back) * 1000, 1),
                "after_reconnect_ms": round((done - reconnected) * 1000, 1),
            }
        finally:
            hall.stop()
            table.close()


def hall_totals_of(table: ServedTable) -> dict[str, int]:
    """The standings worked out from the table's own log."""
    return logged_totals([table.log_path])


def _listed(hall: Hall) -> dict[str, Any]:
    table: dict[str, Any] = hall.view()["tables"][0]
    return table


def _exact(hall: Hall, table: ServedTable, expected: dict[str, int], seq: int) -> bool:
    view = hall.view()
    listed = view["tables"][0]
    return (
        listed["status"] == "live"
        and listed["seq"] == seq == table.seq
        and hall_totals(view) == expected
    )


def _wait(condition: Any, what: str) -> None:
    deadline = time.monotonic() + EXACT_WITHIN_S
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the hall was not {what} within {EXACT_WITHIN_S:g} s")
        time.sleep(0.001)


def run(offline_s: float = OFFLINE_S) -> Iterator[dict[str, Any]]:
    yield catch_up(offline_s)
