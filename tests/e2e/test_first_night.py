"""A family's first night as the README tells it, in Chromium on a 1024×768 tablet.

`uno-attack run --demo` (a real process, as `make run` starts it) shows the bots playing. The
family unlocks the tablet with the PIN, sets up their own 4-player UNO Attack table (one name in
Chinese) and plays it by taps and presses of the virtual launcher: a Hit 2 with "next:" checked
against the table's state, a Wild All Hit, an UNO call and a catch, the empty launcher reloaded.
The deal ends with a wrong count questioned; in the next deal the service restarts (the table is
still theirs and playable, now in Chinese) and the match ends; after another restart they hand
the table to the bots, who play it. Then a score-only match to 500 with an Undo.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_until

from .conftest import PIN, TIMEOUT_MS, Table, wait_ready
from .served import Process, free_port, get_state

pytestmark = pytest.mark.browser

NIGHT = {"width": 1024, "height": 768}
FAMILY = ["Mum", "奶奶", "Kim", "Lou"]
TARGET = 200


class Evening:
    """The service as `make run` starts it, restartable on the same data, and one tablet."""

    def __init__(self, browser: Any, data: Path) -> None:
        self.port = free_port()
        self.data = data
        self.url = f"http://localhost:{self.port}/"
        self.process: Process | None = None
        self.start()
        context = browser.new_context(viewport=NIGHT, base_url=self.url.rstrip("/"))
        context.set_default_timeout(TIMEOUT_MS)
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def start(self) -> None:
        self.process = Process(
            "--demo", "--demo-speed", "20", "--port", str(self.port), data_dir=self.data
        )
        process = self.process
        wait_until(
            lambda: (
                process.child.poll() is not None
                or any(line.startswith("Demo:") for line in process.lines)
            ),
            "the service started",
        )
        assert process.child.poll() is None, "\n".join(process.lines)

    def stop(self) -> None:
        assert self.process is not None
        self.process.stop()
        lines = self.process.lines
        assert self.process.child.returncode == 0, "\n".join(lines[-30:])
        assert not [line for line in lines if "Traceback" in line or "ERROR" in line], lines

    def restart(self) -> None:
        self.stop()
        self.start()

    def state(self) -> dict[str, Any]:
        return get_state(self.url)

    def settled(self) -> dict[str, Any]:
        """The state once the launcher has finished its last press (its motor back at rest)."""
        busy = ("suspense", "firing")
        wait_until(lambda: self.state()["launcher"]["status"] not in busy, "the launcher rests")
        return self.state()

    def deal(self) -> dict[str, Any]:
        deal: dict[str, Any] = self.state()["deal"]
        return deal

    def drawn(self) -> None:
        """Wait until the tablet's controls show the table's latest state."""
        seq = self.state()["seq"]
        self.page.wait_for_function(
            "seq => Number(document.getElementById('controls').dataset.seq) >= seq", arg=seq
        )

    def tap(self, *selectors: str) -> dict[str, Any]:
        """Tap each of `selectors` in turn, as one step of play; wait until the table logged
        it and the tablet shows it; return the new state."""
        before = self.state()["seq"]
        for selector in selectors:
            self.page.click(selector)
        wait_until(lambda: self.state()["seq"] > before, f"the table logged {selectors}")
        self.drawn()
        return self.state()


@pytest.fixture
def evening(browser: Any, tmp_path: Path) -> Iterator[Evening]:
    night = Evening(browser, tmp_path)
    try:
        yield night
    finally:
        night.page.context.close()
        night.stop()


def card(text: str) -> str:
    return f'#plays button[data-card="{text}"]'


def play(evening: Evening, text: str) -> dict[str, Any]:
    """Tap a card to play it, and a colour when the card asks for one."""
    page = evening.page
    before = evening.state()["seq"]
    page.click(card(text))
    if page.locator("#step [data-colour]").count():
        page.locator("#step [data-colour]").first.click()
    wait_until(lambda: evening.state()["seq"] > before, f"{text} was played")
    evening.drawn()
    return evening.state()


def name_of(state: dict[str, Any], seat: int) -> str:
    return str(state["setup"]["players"][seat])


def check_next(evening: Evening) -> None:
    """The line under the player to move names the player the rules say plays next."""
    state = evening.state()
    following = state["deal"]["next"]
    expect(evening.page.locator("#next-name")).to_contain_text(name_of(state, following))


def moves_of(deal: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The cards the player to move may play, and the kinds of their other moves."""
    mine = [m for m in deal["moves"] if m.get("seat") == deal["to_move"]]
    return {m["card"] for m in mine if m["type"] == "Play"}, {m["type"] for m in mine}


