"""The hall's page and `GET /api/hall`, on a board that answers what it is told."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.hall.feed import ReasonCode
from web_ui.hall import HALL_WORDS, WAIT, create_hall_app
from web_ui.i18n import LANGUAGES, WORDS

HALL_JS = Path(__file__).resolve().parents[2] / "web_ui" / "static" / "js" / "hall.js"
STATUSES = ("ready", "suspense", "firing", "jam", "empty", "fault", "none", "closed")


class Board:
    def __init__(self) -> None:
        self.asked: list[tuple[int | None, float]] = []

    def view(self, after: int | None = None, wait: float = 0.0) -> dict[str, Any]:
        self.asked.append((after, wait))
        return {"version": 7, "tables": [], "standings": []}


@pytest.fixture
def board() -> Board:
    return Board()


@pytest.fixture
def client(board: Board) -> FlaskClient:
    return create_hall_app(board, "Club night").test_client()


def test_api_hall_answers_the_view_and_waits_for_a_newer_one(
    client: FlaskClient, board: Board
) -> None:
    answer = client.get("/api/hall")
    assert answer.status_code == 200 and answer.get_json()["version"] == 7
    assert answer.headers["Cache-Control"] == "no-store"
    assert client.get("/api/hall?after=6").status_code == 200
    assert board.asked == [(None, 0.0), (6, WAIT)]
    for bad in ("x", "-1", "²", "9" * 30):
        refused = client.get(f"/api/hall?after={bad}")
        assert refused.status_code == 400 and "after" in refused.get_json()["error"]


def page_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_wall_page_carries_its_words_and_script(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert "<title>Club night</title>" in html and "js/hall.js" in html
    assert "css/hall.css" in html and 'name="csrf-token"' in html
    data = page_data(html)
    assert data["language"] == "en" and data["words"]["hall_live"] == "Live"
    chinese = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert page_data(chinese.get_data(as_text=True))["language"] == "zh-CN"
    asked = client.get("/?lang=zh-CN", headers={"Accept-Language": "en"})
    chinese_words = page_data(asked.get_data(as_text=True))["words"]
    assert chinese_words["hall_live"] == "在线"
    assert chinese_words["hall_reason_refused"] == "连接被拒绝"  # an offline reason, by its code
    assert client.get("/static/js/hall.js").status_code == 200


def test_hall_words_are_in_both_languages() -> None:
    assert HALL_WORDS.keys() == {"en", "zh-CN"}
    assert HALL_WORDS["en"].keys() == HALL_WORDS["zh-CN"].keys()
    for key, text in HALL_WORDS["en"].items():
        assert re.findall(r"\{\w+\}", text) == re.findall(r"\{\w+\}", HALL_WORDS["zh-CN"][key])


def test_every_offline_reason_has_words_in_both_languages() -> None:
    for language in LANGUAGES:
        words = HALL_WORDS[language]
        for code in ReasonCode:
            assert words.get(f"hall_reason_{code}"), (language, code)
        assert "{status}" in words["hall_reason_http_error"]


def test_the_chinese_hall_words_use_chinese_punctuation() -> None:
    for key, text in HALL_WORDS["zh-CN"].items():
        assert not re.search(r"[:;,!?]", re.sub(r"\{\w+\}", "", text)), (key, text)


def test_every_word_the_script_asks_for_exists() -> None:
    script = HALL_JS.read_text(encoding="utf-8")
    asked = set(re.findall(r'\bt\("(\w+)"', script))
    asked |= {f"hall_{status}" for status in ("live", "offline", "connecting")}  # t(`hall_${}`)
    asked |= {f"hall_reason_{code}" for code in ReasonCode}  # t(`hall_reason_${error_code}`)
    asked |= set(STATUSES)  # t(launcher.status)
    words = WORDS["en"] | HALL_WORDS["en"]
    assert sorted(asked - words.keys()) == []
