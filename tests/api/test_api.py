"""The JSON API: reading, the PIN, CSRF, actions, and every error path (400/403/409/429),
with nothing recorded changed by a refused request."""

from __future__ import annotations

import pytest
from flask import Flask

from controller.config import Config
from controller.store import Store
from controller.table.service import TableService
from web_ui.app import create_app

from .conftest import SETUP, Tablet


def test_state_is_readable_by_anyone(tablet: Tablet) -> None:
    state = tablet.get("/api/state").get_json()
    assert state["seq"] == 0 and state["launcher"]["status"] == "none"


def test_controls_need_the_pin(tablet: Tablet) -> None:
    response = tablet.post("/api/setup", {"setup": SETUP})
    assert response.status_code == 403 and "PIN" in response.get_json()["error"]


def test_wrong_pin_then_right_pin(tablet: Tablet) -> None:
    assert tablet.unlock("9999").status_code == 403
    assert tablet.get("/api/session").get_json()["unlocked"] is False
    assert tablet.unlock().status_code == 200
    assert tablet.get("/api/session").get_json()["unlocked"] is True


def test_pin_attempts_are_rate_limited(tablet: Tablet) -> None:
    for _ in range(5):
        assert tablet.unlock("0000").status_code == 403
    response = tablet.unlock()
    assert response.status_code == 429 and "too many" in response.get_json()["error"]


def test_posts_need_the_csrf_token(tablet: Tablet) -> None:
    response = tablet.client.post("/api/session/pin", json={"pin": "1234"})
    assert response.status_code == 403 and "CSRF" in response.get_json()["error"]
    response = tablet.post("/api/session/pin", {"pin": "1234"}, headers={"X-CSRF-Token": "x"})
    assert response.status_code == 403


def test_a_play_answers_with_events_and_state(playing: Tablet) -> None:
    response = playing.act({"type": "Play", "seat": 0, "card": "R7"})
    assert response.status_code == 200
    body = response.get_json()
    assert body["events"][0] == {
        "type": "Played", "seat": 0, "card": "R7", "colour": "R", "also": [], "group": [],
    }  # fmt: skip
    assert body["state"]["deal"]["to_move"] == 1 and body["seq"] == body["state"]["seq"]


@pytest.mark.parametrize(
    ("action", "status", "reason"),
    [
        ({"type": "Play", "seat": 1, "card": "R7"}, 409, "P0's turn"),
        ({"type": "Play", "seat": 0, "card": "G7"}, 409, "does not match"),
        ({"type": "Play", "seat": 0, "card": "W"}, 409, "name a colour"),
        ({"type": "Play", "seat": 0, "card": "R7", "colour": "G"}, 409, "not a wild"),
        ({"type": "Draw", "seat": 0}, 409, "no draw pile"),
        ({"type": "Play", "seat": 0, "card": "XX"}, 400, "not a card"),
        ({"type": "Play", "seat": "zero", "card": "R7"}, 400, "whole number"),
        ({"type": "Play", "card": "R7"}, 400, "needs seat"),
        ({"type": "Teleport", "seat": 0}, 400, "unknown action"),
        ({"type": "Play", "seat": 0, "card": "R7", "spin": 1}, 400, "no field 'spin'"),
        ("R7", 400, "JSON object"),
    ],
)
def test_bad_actions_are_refused_with_a_reason(
    playing: Tablet, store: Store, action: object, status: int, reason: str
) -> None:
    before = (store.records("main"), playing.get("/api/state").get_json())
    response = playing.act(action)  # type: ignore[arg-type]
    assert response.status_code == status
    assert reason in response.get_json()["error"]
    assert (store.records("main"), playing.get("/api/state").get_json()) == before


def test_body_must_be_json(playing: Tablet) -> None:
    response = playing.client.post("/api/deal", data="nope", headers={"X-CSRF-Token": playing.csrf})
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]


