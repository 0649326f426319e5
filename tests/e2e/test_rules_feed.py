"""The feed tells the table what the rules did: a guilty Wild Draw Four challenge shows the
offender's hand to the challenger (§3.2)."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import Table, open_house_rules


def test_feed_says_the_offender_showed_the_hand(table: Table) -> None:
    table.started(game="classic")
    page = table.tablet(unlocked=True)
    # the feed lists the records its stream brings: those made before it opened are not there
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    mover = table.state()["deal"]["turn"]
    table.act(type="Play", seat=mover, card="W4", colour="B")
    victim = table.state()["deal"]["duties"][0]["seat"]
    table.act(type="Challenge", seat=victim, guilty=True)
    state = table.state()
    players, seating = state["setup"]["players"], state["seating"]
    offender, challenger = players[seating[mover]], players[seating[victim]]
    expect(page.locator("#feed")).to_contain_text(f"{offender} showed their hand to {challenger}")
    assert not page.errors


def test_setup_offers_only_the_options_of_the_chosen_game(table: Table) -> None:
    page = table.tablet(unlocked=True)
    page.goto("/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    page.check("input[name=game][value=attack]")
    open_house_rules(page)
    expect(page.locator('[data-option="multi_in_attack"]')).to_be_visible()
    expect(page.locator('[data-option="multi_same_face"]')).to_have_count(0)
    expect(page.locator('[data-option="stack_s0"]')).to_have_count(0)
    page.check("input[name=game][value=classic]")
    expect(page.locator('[data-option="multi_same_face"]')).to_be_visible()
    expect(page.locator('[data-option="multi_in_attack"]')).to_have_count(0)
    assert not page.errors
