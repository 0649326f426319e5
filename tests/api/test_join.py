"""Letting a new tablet in without the PIN (web_ui/join.py): a person at an unlocked tablet
lets a new one in while a device has spent the strangers' guesses; a request nobody approves
expires, a code lets in once and only the tablet that asked, and only a tablet with rights
may let one in (the admin's rights only from an admin tablet)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from controller.table.service import TableService
from tests.waiting import FakeClock
from web_ui import join, security

from .conftest import SETUP, Tablet


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_800_000_000.0)


@pytest.fixture
def guarded(app: Flask, clock: FakeClock) -> Flask:
    """The app with its guards and its requests to join on the test's clock."""
    app.extensions["pin_guard"] = security.Guard("PIN", clock)
    app.extensions["password_guard"] = security.Guard("password", clock)
    app.extensions["joins"] = join.Joins(clock)
    return app


def at(app: Flask, address: str) -> Tablet:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Tablet(client)


def family(app: Flask) -> Tablet:
    """A tablet of the family's, unlocked with the PIN before anything happened."""
    tablet = at(app, "192.168.1.10")
    assert tablet.unlock().status_code == 200
    return tablet


def attack(app: Flask, guesses: int, what: str = "pin") -> list[int]:
    """A device guessing from its own address (each guess a new, cookie-less client)."""
    path, body = {
        "pin": ("/api/session/pin", {"pin": "0000"}),
        "password": ("/api/session/admin", {"password": "a guess"}),
    }[what]
    return [at(app, "192.168.1.66").post(path, body).status_code for _ in range(guesses)]


def ask(tablet: Tablet) -> str:
    answer = tablet.post("/api/join")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["status"] == "waiting"
    return str(answer.get_json()["code"])


def pending(tablet: Tablet) -> list[str]:
    answer = tablet.get("/api/join/pending")
    assert answer.status_code == 200, answer.get_json()
    return [r["code"] for r in answer.get_json()["requests"]]


def approve(tablet: Tablet, code: str, **extra: Any) -> Any:
    return tablet.post("/api/join/approve", {"code": code, **extra})


def session(tablet: Tablet) -> dict[str, Any]:
    return tablet.get("/api/session").get_json()  # type: ignore[no-any-return]


def test_a_new_tablet_gets_in_while_the_strangers_budget_is_spent(guarded: Flask) -> None:
    kitchen = family(guarded)
    assert attack(guarded, security.FREE + 3) == [403] * security.FREE + [429] * 3
    newcomer = at(guarded, "192.168.1.20")
    assert newcomer.unlock().status_code == 429  # the right PIN waits like the attacker

    code = ask(newcomer)
    assert attack(guarded, 3) == [429] * 3  # the guessing goes on: it does not matter
    assert newcomer.get("/api/join").get_json() == {
        "status": "waiting", "code": code, "expires_in": join.LIFETIME
    }  # fmt: skip
    assert pending(kitchen) == [code]
    assert approve(kitchen, code).status_code == 200
    assert newcomer.get("/api/join").get_json() == {
        "status": "approved", "unlocked": True, "admin": False
    }  # fmt: skip
    assert session(newcomer)["unlocked"] is True
    assert newcomer.post("/api/setup", {"setup": SETUP}).status_code == 200
    assert pending(kitchen) == []


def test_the_admin_logs_in_from_a_new_phone_while_passwords_are_guessed(
    guarded: Flask,
) -> None:
    """Let in as a player, the phone is a tablet known here: its password has a budget of
    its own, which the guessing device cannot spend."""
    kitchen = family(guarded)
    assert attack(guarded, security.FREE + 1, "password")[-1] == 429
    phone = at(guarded, "192.168.1.21")
    assert phone.admin().status_code == 429
    assert approve(kitchen, ask(phone)).status_code == 200
    assert phone.get("/api/join").get_json()["status"] == "approved"
    assert phone.admin().status_code == 200
    assert session(phone)["admin"] is True


def test_a_request_nobody_approves_expires(guarded: Flask, clock: FakeClock) -> None:
    kitchen = family(guarded)
    newcomer = at(guarded, "192.168.1.20")
    code = ask(newcomer)
    clock.advance(join.LIFETIME - 1)
    assert pending(kitchen) == [code]
    clock.advance(1)
    assert pending(kitchen) == []
    assert approve(kitchen, code).status_code == 404
    assert newcomer.get("/api/join").get_json() == {"status": "none"}
    assert session(newcomer)["unlocked"] is False
    again = ask(newcomer)  # it may ask again: a new request
    assert pending(kitchen) == [again]


def test_a_tablet_let_in_must_take_its_rights_in_time(guarded: Flask, clock: FakeClock) -> None:
    kitchen = family(guarded)
    newcomer = at(guarded, "192.168.1.20")
    code = ask(newcomer)
    clock.advance(join.LIFETIME - 1)
    assert approve(kitchen, code).status_code == 200  # let in at the last moment...
    clock.advance(join.COLLECT - 1)
    assert newcomer.get("/api/join").get_json()["status"] == "approved"  # ...still taken

    late = at(guarded, "192.168.1.21")
    assert approve(kitchen, ask(late)).status_code == 200
    clock.advance(join.COLLECT)
    assert late.get("/api/join").get_json() == {"status": "none"}
    assert session(late)["unlocked"] is False


