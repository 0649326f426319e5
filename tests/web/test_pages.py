"""The server-rendered pages: every route answers, speaks the tablet's language, hides the
controls from a locked tablet, and hands its script the words and state as one JSON block."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.table.service import TableService

from .conftest import SETUP, csrf

PAGES = ["/", "/setup", "/admin", "/help/api"]


def page_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert found, "the page has no page-data block"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", PAGES)
def test_page_answers_with_html(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.mimetype == "text/html"
    assert 'name="csrf-token"' in answer.text
    assert 'href="/help/api"' in answer.text  # the footer links the API reference


@pytest.mark.parametrize("path", PAGES)
def test_page_forbids_inline_scripts(client: FlaskClient, path: str) -> None:
    policy = client.get(path).headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    html = client.get(path).text
    assert not re.search(r"<[^>]*\son\w+=", html), "an inline event handler"
    scripts = re.findall(r"<script([^>]*)>", html)
    assert all("src=" in attrs or "application/json" in attrs for attrs in scripts)


@pytest.mark.parametrize("path", PAGES)
def test_page_switches_language(client: FlaskClient, path: str) -> None:
    answer = client.post("/api/session/language", json={"language": "zh-CN"}, headers=csrf(client))
    assert answer.status_code == 200
    html = client.get(path).text
    assert '<html lang="zh-CN">' in html
    assert "记分板" in html
    data = page_data(html)
    assert data["language"] == "zh-CN"
    assert data["cards"]["H2"] == "罚按牌"


def test_scoreboard_hands_its_script_the_state_and_decks(
    client: FlaskClient, service: TableService
) -> None:
    service.submit({"type": "setup", "setup": SETUP})
    data = page_data(client.get("/").text)
    assert data["state"]["setup"]["players"] == ["Ann", "Bob", "Cy"]
    assert data["unlocked"] is False
    assert data["demo"] is False
    attack = {entry["card"]: entry["points"] for entry in data["decks"]["attack_1998"]}
    assert attack["RH2"] == 20
    assert attack["WAH"] == 50
    assert data["words"]["duty_press"] == "{name}: press {count} more ({why})"


def test_scoreboard_shows_controls_only_when_unlocked(client: FlaskClient) -> None:
    locked = client.get("/").text
    assert 'id="controls" class="panel controls" hidden' in locked
    assert 'id="unlock"' in locked
    client.post("/api/session/pin", json={"pin": "1234"}, headers=csrf(client))
    opened = client.get("/").text
    assert 'id="controls" class="panel controls" >' in opened
    assert 'id="lock"' in opened
    assert page_data(opened)["unlocked"] is True


def test_setup_shows_the_pin_form_until_unlocked(client: FlaskClient) -> None:
    locked = client.get("/setup").text
    assert 'id="pin-form"' in locked
    assert 'id="setup-form"' not in locked
    client.post("/api/session/pin", json={"pin": "1234"}, headers=csrf(client))
    opened = client.get("/setup").text
    assert 'id="setup-form"' in opened


def test_setup_prefills_the_current_match(unlocked: FlaskClient, service: TableService) -> None:
    service.submit({"type": "setup", "setup": SETUP})
    assert page_data(unlocked.get("/setup").text)["state"]["setup"]["players"][0] == "Ann"


def test_admin_shows_the_password_form_until_logged_in(client: FlaskClient) -> None:
    html = client.get("/admin").text
    assert 'id="admin-form"' in html
    assert 'id="admin-status"' not in html


def test_admin_shows_the_launcher_after_login(service: TableService) -> None:
    from controller.config import Config, ServiceConfig
    from web_ui.app import create_app

    config = Config(service=ServiceConfig(admin_password="sesame"))
    client = create_app(service, config, secret_key="k").test_client()
    answer = client.post("/api/session/admin", json={"password": "sesame"}, headers=csrf(client))
    assert answer.status_code == 200
    html = client.get("/admin").text
    assert 'id="admin-status"' in html
    assert page_data(html)["admin"] is True


def test_lock_forgets_the_pin(unlocked: FlaskClient) -> None:
    assert unlocked.post("/session/lock", headers=csrf(unlocked)).status_code == 200
    assert unlocked.get("/api/session").get_json()["unlocked"] is False
    assert 'id="unlock"' in unlocked.get("/").text


def test_lock_needs_the_csrf_token(unlocked: FlaskClient) -> None:
    assert unlocked.post("/session/lock").status_code == 403
    assert unlocked.get("/api/session").get_json()["unlocked"] is True


def test_api_help_renders_the_reference(client: FlaskClient) -> None:
    html = client.get("/help/api").text
    assert "<h1>The scoreboard API</h1>" in html
    assert "<code>GET /api/state</code>" in html
    assert "<table>" in html


def test_static_scripts_are_served(client: FlaskClient) -> None:
    for name in ("api", "frame", "board", "controls", "setup", "admin", "cards", "view", "chart"):
        answer = client.get(f"/static/js/{name}.js")
        assert answer.status_code == 200, name
        answer.close()


def test_page_escapes_player_names(unlocked: FlaskClient, service: TableService) -> None:
    service.submit({"type": "setup", "setup": SETUP | {"players": ["<b>x</b>", "Bob"]}})
    html = unlocked.get("/").text
    assert "<b>x</b>" not in html
    assert page_data(html)["state"]["setup"]["players"][0] == "<b>x</b>"