def test_double_tap_applies_once(playing: Tablet, store: Store) -> None:
    tap = {"type": "Play", "seat": 0, "card": "R7"}
    first = playing.act(tap, key="tap-abcdef01").get_json()
    second = playing.act(tap, key="tap-abcdef01")
    assert second.status_code == 200 and second.get_json()["seq"] == first["seq"]
    assert playing.get("/api/state").get_json()["deal"]["hands"][0] == 6
    assert playing.act(tap, key="short").status_code == 400


def test_undo_and_its_refusal(playing: Tablet) -> None:
    playing.act({"type": "Play", "seat": 0, "card": "R7"})
    assert playing.post("/api/undo").status_code == 200
    assert playing.get("/api/state").get_json()["deal"]["top"] == "R5"
    playing.act({"type": "Press", "seat": 0, "cards": 1})
    response = playing.post("/api/undo")
    assert response.status_code == 409 and "press" in response.get_json()["error"]


def test_setup_errors_are_400(playing: Tablet) -> None:
    bad = [
        ({"players": ["A"]}, "2 to 10 players"),
        ({"players": ["A", "a"]}, "same name"),
        ({"options": {"turbo": True}}, "unknown option"),
        ({"options": {"target": -5}}, "target must be between"),
        ({"game": "poker"}, "game must be"),
        ({"mode": "casual"}, "mode must be"),
        ({"eject_profile": "laser"}, "eject profile must be one of"),
        ({"profile": "laser"}, "eject profile must be one of"),
        ({"colour": "red"}, "no field 'colour'"),
    ]
    for change, reason in bad:
        response = playing.post("/api/setup", {"setup": SETUP | change})
        assert response.status_code == 400, change
        assert reason in response.get_json()["error"], change


def test_rounds_in_score_only_mode(playing: Tablet) -> None:
    assert playing.post("/api/setup", {"setup": SETUP | {"mode": "score_only"}}).status_code == 200
    response = playing.post("/api/rounds", {"winner": 2, "points": [10, 20, 0, 5]})
    assert response.status_code == 200
    assert response.get_json()["state"]["totals"] == [0, 0, 35, 0]
    response = playing.post("/api/rounds", {"winner": 9, "points": [0, 0, 0, 0]})
    assert response.status_code == 400


def test_options_list_comes_from_the_engine(tablet: Tablet) -> None:
    body = tablet.get("/api/options").get_json()
    ids = {option["id"] for option in body["options"]}
    assert {"hand_size", "scoring", "target", "start_wild"} <= ids
    assert body["decks"]["attack_1998"] == "attack" and "toy" in body["eject_profiles"]
    assert body["profiles"] == body["eject_profiles"]  # the older name, for cached pages


def test_setup_takes_the_eject_profile_under_its_older_name_too(playing: Tablet) -> None:
    answer = playing.post("/api/setup", {"setup": SETUP | {"eject_profile": "gentle"}})
    assert answer.status_code == 200
    assert answer.get_json()["state"]["setup"]["eject_profile"] == "gentle"
    older = playing.post("/api/setup", {"setup": SETUP | {"profile": "brutal"}})  # deprecated
    assert older.status_code == 200
    setup = playing.get("/api/state").get_json()["setup"]
    assert setup["eject_profile"] == "brutal" and "profile" not in setup
    both = {"profile": "toy", "eject_profile": "brutal"}
    answer = playing.post("/api/setup", {"setup": SETUP | both})
    assert answer.status_code == 400 and "send eject_profile only" in answer.get_json()["error"]


def test_language_is_per_tablet(app: Flask, tablet: Tablet) -> None:
    assert tablet.post("/api/session/language", {"language": "zh-CN"}).status_code == 200
    assert tablet.get("/api/session").get_json()["language"] == "zh-CN"
    other = Tablet(app.test_client())
    assert other.get("/api/session").get_json()["language"] == "en"
    assert tablet.post("/api/session/language", {"language": "fr"}).status_code == 400


def test_admin_is_disabled_without_a_password(service: TableService) -> None:
    tablet = Tablet(create_app(service, Config(), secret_key="k").test_client())
    response = tablet.post("/api/session/admin", {"password": ""})
    assert response.status_code == 403 and "admin_password" in response.get_json()["error"]