def test_a_code_lets_in_once_and_only_the_tablet_that_asked(guarded: Flask) -> None:
    kitchen = family(guarded)
    newcomer = at(guarded, "192.168.1.20")
    code = ask(newcomer)
    stranger = at(guarded, "192.168.1.66")
    assert stranger.get("/api/join").get_json() == {"status": "none"}  # it knows no secret
    assert approve(kitchen, code).status_code == 200
    assert approve(kitchen, code).status_code == 404  # let in already: not again
    assert stranger.get("/api/join").get_json() == {"status": "none"}
    assert session(stranger)["unlocked"] is False
    assert newcomer.get("/api/join").get_json()["status"] == "approved"
    assert newcomer.get("/api/join").get_json() == {"status": "none"}  # taken: gone
    assert approve(kitchen, code).status_code == 404

    assert newcomer.post("/session/lock").status_code == 200
    assert newcomer.get("/api/join").get_json() == {"status": "none"}  # no rights come back
    assert session(newcomer)["unlocked"] is False


def test_only_a_tablet_with_rights_lets_one_in(guarded: Flask) -> None:
    newcomer = at(guarded, "192.168.1.20")
    code = ask(newcomer)
    locked = family(guarded)
    assert locked.post("/session/lock").status_code == 200
    for tablet in (locked, at(guarded, "192.168.1.66")):
        assert tablet.get("/api/join/pending").status_code == 403
        assert approve(tablet, code).status_code == 403
        assert tablet.post("/api/join/refuse", {"code": code}).status_code == 403
    assert newcomer.get("/api/join").get_json()["status"] == "waiting"
    own = newcomer.post("/api/join/approve", {"code": code})
    assert own.status_code == 403  # nor can it let itself in
    assert session(newcomer)["unlocked"] is False


def test_the_admins_rights_only_from_an_admin_tablet(guarded: Flask) -> None:
    kitchen = family(guarded)
    phone = at(guarded, "192.168.1.21")
    code = ask(phone)
    assert approve(kitchen, code, admin=True).status_code == 403  # a player's tablet
    office = at(guarded, "192.168.1.11")
    assert office.admin().status_code == 200
    assert approve(office, code, admin=True).status_code == 200
    assert phone.get("/api/join").get_json() == {
        "status": "approved", "unlocked": True, "admin": True
    }  # fmt: skip
    assert phone.post("/api/settings/language", {"language": "en"}).status_code == 200
    assert phone.post("/api/join").status_code == 409  # the admin's already


def test_refused_and_cancelled_requests_are_gone(guarded: Flask) -> None:
    kitchen = family(guarded)
    newcomer = at(guarded, "192.168.1.20")
    code = ask(newcomer)
    assert kitchen.post("/api/join/refuse", {"code": code}).status_code == 200
    assert newcomer.get("/api/join").get_json() == {"status": "none"}
    assert approve(kitchen, code).status_code == 404
    second = ask(newcomer)
    assert newcomer.post("/api/join/cancel").status_code == 200
    assert pending(kitchen) == []
    assert approve(kitchen, second).status_code == 404


@pytest.mark.parametrize("code", ["12345", "abcdef", "1234567", 123456, None, "１２３４５６"])
def test_a_code_is_six_ascii_digits(guarded: Flask, code: object) -> None:
    assert approve(family(guarded), code).status_code == 400  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "flooder", [lambda n: "192.168.1.66", lambda n: f"fd00::{n:x}", lambda n: f"fd00::{n:x}:1"]
)
def test_a_flood_of_requests_cannot_push_the_familys_out(
    guarded: Flask, flooder: Callable[[int], str]
) -> None:
    """From one address (or any number in one IPv6 /64 network) a flood replaces its own
    requests; from many, the list stays bounded."""
    kitchen = family(guarded)
    code = ask(at(guarded, "192.168.1.20"))
    flood = [ask(at(guarded, flooder(n))) for n in range(join.MOST + 10)]
    assert pending(kitchen) == [code, *flood[-join.PER_ADDRESS :]]
    for n in range(join.MOST + 10):
        ask(at(guarded, f"10.0.{n // 250}.{n % 250 + 1}"))
    assert len(pending(kitchen)) == join.MOST


def test_the_same_tablet_keeps_its_code_while_it_waits(guarded: Flask) -> None:
    newcomer = at(guarded, "192.168.1.20")
    assert ask(newcomer) == ask(newcomer)
    assert pending(family(guarded)) == [ask(newcomer)]


def test_the_unlocked_tablets_are_told_without_the_code(
    guarded: Flask, service: TableService
) -> None:
    kitchen = family(guarded)
    stream = service.subscribe()
    code = ask(at(guarded, "192.168.1.20"))
    told = stream.get(timeout=10)
    assert told is not None and told.event == "notice"
    assert told.data["code"] == "join_request" and code not in str(told.data)
    assert approve(kitchen, code).status_code == 200
    settled = stream.get(timeout=10)
    assert settled is not None and settled.data["code"] == "join_settled"
