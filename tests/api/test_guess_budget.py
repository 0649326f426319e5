"""The budget of wrong PINs lives in the table's database: written before a guess is checked,
read again at start, so a restart (or a crash loop) gives nobody fresh guesses; and a right PIN
gives back only what it cost, never the strangers' count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask

from controller.config import Config, ServiceConfig, TableConfig
from controller.table.service import TableService
from tests.waiting import FakeClock
from web_ui import security
from web_ui.app import create_app
from web_ui.errors import TooMany

from .conftest import Tablet

KEY = "guesses:PIN"


def started(service: TableService, tmp_path: Path, clock: FakeClock) -> Flask:
    """The scoreboard app as a (re)start makes it, its guard on the test's clock."""
    config = Config(table=TableConfig(pin="1234"), service=ServiceConfig(data_dir=str(tmp_path)))
    app = create_app(service, config, secret_key="test-secret")
    app.extensions["pin_guard"] = security.Guard("PIN", clock, service)
    return app


def stranger(app: Flask, n: int) -> Tablet:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"127.0.{n // 256}.{n % 256 + 1}"
    return Tablet(client)


def wrong(app: Flask, first: int, count: int) -> list[int]:
    """`count` wrong PINs, each from a new address."""
    return [stranger(app, first + n).unlock("0000").status_code for n in range(count)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_800_000_000.0)


def test_the_budget_survives_a_restart(
    service: TableService, tmp_path: Path, clock: FakeClock
) -> None:
    app = started(service, tmp_path, clock)
    assert wrong(app, 0, security.FREE + 1) == [403] * security.FREE + [429]
    clock.advance(security.FIRST_WAIT)
    assert wrong(app, 10, 2) == [403, 429]  # one more, then 4 s
    refused = stranger(app, 20).unlock("0000")

    again = started(service, tmp_path, clock)  # a restart: only the database is kept
    after = stranger(again, 30).unlock("0000")
    assert after.status_code == 429
    assert after.headers["Retry-After"] == refused.headers["Retry-After"] == "5"
    clock.advance(4)
    assert wrong(again, 40, 2) == [403, 429]  # the count goes on from 7, not from 0


def test_the_count_is_written_before_the_guess_is_checked(
    service: TableService, clock: FakeClock
) -> None:
    guard = security.Guard("PIN", clock, service)
    stored: list[int] = []

    def check() -> bool:  # the guess is being checked: a crash now still counts it
        stored.append(json.loads(service.setting(KEY) or "{}")["strangers"]["failures"])
        return False

    for _ in range(3):
        guard.evaluate(None, check)
    assert stored == [1, 2, 3]
    assert security.Guard("PIN", clock, service).evaluate(None, check) is False
    assert stored[-1] == 4


def test_a_right_pin_from_a_new_tablet_gives_the_strangers_nothing(
    service: TableService, tmp_path: Path, clock: FakeClock
) -> None:
    app = started(service, tmp_path, clock)
    assert wrong(app, 0, security.FREE) == [403] * security.FREE
    family = stranger(app, 100)  # a new tablet: it waits like the attacker...
    assert family.unlock().status_code == 429
    clock.advance(security.FIRST_WAIT)
    assert family.unlock().status_code == 200  # ...then the right PIN lets it in
    refused = stranger(app, 200).unlock("0000")
    assert refused.status_code == 429  # the strangers' wait goes on: no fresh guesses
    clock.advance(int(refused.headers["Retry-After"]))
    assert wrong(app, 300, 2) == [403, 429]


def test_a_right_pin_costs_the_strangers_nothing(
    service: TableService, tmp_path: Path, clock: FakeClock
) -> None:
    """Guests' phones joining with the right PIN spend none of the strangers' guesses; a
    tablet unlocked here before clears its own record, and only its own."""
    app = started(service, tmp_path, clock)
    returning = Tablet(app.test_client())
    assert returning.unlock().status_code == 200
    assert returning.post("/session/lock").status_code == 200
    assert [returning.unlock("0000").status_code for _ in range(3)] == [403] * 3
    assert wrong(app, 0, security.FREE - 1) == [403] * (security.FREE - 1)
    for n in range(3):
        assert stranger(app, 100 + n).unlock().status_code == 200
    assert returning.unlock().status_code == 200
    assert wrong(app, 200, 2) == [403, 429]  # the attacker still has one guess, not more
    assert returning.post("/session/lock").status_code == 200
    codes = [returning.unlock("0000").status_code for _ in range(security.FREE + 1)]
    assert codes == [403] * security.FREE + [429]  # its own record started again


def test_a_clock_that_goes_back_never_lengthens_the_wait(clock: FakeClock) -> None:
    """A Pi without a real-time clock may boot with an older time: the wait starts again
    from it, never longer than one full step of the back-off."""
    guard = security.Guard("PIN", clock)
    for _ in range(security.FREE + 1):
        guard.evaluate(None, lambda: False)
        clock.advance(security.delay(security.FREE))  # each guess the moment it is allowed
    clock.advance(-30 * 24 * 3600.0)
    with pytest.raises(TooMany) as waited:
        guard.evaluate(None, lambda: False)
    assert waited.value.retry_after == int(security.delay(security.FREE + 1)) + 1
    clock.advance(waited.value.retry_after)
    assert guard.evaluate(None, lambda: False) is False


def test_weeks_of_guessing_keep_the_longest_wait(service: TableService, clock: FakeClock) -> None:
    """Kept across restarts, the count may grow past a thousand (11 days at 4 an hour)."""
    stored = {"failures": 2000, "last": clock.now, "not_before": clock.now + 900}
    service.set_setting(KEY, json.dumps({"strangers": stored, "tablets": {}}))
    guard = security.Guard("PIN", clock, service)
    with pytest.raises(TooMany) as waited:
        guard.evaluate(None, lambda: False)
    assert waited.value.retry_after == int(security.LONGEST_WAIT) + 1
    clock.advance(security.LONGEST_WAIT)
    assert guard.evaluate(None, lambda: False) is False
    with pytest.raises(TooMany):
        guard.evaluate(None, lambda: False)


@pytest.mark.parametrize(
    "stored",
    [
        '{"strangers": {"failures": "lots"}}',
        '{"strangers": {"failures": 9, "last": Infinity, "not_before": Infinity}, "tablets": {}}',
        "[]",
    ],
)
def test_an_unreadable_budget_starts_at_the_limit(
    service: TableService, tmp_path: Path, clock: FakeClock, stored: str
) -> None:
    service.set_setting(KEY, stored)
    app = started(service, tmp_path, clock)
    assert wrong(app, 0, 1) == [429]
