"""A tablet's standing is renewed while it is used: its cookie is signed again (its expiry
pushed on) as it is used, so a tablet used weekly never lapses, while one unused for the
whole lifetime must unlock again. The cookies' clock is simulated (`TabletSessions.clock`)."""

from __future__ import annotations

from email.utils import parsedate_to_datetime

import pytest
from flask import Flask

from tests.waiting import FakeClock
from web_ui import security

from .conftest import Tablet

DAY = 24 * 3600.0
LIFETIME_DAYS = 30


@pytest.fixture
def clock(app: Flask) -> FakeClock:
    """The clock the app's session cookies are signed and checked on."""
    turned = FakeClock(1_800_000_000.0)
    sessions = app.session_interface
    assert isinstance(sessions, security.TabletSessions)
    sessions.clock = turned
    return turned


def unlocked(tablet: Tablet) -> bool:
    return bool(tablet.get("/api/session").get_json()["unlocked"])


def test_a_tablet_used_weekly_never_lapses(app: Flask, clock: FakeClock) -> None:
    used, unused = Tablet(app.test_client()), Tablet(app.test_client())
    assert used.unlock().status_code == 200
    assert unused.unlock().status_code == 200
    for _ in range(4 * LIFETIME_DAYS // 7):  # four lifetimes, one visit a week
        clock.advance(7 * DAY)
        assert used.get("/").status_code == 200  # the scoreboard opened on family night
    assert unlocked(used)
    assert not unlocked(unused)  # never used since: the cookie lapsed after 30 days


def test_play_renews_a_tablet_that_never_reloads(app: Flask, clock: FakeClock) -> None:
    """A tablet left on the scoreboard for weeks: its taps keep it, not page loads."""
    tablet = Tablet(app.test_client())
    assert tablet.unlock().status_code == 200
    for _ in range(3):
        clock.advance(20 * DAY)
        assert tablet.post("/api/undo").status_code == 409  # a tap (nothing to undo yet)
    assert tablet.post("/api/session/name", {"name": "Kitchen"}).status_code == 200


def test_the_lifetime_still_ends_a_tablet_left_unused(app: Flask, clock: FakeClock) -> None:
    tablet = Tablet(app.test_client())
    assert tablet.unlock().status_code == 200
    clock.advance(LIFETIME_DAYS * DAY - 60)
    assert unlocked(tablet)  # this use renews it...
    clock.advance(LIFETIME_DAYS * DAY - 60)
    assert unlocked(tablet)
    clock.advance(LIFETIME_DAYS * DAY + 60)  # ...a lifetime without any does not
    assert not unlocked(tablet)


def test_the_cookie_is_signed_again_at_most_once_a_day(app: Flask, clock: FakeClock) -> None:
    """Only a request that changes the session sends the cookie: a renewal is one such
    request a day, not every request (a slow read must not put back an older session)."""
    tablet = Tablet(app.test_client())
    assert tablet.unlock().status_code == 200
    clock.advance(DAY - 60)
    assert "Set-Cookie" not in tablet.get("/api/session").headers
    clock.advance(60)
    renewed = tablet.get("/api/state").headers.get("Set-Cookie", "")
    expires = renewed.split("Expires=")[1].split(";")[0]
    when = parsedate_to_datetime(expires).timestamp()
    assert abs(when - (clock.now + LIFETIME_DAYS * DAY)) < 2 * DAY  # from now, not the unlock
    assert "Set-Cookie" not in tablet.get("/api/state").headers
    stranger = Tablet(app.test_client())
    clock.advance(2 * DAY)
    assert "Set-Cookie" not in stranger.get("/api/state").headers  # nothing to renew


def test_a_clock_set_back_keeps_tablets_unlocked(app: Flask, clock: FakeClock) -> None:
    """A Pi without a real-time clock may start with an older time until it syncs: cookies
    signed "in the future" are still read, and not signed again with the wrong time."""
    tablet = Tablet(app.test_client())
    assert tablet.unlock().status_code == 200
    clock.advance(-90 * DAY)
    answer = tablet.get("/api/session")
    assert answer.get_json()["unlocked"] is True
    assert "Set-Cookie" not in answer.headers
    clock.advance(90 * DAY + 60)  # synced
    assert unlocked(tablet)
