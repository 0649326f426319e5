"""Playing at the table through the tablets: deal, turn up, plays, launcher presses and a
Hit 2, the UNO catch, the end of a round, two tablets kept in step live."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PORTRAIT, Table

pytestmark = pytest.mark.browser


def row(page: Any, seat: int) -> Any:
    return page.locator(f'#players tr[data-seat="{seat}"]')


def test_tablet_plays_turns_with_launcher_presses_and_a_hit_two(table: Table) -> None:
    table.submit({"type": "setup", "setup": {"players": ["Ann", "Bob", "Cy"], "seed": 3}})
    page = table.tablet(unlocked=True)

    page.click("#deal")
    page.click('#turn-up button[data-card="R5"]')
    expect(page.locator("#top-card")).to_contain_text("Red 5")
    expect(page.locator("#active-colour")).to_contain_text("R")
    expect(page.locator("#turn-name")).to_have_text("Bob")

    page.click('#plays button[data-card="R7"]')
    expect(page.locator("#turn-name")).to_have_text("Cy")
    page.click('#plays button[data-card="RH2"]')
    expect(page.locator("#top-card")).to_contain_text("Red Hit 2")
    expect(page.locator("#duties li")).to_have_text("Ann: press 2 more (Hit 2)")

    page.click("#press")  # the virtual button: the press takes the simulated launcher's path
    expect(page.locator("#duties li")).to_have_text("Ann: press 1 more (Hit 2)")
    page.click("#press")
    expect(page.locator("#alerts")).to_be_hidden()
    expect(page.locator("#launcher-status")).to_have_text("Ready")
    hands = table.state()["deal"]["hands"]
    expect(row(page, 0).locator(".count")).to_have_text(str(hands[0]))
    expect(page.locator("#feed li").first).to_contain_text("Ann pressed")

    page.click("#undo")  # a press cannot be undone: the refusal is shown in words
    expect(page.locator("#message")).to_contain_text("cannot be undone")
    assert not page.errors


def test_tablet_undoes_the_last_tap(table: Table) -> None:
    table.started()
    page = table.tablet(unlocked=True)
    page.click('#plays button[data-card="R7"]')
    expect(page.locator("#turn-name")).to_have_text("Cy")
    page.click("#undo")
    expect(page.locator("#turn-name")).to_have_text("Bob")
    expect(page.locator("#top-card")).to_contain_text("Red 5")


def test_wild_asks_for_the_colour_and_trade_hands_for_the_target(table: Table) -> None:
    table.started()
    page = table.tablet(unlocked=True)
    page.click('#plays button[data-card="W"]')
    page.click('#step button[data-colour="B"]')
    expect(page.locator("#active-colour")).to_contain_text("Blue")
    expect(page.locator("#top-card")).to_contain_text("Wild")
    page.click('#plays button[data-card="BTH"]')
    page.click('#step button[data-target="0"]')
    expect(page.locator("#feed li").first).to_contain_text("Cy traded hands with Ann")


def test_discard_all_asks_how_many_cards_went_with_it(table: Table) -> None:
    table.started()
    page = table.tablet(unlocked=True)
    page.click('#plays button[data-card="RDA"]')
    page.click('#step button[aria-label="+1"]')
    page.click('#step button[aria-label="+1"]')
    expect(page.locator("#also-count")).to_have_text("2")
    page.click("#also-ok")
    expect(row(page, 1).locator(".count")).to_have_text("4")


def test_uno_catch_from_another_tablet(table: Table) -> None:
    table.started()
    ann = table.tablet(unlocked=True)
    cy = table.tablet(PORTRAIT, unlocked=True)

    ann.click(".fix-count summary")
    ann.select_option("#fix-seat", "1")
    ann.fill("#fix-count", "2")
    ann.click("#fix-save")
    expect(row(cy, 1).locator(".count")).to_have_text("2")

    expect(ann.locator("#uno-toggle")).to_be_visible()  # Bob's play leaves one card
    ann.click('#plays button[data-card="R7"]')  # ...and Bob forgot to call UNO
    for page in (ann, cy):
        expect(page.locator("#exposed")).to_have_text("Bob has one card and did not call UNO!")
    expect(cy.locator('#catch-window .uno-call[data-target="1"]')).to_have_text("Bob: UNO!")

    cy.click('#catch-window button[data-seat="2"]')  # "Cy catches Bob!"
    for page in (ann, cy):
        expect(page.locator("#exposed")).to_be_hidden()
        expect(page.locator("#duties li")).to_have_text("Bob: press 2 more (missed UNO)")
    assert table.state()["deal"]["duties"][0]["why"] == "uno"


def test_uno_called_with_the_play_is_not_exposed(table: Table) -> None:
    table.started()
    table.act(type="Correct", seat=1, count=2)
    page = table.tablet(unlocked=True)
    page.check("#uno-toggle")
    page.click('#plays button[data-card="R7"]')
    expect(page.locator("#turn-name")).to_have_text("Cy")
    expect(row(page, 1).locator(".badge.uno")).to_have_text("UNO!")
    expect(page.locator("#exposed")).to_be_hidden()


def test_round_end_scores_and_next_deal(table: Table) -> None:
    table.started(options={"target": 100})
    table.act(type="Correct", seat=1, count=1)
    page = table.tablet(unlocked=True)

    page.click('#plays button[data-card="R7"]')  # Bob goes out
    expect(page.locator("#scoring")).to_be_visible()
    expect(page.locator("#scoring .shown")).to_contain_text("Bob went out")
    expect(page.locator("#scoring .hand-entry")).to_have_attribute("data-seat", "0")
    expect(page.locator("#scoring .hand-entry h3")).to_contain_text("the table counted 7 cards")
    page.click("#scoring .count-cards summary")  # points first; counting the cards is folded
    page.click('#faces [data-face="5"] .plus')
    page.click('#faces [data-face="WAH"] .plus')
    page.click('#faces [data-face="WAH"] .plus')
    page.click('#faces [data-face="WAH"] .minus')
    expect(page.locator("#picks-points")).to_have_text("2 cards, 55 points")
    expect(page.locator("#count-mismatch")).to_contain_text("counted 7 cards for Ann, not 2")
    page.click("#save-cards")  # the first tap asks to check the hand
    expect(page.locator("#save-cards")).to_have_text("Save anyway")
    assert "0" not in table.state()["deal"]["shown"]
    page.click("#save-cards")

    expect(page.locator("#scoring .hand-entry")).to_have_attribute("data-seat", "2")
    page.fill("#hand-points", "12")
    page.click("#save-points")

    expect(page.locator("#standings")).to_contain_text("Bob: 67")
    expect(row(page, 1).locator(".total")).to_have_text("67")
    expect(page.locator("#history table.rounds tbody tr")).to_have_count(1)
    expect(page.locator("#history .won")).to_have_text("★ +67")
    expect(page.locator("#chart svg polyline")).to_have_count(3)
    expect(page.locator("#chart svg")).to_contain_text("Bob 67")

    page.click("#deal")  # the next deal, dealt by the right dealer
    expect(page.locator("#turn-up")).to_be_visible()
    assert table.state()["deal"]["dealer"] == table.state()["deals"][0]["winner"]


def test_two_tablets_see_the_same_updates_live(table: Table) -> None:
    table.submit({"type": "setup", "setup": {"players": ["Ann", "Bob", "Cy"], "seed": 3}})
    player = table.tablet(unlocked=True)
    watcher = table.tablet(PORTRAIT)  # locked: reads the scoreboard only
    expect(watcher.locator("#controls")).to_be_hidden()
    expect(watcher.locator("#live")).to_have_attribute("data-state", "live")

    player.click("#deal")
    player.click('#turn-up button[data-card="G3"]')
    expect(watcher.locator("#top-card")).to_contain_text("Green 3")
    expect(watcher.locator("#turn-name")).to_have_text("Bob")
    player.click('#plays button[data-card="GS"]')
    expect(watcher.locator("#turn-name")).to_have_text("Ann")
    expect(watcher.locator("#feed")).to_contain_text("Bob played Green Skip")
    expect(watcher.locator("#feed")).to_contain_text("Cy is skipped")
    assert not watcher.errors and not player.errors


def test_manual_table_types_the_cards_a_press_gave(manual_table: Table) -> None:
    table = manual_table
    table.started()
    table.act(type="Play", seat=1, card="RH2")
    page = table.tablet(unlocked=True)
    expect(page.locator("#launcher-status")).to_have_text("Manual")
    expect(page.locator("#press")).to_have_count(0)
    page.fill("#press-count", "2")
    page.click("#press-typed")
    expect(page.locator("#duties li")).to_have_text("Cy: press 1 more (Hit 2)")
    expect(row(page, 2).locator(".count")).to_have_text("9")
    page.fill("#press-count", "0")
    page.click("#press-typed")
    expect(page.locator("#alerts")).to_be_hidden()


def test_tablet_reconnects_and_catches_up(table: Table) -> None:
    table.started()
    page = table.tablet()
    expect(page.locator("#live")).to_have_attribute("data-state", "live")

    def while_away() -> None:
        expect(page.locator("#live")).to_have_attribute("data-state", "offline")
        table.act(type="Play", seat=1, card="R7")

    table.restart_server(while_away)
    expect(page.locator("#turn-name")).to_have_text("Cy")  # missed while away
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    table.act(type="Play", seat=2, card="R8")
    expect(page.locator("#turn-name")).to_have_text("Ann")
