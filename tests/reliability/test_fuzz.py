"""The endpoint fuzzer over every endpoint, as a stranger, a player and the admin: no answer is
a 5xx, and a refused request changes nothing (see fuzzing.py). `UNO_FUZZ_EXAMPLES` sets how
many requests each endpoint gets (the soak runs more)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from flask import Flask

from .fuzzing import Probe, endpoints

EXAMPLES = int(os.environ.get("UNO_FUZZ_EXAMPLES", "40"))


def every_endpoint() -> list[tuple[str, str]]:
    probe = Probe()
    try:
        app: Flask = probe.app
        return endpoints(app)
    finally:
        probe.close()


@pytest.fixture(scope="module")
def fuzz_probe() -> Iterator[Probe]:
    probe = Probe()
    yield probe
    probe.close()


@pytest.mark.parametrize(("method", "path"), every_endpoint())
def test_fuzzed_requests_never_answer_5xx_nor_change_state_when_refused(
    fuzz_probe: Probe, method: str, path: str
) -> None:
    sent = fuzz_probe.sent
    fuzz_probe.fuzz(EXAMPLES, (method, path))
    assert fuzz_probe.sent - sent >= EXAMPLES


def test_the_fuzzer_reaches_past_the_first_refusal(fuzz_probe: Probe) -> None:
    """Anywhere, with the table's legal moves: play goes on (answers of every kind)."""
    fuzz_probe.fuzz(10 * EXAMPLES)
    statuses = fuzz_probe.statuses
    assert all(statuses.get(code) for code in (200, 400, 403, 409)), statuses
    assert fuzz_probe.table.snapshot()["seq"] > 3  # taps were applied, not only refused


def test_the_fuzzer_knows_every_endpoint() -> None:
    paths = {path for _, path in every_endpoint()}
    assert {"/api/setup", "/api/actions", "/api/events", "/api/settings/pin", "/session/lock",
            "/api/launcher/press", "/api/presets"} <= paths  # fmt: skip
