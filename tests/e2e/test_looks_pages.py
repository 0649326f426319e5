"""The set-up, rules and history pages as a family sees them on a tablet and a phone, in English
and Chinese: nothing scrolls sideways or is cut short (a field's hint included), each player's
row and each choice stays on one line, the operator's warnings speak the page's language, the
set-up does not call the standard rules changed, and a past match's date reads as local."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Table
from .looks import PHONE, PLACEHOLDER, SIZES, fits, opened
from .screens import finished, in_play

pytestmark = pytest.mark.browser

# Each row's parts and the middle of each: [[what, middle], ...] per row.
ROWS = """(rows) => [...document.querySelectorAll(rows)].map((row) =>
  [...row.children].filter((part) => part.getClientRects().length).map((part) => {
    const box = part.getBoundingClientRect();
    return [part.tagName, box.top + box.height / 2];
  }))"""

# A choice's mark and its words: the middle of the mark, and the top and bottom of the words.
CHOICES = """() => [...document.querySelectorAll(".choice")].map((choice) => {
  const mark = choice.querySelector("input").getBoundingClientRect();
  const words = document.createRange();
  words.setStartAfter(choice.querySelector("input"));
  words.setEndAfter(choice.lastChild);
  const box = words.getBoundingClientRect();
  return [choice.textContent.trim(), mark.top + mark.height / 2, box.top, box.bottom];
})"""


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_setup_page_fits_one_line_a_player(
    table: Table, size: str, viewport: dict[str, int], language: str
) -> None:
    in_play(table.service)
    page = opened(table, viewport, "/setup", language)
    expect(page.locator("#setup-form[data-ready=true]")).to_be_attached()
    fits(page)
    for row in page.evaluate(ROWS, ".setup-player"):
        middles = [middle for _, middle in row]
        assert max(middles) - min(middles) <= 2, f"a player's row broke in two: {row}"
    for text, mark, top, bottom in page.evaluate(CHOICES):
        assert top <= mark <= bottom, f"the mark of {text!r} is not beside its words"
    for field in ("#new-pin", "#preset-name"):
        needs, room = page.locator(field).evaluate(PLACEHOLDER)
        assert needs <= room, f"{field}'s hint is cut: it needs {needs} px, has {room}"
    warnings = page.locator("#warnings")
    expect(warnings).to_be_visible()
    if language == "zh-CN":
        expect(warnings).not_to_contain_text("the table PIN")
        expect(warnings).to_contain_text("牌桌密码")
    gap = page.evaluate(
        """() => document.querySelector("#setup-form").getBoundingClientRect().top
        - document.querySelector("#warnings").getBoundingClientRect().bottom"""
    )
    assert gap >= 8, f"the warnings touch the form ({gap} px apart)"
    assert page.errors == []


def test_setup_does_not_call_the_standard_rules_changed(table: Table) -> None:
    in_play(table.service)  # the last match played to 500: the standard target
    page = opened(table, PHONE, "/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_attached()
    expect(page.locator("#options-changed")).to_contain_text("the standard rules")
    expect(page.locator("#carried")).to_be_hidden()


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_history_and_rules_fit_and_dates_read_as_local(
    table: Table, size: str, viewport: dict[str, int], language: str
) -> None:
    finished(table.service)
    page = opened(table, viewport, "/history", language)
    expect(page.locator("body[data-history=ready]")).to_be_attached()
    fits(page)
    heading = page.locator(".past-match h2")
    if language == "zh-CN":
        expect(heading).to_have_text(re.compile(r"\d{4}年\d{1,2}月\d{1,2}日"))
    else:
        expect(heading).to_have_text(re.compile(r"[A-Z][a-z]{2} \d{1,2}, \d{4}"))
    expect(heading).not_to_have_text(re.compile(r"\d:\d\d:\d\d"))  # no seconds
    page.goto("/rules")
    expect(page.locator("body[data-rules=ready]")).to_be_attached()
    fits(page)
