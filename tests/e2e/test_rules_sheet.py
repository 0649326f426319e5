"""The rules sheet in Chromium: each card of the game being played with what it does, in
English and Chinese, and the house rules that are on."""

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
