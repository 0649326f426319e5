"""The set-up page in Chromium, as a user walking through it found it: the match's target is no
house rule (editing it neither unfolds the rules, moving "Start the match" from under the
finger, nor counts as a change, on the demo's table either), every checkbox sits beside its
words, and the open house rules are compact: two columns on a tablet, one on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_until

from .conftest import Table
from .looks import LANDSCAPE, PHONE, SIZES, opened
from .screens import in_play

pytestmark = pytest.mark.browser

START = "#setup-form button[type=submit]"
TARGET = '[data-option="target"] input'

# Where "Start the match" is on the page (px from the page's top), and whether the house
# rules are unfolded.
WHERE = """() => ({
  start: document.querySelector("#setup-form button[type=submit]").getBoundingClientRect().top
    + window.scrollY,
  open: document.querySelector("#options-box").open,
})"""


def edit_target(page: Any, points: str) -> None:
    """Type a target and leave the field, as a finger does on its way to the next control
    (the field's change event fires as it loses focus)."""
    page.locator(TARGET).fill(points)
    page.locator(TARGET).press("Tab")


@pytest.mark.parametrize(("size", "viewport"), [("landscape", LANDSCAPE), ("phone", PHONE)])
def test_editing_the_target_leaves_start_under_the_finger(
    table: Table, size: str, viewport: dict[str, int]
) -> None:
    page = opened(table, viewport, "/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_attached()
    names = page.locator(".setup-player input")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        names.nth(i).fill(name)
    page.locator(".setup-player").nth(3).get_by_role("button", name="Remove").click()
    expect(names).to_have_count(3)
    before = page.evaluate(WHERE)
    assert before["open"] is False

    edit_target(page, "300")
    after = page.evaluate(WHERE)
    assert after == before, f"the target's edit moved the form: {before} → {after}"
    expect(page.locator("#options-changed")).to_contain_text("the standard rules")

    page.click(START)
    page.wait_for_url("**/")
    setup = table.state()["setup"]
    assert setup["players"] == ["Ann", "Bob", "Cy"]
    assert setup["options"] == {"target": 300}
    assert page.errors == []


@pytest.mark.parametrize(
    ("language", "standard", "changed"),
    [("en", "the standard rules", "1 changed"), ("zh-CN", "标准规则", "不同 1 项")],
)
def test_the_demo_tables_target_is_no_house_rule_change(
    idle_demo_table: Table, language: str, standard: str, changed: str
) -> None:
    table = idle_demo_table
    wait_until(lambda: bool(table.state().get("setup")), "the bots' set-up")
    assert "target" in table.state()["setup"]["options"]  # the demo plays to its own target
    page = opened(table, LANDSCAPE, "/setup", language)
    expect(page.locator("#setup-form[data-ready=true]")).to_be_attached()
    expect(page.locator("#carried")).to_be_hidden()
    expect(page.locator("#options-changed")).to_contain_text(standard)
    assert page.evaluate(WHERE)["open"] is False

    edit_target(page, "250")
    expect(page.locator("#options-changed")).to_contain_text(standard)
    assert page.evaluate(WHERE)["open"] is False

    page.click("#options-box summary")  # a real house rule is a change, counted in words
    page.locator('[data-option="attack_stack_hits"] input').check()
    expect(page.locator("#options-changed")).to_contain_text(changed)
    assert page.errors == []


# Each checkbox of the form: its option, the middle of the box, and the top and bottom of its
# words.
CHECKBOXES = """() => [...document.querySelectorAll("#setup-form .option input[type=checkbox]")]
  .map((box) => {
    const row = box.closest(".option");
    const mark = box.getBoundingClientRect();
    const words = row.querySelector(".option-label").getBoundingClientRect();
    return [row.dataset.option, mark.top + mark.height / 2, words.top, words.bottom,
      mark.right <= words.left];
  })"""


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_every_checkbox_sits_beside_its_words(
    table: Table, size: str, viewport: dict[str, int], language: str
) -> None:
    page = opened(table, viewport, "/setup", language)
    expect(page.locator("#setup-form[data-ready=true]")).to_be_attached()
    page.click("#options-box summary")
    for game in ("attack", "classic"):
        page.check(f"input[name=game][value={game}]")
        expect(page.locator('[data-option="start_draw2_skips"]')).to_have_count(
            1 if game == "classic" else 0
        )
        boxes = page.evaluate(CHECKBOXES)
        assert len(boxes) >= 10
        apart = [
            option
            for option, middle, top, bottom, before in boxes
            if not (top <= middle <= bottom and before)
        ]
        assert apart == [], f"{game}: checkboxes apart from their words: {apart}"
    assert page.errors == []


# The open house rules: the left edge and the height of each group of options, and the height
# of the box that holds them.
GROUPS = """() => {
  const groups = [...document.querySelectorAll("#options .option-group")].map((group) => {
    const box = group.getBoundingClientRect();
    return [Math.round(box.left), box.height];
  });
  return [groups, document.querySelector("#options").getBoundingClientRect().height];
}"""


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_open_house_rules_take_two_columns_on_a_tablet_and_one_on_a_phone(
    table: Table, size: str, viewport: dict[str, int]
) -> None:
    in_play(table.service)  # a match to replace, as at a real table
    page = opened(table, viewport, "/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_attached()
    closed = page.evaluate("document.documentElement.scrollHeight")
    page.click("#options-box summary")
    for game in ("attack", "classic"):
        page.check(f"input[name=game][value={game}]")
        groups, height = page.evaluate(GROUPS)
        lefts = sorted({left for left, _ in groups})
        stacked = sum(group_height for _, group_height in groups)
        if size == "phone":
            assert len(lefts) == 1, f"{game}: the phone shows {len(lefts)} columns"
        else:
            assert len(lefts) == 2, f"{game}: the tablet shows {len(lefts)} columns"
            assert height <= 0.62 * stacked, f"{game}: {height} px of {stacked} px stacked"
    opened_height = page.evaluate("document.documentElement.scrollHeight")
    print(f"{size}: set-up page {closed} px, {opened_height} px with the rules open (classic)")
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"scrolls sideways by {wide} px"
    assert page.errors == []
