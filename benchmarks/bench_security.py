"""The table service against an attacker on the home network (issue: nobody without the PIN can
stall it, guess in or break it).

- service.pin_guesses_per_hour: wrong PINs the server evaluates in the first hour for an
  attacker with as many addresses as it likes (a new 127.x.y.z for every guess, each sent the
  moment the back-off allows it; the guard's clock is simulated, the requests are real HTTP to
  a real waitress server). Also the steady rate after a day, and the days a 4-digit PIN takes
  on average.
- service.pin_refusals_per_s: how fast the server turns such guesses away (429) meanwhile.
- service.fuzz_5xx: answers >= 500 over 10,000 fuzzed requests to every endpoint (hypothesis,
  tests/reliability/fuzzing.py), with the refused requests that changed anything beside it.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from controller.config import Config, ServiceConfig, TableConfig
from controller.store import Store
from controller.table.service import TableService
from tests.reliability.fuzzing import Probe, endpoints
from tests.reliability.loopback import Client, address
from tests.serving import serve
from tests.waiting import FakeClock
from web_ui import security
from web_ui.app import create_app

PIN = "8642"
FUZZ_REQUESTS = 10_000


def _guessing(port: int, clock: FakeClock, hours: float, first: int) -> tuple[int, int]:
    """The best attacker for `hours` of simulated time: (guesses evaluated, addresses used)."""
    evaluated, n, end = 0, first, clock.now + hours * 3600
    while clock.now < end:
        n += 1
        status, _, headers = Client(port, address(n)).post("/api/session/pin", {"pin": "0000"})
        if status == 429:
            clock.advance(int(headers["Retry-After"]))
        else:
            assert status == 403, status
            evaluated += 1
    return evaluated, n - first


def pin_lines() -> Iterator[dict[str, Any]]:
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # a burst queues: as meant
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "uno.db") as store:
        table = TableService(store).start()
        config = Config(table=TableConfig(pin=PIN), service=ServiceConfig(data_dir=folder))
        app = create_app(table, config, secret_key="bench")
        clock = FakeClock(0.0)
        app.extensions["pin_guard"] = security.Guard("PIN", clock)
        url, stop = serve(app, threads=8)
        port = int(url.rsplit(":", 1)[1])
        try:
            first_hour, used = _guessing(port, clock, 1, 0)
            rest_of_day, during = _guessing(port, clock, 23, used)  # the attack goes on...
            steady, more = _guessing(port, clock, 1, used + during)  # ...at its steady rate
            per_day = steady * 24
            yield {
                "name": "service.pin_guesses_per_hour", "value": first_hour, "unit": "guesses",
                "first_day": first_hour + rest_of_day + steady, "steady_per_hour": steady,
                "addresses": used + during + more,
                "days_for_half_of_10000": round(5000 / per_day, 1),
                "target": "a 4-digit PIN takes longer than a week",
            }  # fmt: skip
            yield _refusal_rate(port)
        finally:
            stop()
            table.stop()


def _refusal_rate(port: int, requests: int = 2000) -> dict[str, Any]:
    """Guesses from 2,000 addresses while the back-off is on: all refused, how fast."""

    def one(n: int) -> int:
        return Client(port, address(100_000 + n)).unlock("0000")

    started = time.perf_counter()
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(one, range(requests)))
    took = time.perf_counter() - started
    return {
        "name": "service.pin_refusals_per_s", "value": round(requests / took), "unit": "req/s",
        "refused": statuses.count(429), "evaluated": statuses.count(403),
        "note": "each is a new connection plus a GET for the CSRF token",
    }  # fmt: skip


def fuzz_line() -> dict[str, Any]:
    """Every endpoint gets its share, then requests go anywhere with the game's legal moves."""
    probe = Probe(strict=False)
    started = time.perf_counter()
    targets = endpoints(probe.app)
    try:
        for target in targets:
            probe.fuzz(FUZZ_REQUESTS // 2 // len(targets), target)
        probe.fuzz(FUZZ_REQUESTS - probe.sent)
    finally:
        probe.close()
    errors = sum(count for status, count in probe.statuses.items() if status >= 500)
    return {
        "name": "service.fuzz_5xx", "value": errors, "unit": "answers", "requests": probe.sent,
        "endpoints": len(targets),
        "refused_but_changed": sum("changed" in f for f in probe.findings),
        "statuses": {str(k): v for k, v in sorted(probe.statuses.items())},
        "seconds": round(time.perf_counter() - started, 1),
        "first_findings": probe.findings[:3],
    }  # fmt: skip


def run() -> Iterator[dict[str, Any]]:
    yield from pin_lines()
    yield fuzz_line()
