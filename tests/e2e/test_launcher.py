"""The launcher on the scoreboard: dealing every hand with it, a jam shown and cleared; and
the classic game's Wild Draw Four challenge, draw and keep."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_until

from .conftest import SETUP, Table

pytestmark = pytest.mark.browser


def test_deal_with_the_launcher(table: Table) -> None:
    table.submit({"type": "setup", "setup": SETUP})
    page = table.tablet(unlocked=True)
    page.click("#deal")
    page.click("#deal-launcher")
    expect(page.locator("#notices")).to_contain_text("Every hand is dealt: turn up the first card")
    expect(page.locator("#launcher-status")).to_have_text("Ready")
    # every card that came out is in a hand: 21, or more when a starved CPU let the motor run
    # on (the hand that got it is corrected, as a late card is)
    simulator = table.launcher.simulator
    wait_until(lambda: sum(table.state()["deal"]["hands"]) == simulator.cards_out >= 21)


def test_jam_is_shown_and_cleared(table: Table) -> None:
    table.submit({"type": "setup", "setup": SETUP})
    table.submit({"type": "deal"})
    page = table.tablet(unlocked=True)
    table.launcher.simulator.jam_next()
    page.click("#deal-launcher")
    expect(page.locator("#launcher-status")).to_have_text("Jam")
    expect(page.locator("#launcher-fault")).to_contain_text("jam")

    table.launcher.simulator.clear_jam()  # a person pulls the stuck card out...
    page.click("#clear-fault")  # ...and says so on the tablet
    expect(page.locator("#launcher-status")).to_have_text("Ready")
    expect(page.locator("#clear-fault")).to_be_hidden()


def test_classic_wild_draw_four_challenge_then_draw_and_keep(table: Table) -> None:
    table.started(game="classic")
    page = table.tablet(unlocked=True)
    expect(page.locator("#press")).to_have_count(0)  # classic: no launcher presses
    page.click('#plays button[data-card="W4"]')
    page.click('#step button[data-colour="G"]')
    expect(page.locator("#duties li")).to_have_text("Cy: take 4 cards or challenge")
    expect(page.locator("#accept")).to_be_visible()
    page.click("#guilty")
    expect(page.locator("#feed")).to_contain_text("Cy challenged Bob")
    expect(page.locator('#players tr[data-seat="1"] .count')).to_have_text("10")

    page.click("#draw")
    expect(page.locator('#players tr[data-seat="2"] .count')).to_have_text("8")
    page.click("#pass")
    expect(page.locator("#turn-name")).to_have_text("Ann")