def take_turn(evening: Evening, done: set[str], turn: int) -> None:
    """One step a family would take: reload an empty launcher; else the player to move plays
    a Hit 2, a Wild All Hit, a number card, or presses the launcher."""
    state = evening.settled()
    if state["launcher"]["status"] in ("jam", "fault"):  # a card stuck: pull it, clear it
        evening.page.click("#clear-fault")
        wait_until(lambda: evening.state()["launcher"]["status"] == "ready", "cleared")
        return
    if state["launcher"]["status"] == "empty":
        expect(evening.page.locator("#reload")).to_be_visible()
        evening.tap("#reloaded")
        done.add("reload")
        return
    plays, kinds = moves_of(state["deal"])
    hits = sorted(c for c in plays if c.endswith("H2"))
    if "hit 2" not in done and hits:
        play(evening, hits[0])
        check_next(evening)
        done.add("hit 2")
    elif "all hit" not in done and "hit 2" in done and "WAH" in plays:
        play(evening, "WAH")
        check_next(evening)
        done.add("all hit")
    elif "Press" in kinds and (turn % 3 or not plays):
        evening.tap("#press")
    elif numbers := sorted(c for c in plays if c[1:].isdigit()):
        play(evening, numbers[0])
    else:
        other = next(
            f"#{kind.lower()}" for kind in ("Press", "Draw", "Pass", "Accept") if kind in kinds
        )
        evening.tap(other)


def to_a_play_turn(evening: Evening) -> dict[str, Any]:
    """Press for whoever owes presses (and reload) until the player to move may play."""
    done: set[str] = set()
    while True:
        state = evening.settled()
        plays, _ = moves_of(state["deal"])
        if plays and state["launcher"]["status"] not in ("empty", "jam", "fault"):
            return state
        take_turn(evening, done, 1)


def correct_count(evening: Evening, seat: int, count: int) -> None:
    """The family says a hand holds `count` cards (the toolbar's count correction)."""
    page = evening.page
    if not page.locator("details.fix-count").evaluate("box => box.open"):
        page.click("details.fix-count summary")
    page.select_option("#fix-seat", str(seat))
    page.fill("#fix-count", str(count))
    evening.tap("#fix-save")
    assert evening.deal()["hands"][seat] == count


def a_number(state: dict[str, Any]) -> str:
    plays, _ = moves_of(state["deal"])
    return sorted(c for c in plays if c[1:].isdigit())[0]


def unlock_and_set_up(evening: Evening) -> None:
    page = evening.page
    page.goto("/")
    wait_ready(page)
    expect(page.locator("#players tr")).to_have_count(4)  # the bots' table, playing
    page.click("#virtual-press")  # a locked tablet: the PIN box opens and says why
    page.fill("#pin-input", PIN)
    page.click("#pin-form button[type=submit]")
    expect(page.locator("#lock")).to_be_visible()
    page.click("a[href='/setup']")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    names = page.locator(".setup-player input")
    for seat, player in enumerate(FAMILY):
        names.nth(seat).fill(player)
    page.select_option("#eject-profile", "brutal")  # cards fly: the launcher runs empty soon
    page.fill('#format-options [data-option="target"] input', str(TARGET))
    page.once("dialog", lambda dialog: dialog.accept())  # replace the bots' match: yes
    page.click("#setup-form button[type=submit]")  # straight from typing the target
    page.wait_for_url("**/")
    wait_ready(page)
    state = evening.state()
    assert state["setup"]["players"] == FAMILY and state["target"] == TARGET
    expect(page.locator("#bots-hint")).to_contain_text("This table is yours")


def deal_and_turn_up(evening: Evening) -> None:
    evening.tap("#deal")
    evening.tap("#turn-up button[data-card$='5']")
    assert evening.deal()["phase"] == "playing"


def uno_call_and_catch(evening: Evening) -> None:
    state = to_a_play_turn(evening)
    caller = state["deal"]["to_move"]
    correct_count(evening, caller, 2)
    evening.page.check("#uno-toggle")
    state = play(evening, a_number(evening.state()))
    assert caller in state["deal"]["uno"] and state["deal"]["hands"][caller] == 1

    state = to_a_play_turn(evening)
    forgetful = state["deal"]["to_move"]
    correct_count(evening, forgetful, 2)
    state = play(evening, a_number(evening.state()))  # no "UNO!": somebody may catch it
    assert forgetful in state["deal"]["exposed"]
    catch = f'#catch-window .catch[data-target="{forgetful}"]'
    state = evening.tap(catch)
    assert forgetful not in state["deal"]["exposed"]
    assert any(duty["seat"] == forgetful for duty in state["deal"]["duties"])


def go_out(evening: Evening) -> dict[str, Any]:
    state = to_a_play_turn(evening)
    winner = state["deal"]["to_move"]
    correct_count(evening, winner, 1)
    state = play(evening, a_number(evening.state()))
    assert state["deal"]["phase"] == "scoring" and state["deal"]["winner"] == winner
    return state


