"""The demo's virtual launcher, and screenshots of the scoreboard on a landscape tablet, a
portrait tablet and a phone (kept under test-artifacts/browser/), with nothing wider than
the screen."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_until

from .conftest import PHONE, PORTRAIT, TABLET, Table, shoot, wait_ready

pytestmark = pytest.mark.browser

DEMO_TIMEOUT = 30_000


def make_any_move(page: Any) -> None:
    """Whatever the seat may do now: press, or play the first card offered (and answer)."""
    controls = page.locator("#turn-controls")
    if controls.locator("#press").count():
        controls.locator("#press").click()  # the only press button while it is my turn
        return
    if controls.locator("#plays button").count():
        controls.locator("#plays button").first.click()
        step = page.locator("#step")
        if step.count():
            step.locator("[data-colour], [data-target], #also-ok").first.click()
        return
    controls.locator(".other-moves button").first.click()


def test_demo_visitor_takes_a_seat_and_plays(demo_table: Table) -> None:
    page = demo_table.tablet(unlocked=True)
    expect(page.locator("#virtual-panel")).to_be_visible()
    seat = page.locator('#seats button[data-seat="0"]')
    expect(seat).to_have_text("Take Ada's seat")
    seat.click()
    expect(seat).to_have_text("Give Ada back")
    assert demo_table.demo is not None and demo_table.demo.humans == {0}

    shoot(page, "demo-tablet-landscape")
    mine = page.locator('#turn-controls[data-seat="0"], #scoring .hand-entry[data-seat="0"]')
    expect(mine).to_be_visible(timeout=DEMO_TIMEOUT)
    before = demo_table.state()["seq"]
    if page.locator("#scoring").count():
        page.fill("#hand-points", "10")
        page.click("#save-points")
    else:
        make_any_move(page)
    wait_until(lambda: demo_table.state()["seq"] > before)
    expect(page.locator("#message")).to_be_hidden()

    seat.click()
    expect(seat).to_have_text("Take Ada's seat")


def test_a_late_answer_does_not_give_a_taken_seat_back(demo_table: Table) -> None:
    """The demo's view the page asked for on opening, answered as the bots had every seat, arrives
    after the visitor took a seat (a loaded table): the page keeps the seat taken."""
    assert demo_table.demo is not None
    wait_until(demo_table.demo.playing)
    page = demo_table.tablet(unlocked=True).context.new_page()  # unlocked, its own requests
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    held: list[Any] = []
    stale: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if route.request.method == "GET" and not held:
            held.append(route)
            stale.append(route.fetch())  # answered now, delivered later
        else:
            route.continue_()

    page.route("**/api/demo", hold_the_first)
    page.goto("/")
    wait_ready(page)
    seat = page.locator('#seats button[data-seat="0"]')
    expect(seat).to_have_text("Take Ada's seat")  # the stream's snapshot asked again
    seat.click()
    expect(seat).to_have_text("Give Ada back")
    # the page asked for the demo's view once it opened (Playwright answers routes while
    # the test calls it: poll through the page)
    wait_until(lambda: bool(stale) or page.evaluate("false"))
    assert stale[0].json()["humans"] == []
    with page.expect_event("requestfinished", lambda r: r.url.endswith("/api/demo")):
        held[0].fulfill(response=stale[0])
    page.evaluate("() => fetch('/api/demo').then((r) => r.json())")  # the stale answer is read
    assert seat.text_content() == "Give Ada back"
    assert not page.errors


def test_virtual_press_nobody_needs_says_so(idle_demo_table: Table) -> None:
    table = idle_demo_table
    wait_until(lambda: bool(table.state().get("setup")))  # the bots' one move
    table.submit({"type": "deal"})  # waiting for the turned-up card: nobody may press
    page = table.tablet(unlocked=True)
    page.click("#virtual-press")
    expect(page.locator("#notices")).to_contain_text("Nobody needs to press now")


def played_table(table: Table) -> None:
    """A match two rounds in, a Hit 2 owed: a busy scoreboard to look at."""
    table.started(options={"target": 500})
    table.act(type="Correct", seat=1, count=1)
    table.act(type="Play", seat=1, card="R7")
    table.act(type="EnterHand", seat=0, points=34)
    table.act(type="EnterHand", seat=2, points=21)
    table.submit({"type": "deal"})
    table.act(type="TurnUp", card="B4")
    deal = table.state()["deal"]
    table.act(type="Correct", seat=deal["to_move"], count=1)
    table.act(type="Play", seat=deal["to_move"], card="B9")
    for seat, points in enumerate([12, 0, 40]):
        if seat != deal["to_move"]:
            table.act(type="EnterHand", seat=seat, points=points)
    table.submit({"type": "deal"})
    table.act(type="TurnUp", card="G2")
    mover = table.state()["deal"]["to_move"]
    table.act(type="Correct", seat=mover, count=2)
    table.act(type="Play", seat=mover, card="GH2")


@pytest.mark.parametrize(
    ("name", "viewport"),
    [("tablet-landscape", TABLET), ("tablet-portrait", PORTRAIT), ("phone", PHONE)],
)
def test_screenshots_fit_the_screen(table: Table, name: str, viewport: dict[str, int]) -> None:
    played_table(table)
    for language in ("en", "zh-CN"):
        page = table.tablet(viewport, unlocked=True)
        if language == "zh-CN":
            page.click("#language")
            expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
        expect(page.locator("#live")).to_have_attribute("data-state", "live")
        expect(page.locator("#chart svg polyline")).to_have_count(3)
        expect(page.locator("#duties li")).to_have_count(1)
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{name} ({language}) scrolls sideways by {wide} px"
        small = page.evaluate(
            """() => [...document.querySelectorAll('#controls button, header button')]
                .filter((b) => b.offsetParent && (b.offsetHeight < 48 || b.offsetWidth < 48))
                .map((b) => b.textContent)"""
        )
        assert not small, f"touch targets under 48 px: {small}"
        shoot(page, f"scoreboard-{name}-{language}")
        assert not page.errors
