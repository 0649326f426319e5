"""A table a person sets up on the demo server is theirs: every control a table without the
demo has (deal, turn-up, turn controls, undo), no seats to take from bots that do not play it;
"Let the bots play" hands it to the bots, "Play it yourselves" takes it back. A score-only table
there has Undo and no press button."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_until

from .conftest import PHONE, SETUP, TABLET, Table

pytestmark = pytest.mark.browser


def persons_table(table: Table, **setup: Any) -> None:
    wait_until(lambda: bool(table.state().get("setup")), "the bots set up their match")
    table.submit({"type": "setup", "setup": SETUP | setup})  # a person's set-up (a tablet's)


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_a_persons_table_on_the_demo_has_every_control(
    idle_demo_table: Table, viewport: dict[str, int]
) -> None:
    table = idle_demo_table
    persons_table(table)
    page = table.tablet(viewport, unlocked=True)
    expect(page.locator("#bots-hint")).to_contain_text("This table is yours")
    expect(page.locator("#seats")).to_be_hidden()
    page.click("#deal")
    page.locator("#turn-up button").first.click()
    expect(page.locator("#turn-controls")).to_be_visible()
    expect(page.locator("#undo")).to_be_visible()
    expect(page.locator("#virtual-press")).to_be_hidden()  # the controls' own press is the one
    before = table.state()["seq"]
    page.click("#undo")
    wait_until(lambda: table.state()["seq"] > before, "the undo was logged")
    expect(page.locator("#turn-up")).to_be_visible()
    assert page.errors == []


def test_let_the_bots_play_and_take_it_back(demo_table: Table) -> None:
    table = demo_table
    assert table.demo is not None
    table.demo.pace = 3600.0  # the bots wait while the person sets up
    persons_table(table)
    page = table.tablet(unlocked=True)
    expect(page.locator("#deal")).to_be_visible()
    table.demo.pace = 0.05
    page.click("#bots-play")
    expect(page.locator("#bots-leave")).to_be_visible()
    expect(page.locator("#seats button")).to_have_count(len(SETUP["players"]))
    expect(page.locator("#deal")).to_have_count(0)  # the bots deal now
    wait_until(
        lambda: (table.state().get("deal") or {}).get("phase") == "playing", "the bots dealt"
    )
    assert table.state()["setup"]["players"] == SETUP["players"]  # the person's table, played

    other = table.tablet()  # another tablet hears of it without reloading
    expect(other.locator("#bots-hint")).to_contain_text("The bots are playing")
    page.click("#bots-leave")
    expect(other.locator("#bots-hint")).to_contain_text("This table is yours")
    expect(page.locator("#undo")).to_be_visible()
    assert page.errors == [] and other.errors == []


def test_a_score_only_table_on_the_demo_has_undo_and_no_press(idle_demo_table: Table) -> None:
    table = idle_demo_table
    persons_table(table, mode="score_only")
    page = table.tablet(unlocked=True)
    expect(page.locator("#undo")).to_be_visible()
    expect(page.locator("#virtual-press")).to_be_hidden()
    expect(page.locator("#bots-play")).to_be_visible()


def test_no_empty_controls_panel_while_the_bots_play(idle_demo_table: Table) -> None:
    table = idle_demo_table
    wait_until(lambda: bool(table.state().get("setup")), "the bots set up their match")
    table.submit({"type": "deal"})
    table.act(type="TurnUp", card="R5")  # the bots' match, a bot to move
    page = table.tablet(PHONE, unlocked=True)
    expect(page.locator("#bots-hint")).to_contain_text("The bots are playing")
    expect(page.locator("#controls")).to_be_hidden()
    page.locator(f'#seats button[data-seat="{table.state()["deal"]["to_move"]}"]').click()
    expect(page.locator("#turn-controls")).to_be_visible()  # a seat taken: its controls
    assert page.errors == []