def enter_hands(evening: Evening, points: int, *, question_first: bool) -> None:
    """Each player's hand: the first counted card by card with a wrong count (questioned
    before it is saved), the others as points."""
    page = evening.page
    if question_first:
        seat = int(page.locator(".hand-entry").get_attribute("data-seat") or 0)
        tracked = evening.deal()["hands"][seat]
        if not page.locator("details.count-cards").evaluate("box => box.open"):
            page.click("details.count-cards summary")
        page.click('.face[data-face="5"] .plus')
        page.click('.face[data-face="5"] .plus')
        assert tracked != 2
        expect(page.locator("#count-mismatch")).to_be_visible()
        before = evening.state()["seq"]
        page.click("#save-cards")  # questioned first, not saved
        expect(page.locator("#save-cards")).to_have_text("Save anyway")
        assert evening.state()["seq"] == before
        evening.tap("#save-cards")
        assert evening.deal()["shown"][str(seat)] == 10
    while (evening.state()["deal"] or {}).get("phase") == "scoring":
        page.fill("#hand-points", str(points))
        evening.tap("#save-points")


def test_a_familys_first_night(evening: Evening) -> None:
    page = evening.page
    unlock_and_set_up(evening)
    deal_and_turn_up(evening)

    done: set[str] = set()
    turns = 0
    while turns < 20 or not {"hit 2", "all hit", "reload"} <= done:
        assert turns < 200, f"only {sorted(done)} after {turns} turns"
        take_turn(evening, done, turns)
        turns += 1
    uno_call_and_catch(evening)
    state = go_out(evening)
    enter_hands(evening, 20, question_first=True)
    state = evening.state()
    assert not state["match_over"] and len(state["deals"]) == 1

    page.click("#language")  # the grandmother reads Chinese
    wait_ready(page)
    expect(page.locator("#bots-hint")).to_contain_text("这一桌归你们")
    deal_and_turn_up(evening)
    for turn in range(4):
        take_turn(evening, set(done), turn)
    evening.restart()  # a power cut, or `make run` again with the same data
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    expect(page.locator("#turn-controls")).to_be_visible()  # still theirs, and playable
    before = evening.state()["seq"]
    take_turn(evening, set(done), 1)
    assert evening.state()["seq"] > before
    go_out(evening)
    enter_hands(evening, 100, question_first=False)
    state = evening.state()
    assert state["match_over"]
    expect(page.locator("#match-end")).to_be_visible()
    expect(page.locator("#champion")).to_contain_text(name_of(state, state["winners"][0]))

    evening.restart()
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    expect(page.locator("#match-end")).to_be_visible()  # held until someone starts anew
    page.click("#bots-play")  # "Let the bots play"
    expect(page.locator("#bots-leave")).to_be_visible()
    wait_until(lambda: evening.state()["setup"]["players"] != FAMILY, "the bots set up")
    bots_from = evening.state()["seq"]
    wait_until(lambda: evening.state()["seq"] >= bots_from + 10, "the bots play")
    expect(page.locator("#players tr")).to_have_count(4)
    assert evening.errors == []


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_a_score_only_match_to_500_with_an_undo(demo_table: Table, language: str) -> None:
    table = demo_table
    wait_until(lambda: bool(table.state().get("setup")), "the bots set up")
    page = table.tablet(NIGHT, unlocked=True)
    if language != "en":
        page.click("#language")
        wait_ready(page)
    page.click("a[href='/setup']")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    while page.locator(".setup-player").count() > 3:
        page.locator(".setup-player").last.locator("button").last.click()  # ✕
    names = page.locator(".setup-player input")
    for seat, player in enumerate(["Ann", "小红", "Cy"]):
        names.nth(seat).fill(player)
    page.check("input[name=mode][value=score_only]")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#setup-form button[type=submit]")
    page.wait_for_url("**/")
    wait_ready(page)
    expect(page.locator("#virtual-press")).to_be_hidden()  # no launcher in a score-only match

    def round_of(winner: int, points: list[int]) -> None:
        before = table.state()["seq"]
        page.click(f'#round-form .tab[data-seat="{winner}"]')
        for seat, value in enumerate(points):
            if seat != winner:
                page.fill(f'#round-form input[data-seat="{seat}"]', str(value))
        page.click("#save-round")
        wait_until(lambda: table.state()["seq"] > before, "the round was logged")

    round_of(1, [120, 0, 80])
    round_of(2, [300, 90, 0])  # a slip: 300 was meant to be 30
    assert table.state()["totals"] == [0, 200, 390]
    before = table.state()["seq"]
    page.click("#undo")
    wait_until(lambda: table.state()["seq"] > before, "the undo was logged")
    assert table.state()["totals"] == [0, 200, 0]
    round_of(2, [30, 90, 0])
    round_of(1, [200, 0, 150])
    assert table.state()["match_over"] and table.state()["winners"] == [1]
    expect(page.locator("#match-end")).to_be_visible()
    expect(page.locator("#champion")).to_contain_text("小红")
    assert page.errors == []
