"""Set-up, the PIN, the language switch, score-only tables and the admin page, in Chromium."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    ADMIN_PASSWORD,
    PHONE,
    PIN,
    TABLET,
    Table,
    csrf,
    open_house_rules,
    open_page,
    shoot,
    wait_ready,
)

pytestmark = pytest.mark.browser


def test_pin_flow_wrong_then_right(table: Table) -> None:
    table.started()
    page = table.tablet()
    expect(page.locator("#controls")).to_be_hidden()
    page.click("#unlock")
    page.fill("#pin-input", "0000")
    page.click("#pin-form button[type=submit]")
    expect(page.locator("#message")).to_have_text("Wrong PIN: try again.")
    expect(page.locator("#controls")).to_be_hidden()

    page.fill("#pin-input", PIN)
    page.click("#pin-form button[type=submit]")
    expect(page.locator("#lock")).to_be_visible()  # the page reloaded, unlocked
    wait_ready(page)
    expect(page.locator('#plays button[data-card="R7"]')).to_be_visible()

    page.click("#lock")
    expect(page.locator("#unlock")).to_be_visible()
    expect(page.locator("#controls")).to_be_hidden()


def test_setup_page_sets_up_a_table(table: Table) -> None:
    page = table.tablet()
    expect(page.locator("#empty-panel")).to_contain_text("No match is set up yet.")
    page.click("#empty-panel a")
    page.wait_for_url("**/setup")
    wait_ready(page)
    expect(page.locator("#pin-form")).to_be_visible()  # set-up needs the PIN
    page.fill("#pin-input", PIN)
    page.click("#pin-form button[type=submit]")
    form = page.locator("#setup-form[data-ready=true]")
    expect(form).to_be_visible()

    names = page.locator(".setup-player input")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        names.nth(i).fill(name)
    page.locator(".setup-player").nth(3).get_by_role("button", name="Remove").click()
    expect(names).to_have_count(3)
    page.locator(".setup-player").nth(2).get_by_role("button", name="Move up").click()
    expect(names.nth(1)).to_have_value("Cy")

    expect(page.locator("#options-changed")).to_contain_text("the standard rules")
    open_house_rules(page)
    page.check("input[name=game][value=classic]")
    expect(page.locator('[data-option="wd4_bluffing"]')).to_be_visible()
    expect(page.locator('[data-option="suggestion_penalty"]')).to_have_count(0)
    page.check("input[name=game][value=attack]")
    expect(page.locator('[data-option="suggestion_penalty"]')).to_be_visible()
    page.locator('[data-option="target"] input').fill("300")
    page.locator('[data-option="target"] input').dispatch_event("change")
    page.select_option("#first-dealer", "1")
    page.select_option("#eject-profile", "gentle")
    shoot(page, "setup-tablet-landscape")
    page.click("#setup-form button[type=submit]")

    page.wait_for_url("**/")
    expect(page.locator("#players tr")).to_have_count(3)
    expect(page.locator('#players tr[data-seat="1"] .name')).to_contain_text("Cy")
    setup = table.state()["setup"]
    assert setup["players"] == ["Ann", "Cy", "Bob"]
    assert setup["options"] == {"target": 300}
    assert (setup["first_dealer"], setup["eject_profile"], setup["game"]) == (1, "gentle", "attack")
    expect(page.locator("#target")).to_contain_text("300")
    expect(page.locator("#deal")).to_be_visible()


def test_setup_options_read_in_plain_words_in_both_languages(table: Table) -> None:
    page = table.tablet(PHONE, unlocked=True)
    open_page(page, "/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    open_house_rules(page)
    target = page.locator('[data-option="target"] .option-label')
    expect(target).to_contain_text("Play to this many points")
    expect(target.locator(".fine")).to_contain_text("the lowest total wins")
    page.check('#formats input[value="elim_tournament"]')
    expect(target).to_contain_text("Players out at this many points")
    expect(page.locator('[data-option="suggestion_penalty"] .fine')).to_contain_text("4 times")
    assert "§" not in page.locator("#setup-form").inner_text()
    shoot(page, "setup-options-phone-en")

    page.click("#language")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    open_house_rules(page)
    expect(page.locator('[data-option="deck"] .option-label')).to_contain_text("用哪副牌")
    suggestion = page.locator('[data-option="suggestion_penalty"] .fine')
    expect(suggestion).to_contain_text("按发牌机 4 次")
    text = page.locator("#setup-form").inner_text()
    assert "§" not in text and "=" not in text
    shoot(page, "setup-options-phone-zh")
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"scrolls sideways by {wide} px"
    assert page.errors == []


def test_setup_refusal_is_shown_in_words(table: Table) -> None:
    page = table.tablet(unlocked=True)
    open_page(page, "/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    names = page.locator(".setup-player input")
    names.nth(0).fill("Ann")
    names.nth(1).fill("ann")
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#message")).to_contain_text("two players have the same name")


def test_language_switch_shows_chinese_card_names(table: Table) -> None:
    table.started(top="R5")
    table.act(type="Play", seat=1, card="RH2")
    page = table.tablet(unlocked=True)
    expect(page.locator("#top-card")).to_contain_text("Red Hit 2")

    page.click("#language")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("#top-card")).to_contain_text("红 罚按牌 2")  # the card keeps its 2
    expect(page.locator("#top-face svg")).to_have_attribute("aria-label", "红 罚按牌 2")
    expect(page.locator("#feed")).to_contain_text("Bob 打出 红 罚按牌 2")
    expect(page.locator("#active-colour")).to_contain_text("红")
    expect(page.locator(".nav")).to_contain_text("记分板")
    expect(page.locator("#duties li")).to_have_text("Cy：再按 2 次（罚按牌 2）")
    expect(page.locator('#plays button[data-card="RS"]')).to_have_count(0)  # Cy must press
    expect(page.locator("#press")).to_have_text("按发牌机")

    page.click("#language")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#top-card")).to_contain_text("Red Hit 2")


def test_score_only_table_enters_rounds_to_the_match_end(table: Table) -> None:
    setup = {"players": ["Ann", "Bob"], "mode": "score_only", "options": {"target": 100}}
    table.submit({"type": "setup", "setup": setup})
    page = table.tablet(PHONE, unlocked=True)
    form = page.locator("#round-form")
    expect(form).to_be_visible()
    expect(page.locator("#save-round")).to_be_disabled()

    form.locator('.tab[data-seat="0"]').click()
    form.locator('input[data-seat="1"]').fill("60")
    page.click("#save-round")
    expect(page.locator('#players tr[data-seat="0"] .total')).to_have_text("60")
    expect(page.locator("#history tbody tr")).to_have_count(1)

    form.locator('.tab[data-seat="1"]').click()
    form.locator('input[data-seat="0"]').fill("45")
    page.click("#save-round")
    expect(page.locator('#players tr[data-seat="1"] .total')).to_have_text("45")

    form.locator('.tab[data-seat="0"]').click()
    form.locator('input[data-seat="1"]').fill("50")
    page.click("#save-round")
    expect(page.locator("#champion")).to_have_text("Ann wins!")
    expect(page.locator("#final-standings li").first).to_contain_text("110")
    expect(page.locator("#new-match")).to_have_text("New match")
    expect(page.locator("#history tbody tr").first).to_contain_text("(50)")  # Bob's hand
    expect(page.locator("#chart svg polyline")).to_have_count(2)
    shoot(page, "score-only-phone")
    assert table.state()["match_over"]


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_score_only_table_hides_the_launcher_but_keeps_the_sound_switch(
    table: Table, viewport: dict[str, int]
) -> None:
    """People play with cards and only enter points: no launcher to show, but the winner's
    fanfare still plays, so this tablet's sound switch stays within reach."""
    setup = {"players": ["Ann", "Bob"], "mode": "score_only", "options": {"target": 100}}
    table.submit({"type": "setup", "setup": setup})
    page = table.tablet(viewport, unlocked=True)
    expect(page.locator("#round-form")).to_be_visible()
    expect(page.locator("#launcher-panel")).to_be_hidden()
    expect(page.locator("#tension")).to_be_hidden()
    sound = page.locator("#sound")
    expect(sound).to_be_visible()
    expect(page.locator("#phone-panel #sound")).to_have_count(1)  # with this tablet's tools
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    table.submit({"type": "round", "winner": 0, "points": [0, 120]})
    expect(page.locator("#champion")).to_have_text("Ann wins!")
    expect(page.locator("html")).to_have_attribute("data-sounds", re.compile("winner"))
    expect(page.locator("#launcher-panel")).to_be_hidden()

    table.started(top="R5")  # a tracked match with the launcher: its panel and switch are back
    expect(page.locator("#launcher-panel")).to_be_visible()
    expect(page.locator("#launcher-panel #sound")).to_be_visible()
    expect(page.locator("#launcher-status")).to_have_attribute("data-status", "ready")
    assert page.errors == []


