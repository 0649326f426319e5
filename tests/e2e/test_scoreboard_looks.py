"""What a family sees on the scoreboard, in Chromium at tablet and phone sizes: things stay in
their places, the next player is named, score-only tables show the totals large, a locked tap
asks for the PIN and says why, undo says what it undid, text is readable (contrast), Chinese
colour marks, a one-row phone header, a chart whose labels and target never vanish, and a
set-up page in plain words that shows the rules it carries over."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from controller.policy import ScriptedPolicy
from tests.waiting import wait_until
from web_ui.addresses import lan_addresses

from .conftest import PHONE, TABLET, Table, _table, open_house_rules, wait_ready

pytestmark = pytest.mark.browser

SIZES = [("tablet", TABLET), ("phone", PHONE)]


@pytest.fixture
def scripted_launcher_table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A table whose launcher gives 3 cards at every press."""
    yield from _table(browser, tmp_path, policy=ScriptedPolicy([3] * 20))


# Every visible text's contrast against the background it is drawn on (WCAG 2 formula);
# texts over a picture (the wild card's four colours) are measured on their own backing.
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.backgroundImage !== "none") return null;
      const c = rgb(style.backgroundColor);
      if (c.length === 3 || c[3] === 1) return c.slice(0, 3);
      if (c[3] > 0.5) return c.slice(0, 3);
    }
    return [15, 27, 36];
  };
  const poor = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !el.offsetParent) continue;
    if (el.closest("button:disabled, svg, .confetti")) continue;
    const back = background(el);
    if (!back) continue;
    const [a, b] = [lum(rgb(getComputedStyle(el).color).slice(0, 3)), lum(back)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) poor.push(`${el.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
  }
  return poor;
}"""


def hit_fire_table(table: Table, players: list[str]) -> None:
    table.started(top="R5", players=players)
    seat = table.state()["deal"]["to_move"]
    table.act(type="Play", seat=seat, card="WHF", colour="G")


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_places_stay_put_and_the_next_player_is_named(
    table: Table, name: str, viewport: dict[str, int]
) -> None:
    table.started(top="R5", players=["Al", "Maximiliana Bartholomew", "Cy"])
    page = table.tablet(viewport, unlocked=True)
    mover = table.state()["deal"]["to_move"]
    players = table.state()["setup"]["players"]
    expect(page.locator("#turn-name")).to_have_text(players[mover])
    expect(page.locator("#next-name")).to_have_text(f"next: {players[(mover + 1) % 3]}")
    places = [page.locator(s).bounding_box() for s in ("#top-card", "#active-colour")]
    table.act(type="Play", seat=mover, card="R7")
    after = table.state()["deal"]["to_move"]
    expect(page.locator("#turn-name")).to_have_text(players[after])
    assert [page.locator(s).bounding_box() for s in ("#top-card", "#active-colour")] == places
    turn = page.locator("#turn-name")
    assert turn.evaluate("el => el.getClientRects().length") == 1  # one line, never wrapped
    assert page.errors == []


def test_one_press_button_and_no_empty_panel_in_the_demo(idle_demo_table: Table) -> None:
    table = idle_demo_table
    wait_until(lambda: bool(table.state().get("setup")))
    table.submit({"type": "deal"})
    page = table.tablet(PHONE, unlocked=True)
    expect(page.locator("#controls")).to_be_hidden()  # the bots' turn-up: nothing to tap here
    table.submit({"type": "action", "action": {"type": "TurnUp", "card": "R5"}})
    mover = table.state()["deal"]["to_move"]
    page.click(f'#seats button[data-seat="{mover}"]')
    expect(page.locator("#press")).to_be_visible()
    expect(page.locator("#virtual-press")).to_be_hidden()  # one "Press the launcher", not two
    assert page.errors == []


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_a_locked_tap_opens_the_pin_box_and_says_why(
    idle_demo_table: Table, name: str, viewport: dict[str, int]
) -> None:
    table = idle_demo_table
    wait_until(lambda: bool(table.state().get("setup")))
    page = table.tablet(viewport)
    seat = page.locator('#seats button[data-seat="0"]')
    expect(seat).to_be_enabled()
    seat.click()
    expect(page.locator("#pin-panel")).to_be_visible()
    expect(page.locator("#pin-panel")).to_contain_text("take a seat from the bots")
    expect(page.locator("#pin-input")).to_be_focused()
    page.click("#virtual-press")
    expect(page.locator("#pin-panel")).to_contain_text("press the launcher from this tablet")
    assert table.demo is not None and table.demo.humans == set()


FONT_SIZE = """selector => {
  const element = document.querySelector(selector);
  const size = element ? parseFloat(getComputedStyle(element).fontSize) : NaN;
  return Number.isNaN(size) ? null : size;
}"""
"""The font size of the element `selector` finds, once it has one: a redraw may replace the
element between finding it and reading it (a detached element has no computed style: NaN)."""


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_score_only_totals_are_the_hero(table: Table, name: str, viewport: dict[str, int]) -> None:
    setup = {"players": ["Mum", "Dad", "Kim"], "mode": "score_only", "options": {"target": 500}}
    table.submit({"type": "setup", "setup": setup})
    table.submit({"type": "round", "winner": 1, "points": [30, 0, 12]})
    page = table.tablet(viewport)
    expect(page.locator("#game-panel")).to_be_hidden()  # no "Waiting for the deal" hero
    selector = '#players tr[data-seat="1"] .total'
    expect(page.locator(selector)).to_have_text("42")
    size = float(page.wait_for_function(FONT_SIZE, arg=selector).json_value())
    assert size >= 28, f"totals are {size}px"
    cells = page.locator("#history tbody tr").first.locator("td")
    expect(cells).to_have_text(["1", "(30)", "★ +42", "(12)"])  # every player's points
    expect(page.locator("#standings")).to_be_visible()
    assert page.errors == []


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_undo_says_what_it_undid_and_hit_fire_reads_in_order(
    table: Table, name: str, viewport: dict[str, int]
) -> None:
    hit_fire_table(table, ["Ann", "Bob", "Cy"])
    page = table.tablet(viewport, unlocked=True)
    feed = page.locator("#feed li")
    victim = table.state()["deal"]["to_move"]
    name = table.state()["setup"]["players"][victim]
    expect(feed.first).to_have_text(f"{name} presses until cards come out, then loses the turn")
    mover = (victim - 1) % 3
    page.click("#undo")
    who = table.state()["setup"]["players"][mover]
    expect(page.locator("#notices")).to_contain_text(f"Undone: {who} played Wild Hit-Fire")
    expect(feed.first).to_have_text(f"Undone: {who} played Wild Hit-Fire")


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_every_text_is_readable_and_the_phone_header_is_one_row(
    table: Table, name: str, viewport: dict[str, int], language: str
) -> None:
    table.started(top="G5")
    table.act(type="Play", seat=table.state()["deal"]["to_move"], card="G7")
    page = table.tablet(viewport, unlocked=True)
    if language == "zh-CN":
        page.click("#language")
        expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
        expect(page.locator("#active-colour .letter")).to_have_text("绿")
        expect(page.locator("#top-card")).to_contain_text("绿 7")
    else:
        expect(page.locator("#active-colour .letter")).to_have_text("G")
    poor = page.evaluate(CONTRAST)
    assert not poor, f"text under 4.5:1: {poor}"
    header = page.locator("header.bar").bounding_box()
    assert header is not None and header["height"] <= 72, f"the header is {header} high"


LABEL_BOXES = """() => {
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return { y: r.y, height: r.height };
  };
  const labels = [...document.querySelectorAll("#chart .series-name")];
  return [rect(document.querySelector("#chart svg")), labels.map(rect)];
}"""


def test_chart_keeps_tied_labels_apart_and_shows_a_far_target(table: Table) -> None:
    setup = {"players": ["Ann", "Bob", "Cy", "Di"], "mode": "score_only"}
    table.submit({"type": "setup", "setup": setup | {"options": {"target": 500}}})
    table.submit({"type": "round", "winner": 0, "points": [0, 1, 1, 1]})
    page = table.tablet(PHONE)
    expect(page.locator("#chart .series-name")).to_have_count(4)
    # measured in one step: the stream's snapshot redraws the chart, and a label measured
    # before that redraw would be detached (no box) when measured after it
    chart, boxes = page.evaluate(LABEL_BOXES)
    for box in boxes:
        assert (
            chart["y"] <= box["y"] and box["y"] + box["height"] <= chart["y"] + chart["height"] + 1
        ), "a label left the chart"
    tops = sorted(box["y"] for box in boxes)
    assert all(b - a >= boxes[0]["height"] * 0.8 for a, b in itertools.pairwise(tops))
    expect(page.locator("#chart .target-label")).to_have_text("Target 500 ↑")
    wide = page.locator("#history .won").first
    assert wide.evaluate("el => el.getClientRects().length") == 1  # "★ +3" on one line


def test_setup_speaks_plainly_and_shows_carried_rules(table: Table) -> None:
    options = {"target": 200, "attack_stack_hits": True}  # the target is no house rule
    table.submit({"type": "setup", "setup": {"players": ["Ann", "Bob"], "options": options}})
    page = table.tablet(PHONE, unlocked=True)
    page.goto("/setup")
    expect(page.locator("#setup-form[data-ready=true]")).to_be_visible()
    expect(page.locator("#carried")).to_contain_text("last match's house rules (1 changed)")
    expect(page.locator("#options-box")).to_have_attribute("open", "")
    expect(page.locator("#eject-profile option:checked")).to_have_text("Like the toy")
    expect(page.locator("#eject-profile-hint")).to_contain_text("About one press in four fires")
    page.select_option("#eject-profile", "gentle")
    expect(page.locator("#eject-profile-hint")).to_contain_text("only 1 to 4 cards")
    expect(page.locator("#options h3")).not_to_contain_text(["§"])
    page.click("#standard-rules")
    expect(page.locator("#carried")).to_be_hidden()
    expect(page.locator("#options-changed")).to_contain_text("the standard rules")
    expect(page.locator('[data-option="target"] input')).to_have_value("200")  # it stays
    open_house_rules(page)
    assert page.errors == []


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_the_end_of_a_deal_asks_points_first_with_a_compact_counter(
    table: Table, name: str, viewport: dict[str, int]
) -> None:
    table.started()
    table.act(type="Correct", seat=1, count=1)
    table.act(type="Play", seat=1, card="R7")  # Bob goes out; Ann holds 7 cards, Cy 7
    page = table.tablet(viewport, unlocked=True)
    entry = page.locator("#scoring .hand-entry")
    expect(entry).to_have_attribute("data-seat", "0")
    expect(page.locator("#hand-points")).to_be_visible()  # points first
    expect(page.locator("#faces")).to_be_hidden()
    page.click("#scoring .count-cards summary")
    for _ in range(7):
        page.click('#faces [data-face="9"] .plus')
    expect(page.locator("#picks-points")).to_have_text("7 cards, 63 points")
    expect(page.locator("#count-mismatch")).to_be_hidden()  # it matches the tracked count
    height = page.locator("#faces").bounding_box()
    assert height is not None and height["height"] < 700, f"the counter is {height} high"
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0
    page.click("#save-cards")  # no question when the count matches
    expect(entry).to_have_attribute("data-seat", "2")
    assert table.state()["deal"]["shown"]["0"] == 63
    assert page.errors == []


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_card_faces_carry_colour_marks_and_cards_fly_out(
    scripted_launcher_table: Table, name: str, viewport: dict[str, int]
) -> None:
    table = scripted_launcher_table
    table.started(top="R5", game="attack")
    page = table.tablet(viewport, unlocked=True)
    face = page.locator("#top-face svg.card-face")
    expect(face).to_have_attribute("data-card", "R5")
    expect(face.locator('[data-mark="R"]')).to_have_count(2)  # a shape as well as a colour
    table.act(type="Play", seat=table.state()["deal"]["to_move"], card="WHF", colour="B")
    expect(face).to_have_attribute("data-card", "WHF")
    expect(face).to_have_class("card-face played")  # dealt in with a short animation
    expect(face.locator('[data-mark="W"]')).to_have_count(2)
    table.service.virtual_press()  # Hit-Fire: the launcher is asked for 3 cards (scripted)
    wait_until(lambda: table.state()["launcher"]["last"], "the eject's outcome")
    # as many fly as really came out: 3, or more when a starved CPU let the motor run on
    out = table.state()["launcher"]["last"]["cards"]
    assert out >= 3
    expect(page.locator("#fly")).to_have_attribute("data-count", str(out))
    expect(page.locator("#fly .card-back")).to_have_count(min(out, 8))
    assert page.errors == []


def test_classic_deck_faces(table: Table) -> None:
    table.started(top="B5", game="classic")
    page = table.tablet(PHONE)
    expect(page.locator("#top-face svg")).to_have_attribute("data-card", "B5")
    table.act(type="Play", seat=table.state()["deal"]["to_move"], card="B+2")
    face = page.locator("#top-face svg")
    expect(face).to_have_attribute("data-card", "B+2")
    expect(face).to_contain_text("+2")
    expect(face.locator('[data-mark="B"]')).to_have_count(2)


def sounds(page: Any) -> list[str]:
    return str(page.evaluate("document.documentElement.dataset.sounds ?? ''")).split()


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_sound_follows_the_launcher_and_stays_quiet_when_hidden(
    scripted_launcher_table: Table, name: str, viewport: dict[str, int]
) -> None:
    table = scripted_launcher_table
    table.started(top="R5")
    table.service.launcher_side.suspense = 0.3  # the launcher holds its suspense before each eject
    page = table.tablet(viewport)
    sound = page.locator("#sound")
    expect(sound).to_have_text("Sound: off")
    page.locator("#tension").scroll_into_view_if_needed()
    table.service.virtual_press()
    wait_until(lambda: table.state()["launcher"].get("last") is not None)
    # as many fly as really came out: 3, or more when a starved CPU let the motor run on
    out = table.state()["launcher"]["last"]["cards"]
    assert out >= 3
    expect(page.locator("#fly .card-back")).to_have_count(min(out, 8))
    assert sounds(page) == []  # off until this tablet turns it on

    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.reload()  # each tablet remembers its own switch
    wait_ready(page)  # a tap before the page's scripts run is lost
    expect(page.locator("#sound")).to_have_text("Sound: on")
    # live first: the stream's snapshot redraws the page, and a tap while it shifts may miss
    expect(page.locator("#live")).to_have_attribute("data-state", "live")  # else it misses it
    page.locator("#sound").click()
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    page.locator("#sound").click()  # a tap after the reload lets the browser play sound again
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#sound")).to_have_attribute("data-audio", "running")
    table.act(type="Play", seat=table.state()["deal"]["to_move"], card="RH2")
    table.service.virtual_press()
    expect(page.locator("html")).to_have_attribute("data-sounds", re.compile("eject"))
    assert "tick" in sounds(page), sounds(page)  # suspense ticks before the cards came out
    width = page.locator("#tension-bar").evaluate("el => el.style.width")
    assert width.endswith("%")

    page.evaluate(
        """() => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
        document.dispatchEvent(new Event("visibilitychange"));
    }"""
    )
    heard = len(sounds(page))
    seq = table.state()["seq"]
    table.service.virtual_press()
    wait_until(lambda: table.state()["seq"] > seq)
    expect(page.locator("#feed li").first).to_contain_text("pressed")
    assert len(sounds(page)) == heard  # a hidden page stays quiet
    assert page.errors == []


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_qr_code_opens_the_table_on_a_phone(
    table: Table, name: str, viewport: dict[str, int]
) -> None:
    table.started()
    page = table.tablet(viewport)
    qr = page.locator("#qr")
    qr.scroll_into_view_if_needed()
    expect(qr).to_be_visible()
    loaded = qr.evaluate("img => img.complete && img.naturalWidth")
    assert loaded and loaded > 100, "the QR code did not load"
    answer = page.request.get(f"{table.url}/qr.svg")
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    port = table.url.rsplit(":", 1)[1]
    lan = lan_addresses()  # opened here as 127.0.0.1: a phone needs the LAN address instead
    expected = f"http://{lan[0]}:{port}/" if lan else f"{table.url}/"
    assert answer.headers["x-table-url"] == expected
    assert b"<svg" in answer.body() and b"<path" in answer.body()
    expect(page.locator("#table-url")).to_have_text(expected)
    named = page.request.get(f"{table.url}/qr.svg", headers={"Host": f"uno-table.lan:{port}"})
    assert named.headers["x-table-url"] == f"http://uno-table.lan:{port}/"  # as the tablet used
    page.click("#wake")  # 127.0.0.1 counts as a secure page: the screen stays on
    expect(page.locator("#wake")).to_have_attribute("aria-pressed", "true")
    page.click("#wake")
    expect(page.locator("#wake")).to_have_attribute("aria-pressed", "false")
    page.click("#fullscreen")
    assert page.errors == []
