"""The rules sheet's section on calling UNO and catching (`uno_words`): the penalty of the game
being played, the options that are on, the scoreboard's own words, both languages; and the
page shows it."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.table.service import TableService
from web_ui.i18n import LANGUAGES, WORDS
from web_ui.uno_words import WORDS as UNO_WORDS
from web_ui.uno_words import uno_sheet

from .conftest import csrf


def lines(setup: dict[str, Any], language: str = "en") -> dict[str, str]:
    """Every line of the section: its key → its text."""
    sheet = uno_sheet(setup, language)
    return {line["key"]: line["text"] for part in sheet["parts"] for line in part["lines"]}


def test_the_section_has_words_of_its_own() -> None:
    assert not set(UNO_WORDS["en"]) & set(WORDS["en"]), "a key the page's words already use"


def test_attack_caught_presses_twice_and_the_scoreboard_is_named() -> None:
    said = lines({"players": ["Ann", "Bob"], "game": "attack", "options": {}})
    assert said["uno_catch_penalty"] == "Caught: the player who forgot presses the launcher twice."
    assert "presses the launcher twice" in said["uno_false_call"]
    assert "the catcher presses the launcher twice" in said["uno_false_catch"]
    assert "“Called UNO with it”" in said["uno_how_tick"]
    missed = said["uno_how_missed"]
    assert "Ann has one card and did not call UNO!" in missed
    assert "“Ann: UNO!”" in missed and "“Bob catches Ann!”" in missed
    assert "need not call" in said["uno_when_trade"]
    assert "uno_catch_jumpin" not in said and "uno_when_identical" not in said
    assert not any("{" in text for text in said.values())


def test_classic_caught_draws_two_cards() -> None:
    said = lines({"players": ["Ann", "Bob"], "game": "classic", "options": {}})
    assert said["uno_catch_penalty"] == "Caught: the player who forgot draws 2 cards."
    assert "Trade Hands" not in " ".join(said.values())
    zh = lines({"players": ["Ann", "Bob"], "game": "classic", "options": {}}, "zh-CN")
    assert zh["uno_catch_penalty"] == "被抓到：漏喊的人摸 2 张牌。"
    assert "“出牌时喊了 UNO”" in zh["uno_how_tick"]
    assert "Ann 只剩一张牌却没喊 UNO！" in zh["uno_how_missed"]


def test_the_options_that_are_on_change_the_lines() -> None:
    options = {
        "uno_false_call_penalty": False,
        "uno_false_accusation_penalty": False,
        "multi_identical": True,
        "jumpin_identical": True,
    }
    said = lines({"players": ["Ann", "Bob"], "game": "classic", "options": options})
    assert said["uno_false_call_free"] == "A wrong UNO call costs nothing at this table."
    assert said["uno_false_catch_free"] == "A wrong catch costs nothing at this table."
    assert "uno_false_call" not in said and "uno_false_catch" not in said
    assert "two green 4s" in said["uno_when_identical"]  # the call follows the multi rule
    assert "jump-in" in said["uno_catch_jumpin"]
    same_face = lines(
        {"players": ["A", "B"], "game": "attack", "options": {"multi_in_attack": True}}
    )
    assert "same number or symbol" in same_face["uno_when_same_face"]
    trade = lines({"players": ["A", "B"], "options": {"uno_after_trade_receiver": True}}, "zh-CN")
    assert "换到一张牌的人也要喊" in trade["uno_when_trade_receiver"]


def test_a_table_that_keeps_only_the_score_calls_at_the_table() -> None:
    setup = {"players": ["Ann", "Bob"], "game": "attack", "mode": "score_only", "options": {}}
    said = lines(setup)
    assert "only keeps the score" in said["uno_how_score_only"]
    assert "uno_how_tick" not in said
    assert "presses the launcher twice" in said["uno_catch_penalty"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_sheet_shows_the_section(
    client: FlaskClient, service: TableService, language: str
) -> None:
    assert "rules-uno" not in client.get("/rules").text  # no match: no game to speak of
    service.submit({"type": "setup", "setup": {"players": ["Ann", "Bob"], "game": "classic"}})
    client.post("/api/session/language", json={"language": language}, headers=csrf(client))
    html = client.get("/rules").text
    assert 'id="rules-uno"' in html
    sheet = uno_sheet({"players": ["Ann", "Bob"], "game": "classic"}, language)
    assert f"<h2>{sheet['title']}</h2>" in html
    assert ("摸 2 张牌" if language == "zh-CN" else "draws 2 cards") in html
