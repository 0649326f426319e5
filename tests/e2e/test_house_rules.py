"""House rules and match formats at the table, in Chromium: the seed-000 preset (stacking,
点断, 对牌, within-deal elimination) played through the tablets, a team match's standings, the
rotation's schedule, chips balances, Attack's stacked Hit 2 and suggestions, and presets on
the set-up page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, PORTRAIT, Table, open_house_rules, shoot

pytestmark = pytest.mark.browser

FOUR = ["Ann", "Bob", "Cy", "Di"]


def row(page: Any, player: int) -> Any:
    return page.locator(f'#players tr[data-seat="{player}"]')


def set_up_on_the_page(page: Any, names: list[str]) -> None:
    """Open the set-up page (unlocked) and type the players' names."""
    page.goto("/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    inputs = page.locator(".setup-player input")
    for i, name in enumerate(names):
        inputs.nth(i).fill(name)
    open_house_rules(page)


def test_seed_000_preset_plays_a_stack_a_group_a_jump_in_and_eliminations(table: Table) -> None:
    ann = table.tablet(unlocked=True)
    set_up_on_the_page(ann, FOUR)
    ann.select_option("#preset", "seed-000-chinese")
    expect(ann.locator("input[name=game][value=classic]")).to_be_checked()
    expect(ann.locator('[data-option="stack_s0"] input')).to_be_checked()
    expect(ann.locator('[data-option="jumpin_numbers"] input')).to_be_checked()
    expect(ann.locator('[data-option="multi_same_face"] input')).to_be_checked()
    expect(ann.locator('#formats input[value="elim_within_deal"]')).to_be_checked()
    expect(ann.locator("#notices")).to_contain_text("Loaded: Chinese house rules (seed 000)")
    shoot(ann, "setup-seed-000-preset")
    ann.click("#setup-form button[type=submit]")
    ann.wait_for_url("**/")
    setup = table.state()["setup"]
    assert setup["game"] == "classic"
    assert setup["options"] == {
        "stack_s0": True, "jumpin_numbers": True, "multi_same_face": True,
        "format": "elim_within_deal",
    }  # fmt: skip
    expect(ann.locator("#house")).to_contain_text("Within-deal elimination")
    expect(ann.locator("#total-head")).to_have_text("Losses")

    ann.click("#deal")  # Ann deals, Bob leads
    ann.click('#turn-up button[data-card="R5"]')
    expect(ann.locator("#turn-name")).to_have_text("Bob")

    # a stack: Bob's +2, passed on by Cy with a +2, accepted by Di
    ann.click('#plays button[data-card="R+2"]')
    expect(ann.locator("#stack")).to_contain_text("Cy faces +2")
    expect(ann.locator("#turn-controls h2")).to_have_text("Pass it on with:")
    ann.click('#plays button[data-card="G+2"]')
    expect(ann.locator("#stack-total")).to_have_text("Di faces +4")
    expect(ann.locator("#accept")).to_have_text("Accept the stack (+4)")
    shoot(ann, "house-stack-tablet")
    ann.click("#accept")
    expect(ann.locator("#stack")).to_be_hidden()
    expect(row(ann, 3).locator(".count")).to_have_text("11")
    expect(ann.locator("#turn-name")).to_have_text("Ann")

    # several cards in one tap: Ann's Green 7 with a Red 7 and a Blue 7, the Blue one on top
    ann.check("#multi-toggle")
    ann.click('#plays button[data-card="G7"]')
    ann.click('#group-picker button[data-card="R7"]')
    ann.click('#group-picker button[data-card="B7"]')
    ann.click('#group-cards [data-index="2"] .card-button')
    expect(ann.locator('#group-cards [data-index="2"]')).to_contain_text("on top")
    shoot(ann, "house-group-tablet")
    ann.click("#group-ok")
    expect(ann.locator("#top-card")).to_contain_text("Blue 7")
    expect(row(ann, 0).locator(".count")).to_have_text("4")
    played = table.state()["deal"]
    assert played["top"] == "B7" and played["to_move"] == 1

    # a jump-in from another tablet: Di cuts in with the identical Blue 7, Bob and Cy lose
    # their turn
    di = table.tablet(PORTRAIT, unlocked=True)
    expect(di.locator("#feed li").first).to_contain_text("Ann played Blue 7 with Green 7, Red 7")
    expect(di.locator("#feed")).to_contain_text("Bob played Red Draw Two")  # from the history
    expect(di.locator('#jump-window button[data-seat="2"]')).to_be_visible()
    jump = di.locator('#jump-window button[data-seat="3"][data-card="B7"]')
    expect(jump).to_contain_text("Jump in!")
    shoot(di, "house-jump-in-portrait")
    jump.click()
    for page in (ann, di):  # both Blue 7s are on the pile now: nobody can cut in on Di's
        expect(page.locator("#jump-window button")).to_have_count(0)
        expect(page.locator("#turn-name")).to_have_text("Ann")
        expect(row(page, 3).locator(".count")).to_have_text("10")
    expect(ann.locator("#feed li").first).to_contain_text("Di played Blue 7")

    # within-deal elimination: Ann, then Bob, then Cy go out; Di holds the last cards
    for seat, card in ((0, "B5"), (1, "B6"), (2, "B8")):
        table.act(type="Correct", seat=seat, count=1)
        expect(ann.locator("#turn-name")).to_have_text(FOUR[seat])
        ann.click(f'#plays button[data-card="{card}"]')
        if seat == 0:
            expect(row(ann, 0).locator(".badge.out-badge")).to_have_text("Out #1")
            expect(row(ann, 0)).to_have_class("out")
    expect(ann.locator("#finishing ol li")).to_have_text(["Ann", "Bob", "Cy"])
    loser = "Di held the last cards and lost the deal"
    expect(ann.locator("#finishing .loser")).to_have_text(loser)
    expect(row(ann, 3).locator(".total")).to_have_text("1")
    expect(ann.locator("#deal")).to_have_text("Next deal: Di deals")
    shoot(ann, "house-elimination-tablet")
    assert not ann.errors and not di.errors


def test_team_match_shows_team_standings_after_a_round(table: Table) -> None:
    page = table.tablet(unlocked=True)
    set_up_on_the_page(page, FOUR)
    page.check("input[name=game][value=classic]")
    page.check('#formats input[value="team_play"]')
    expect(page.locator('[data-option="team_scoring"]')).to_be_visible()
    expect(page.locator('#teams-preview li[data-team="0"]')).to_have_text("Team 1: Ann · Cy")
    expect(page.locator('#teams-preview li[data-team="1"]')).to_have_text("Team 2: Bob · Di")
    page.click("#setup-form button[type=submit]")
    page.wait_for_url("**/")
    assert table.state()["setup"]["options"] == {"format": "team_play"}
    expect(page.locator("#teams tr")).to_have_count(2)

    page.click("#deal")
    page.click('#turn-up button[data-card="G3"]')
    table.act(type="Correct", seat=1, count=1)
    page.click('#plays button[data-card="G4"]')  # Bob goes out
    for seat, points in ((0, 20), (2, 15), (3, 30)):
        expect(page.locator("#scoring .hand-entry")).to_have_attribute("data-seat", str(seat))
        page.fill("#hand-points", str(points))
        page.click("#save-points")

    # the winner's team collects the other team's points (20 + 15); Di's own do not count
    teams = page.locator("#teams tr")
    expect(teams.nth(0)).to_have_attribute("data-team", "1")
    expect(teams.nth(0)).to_contain_text("Bob · Di")
    expect(teams.nth(0).locator(".total")).to_have_text("35")
    expect(teams.nth(1).locator(".total")).to_have_text("0")
    expect(row(page, 3).locator(".total")).to_have_text("35")
    expect(row(page, 2).locator(".badge.team")).to_have_text("Team 1")
    shoot(page, "team-standings-tablet")
    assert table.state()["standings"]["team_totals"] == [0, 35]
    assert not page.errors


def test_rotation_shows_the_schedule_and_the_next_pairing(table: Table) -> None:
    setup = {"players": FOUR, "mode": "score_only", "options": {"format": "rotation_4p"}}
    table.submit({"type": "setup", "setup": setup})
    page = table.tablet(PHONE, unlocked=True)
    expect(page.locator("#rotation h3")).to_have_text("Rotation · Deal 0 of 12")
    expect(page.locator("#next-pairing .pairing")).to_have_text("Ann & Bob vs Cy & Di")
    expect(page.locator("#rotation .schedule li")).to_have_count(3)
    expect(page.locator("#rotation .schedule li.now")).to_contain_text("Round 1")

    form = page.locator("#round-form")
    expect(form.locator(".tab")).to_have_text(["Ann", "Cy", "Bob", "Di"])  # partners opposite
    for _ in range(4):
        form.locator('.tab[data-seat="0"]').click()
        form.locator('input[data-seat="1"]').fill("10")
        page.click("#save-round")
        expect(page.locator("#save-round")).to_be_disabled()
    expect(page.locator("#rotation h3")).to_have_text("Rotation · Deal 4 of 12")
    expect(page.locator("#next-pairing .pairing")).to_have_text("Ann & Cy vs Bob & Di")
    expect(page.locator("#rotation .schedule li").nth(0)).to_contain_text("played")
    expect(page.locator("#rotation .schedule li.now")).to_contain_text("Round 2")
    expect(row(page, 1).locator(".total")).to_have_text("40")  # Ann's partner shares the score
    shoot(page, "rotation-phone")
    assert not page.errors


def test_chips_are_balances_with_their_sign(table: Table) -> None:
    options = {"scoring": "chips", "starting_chips": 0}
    table.submit({"type": "setup", "setup": {"players": ["Ann", "Bob", "Cy"], "mode": "score_only",
                                            "options": options}})  # fmt: skip
    page = table.tablet(unlocked=True)
    expect(page.locator("#total-head")).to_have_text("Chips")
    form = page.locator("#round-form")
    form.locator('.tab[data-seat="0"]').click()
    form.locator('input[data-seat="1"]').fill("12")
    form.locator('input[data-seat="2"]').fill("5")
    page.click("#save-round")
    expect(row(page, 0).locator(".total")).to_have_text("+17")
    expect(row(page, 1).locator(".total")).to_have_text("-12")
    expect(page.locator("#standings li")).to_have_text(["Ann: +17", "Cy: -5", "Bob: -12"])


def test_attack_stacked_hit_two_and_a_suggestion(table: Table) -> None:
    table.started(options={"attack_stack_hits": True})  # Ann, Bob, Cy; Bob to move
    page = table.tablet(unlocked=True)
    page.click('#plays button[data-card="RH2"]')
    expect(page.locator("#stack-total")).to_have_text("Cy faces 2 presses")
    page.click('#plays button[data-card="GH2"]')
    expect(page.locator("#stack-total")).to_have_text("Ann faces 4 presses")

    page.click("#suggest summary")
    page.click('#suggest button[data-seat="1"]')  # Bob suggested a card: 4 presses
    expect(page.locator("#duties li").first).to_have_text("Bob: press 4 more (suggestion)")
    assert table.state()["deal"]["duties"][0] == {
        "seat": 1, "kind": "press", "count": 4, "why": "suggestion",
        "text": "press the launcher 4 more times",
    }  # fmt: skip


def test_setup_saves_a_preset_and_shows_a_conflict(table: Table) -> None:
    page = table.tablet(unlocked=True)
    set_up_on_the_page(page, ["Ann", "Bob", "Cy"])
    page.locator(".setup-player").nth(3).get_by_role("button", name="Remove").click()
    page.check("input[name=game][value=classic]")
    expect(page.locator('[data-option="scoring"] select option:checked')).to_have_text(
        "Winner collects the others' points"
    )
    page.check('[data-option="stack_s0"] input')
    page.check('[data-option="stack_s1"] input')
    page.fill("#preset-name", "Our rules")
    page.click("#save-preset")
    expect(page.locator("#message")).to_contain_text("stack_s0 and stack_s1 cannot both be on")
    expect(page.locator(".option.conflict")).to_have_count(2)

    page.uncheck('[data-option="stack_s1"] input')
    page.click("#save-preset")
    expect(page.locator("#notices")).to_contain_text("Saved: Our rules")
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#preset option:checked")).to_have_text("Our rules (this table's)")

    page.check('#formats input[value="rotation_4p"]')
    expect(page.locator("#format-hint")).to_contain_text("Needs exactly 4 players.")
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#message")).to_contain_text("rotation_4p needs 4 players")

    page.check('#formats input[value="standard"]')
    page.reload()  # a saved preset loads again on a later visit
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    page.select_option("#preset", "our-rules")
    expect(page.locator('[data-option="stack_s0"] input')).to_be_checked()
    expect(page.locator('[data-option="stack_s1"] input')).not_to_be_checked()


def fits_the_screen(page: Any) -> None:
    """Nothing wider than the screen; every control a finger can hit (48 px)."""
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"scrolls sideways by {wide} px"
    small = page.evaluate(
        """() => [...document.querySelectorAll('#controls button, #controls summary')]
            .filter((b) => b.offsetParent && (b.offsetHeight < 48 || b.offsetWidth < 48))
            .map((b) => b.textContent)"""
    )
    assert not small, f"touch targets under 48 px: {small}"


def test_wild_jump_in_asks_for_the_colour_in_chinese_on_a_phone(table: Table) -> None:
    table.started(game="classic", options={"jumpin_identical": True})  # Bob to move
    page = table.tablet(PHONE, unlocked=True)
    page.click("#language")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("#house")).to_have_text("抢牌")
    page.click('#plays button[data-card="W"]')
    page.click('#step button[data-colour="G"]')
    jump = page.locator('#jump-window button[data-seat="0"][data-card="W"]')
    expect(jump).to_have_count(1)  # one tap for the card, the colour comes next
    expect(jump).to_contain_text("抢出！")
    fits_the_screen(page)
    shoot(page, "house-jump-in-phone-zh-CN")
    jump.click()
    page.click('#step button[data-colour="B"]')
    expect(page.locator("#active-colour")).to_contain_text("蓝")
    expect(page.locator("#turn-name")).to_have_text("Bob")  # Cy lost the turn to Ann's cut
    assert table.state()["deal"]["hands"] == [6, 6, 7]
    assert not page.errors


