"""Shared pieces of the reliability suite. `make soak` sets UNO_ATTACK_SOAK=1: the same tests
run longer and each prints one JSON line with what it measured."""

from __future__ import annotations

import json
import os
from typing import Any

from tests.api.conftest import app  # noqa: F401 - the scoreboard app on a real table

SOAK = os.environ.get("UNO_ATTACK_SOAK") == "1"


def scale(short: int, long: int) -> int:
    """How many rounds a test runs: `short` in `make test`, `long` in `make soak`."""
    return long if SOAK else short


def report(name: str, **figures: Any) -> None:
    """One JSON line for the soak run (silent in `make test`)."""
    if SOAK:  # on a line of its own, after pytest's progress dots
        print("\n" + json.dumps({"name": name, **figures}), flush=True)
