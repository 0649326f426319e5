"""The endpoint fuzzer over every endpoint, as a stranger, a player and the admin: no answer is
a 5xx, and a refused request changes nothing (see fuzzing.py). `make soak` runs it longer."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from .fuzzing import Probe, Request, endpoints

EXAMPLES = int(os.environ.get("UNO_FUZZ_EXAMPLES", "1000"))


@pytest.fixture(scope="module")
def fuzz_probe() -> Iterator[Probe]:
    probe = Probe()
    yield probe
    probe.close()


def test_fuzzed_requests_never_answer_5xx_nor_change_state_when_refused(fuzz_probe: Probe) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(fuzz_probe.requests())
    def probe(request: Request) -> None:
        fuzz_probe.send(request)

    probe()
    assert fuzz_probe.sent >= EXAMPLES
    assert any(200 <= status < 300 for status in fuzz_probe.statuses)  # it reached deep enough
    assert any(status in (400, 403, 409) for status in fuzz_probe.statuses)


def test_the_fuzzer_knows_every_endpoint(fuzz_probe: Probe) -> None:
    paths = {path for _, path in endpoints(fuzz_probe.app)}
    assert {"/api/setup", "/api/actions", "/api/events", "/api/settings/pin", "/session/lock",
            "/api/launcher/press", "/api/presets"} <= paths  # fmt: skip
