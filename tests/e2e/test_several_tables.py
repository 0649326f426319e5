"""Two tables of one service side by side in the browser: each scoreboard at `/t/<id>/` shows
its own table, hears its own event stream and sends its taps to its own table (the first
table's simulated launcher, the second's typed-in presses)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.several import Served, serving

from .conftest import SETUP, TABLET, TIMEOUT_MS, csrf, open_page

pytestmark = pytest.mark.browser

TABLES = """
[[tables]]
id = "a"
name = "Window table"
launcher = "sim"
pin = "1111"

[[tables]]
id = "b"
name = "Corner table"
pin = "2222"
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(TABLES, tmp_path) as service:
        yield service


def tablet(browser: Any, served: Served, table_id: str, pin: str) -> Any:
    """A tablet unlocked at one table, showing its scoreboard."""
    context = browser.new_context(viewport=TABLET, base_url=served.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    open_page(page, f"/t/{table_id}/")
    answer = page.request.post(
        f"{served.url}/t/{table_id}/api/session/pin",
        data={"pin": pin},
        headers={"X-CSRF-Token": csrf(page)},
    )
    assert answer.ok, answer.text()
    open_page(page, f"/t/{table_id}/")
    return page


def started(served: Served, table_id: str, **setup: Any) -> dict[str, Any]:
    service = served.table(table_id).service
    service.submit({"type": "setup", "setup": SETUP | setup})
    service.submit({"type": "deal"})
    service.submit({"type": "action", "action": {"type": "TurnUp", "card": "R5"}})
    return service.snapshot()


def to_move(state: dict[str, Any]) -> str:
    players, seat = state["setup"]["players"], state["deal"]["to_move"]
    return str(players[state["seating"][seat]])


def test_two_tables_scoreboards_side_by_side(browser: Any, served: Served) -> None:
    a_state = started(served, "a")
    b_state = started(served, "b", players=["Eve", "Fay", "Gus"])
    page_a = tablet(browser, served, "a", "1111")
    page_b = tablet(browser, served, "b", "2222")
    expect(page_a.locator(".brand")).to_have_text("Window table")
    expect(page_b.locator(".brand")).to_have_text("Corner table")
    expect(page_a.locator("#turn-name")).to_have_text(to_move(a_state))
    expect(page_b.locator("#turn-name")).to_have_text(to_move(b_state))
    expect(page_b.locator("#live")).to_have_attribute("data-state", "live")

    a, b = served.table("a").service, served.table("b").service
    before_a = a.snapshot()["seq"]
    page_b.click("#undo")  # the turned-up card, taken back at table b
    expect(page_b.locator("#turn-up")).to_be_visible()
    assert b.snapshot()["deal"]["phase"] == "turn_up"
    assert a.snapshot()["seq"] == before_a

    seat = a_state["deal"]["to_move"]
    page_a.click("#press")  # table a's simulated launcher
    expect(page_a.locator("#feed")).to_contain_text(to_move(a_state))
    expect(page_a.locator("#turn-name")).not_to_have_text(to_move(a_state))
    assert a.snapshot()["deal"]["turn"] != seat
    assert b.snapshot()["deal"]["phase"] == "turn_up"  # table b heard nothing of it
    served.table("b").service.submit({"type": "action", "action": {"type": "TurnUp",
                                                                    "card": "G7"}})  # fmt: skip
    expect(page_b.locator("#turn-name")).to_have_text(to_move(b.snapshot()))
    assert page_a.errors == [] and page_b.errors == []


EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hui"]


def play_round(served: Served, table_id: str) -> None:
    """The table's four deals of the round, typed in (score-only): seat 0 wins each."""
    for _ in range(4):
        command = {"type": "round", "winner": 0, "points": [0, 10, 20, 30]}
        served.table(table_id).service.submit(command)


def test_the_organiser_seats_a_rotation_of_eight(browser: Any, served: Served) -> None:
    organiser = tablet(browser, served, "a", "1111")
    open_page(organiser, "/t/a/setup")
    expect(organiser.locator("#tournament-setup")).to_be_visible()
    organiser.select_option("#tournament-mode", "score_only")
    organiser.fill("#tournament-players", "\n".join(EIGHT))
    organiser.click("#tournament-start")
    organiser.wait_for_url(f"{served.url}/t/a/")
    corner = tablet(browser, served, "b", "2222")
    for page, pairing in ((organiser, "Hui & Ann vs Bob & Gus"), (corner, "Cy & Fay vs Di & Eve")):
        expect(page.locator("#tournament-title")).to_contain_text("Round 1 of 7")
        expect(page.locator("#tournament-tables li.mine")).to_contain_text(pairing)
    expect(organiser.locator("#tournament-next")).to_contain_text("Hui & Bob vs Cy & Ann")

    play_round(served, "a")
    expect(organiser.locator("#tournament-waiting")).to_contain_text("Corner table")
    play_round(served, "b")
    for page in (organiser, corner):
        expect(page.locator("#tournament-title")).to_contain_text("Round 2 of 7")
    expect(organiser.locator("#tournament-tables li.mine")).to_contain_text("Hui & Bob vs Cy & Ann")
    # each round's winners collect 4 x (10 + 30): Hui & Ann at a, Cy & Fay at b, tied first
    expect(corner.locator("#tournament-standings tr").first).to_contain_text("Ann160")
    assert organiser.errors == [] and corner.errors == []
