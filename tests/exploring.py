"""How far the property tests explore.

`make test` checks a fixed set of examples: hypothesis runs derandomized (the "ci" profile), so
every run draws the same ones, and a test's time depends only on the machine's speed, never on
a lucky or unlucky draw. `make soak` (UNO_ATTACK_SOAK=1) explores: the "soak" profile draws new
examples each run, SOAK_FACTOR times as many. tests/conftest.py loads the profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SOAK = os.environ.get("UNO_ATTACK_SOAK") == "1"
SOAK_FACTOR = 20

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    # data generation is timed on the wall clock: a busy machine must not fail a test
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("soak", deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILE = "soak" if SOAK else "ci"


def examples(count: int) -> int:
    """`count` examples in `make test`, SOAK_FACTOR times as many in `make soak`."""
    return count * SOAK_FACTOR if SOAK else count
