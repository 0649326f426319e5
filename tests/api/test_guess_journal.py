"""The strangers' guesses reach the journal (Python logging) at most once a minute, with their
count and addresses, and the open scoreboards are told (a `notice` the unlocked tablets
show). The report's clock and its end-of-minute timer are the test's."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import pytest
from flask import Flask

from controller.table.service import TableService
from tests.waiting import FakeClock
from web_ui import security

from .conftest import Tablet


class Timers:
    """The report's `later`: the test fires what is due when it turns the clock."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.due: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, seconds: float, function: Callable[[], None]) -> None:
        self.due.append((self.clock.now + seconds, function))

    def fire(self) -> None:
        ready = [f for when, f in self.due if when <= self.clock.now]
        self.due = [(when, f) for when, f in self.due if when > self.clock.now]
        for function in ready:
            function()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_800_000_000.0)


@pytest.fixture
def timers(clock: FakeClock) -> Timers:
    return Timers(clock)


@pytest.fixture
def reported(app: Flask, service: TableService, clock: FakeClock, timers: Timers) -> Flask:
    app.extensions["pin_guard"] = security.Guard("PIN", clock)
    app.extensions["password_guard"] = security.Guard("password", clock)
    report = security.GuessReport(clock, security.telling(service), timers)
    app.extensions["guess_report"] = report
    return app


def guess(app: Flask, address: str, body: dict[str, str] | None = None) -> int:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    path = "/api/session/admin" if body else "/api/session/pin"
    return int(Tablet(client).post(path, body or {"pin": "0000"}).status_code)


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The journal lines of this test's report, which writes them on the test's thread (its
    timers fire there): an earlier test's report may still write one on a timer thread of its
    own, a minute after its last guess."""
    here = threading.get_ident()
    return [
        r.getMessage()
        for r in caplog.records
        if r.thread == here and r.getMessage().startswith("guessing")
    ]


def test_guesses_are_logged_at_most_once_a_minute(
    reported: Flask, clock: FakeClock, timers: Timers, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "uno-attack")
    assert guess(reported, "192.168.1.66") == 403
    first = lines(caplog)
    assert len(first) == 1  # the first guess after a quiet spell: at once
    assert "1 guess" in first[0] and "192.168.1.66" in first[0]

    codes = []
    for n in range(29):  # two a second for 29 s, then a wait, from three addresses
        clock.advance(1)
        codes.append(guess(reported, f"192.168.1.{66 + n % 3}"))
        timers.fire()
    wrong, refused = codes.count(403), codes.count(429)
    assert wrong < 29 and refused == 29 - wrong  # the budget ran out on the way
    assert len(lines(caplog)) == 1  # nothing more within the minute
    assert len(timers.due) == 1  # one line waits for the minute's end

    clock.advance(30)
    timers.fire()
    assert len(lines(caplog)) == 1  # 59 s after the first line
    clock.advance(1)
    timers.fire()
    second = lines(caplog)[1:]
    assert len(second) == 1
    assert "29 guesses in the last 60 s" in second[0]
    assert f"{wrong} PIN wrong, {refused} refused as too many" in second[0]
    assert all(f"192.168.1.{n} (" in second[0] for n in (66, 67, 68))

    clock.advance(3600)
    timers.fire()
    assert len(lines(caplog)) == 2  # the guessing stopped: nothing more to say


def test_a_day_of_guessing_makes_a_line_a_minute(
    reported: Flask, clock: FakeClock, timers: Timers, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "uno-attack")
    for n in range(1200):  # 1,200 guesses, one every 3 s: an hour
        guess(reported, f"10.0.{n // 200}.{n % 200 + 1}")
        clock.advance(3)
        timers.fire()
    clock.advance(60)
    timers.fire()
    found = lines(caplog)
    assert 60 <= len(found) <= 61
    counts = [int(line.split("guessing: ")[1].split(" ")[0]) for line in found]
    assert sum(counts) == 1200
    named = found[1].split("addresses: ")[1]  # 19 or 20 addresses a minute: 8 named
    assert named.count("(1)") == security.ADDRESSES_NAMED and named.endswith(" more")


def test_passwords_are_reported_apart_from_pins(
    reported: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "uno-attack")
    guess(reported, "192.168.1.66", {"password": "hunter2"})
    assert "1 password wrong" in lines(caplog)[0]


def test_a_right_pin_and_a_known_tablets_own_slips_are_not_guessing(
    reported: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "uno-attack")
    tablet = Tablet(reported.test_client())
    assert tablet.unlock().status_code == 200
    assert tablet.post("/session/lock").status_code == 200
    assert tablet.unlock("9999").status_code == 403
    assert lines(caplog) == []


def test_the_scoreboards_are_told(reported: Flask, service: TableService) -> None:
    stream = service.subscribe()
    assert guess(reported, "192.168.1.66") == 403
    told = stream.get(timeout=10)
    assert told is not None and told.event == "notice"
    assert told.data["code"] == "guessing" and told.data["count"] == 1
    assert "192.168" not in str(told.data)  # anyone may read the stream: no addresses
