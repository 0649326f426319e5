"""Helpers shared by the launcher tests (fixtures are in conftest.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory

from controller.launcher import PinProfile, load_pin_profile
from tests.waiting import WAIT

SCALE = 0.25  # simulated cards run four times faster than real ones in these tests


def fast_profile(name: str = "hbridge", scale: float = SCALE, **ejector: Any) -> PinProfile:
    """A shipped profile with its ejector times scaled to the fast simulator (`scale`), but the
    jam window and timeouts kept wide so a busy machine cannot fake a jam."""
    profile = load_pin_profile(name)
    tuning = profile.ejector.scaled(scale)
    wide = {
        "max_pulse_ms": 1000.0,
        "first_card_timeout_ms": 1500.0,
        "card_gap_timeout_ms": 1500.0,
        "per_card_ms": 500.0,
        "max_run_ms": 10_000.0,
    }
    return profile.with_ejector(**{**tuning.__dict__, **wide, **ejector})


class Recorder:
    """Collects items from a consumer callback and lets a test wait for a condition."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._changed = threading.Condition()

    def __call__(self, *item: Any) -> None:
        with self._changed:
            self.items.append(item[0] if len(item) == 1 else item)
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[list[Any]], bool], timeout: float = WAIT) -> None:
        with self._changed:
            if not self._changed.wait_for(lambda: predicate(self.items), timeout=timeout):
                raise AssertionError(f"condition not met within {timeout} s; got {self.items}")


def states(pin: Any) -> list[float]:
    """A mock pin's state history as numbers."""
    return [float(s.state) for s in pin.states]


def pin(factory: MockFactory, gpio: int) -> Any:
    return factory.pin(f"GPIO{gpio}")
