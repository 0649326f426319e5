"""The server-rendered pages: every route answers, speaks the tablet's language, hides the
controls from a locked tablet, and hands its script the words and state as one JSON block."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.engine import OPTIONS
from controller.table.service import TableService
from web_ui.match_view import format_guide

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
    assert data["cards"]["H2"] == "罚按牌 2"


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
    names = ("api", "frame", "board", "controls", "setup", "admin", "cards", "view", "chart",
             "feed", "demo", "house", "presets", "rules_form", "standings", "tally")  # fmt: skip
    for name in names:
        answer = client.get(f"/static/js/{name}.js")
        assert answer.status_code == 200, name
        answer.close()


def test_every_panel_the_scoreboard_names_has_its_module(client: FlaskClient) -> None:
    """board.js imports static/js/<name>.js for each `data-panel="<name>"` and calls its
    `render(state, section)`."""
    names = re.findall(r'data-panel="([a-z_]+)"', client.get("/").text)
    assert {"tournament", "standings"} <= set(names)
    for name in names:
        answer = client.get(f"/static/js/{name}.js")
        assert answer.status_code == 200, name
        assert "export function render(state, section)" in answer.text, name
        answer.close()


def test_page_escapes_player_names(unlocked: FlaskClient, service: TableService) -> None:
    service.submit({"type": "setup", "setup": SETUP | {"players": ["<b>x</b>", "Bob"]}})
    html = unlocked.get("/").text
    assert "<b>x</b>" not in html
    assert page_data(html)["state"]["setup"]["players"][0] == "<b>x</b>"


def test_setup_hands_its_script_section_titles_and_the_format_guide(
    unlocked: FlaskClient,
) -> None:
    html = unlocked.get("/setup").text
    assert 'id="preset"' in html and 'id="save-preset"' in html and 'id="format"' in html
    data = page_data(html)
    assert data["sections"]["§10.1"] == "Stacking draw cards (叠加)"
    guide = data["formats"]
    assert guide["fields"]["team_play"] == ["teams", "team_scoring", "target"]
    assert guide["players"] == {"rotation_4p": 4, "rotation_8p": 8}
    assert guide["score_only"] == ["rotation_8p"]
    assert data["choices"]["format"]["team_play"] == "Team play: partners sit apart"


def test_setup_speaks_chinese_for_sections_and_choices(client: FlaskClient) -> None:
    client.post("/api/session/language", json={"language": "zh-CN"}, headers=csrf(client))
    client.post("/api/session/pin", json={"pin": "1234"}, headers=csrf(client))
    data = page_data(client.get("/setup").text)
    assert data["sections"]["§10.2"] == "点断 / 抢牌"
    assert data["choices"]["scoring"]["chips"] == "筹码制：输家付给赢家"


def test_format_guide_names_real_options_and_every_format() -> None:
    options = {option.id: option for option in OPTIONS}
    guide = format_guide()
    assert list(guide["fields"]) == list(options["format"].choices)
    named = {field for fields in guide["fields"].values() for field in fields}
    assert named <= set(options)
    assert set(guide["scoring"]) <= set(guide["fields"]["standard"])
    for field, modes in guide["scoring"].items():
        assert set(modes) <= set(options["scoring"].choices), field
    match_options = {o.id for o in OPTIONS if o.section.startswith("§9")} - {"format"}
    assert match_options == named, "every scoring and format option has a format that shows it"


def test_scoreboard_hands_its_script_both_rotation_schedules(client: FlaskClient) -> None:
    schedules = page_data(client.get("/").text)["schedules"]
    assert schedules["deals_per_block"] == 4
    four, eight = schedules["cycles"]["4"], schedules["cycles"]["8"]
    assert [block["seating"] for block in four] == [[0, 2, 1, 3], [0, 1, 2, 3], [0, 1, 3, 2]]
    assert len(eight) == 14 and {block["table"] for block in eight} == {0, 1}
    for round_ in range(7):  # each round seats all eight players, four at each table
        seated = [p for block in eight if block["round"] == round_ for p in block["seating"]]
        assert sorted(seated) == list(range(8))


def test_scoreboard_state_carries_what_the_format_views_need(
    client: FlaskClient, service: TableService
) -> None:
    teams = {"players": ["Ann", "Bob", "Cy", "Di"], "options": {"format": "team_play"}}
    service.submit({"type": "setup", "setup": SETUP | teams | {"game": "classic"}})
    state = page_data(client.get("/").text)["state"]
    assert state["house"]["format"] == "team_play"
    assert state["standings"] == {"teams": 2, "team_totals": [0, 0]}
    assert state["seating"] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "2 records the table had acknowledged (seq 4 to 5)"),
        ("zh-CN", "缺少本桌已确认的 2 条"),
    ],
)
def test_lost_records_are_told_in_the_tablets_language(
    client: FlaskClient, service: TableService, language: str, words: str
) -> None:
    service.set_setting("log_losses", json.dumps([{"first": 4, "last": 5, "at": 0}]))
    client.post("/api/session/language", json={"language": language}, headers=csrf(client))
    (warning,) = page_data(client.get("/").text)["warnings"]
    assert words in warning