def test_admin_page_logs_in_and_shows_the_launcher(table: Table) -> None:
    page: Any = table.tablet()
    open_page(page, "/admin")
    page.fill("#admin-password", "nope")
    page.click("#admin-form button[type=submit]")
    expect(page.locator("#message")).to_have_text("Wrong password.")
    page.fill("#admin-password", ADMIN_PASSWORD)
    page.click("#admin-form button[type=submit]")
    expect(page.locator("#admin-status")).to_have_text("Ready")
    page.click("#admin-clear")
    expect(page.locator("#admin-status")).to_have_text("Ready")


def test_api_reference_page(table: Table) -> None:
    page = table.tablet()
    page.click("footer a")
    expect(page.locator("h1")).to_have_text("The scoreboard API")
    expect(page.locator("table", has_text="GET /api/state").first).to_be_visible()


def test_setup_changes_the_table_pin_and_locks_other_tablets(table: Table) -> None:
    first, second = table.tablet(), table.tablet()
    for page in (first, second):
        open_page(page, "/setup")
        page.fill("#pin-input", PIN)
        page.click("#pin-form button[type=submit]")
        expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    second.fill("#new-pin", "97531")  # a player may not: the PIN is the admin's
    second.click("#change-pin")
    expect(second.locator("#message")).to_contain_text("only the admin")
    login = first.request.post(f"{table.url}/api/session/admin", data={"password": ADMIN_PASSWORD},
                               headers={"X-CSRF-Token": csrf(first)})  # fmt: skip
    assert login.ok, login.text()
    first.fill("#new-pin", "12")
    first.click("#change-pin")
    expect(first.locator("#message")).to_contain_text("4 to 8 digits")
    first.fill("#new-pin", "97531")
    first.click("#change-pin")
    expect(first.locator("#table-settings")).to_be_visible()
    expect(first.locator("#new-pin")).to_have_value("")  # cleared once the table took it
    second.reload()
    wait_ready(second)
    expect(second.locator("#pin-form")).to_be_visible()  # the old PIN no longer unlocks it
    second.fill("#pin-input", "97531")
    second.click("#pin-form button[type=submit]")
    expect(second.locator("#setup-form[data-ready=true]")).to_be_visible()