def test_launcher_endpoints_without_a_launcher(playing: Tablet) -> None:
    assert playing.get("/api/launcher").get_json()["status"] == "none"
    response = playing.post("/api/launcher/press")
    assert response.status_code == 409 and "no launcher" in response.get_json()["error"]
    assert playing.post("/api/launcher/clear").status_code == 409
    assert playing.post("/api/demo/seat", {"seat": 1}).status_code == 409


def test_unknown_api_path_is_json_404(tablet: Tablet) -> None:
    response = tablet.get("/api/nothing-here")
    assert response.status_code == 404 and "error" in response.get_json()


def test_presets_are_listed_and_a_table_saves_its_own(playing: Tablet) -> None:
    shipped = {p["key"] for p in playing.get("/api/presets").get_json()["presets"]}
    assert {"official-attack", "official-classic", "seed-000-chinese"} <= shipped
    body = {"name": "Friday night", "game": "classic", "options": {"stack_s1": True}}
    saved = playing.post("/api/presets", body).get_json()["preset"]
    assert saved["key"] == "friday-night" and saved["options"] == {"stack_s1": True}
    keys = {p["key"] for p in playing.get("/api/presets").get_json()["presets"]}
    assert "friday-night" in keys
    bad = body | {"options": {"stack_s0": True, "stack_s1": True}}
    response = playing.post("/api/presets", bad)
    assert response.status_code == 400 and "cannot both be on" in response.get_json()["error"]
    clash = body | {"name": "Official UNO Attack"}
    assert playing.post("/api/presets", clash).status_code == 400


def test_setup_with_house_rules_shows_them_in_the_state(playing: Tablet) -> None:
    setup = SETUP | {"game": "classic", "options": {"stack_s0": True, "jumpin_numbers": True,
                                                     "multi_same_face": True}}  # fmt: skip
    state = playing.post("/api/setup", {"setup": setup}).get_json()["state"]
    assert state["house"]["stacking"] == "s0" and state["house"]["jumpin"] == "numbers"
    assert state["house"]["multi"] == "same_face" and state["seating"] == [0, 1, 2, 3]
    rotation = SETUP | {"game": "classic", "options": {"format": "rotation_8p"}}
    response = playing.post("/api/setup", {"setup": rotation})
    assert response.status_code == 400 and "two tables" in response.get_json()["error"]


def test_history_lists_the_current_matchs_records(playing: Tablet) -> None:
    playing.act({"type": "Play", "seat": 0, "card": "R7"})
    records = playing.get("/api/history?limit=2").get_json()["records"]
    assert [r["kind"] for r in records] == ["action", "action"]
    assert records[-1]["events"][0]["type"] == "Played"
    assert playing.get("/api/history?limit=0").status_code == 400


def test_changing_the_table_pin_locks_the_other_tablets(app: Flask, playing: Tablet) -> None:
    other = Tablet(app.test_client())
    assert other.unlock().status_code == 200
    assert playing.admin().status_code == 200
    assert playing.post("/api/settings/pin", {"pin": "12"}).status_code == 400
    assert playing.post("/api/settings/pin", {"pin": "86420"}).status_code == 200
    assert playing.get("/api/session").get_json()["unlocked"] is True
    assert other.get("/api/session").get_json()["unlocked"] is False
    assert other.unlock("1234").status_code == 403
    assert other.unlock("86420").status_code == 200


def test_table_settings_survive_a_restart(
    app: Flask, playing: Tablet, service: TableService
) -> None:
    assert playing.admin().status_code == 200
    assert playing.post("/api/settings/pin", {"pin": "5555"}).status_code == 200
    assert playing.post("/api/settings/language", {"language": "zh-CN"}).status_code == 200
    assert playing.post("/api/settings/language", {"language": "xx"}).status_code == 400
    again = create_app(service, Config(), secret_key="test-secret")
    tablet = Tablet(again.test_client())
    assert tablet.get("/api/session").get_json()["language"] == "zh-CN"
    assert tablet.unlock("1234").status_code == 403
    assert tablet.unlock("5555").status_code == 200
