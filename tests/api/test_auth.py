"""Who may do what, enforced on the server: the roles, grants tied to the current PIN and
password, Lock revoking a copied cookie, and PIN guessing limited across every address."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from flask import Flask

from controller.config import Config, ServiceConfig, TableConfig
from controller.sections import ConfigError
from controller.store import Store
from controller.table.service import TableService
from tests.waiting import FakeClock
from web_ui import security
from web_ui.app import create_app
from web_ui.errors import TooMany

from .conftest import ADMIN_PASSWORD, SETUP, Tablet


@pytest.fixture
def clock(app: Flask) -> FakeClock:
    """Wrong guesses counted on a clock the test turns."""
    fake = FakeClock()
    app.extensions["pin_guard"] = security.Guard("PIN", fake)
    app.extensions["password_guard"] = security.Guard("password", fake)
    return fake


def from_address(app: Flask, address: str) -> Tablet:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Tablet(client)


def attack(app: Flask, guesses: int, pin: str = "0000") -> dict[int, int]:
    """`guesses` wrong PINs, each from a new address: how many answers of each status."""
    statuses: dict[int, int] = {}
    for n in range(guesses):
        status = from_address(app, f"127.{n // 65536 % 256}.{n // 256 % 256}.{n % 256 + 1}")
        code = status.unlock(pin).status_code
        statuses[code] = statuses.get(code, 0) + 1
    return statuses


# ------------------------------------------------------------------ roles


def test_roles_players_play_and_set_up_the_admin_changes_settings(playing: Tablet) -> None:
    assert playing.act({"type": "Play", "seat": 0, "card": "R7"}).status_code == 200
    assert playing.post("/api/presets", {"name": "Ours", "options": {}}).status_code == 200
    assert playing.post("/api/setup", {"setup": SETUP}).status_code == 200
    for path, body in (("/api/settings/pin", {"pin": "8642"}),
                       ("/api/settings/language", {"language": "zh-CN"})):  # fmt: skip
        refused = playing.post(path, body)
        assert refused.status_code == 403 and "admin" in refused.get_json()["error"]
    assert playing.admin("not it").status_code == 403
    assert playing.admin().status_code == 200
    assert playing.post("/api/settings/pin", {"pin": "8642"}).status_code == 200
    assert playing.post("/api/settings/language", {"language": "zh-CN"}).status_code == 200


def test_admin_grant_ends_with_the_password(app: Flask, service: TableService) -> None:
    tablet = Tablet(app.test_client())
    assert tablet.admin().status_code == 200
    assert tablet.get("/api/session").get_json()["admin"] is True
    cookie = tablet.client.get_cookie("session")
    assert cookie is not None

    def restarted(password: str) -> Tablet:
        config = Config(service=ServiceConfig(admin_password=password))
        again = create_app(service, config, secret_key="test-secret").test_client()
        again.set_cookie("session", cookie.value)
        return Tablet(again)

    assert restarted(ADMIN_PASSWORD).get("/api/session").get_json()["admin"] is True
    for password in ("a new password", ""):
        after = restarted(password)
        assert after.get("/api/session").get_json()["admin"] is False
        assert after.post("/api/settings/pin", {"pin": "8642"}).status_code == 403


def test_lock_revokes_a_copied_cookie(app: Flask, playing: Tablet) -> None:
    cookie = playing.client.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    assert Tablet(thief).post("/api/deal").status_code in (200, 409)  # the copy works...
    assert playing.post("/session/lock").status_code == 200
    copy = Tablet(thief)
    assert copy.get("/api/session").get_json()["unlocked"] is False  # ...until Lock
    assert copy.post("/api/deal").status_code == 403
    assert playing.post("/api/deal").status_code == 403
    assert playing.unlock().status_code == 200  # the tablet itself may unlock again


def test_a_new_pin_locks_the_others_and_keeps_the_admin(app: Flask, playing: Tablet) -> None:
    other = Tablet(app.test_client())
    assert other.unlock().status_code == 200
    assert playing.admin().status_code == 200
    assert playing.post("/api/settings/pin", {"pin": "86420"}).status_code == 200
    assert other.post("/api/deal").status_code == 403
    assert playing.act({"type": "Play", "seat": 0, "card": "R7"}).status_code == 200


# ------------------------------------------------------------------ guessing


def test_wrong_pins_are_limited_across_all_addresses(app: Flask, clock: FakeClock) -> None:
    statuses = attack(app, 300)
    assert statuses == {403: security.FREE, 429: 300 - security.FREE}
    waited = from_address(app, "127.9.9.9").unlock("0000")
    assert waited.status_code == 429
    clock.advance(int(waited.headers["Retry-After"]))
    assert attack(app, 50) == {403: 1, 429: 49}  # one more guess, then a longer wait


def test_guessing_a_four_digit_pin_takes_longer_than_a_week() -> None:
    """The best attacker: as many addresses as it likes, each guess sent the moment the
    guard would evaluate it, for a week."""
    clock = FakeClock()
    guard, evaluated, week = security.Guard("PIN", clock), 0, clock.now + 7 * 24 * 3600
    while clock.now < week:
        try:
            assert not guard.evaluate(None, lambda: False)
            evaluated += 1
        except TooMany as error:
            clock.advance(error.retry_after)
    assert evaluated < 1000  # a tenth of the 10,000 PINs: on average 5 weeks and more


def test_unlocked_tablets_are_not_locked_out_by_an_attack(app: Flask, clock: FakeClock) -> None:
    player = Tablet(app.test_client())
    assert player.unlock().status_code == 200
    assert player.post("/api/setup", {"setup": SETUP}).status_code == 200
    returning = Tablet(app.test_client())
    assert returning.unlock().status_code == 200
    assert returning.post("/session/lock").status_code == 200
    newcomer = Tablet(app.test_client())
    attack(app, 200)
    assert player.post("/api/deal").status_code == 200  # its cookie, no PIN needed
    assert returning.unlock().status_code == 200  # unlocked before: its own budget
    refused = newcomer.unlock()  # never unlocked here: waits like the attacker
    assert refused.status_code == 429 and "Retry-After" in refused.headers


def test_a_known_tablets_own_wrong_guesses_are_limited(app: Flask, clock: FakeClock) -> None:
    tablet = Tablet(app.test_client())
    assert tablet.unlock().status_code == 200
    assert tablet.post("/session/lock").status_code == 200
    codes = [tablet.unlock("0000").status_code for _ in range(security.FREE + 3)]
    assert codes == [403] * security.FREE + [429] * 3
    assert Tablet(app.test_client()).unlock().status_code == 200  # others are not affected


def test_admin_passwords_are_limited_like_pins(app: Flask, clock: FakeClock) -> None:
    codes = [from_address(app, f"127.1.0.{n}").admin(f"guess {n}").status_code
             for n in range(1, 40)]  # fmt: skip
    assert codes.count(403) == security.FREE and codes.count(429) == 39 - security.FREE


# ------------------------------------------------------------------ credentials at rest


def test_the_pin_is_stored_hashed(app: Flask, playing: Tablet, store: Store) -> None:
    assert playing.admin().status_code == 200
    assert playing.post("/api/settings/pin", {"pin": "86420"}).status_code == 200
    stored = store.setting("table_pin_hash") or ""
    assert stored.startswith("pbkdf2_sha256$") and "86420" not in stored
    with store._transaction() as db:  # every setting, as a thief with the file would see it
        rows = db.execute("SELECT key, value FROM settings").fetchall()
    assert not any("86420" in value for _, value in rows)


def test_a_pin_kept_in_plain_text_is_hashed_and_blanked(service: TableService) -> None:
    service.store.set_setting("table_pin", "97531")
    tablet = Tablet(create_app(service, Config(), secret_key="k").test_client())
    assert service.store.setting("table_pin") == ""
    assert tablet.unlock("1234").status_code == 403
    assert tablet.unlock("97531").status_code == 200


@pytest.mark.parametrize("pin", ["²³⁴⁵", "１２３４", "١٢٣٤", "12 34", "123", "123456789"])
def test_pins_are_ascii_digits_only(playing: Tablet, pin: str) -> None:
    assert playing.admin().status_code == 200
    answer = playing.post("/api/settings/pin", {"pin": pin})
    assert answer.status_code == 400 and "digits" in answer.get_json()["error"]
    with pytest.raises(ConfigError, match="digits"):
        TableConfig(pin=pin).check()


def test_full_width_digits_never_unlock(tablet: Tablet) -> None:
    assert tablet.unlock("１２３４").status_code == 403
    assert tablet.get("/api/session").get_json()["unlocked"] is False


def test_the_database_is_readable_by_its_owner_only(service: TableService) -> None:
    os.chmod(service.store.path, 0o644)
    backup = service.store.path.with_name("uno-attack.db.v1.bak")
    backup.write_bytes(b"")
    os.chmod(backup, 0o644)
    create_app(service, Config(), secret_key="k")
    for path in Path(service.store.path).parent.glob("uno-attack.db*"):
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path


def test_default_credentials_warn_at_start(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    create_app(service, Config(service=ServiceConfig(admin_password="x")), secret_key="k")
    said = caplog.text
    assert "still the default one" in said and "shorter than 8" in said
    caplog.clear()
    strong = Config(table=TableConfig(pin="86420"),
                    service=ServiceConfig(admin_password="a long password"))  # fmt: skip
    create_app(service, strong, secret_key="k")
    assert "WARNING" not in caplog.text


def test_default_credentials_warn_on_the_setup_page(playing: Tablet, app: Flask) -> None:
    html = playing.get("/setup").get_data(as_text=True)
    assert "still the default one" in html
    stranger = Tablet(app.test_client()).get("/setup").get_data(as_text=True)
    assert "still the default one" not in stranger  # not told to those without the PIN


# ------------------------------------------------------------------ the log names the tablet


def test_the_log_names_the_tablet(app: Flask, playing: Tablet, service: TableService) -> None:
    other = Tablet(app.test_client())
    assert other.unlock().status_code == 200
    assert other.post("/api/session/name", {"name": "Kitchen"}).status_code == 200
    assert other.act({"type": "Play", "seat": 0, "card": "R7"}).status_code == 200
    mine = playing.get("/api/session").get_json()["tablet"]
    theirs = other.get("/api/session").get_json()["tablet"]
    actors = [r["actor"] for r in playing.get("/api/history?limit=5").get_json()["records"]]
    assert actors[0] == f"tablet:{mine['id']}" and mine["id"] != theirs["id"]
    assert actors[-1] == f"tablet:{theirs['id']} Kitchen"
    assert not any("?" in actor for actor in actors)
    refused = other.post("/api/session/name", {"name": "Kit\nchen"})
    assert refused.status_code == 400