def test_stack_in_chinese_fits_a_phone(table: Table) -> None:
    table.started(game="classic", options={"stack_s1": True, "multi_same_face": True})
    table.act(type="Play", seat=1, card="R+2")
    page = table.tablet(PHONE, unlocked=True)
    page.click("#language")
    expect(page.locator("#stack-total")).to_have_text("Cy 面临 +2")
    expect(page.locator("#accept")).to_have_text("接受叠加（+2）")
    expect(page.locator("#multi-toggle")).to_be_visible()
    fits_the_screen(page)
    shoot(page, "house-stack-phone-zh-CN")


def test_elimination_tournament_marks_who_is_out(table: Table) -> None:
    setup = {"players": ["Ann", "Bob", "Cy"], "mode": "score_only",
             "options": {"format": "elim_tournament", "target": 50}}  # fmt: skip
    table.submit({"type": "setup", "setup": setup})
    page = table.tablet(unlocked=True)
    form = page.locator("#round-form")
    form.locator('.tab[data-seat="0"]').click()
    form.locator('input[data-seat="1"]').fill("60")
    form.locator('input[data-seat="2"]').fill("10")
    page.click("#save-round")
    expect(row(page, 1).locator(".badge.out-badge")).to_have_text("Eliminated")
    expect(row(page, 1)).to_have_class("out")
    expect(page.locator("#standings li")).to_have_text(["Ann: 0", "Cy: 10", "Bob: 60"])
    assert table.state()["standings"] == {"eliminated": [1]}


def test_eight_player_rotation_keeps_one_tables_score(table: Table) -> None:
    players = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    setup = {"players": players, "mode": "score_only", "options": {"format": "rotation_8p"}}
    table.submit({"type": "setup", "setup": setup})
    page = table.tablet(unlocked=True)
    expect(page.locator("#rotation .schedule li")).to_have_count(14)
    expect(page.locator("#next-pairing .label")).to_have_text("Next: round 1, table 1")
    expect(page.locator("#next-pairing .pairing")).to_have_text("Hal & Ann vs Bob & Gus")
    form = page.locator("#round-form")
    expect(form.locator(".tab")).to_have_text(["Hal", "Bob", "Ann", "Gus"])  # seats of the deal
    form.locator('.tab[data-seat="1"]').click()  # Bob went out
    form.locator('input[data-seat="0"]').fill("20")
    page.click("#save-round")
    expect(row(page, 1).locator(".total")).to_have_text("20")  # Bob and his partner Gus
    expect(row(page, 6).locator(".total")).to_have_text("20")
    expect(page.locator("#history tbody tr td").nth(5)).to_have_text("—")  # Di sat elsewhere
    assert table.state()["totals"] == [0, 20, 0, 0, 0, 0, 20, 0]
