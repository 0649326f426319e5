"""Waiting in tests: for a condition, never for a span of wall-clock time; and a clock the
test turns by hand where the product's timing itself is under test."""

from __future__ import annotations

import time
from collections.abc import Callable

WAIT = 60.0  # seconds: only a safety net on a busy machine, never a latency assertion


def wait_until(condition: Callable[[], object], what: str = "", timeout: float = WAIT) -> bool:
    """Poll `condition` until it holds (and return True); fail the test after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            raise AssertionError(f"never happened within {timeout} s: {what or condition}")
        time.sleep(0.005)
    return True


class FakeClock:
    """A clock the test moves by hand, so timing is exact however busy the machine."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
