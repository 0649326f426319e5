"""A game night from the first minute to the last, in Chromium at tablet and phone sizes:
reloading an empty launcher, the end of a match, a table a person set up that the demo's bots
leave alone, and a fast demo (`uno-attack run --demo --demo-speed N`, a real process) that
plays several matches without a stall while the launcher runs empty and jams."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from controller.policy import ScriptedPolicy
from tests.waiting import wait_until

from .conftest import PHONE, TABLET, Table, _table, csrf, open_page, shoot
from .served import Process, free_port, get_state

pytestmark = pytest.mark.browser

SIZES = [("tablet", TABLET), ("phone", PHONE)]


@pytest.fixture
def scripted_table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A table whose launcher always wants 3 cards per press."""
    yield from _table(browser, tmp_path, policy=ScriptedPolicy([3] * 50))


@pytest.fixture
def idle_scripted_demo(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A demo table whose bots set up a match and sit still; its launcher wants 3 cards."""
    yield from _table(browser, tmp_path, demo_pace=3600.0, policy=ScriptedPolicy([3] * 50))


# ------------------------------------------------------------------ reloading the launcher


def play_three_cards(table: Table) -> None:
    """Three plays on a red 5: the discard pile gets three cards under the top one."""
    table.started(top="R5")
    for card in ("R7", "R8", "R9"):
        table.act(type="Play", seat=table.state()["deal"]["to_move"], card=card)


def test_empty_launcher_is_reloaded_from_the_discard_pile(scripted_table: Table) -> None:
    table = scripted_table
    play_three_cards(table)
    simulator = table.launcher.simulator
    simulator.load(0)  # the players forgot to fill it, though the count says it is not empty
    tablet = table.tablet(TABLET, unlocked=True)
    phone = table.tablet(PHONE)
    presser = table.state()["deal"]["to_move"]
    before = table.state()["deal"]["hands"][presser]

    table.service.virtual_press()  # the big button: the motor runs, no card comes out
    wait_until(lambda: table.state()["launcher"]["status"] == "empty")
    for page in (tablet, phone):
        expect(page.locator("#reload")).to_be_visible()
        expect(page.locator("#reload")).to_contain_text("The launcher is empty: reload it")
        expect(page.locator("#reload")).to_contain_text("except its top card")
        expect(page.locator("#clear-fault")).to_have_count(1 if page is tablet else 0)
        expect(page.locator("#clear-fault")).to_be_hidden()
    phone.click("#reloaded")  # a locked tablet: the PIN box opens and says why
    expect(phone.locator("#pin-panel")).to_be_visible()
    expect(phone.locator("#pin-panel")).to_contain_text("Enter the table PIN, then tap Reloaded")
    assert table.state()["launcher"]["status"] == "empty"
    shoot(phone, "reload-phone")
    shoot(tablet, "reload-tablet")
    pile = table.state()["deal"]["pile"]

    tablet.click("#reloaded")
    for page in (tablet, phone):
        expect(page.locator("#reload")).to_be_hidden()
        expect(page.locator("#launcher-status")).to_have_attribute("data-status", "ready")
        expect(page.locator("#feed")).to_contain_text("The launcher was reloaded: 3 cards")
    deal = table.state()["deal"]
    assert deal["pile"] == 3 and deal["reloadable"] == 0 and deal["top"] == "R9"
    assert deal["unaccounted"] == pile  # the count said they were in it: they were not
    assert simulator.stack == deal["pile"]  # the simulated players filled it as told
    assert deal["hands"][presser] == before  # the empty press gave nothing

    seat = deal["to_move"]
    if table.state()["deal"]["moves"][0]["type"] != "Press":
        table.act(type="Press", seat=seat, cards=0)  # not needed; keeps the presser in turn
    wait_until(lambda: table.state()["launcher"]["status"] == "ready")
    assert tablet.errors == [] and phone.errors == []


def test_reloaded_is_refused_when_nothing_can_be_reloaded(scripted_table: Table) -> None:
    table = scripted_table
    table.started(top="R5")
    seq = table.state()["seq"]
    page = table.tablet(PHONE, unlocked=True)
    answer = page.request.post(
        f"{table.url}/api/launcher/reload",
        data={},
        headers={"X-CSRF-Token": page.locator('meta[name="csrf-token"]').get_attribute("content")},
    )
    assert answer.status == 409  # a launcher that is not empty is not reloaded
    assert "the launcher is not empty" in json.loads(answer.text())["error"]
    assert table.state()["seq"] == seq


WAIT_FOR_RELOAD = "The launcher is empty: reload it, tap Reloaded, then press."


def run_empty(table: Table) -> None:
    """Three plays in, the hopper empty though the count says otherwise: a press finds it
    empty and the scoreboards ask for the reload."""
    play_three_cards(table)
    table.launcher.simulator.load(0)
    table.service.virtual_press()
    wait_until(lambda: table.state()["launcher"]["status"] == "empty")


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_no_press_is_offered_while_the_launcher_waits_for_its_reload(
    scripted_table: Table, name: str, viewport: dict[str, int]
) -> None:
    table = scripted_table
    run_empty(table)
    page = table.tablet(viewport, unlocked=True)
    expect(page.locator("#reload")).to_be_visible()
    assert any(move["type"] == "Press" for move in table.state()["deal"]["moves"])
    expect(page.locator("#press")).to_be_disabled()  # the press is owed, but cannot be served
    expect(page.locator("#press-wait")).to_have_text(WAIT_FOR_RELOAD)

    seq = table.state()["seq"]
    answer = page.request.post(
        f"{table.url}/api/launcher/press", data={}, headers={"X-CSRF-Token": csrf(page)}
    )
    assert answer.status == 409  # the server refuses what the page does not offer
    assert "reload" in json.loads(answer.text())["error"]
    assert table.state()["seq"] == seq and table.state()["launcher"]["status"] == "empty"

    page.click("#reloaded")
    expect(page.locator("#reload")).to_be_hidden()
    expect(page.locator("#press")).to_be_enabled()
    expect(page.locator("#press-wait")).to_have_count(0)
    page.click("#press")
    expect(page.locator("#fly .card-back")).to_have_count(3)  # served once it is reloaded
    assert page.errors == []


def test_the_demo_launcher_button_waits_for_the_reload_too(idle_scripted_demo: Table) -> None:
    table = idle_scripted_demo
    wait_until(lambda: bool(table.state().get("setup")))  # the bots' one move
    run_empty(table)  # a match a person set up: the bots leave it alone
    page = table.tablet(PHONE)  # locked: no controls, the demo's own press button
    unlocked = table.tablet(PHONE, unlocked=True)  # the controls' press is the one
    expect(page.locator("#reload")).to_be_visible()
    expect(page.locator("#virtual-press")).to_be_disabled()
    expect(page.locator("#virtual-press-wait")).to_have_text(WAIT_FOR_RELOAD)
    expect(unlocked.locator("#virtual-press")).to_be_hidden()
    expect(unlocked.locator("#press")).to_be_disabled()
    unlocked.click("#reloaded")
    expect(page.locator("#virtual-press")).to_be_enabled()
    expect(page.locator("#virtual-press-wait")).to_be_hidden()
    expect(unlocked.locator("#press")).to_be_enabled()
    assert page.errors == [] and unlocked.errors == []


# ------------------------------------------------------------------ the end of a match


def finish_score_only_match(table: Table) -> None:
    table.submit(
        {
            "type": "setup",
            "setup": {
                "players": ["Ann", "Bob", "Cy"],
                "mode": "score_only",
                "options": {"target": 100},
            },
        }
    )
    table.submit({"type": "round", "winner": 1, "points": [30, 0, 12]})
    table.submit({"type": "round", "winner": 2, "points": [40, 25, 0]})
    table.submit({"type": "round", "winner": 1, "points": [50, 0, 20]})


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_end_of_match_shows_the_winner_until_a_new_match(
    table: Table, name: str, viewport: dict[str, int]
) -> None:
    finish_score_only_match(table)
    state = table.state()
    assert state["match_over"] and state["winners"] == [1]
    page = table.tablet(viewport, unlocked=True)
    end = page.locator("#match-end")
    expect(end).to_be_visible()
    expect(page.locator("#champion")).to_have_text("Bob wins!")
    places = page.locator("#final-standings li")
    expect(places).to_have_count(3)
    expect(places.nth(0)).to_contain_text("Bob")
    expect(places.nth(0)).to_have_class("won")
    expect(page.locator("#game-panel")).to_be_hidden()
    expect(page.locator("#match-end-next")).to_be_hidden()  # no bots here: it waits for people
    box = end.bounding_box()
    assert box is not None and box["y"] < viewport["height"] / 2, "the winner is not on top"
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the end of the match scrolls sideways by {wide} px"
    shoot(page, f"match-end-{name}")

    page.click("#new-match")  # a finished match is replaced without a question
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    page.click("#setup-form button[type=submit]")
    page.wait_for_url("**/")
    expect(page.locator("#match-end")).to_be_hidden()
    assert not table.state()["match_over"] and not table.state()["deals"]
    assert page.errors == []


# ------------------------------------------------------------------ the demo and people's tables


def demo_ticks(table: Table, count: int) -> None:
    """Wait until the owner thread has run the demo's hook `count` more times."""
    ticks = [0]
    table.service.on_tick.append(lambda: ticks.__setitem__(0, ticks[0] + 1))
    wait_until(lambda: ticks[0] >= count)


@pytest.mark.parametrize(
    ("viewport", "mode"), [(TABLET, "score_only"), (PHONE, "score_only"), (TABLET, "tracked")]
)
def test_demo_leaves_a_table_people_set_up_alone(
    demo_table: Table, viewport: dict[str, int], mode: str
) -> None:
    table = demo_table
    wait_until(lambda: len(table.state().get("deal") or {}) > 0)  # the bots' match is on
    page = table.tablet(viewport, unlocked=True)
    page.goto("/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    names = page.locator(".setup-player input")
    for i, player in enumerate(["Mum", "Dad", "Kim", "Lou"]):
        names.nth(i).fill(player)
    page.check(f"input[name=mode][value={mode}]")

    questions: list[str] = []

    def answer(dialog: Any, yes: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if yes else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, yes=False))
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#setup-form")).to_be_visible()
    # The page asks only after it has read the table's state; Playwright runs the handler
    # while the test calls into it, hence the short waits on the page inside the poll.
    wait_until(lambda: page.wait_for_timeout(10) or bool(questions), "the page asked")
    assert questions and "A match is in progress (Ada, 小明, Bo, Lin" in questions[0]
    assert table.state()["setup"]["players"][0] == "Ada"  # "no" keeps the bots' match

    page.once("dialog", lambda dialog: answer(dialog, yes=True))
    page.click("#setup-form button[type=submit]")
    page.wait_for_url("**/")
    wait_until(lambda: table.state()["setup"]["players"][0] == "Mum")
    seq = table.state()["seq"]
    demo_ticks(table, 20)  # the bots had many chances to move
    state = table.state()
    assert state["seq"] == seq and state["setup"]["mode"] == mode
    bots = [r for r in table.service.store.records("main") if r.seq > seq - 1 and r.actor == "bot"]
    assert bots == []
    expect(page.locator("#seats")).to_be_hidden()  # no bots here to take a seat from
    assert table.demo is not None and not table.demo.playing()
    assert page.errors == []


# ------------------------------------------------------------------ a fast demo, a real process


@pytest.mark.serial  # the bots keep a pace 40 times a person's: run alone (make pytest)
@pytest.mark.timeout(600)
def test_fast_demo_plays_match_after_match_without_a_stall(browser: Any, tmp_path: Path) -> None:
    port = free_port()
    process = Process("--demo", "--demo-speed", "40", "--port", str(port), data_dir=tmp_path)
    try:
        wait_until(lambda: any(line.startswith("Demo:") for line in process.lines), timeout=60)
        urls = [line.split(": ", 1)[1] for line in process.lines if line.startswith("Scoreboard:")]
        assert urls[0] == f"http://localhost:{port}/"  # the first address works here
        banner = " ".join(process.lines)
        assert "bots play on a simulated launcher, 40 times faster" in banner
        with urllib.request.urlopen(urls[0], timeout=10) as answer:
            assert answer.status == 200
        watch_demo(browser, urls[0])
    finally:
        process.stop()
    assert process.child.returncode == 0, "\n".join(process.lines[-30:])
    assert not [line for line in process.lines if "Traceback" in line or "ERROR" in line]


def watch_demo(browser: Any, url: str) -> None:
    """A tablet and a phone watch; the table keeps moving, finishes a match and starts the
    next."""
    pages = []
    for viewport in (TABLET, PHONE):
        context = browser.new_context(viewport=viewport, base_url=url.rstrip("/"))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        open_page(page, "/")
        pages.append((page, errors))
    matches = watch_table(lambda: get_state(url), matches=1)
    for page, errors in pages:
        expect(page.locator("#players tr")).to_have_count(4)
        assert errors == []
        page.context.close()
    assert len(matches) >= 1


def watch_table(state_now: Any, *, matches: int, on_state: Any = lambda state: None) -> set[int]:
    """Follow the table until `matches` matches have ended and the next one has dealt (match
    after match; the long runs of many matches are `make soak`'s); fail when nothing new is
    logged for 30 s (a stall) or when it takes more than 8 minutes."""
    ended: set[int] = set()
    seen = {"seq": -1}
    deadline = time.monotonic() + 480
    while True:
        assert time.monotonic() < deadline, f"only {len(ended)} matches ended in 8 minutes"
        wait_until(lambda: state_now()["seq"] != seen["seq"])
        state = state_now()
        seen["seq"] = state["seq"]
        seed = state["setup"]["seed"]
        if state.get("match_over"):
            ended.add(seed)
        on_state(state)
        if len(ended) >= matches and seed not in ended and state.get("deal"):
            return ended


@pytest.fixture
def fast_demo(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """The demo at 40 times its pace, a finished match held for 3 s."""
    options = {"speed": 40, "hold": 120, "target": 200}
    yield from _table(browser, tmp_path, demo_pace=1.2, demo=options)


@pytest.mark.serial  # the bots keep a pace 40 times a person's: run alone (make pytest)
@pytest.mark.timeout(600)
def test_fast_demo_survives_an_empty_and_jammed_launcher(fast_demo: Table) -> None:
    """Now and then the hopper is emptied or the next card jams: the bots reload the launcher
    from the discard pile, pull the stuck card, and the matches go on to their ends, which
    every screen shows."""
    table = fast_demo
    simulator = table.launcher.simulator
    tablet = table.tablet(TABLET)
    phone = table.tablet(PHONE)
    trouble = {"next": 20}
    celebrated: set[int] = set()

    def make_trouble(state: dict[str, Any]) -> None:
        if state["seq"] >= trouble["next"] and state.get("deal"):
            trouble["next"] = state["seq"] + 25
            simulator.load(0) if state["seq"] % 2 else simulator.jam_next()
        seed = state["setup"]["seed"]
        if state.get("match_over") and seed not in celebrated and len(celebrated) < 1:
            celebrated.add(seed)
            for page in (tablet, phone):
                expect(page.locator("#match-end")).to_be_visible()
                expect(page.locator("#match-end-next")).to_be_visible()

    watch_table(table.state, matches=1, on_state=make_trouble)
    kinds = [r.kind for r in table.service.store.records("main")]
    assert kinds.count("setup") >= 2
    assert "reload" in kinds, "the launcher never ran empty: the test did not test reloading"
    assert celebrated
    assert tablet.errors == [] and phone.errors == []
