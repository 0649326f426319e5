"""The scoreboard as a family sees it on a propped-up tablet (both ways round) and a phone, in
English and Chinese: nothing scrolls sideways or is cut short, a long card name shows whole
without moving anything, no panel stands taller than what it holds, the chart's words are big
enough to read and clear of its axis, and the footer's words sit on one line."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from controller.policy import ScriptedPolicy
from tests.waiting import wait_until

from .conftest import Table, _table
from .looks import CHART_TEXT, LANDSCAPE, PHONE, SIZES, SLACK, fits, opened
from .screens import finished, in_play, reload, score_only

pytestmark = pytest.mark.browser

SCENES = {"in-play": in_play, "reload": reload, "score-only": score_only, "match-end": finished}


@pytest.fixture
def scripted_table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A table whose launcher fires 3 cards at every press (as `make screenshots` has it)."""
    yield from _table(browser, tmp_path, policy=ScriptedPolicy([3] * 20))


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_board_fits_and_a_long_card_name_shows_whole_without_a_jump(
    table: Table, size: str, viewport: dict[str, int], language: str
) -> None:
    table.started(top="R5")
    page = opened(table, viewport, language=language)
    game = page.locator("#game-panel")
    height = game.bounding_box()["height"]
    for card in ("RTH", "WHF"):  # Red Trade Hands, then Wild Hit-Fire
        mover = table.state()["deal"]["to_move"]
        extra = {"target": (mover + 1) % 3} if card == "RTH" else {"colour": "G"}
        table.act(type="Play", seat=mover, card=card, **extra)
        expect(page.locator("#top-face svg")).to_have_attribute("data-card", card)
        fits(page)
        assert game.bounding_box()["height"] == height, f"the board jumped at {card}"
    assert page.errors == []


@pytest.mark.parametrize("scene", SCENES)
def test_no_panel_stands_taller_than_what_it_holds(scripted_table: Table, scene: str) -> None:
    table = scripted_table
    SCENES[scene](table.service)
    page = opened(table, LANDSCAPE)
    expect(page.locator("#live[data-state=live]")).to_be_attached()
    slack = dict(page.evaluate(SLACK))
    tall = {panel: px for panel, px in slack.items() if px > 24}  # a last margin is no gap
    assert not tall, f"empty space at the bottom of {tall}"
    toolbar = page.locator("#controls .toolbar")
    if scene == "match-end":  # only Undo is left: no dividing line above it
        assert toolbar.evaluate("el => getComputedStyle(el).borderTopWidth") == "0px"
    fits(page)


@pytest.mark.parametrize(("size", "viewport"), [("landscape", LANDSCAPE), ("phone", PHONE)])
def test_the_chart_reads_from_a_metre_and_its_names_clear_the_axis(
    table: Table, size: str, viewport: dict[str, int]
) -> None:
    finished(table.service)  # two players tied on 0 at the bottom
    page = opened(table, viewport)
    expect(page.locator("#chart .series-name")).to_have_count(4)
    small = [(text, px) for text, px in page.evaluate(CHART_TEXT, "#chart") if px < 14]
    assert not small, f"chart text under 14 px: {small}"
    ticks = page.locator("#chart .axes text[text-anchor=middle]")
    top_of_ticks = min(box["y"] for box in (t.bounding_box() for t in ticks.all()))
    for label in page.locator("#chart .series-name").all():
        box = label.bounding_box()
        assert box["y"] + box["height"] <= top_of_ticks + 1, f"{label.text_content()} on the axis"


def test_the_chart_redraws_for_its_new_width(table: Table) -> None:
    finished(table.service)
    page = opened(table, PHONE)
    expect(page.locator("#chart .series-name")).to_have_count(4)
    page.set_viewport_size(LANDSCAPE)
    small = [(text, px) for text, px in page.evaluate(CHART_TEXT, "#chart") if px < 14]
    assert not small, f"chart text under 14 px after turning the tablet: {small}"


# Where each footer item's words are drawn: [top of its box, middle of its words].
FOOTER = """() => [...document.querySelectorAll("footer.footer > *")].map((el) => {
  const words = document.createRange();
  words.selectNodeContents(el);
  const box = words.getBoundingClientRect();
  const top = Math.round(el.getBoundingClientRect().top);
  return [top, box.top + box.height / 2, el.textContent.trim()];
})"""


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_footer_words_sit_on_one_line(
    table: Table, size: str, viewport: dict[str, int]
) -> None:
    page = opened(table, viewport)
    items = page.evaluate(FOOTER)
    for _, line in itertools.groupby(sorted(items), key=lambda item: item[0]):
        middles = [middle for _, middle, _ in line]
        assert max(middles) - min(middles) <= 2, f"footer words at different heights: {items}"
    assert all(text not in ("·", "") for _, _, text in items), items


def test_no_legend_without_rounds_and_chinese_punctuation(table: Table) -> None:
    table.started(top="R5")
    page = opened(table, PHONE, language="zh-CN")
    expect(page.locator("#history")).to_contain_text("还没有")
    expect(page.locator("#history-panel .legend")).to_be_hidden()
    expect(page.locator("#phase")).to_have_text("庄家：Ann")
    expect(page.locator("#history-panel h2")).not_to_have_text("历史")  # "history": not rounds


# Each points field's place, [top, left], read in one go: the controls are drawn again with
# every state the page accepts, so fields read one by one may be gone by the next read.
POINTS = """() => [...document.querySelectorAll(".points-input input")].map((el) => {
  const box = el.getBoundingClientRect();
  return box.width > 0 ? [Math.round(box.y), Math.round(box.x)] : null;
})"""


def test_score_only_points_line_up(table: Table) -> None:
    score_only(table.service)
    page = opened(table, PHONE)
    found: list[list[int]] = []

    def every_field_shown() -> bool:
        places = page.evaluate(POINTS)
        found[:] = places if places and all(places) else []
        return bool(found)

    wait_until(every_field_shown, "every points field shown")
    rows: dict[int, list[int]] = {}
    for top, left in found:
        rows.setdefault(top, []).append(left)
    lefts = [left for row in rows.values() for left in row]
    assert len(set(lefts)) < len(lefts), f"no two points fields line up: {rows}"
    first, *others = rows.values()
    assert all(set(row) <= set(first) for row in others), f"points fields out of line: {rows}"
