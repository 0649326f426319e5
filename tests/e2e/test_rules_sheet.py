"""The rules sheet in Chromium: each card of the game being played with what it does, in
English and Chinese, calling UNO and catching a player who forgot (the penalty of the game and
the options on), and the house rules that are on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, TABLET, Table

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [TABLET, PHONE])
def test_attack_rules_sheet_in_both_languages(table: Table, viewport: dict[str, int]) -> None:
    table.submit(
        {
            "type": "setup",
            "setup": {
                "players": ["Ann", "Bob"],
                "game": "attack",
                "options": {"target": 250, "attack_stack_hits": True},
            },
        }
    )
    page = table.tablet(viewport)
    page.click("#rules-link")
    expect(page.locator("body[data-rules=ready]")).to_be_attached()
    expect(page.locator("#rules-game")).to_have_text("UNO Attack")
    expect(page.locator("#rules-goal")).to_contain_text("first to 250 wins")
    whf = page.locator('#rules-cards li[data-face="WHF"]')
    expect(whf).to_contain_text("presses until cards come out")
    expect(whf.locator("svg.card-face")).to_have_count(1)
    expect(page.locator('#rules-cards li[data-face="+2"]')).to_have_count(0)  # not in Attack
    expect(page.locator('#rules-house li[data-option="attack_stack_hits"]')).to_contain_text("on")
    expect(page.locator('#rules-house li[data-option="target"]')).to_contain_text("250")
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0

    page.click("#language")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("body[data-rules=ready]")).to_be_attached()
    expect(page.locator('#rules-cards li[data-face="WHF"]')).to_contain_text("一直按到有牌弹出")
    assert page.errors == []


def test_classic_rules_sheet_has_no_launcher(table: Table) -> None:
    table.submit({"type": "setup", "setup": {"players": ["Ann", "Bob"], "game": "classic"}})
    page = table.tablet(PHONE)
    page.goto("/rules")
    expect(page.locator("body[data-rules=ready]")).to_be_attached()
    expect(page.locator('#rules-cards li[data-face="+2"]')).to_contain_text("draws two")
    expect(page.locator('#rules-cards li[data-face="H2"]')).to_have_count(0)
    expect(page.locator("#rules-house li")).to_have_text(["None: the standard rules."])


@pytest.mark.parametrize("viewport", [TABLET, PHONE])
def test_rules_sheet_says_how_to_call_uno_and_catch(table: Table, viewport: dict[str, int]) -> None:
    options = {"uno_false_accusation_penalty": False}
    table.submit({"type": "setup", "setup": {"players": ["Ann", "Bob"], "options": options}})
    page = table.tablet(viewport)
    page.goto("/rules")
    expect(page.locator("body[data-rules=ready]")).to_be_attached()
    section = page.locator("#rules-uno")
    expect(section.locator("h2")).to_have_text("Calling UNO")
    expect(section.locator("h3")).to_have_text(
        ["When to call", "At the table, with this scoreboard", "Catching a player who forgot"]
    )
    expect(section.locator('[data-line="uno_how_tick"]')).to_contain_text("Called UNO with it")
    expect(section.locator('[data-line="uno_how_missed"]')).to_contain_text("Bob catches Ann!")
    window = section.locator('[data-line="uno_catch_window"]')
    expect(window).to_contain_text("until the next player begins")
    penalty = section.locator('[data-line="uno_catch_penalty"]')
    expect(penalty).to_contain_text("presses the launcher twice")
    expect(section.locator('[data-line="uno_false_catch_free"]')).to_contain_text("costs nothing")
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0

    page.click("#language")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("body[data-rules=ready]")).to_be_attached()
    expect(section.locator("h2")).to_have_text("喊 UNO")
    expect(penalty).to_have_text("被抓到：漏喊的人按发牌机 2 次。")
    expect(section.locator('[data-line="uno_how_missed"]')).to_contain_text("Bob 抓 Ann！")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert page.errors == []


def test_classic_rules_sheet_caught_draws_two(table: Table) -> None:
    setup = {"players": ["Ann", "Bob"], "game": "classic", "mode": "score_only"}
    table.submit({"type": "setup", "setup": setup})
    page = table.tablet(PHONE)
    page.goto("/rules")
    expect(page.locator("body[data-rules=ready]")).to_be_attached()
    section = page.locator("#rules-uno")
    expect(section.locator('[data-line="uno_catch_penalty"]')).to_contain_text("draws 2 cards")
    expect(section.locator('[data-line="uno_how_score_only"]')).to_be_visible()
    expect(section.locator('[data-line="uno_how_tick"]')).to_have_count(0)
    assert page.errors == []
