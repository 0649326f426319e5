"""Who plays next, as the engine says (owed presses included), and the blocked deal (RULES.md
§8) on the scoreboard: the launcher panel says nothing is left to draw or reload, a round of
empty presses ends the deal, everyone enters their hand and the page says who won it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Table, shoot

pytestmark = pytest.mark.browser


def name_of(state: dict[str, Any], seat: int) -> str:
    name: str = state["setup"]["players"][state["seating"][seat]]
    return name


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["tablet", "phone"])
def test_next_names_the_engines_next_player_after_a_hit_two(
    table: Table, viewport: dict[str, int] | None
) -> None:
    table.started(top="R5")
    page = table.tablet(viewport)
    mover = table.state()["deal"]["to_move"]
    table.act(type="Play", seat=mover, card="RH2")
    state = table.state()
    deal = state["deal"]
    victim, after = deal["to_move"], deal["next"]
    assert victim == (mover + 1) % 3 and after == (mover + 2) % 3  # the victim is skipped
    expect(page.locator("#turn-name")).to_have_text(name_of(state, victim))
    expect(page.locator("#next-name")).to_have_text(f"next: {name_of(state, after)}")
    table.act(type="Press", seat=victim, cards=0)
    expect(page.locator("#duties li")).to_contain_text("press 1 more")
    expect(page.locator("#next-name")).to_have_text(f"next: {name_of(state, after)}")
    assert page.errors == []


def test_nothing_left_to_draw_or_reload_and_the_blocked_deal(table: Table) -> None:
    table.started(top="R5")
    page = table.tablet(unlocked=True)
    expect(page.locator("#launcher-status")).to_have_text("Ready")
    deal = table.state()["deal"]
    # the count says every card of the launcher went to Ann: nothing is left to press out,
    # and the discard pile is only its top card
    table.act(type="Correct", seat=0, count=deal["hands"][0] + deal["pile"])
    status = page.locator("#launcher-status")
    expect(status).to_have_text("Nothing left to draw or reload")
    expect(status).to_have_attribute("data-status", "exhausted")
    expect(page.locator("#reload")).to_be_hidden()
    shoot(page, "nothing-left-tablet")
    for presses in (1, 2):
        page.click("#press")  # the simulated launcher's button: it gives nothing
        expect(page.locator("#launcher-fault")).to_contain_text(f"{presses} of 3 in a row")
    page.click("#press")
    expect(page.locator("#blocked-note")).to_contain_text("fewest points wins this deal")
    expect(page.locator("#turn-name")).to_have_text("Blocked deal")
    assert table.state()["deal"]["blocked"] and table.state()["deal"]["winner"] is None
    shoot(page, "blocked-deal-scoring-tablet")
    expect(page.locator("#feed")).to_contain_text("the deal is blocked")
    for seat, points in enumerate((300, 12)):  # the form moves on to the next hand
        page.fill("#hand-points", str(points))
        page.click("#save-points")
        expect(page.locator(f'#scoring .shown li[data-seat="{seat}"]')).to_contain_text(str(points))
    page.fill("#hand-points", "40")
    page.click("#save-points")
    expect(page.locator("#scoring")).to_be_hidden()
    state = table.state()
    assert state["deal"] is None and state["deals"][-1]["blocked"]
    winner = name_of(state, state["deals"][-1]["winner"])
    assert winner == state["setup"]["players"][1]  # 12 points
    expect(page.locator("#phase")).to_contain_text(f"{winner} won the blocked deal")
    expect(page.locator("#history td.blocked")).to_have_text("1 ⊘")
    shoot(page, "blocked-deal-scored-tablet")
    assert page.errors == []
