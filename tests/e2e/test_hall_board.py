"""The hall's wall board in real Chromium, as a club night sees it: a real `uno-attack hall`
process follows two real `uno-attack run --demo` services (the bots play, then leave each table
mid-deal so the board holds still). At 1920×1080, on tablets and on a phone, in English and
Chinese, both tables show their players, hands, totals, whose turn it is and the launcher; the
standings are those of `GET /api/hall`; nothing scrolls sideways or is cut short. A table killed
with SIGKILL shows offline, saying why in the page's language, and comes back live when started
again; no script error on the way."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.api.test_recovery import Client, free_port
from tests.e2e.served import get_state
from tests.hall.logs import logged_deals
from tests.hall.test_two_services import PLAYING, Service, in_a_deal
from tests.waiting import wait_until
from web_ui.hall import HALL_WORDS
from web_ui.i18n import WORDS

from .conftest import PHONE, PORTRAIT, TABLET, TIMEOUT_MS, shoot
from .looks import fits

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

WALL = {"width": 1920, "height": 1080}
SCREENS = [("wall", WALL), ("tablet", TABLET), ("portrait", PORTRAIT), ("phone", PHONE)]
BUSY = ("suspense", "firing")  # a press under way: the launcher's status is about to change

# Each seat of a table as shown: [name (with the dealer's mark), hand, total].
SEATS = """(card) => [...card.querySelectorAll("ol.hall-seats > li")].map((seat) =>
  ["hall-name", "hall-hand", "hall-total"].map((part) =>
    seat.querySelector(`.${part}`).textContent))"""

# The standings as shown: [rank, name, total, matches, wins] per row.
STANDINGS = """() => [...document.querySelectorAll("#standings tbody tr")].map((row) =>
  [...row.cells].map((cell) => cell.textContent))"""


def say(language: str, key: str, **params: object) -> str:
    """A word of the board in `language`, its `{placeholders}` filled in as the page does."""
    text = (WORDS[language] | HALL_WORDS[language])[key]
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", str(value))
    return text


def filled(language: str, key: str) -> re.Pattern[str]:
    """A word of the board in `language` with anything at all in its `{placeholders}`."""
    pieces = re.split(r"\{\w+\}", say(language, key))
    return re.compile(".+".join(re.escape(piece) for piece in pieces))


def offline_line(language: str, reason: str) -> re.Pattern[str]:
    """The offline line of a card in `language`: since any time, for this reason's words."""
    since, after = say(language, "hall_offline_since").split("{reason}")
    pieces = re.split(r"\{time\}", since)
    said = ".+".join(re.escape(piece) for piece in pieces)
    return re.compile(f"^{said}{re.escape(say(language, reason))}{re.escape(after)}$")


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


@dataclass
class Night:
    """Two demo tables and the hall that follows them; `board` is the hall's address."""

    tables: tuple[Service, Service]
    board: str

    def view(self) -> dict[str, Any]:
        return dict(get_json(f"{self.board}api/hall"))


def unlocked(service: Service) -> Client:
    """A tablet of the table's with the PIN given: it may take the table from the bots."""
    tablet = Client(service.port)
    tablet.post("/api/session/pin", {"pin": "1234"})
    return tablet


def held_in_a_deal(service: Service, tablet: Client) -> bool:
    """Take the table from the bots while they play a deal, once its launcher is still; False,
    the bots playing on, if no deal was going on when they let go."""
    if in_a_deal(service):
        if tablet.get("/api/demo")["playing"]:
            tablet.post("/api/demo/mine", {})
        wait_until(lambda: launcher_status(service) not in BUSY, "the last press ended")
        if in_a_deal(service):
            return True
    if not tablet.get("/api/demo")["playing"]:
        tablet.post("/api/demo/bots", {})
    return False


def launcher_status(service: Service) -> str:
    return str(get_state(service.url)["launcher"]["status"])


def hold_still(night: Night) -> dict[str, Any]:
    """Stop the bots of every table mid-deal and wait until the hall has read all they did;
    return the hall's view of that."""
    for service in night.tables:
        tablet = unlocked(service)
        held = partial(held_in_a_deal, service, tablet)
        wait_until(held, "the bots left a deal going", PLAYING)

    def caught_up() -> bool:
        view = night.view()
        for service, table in zip(night.tables, view["tables"], strict=True):
            state = get_state(service.url)
            shown = {key: state["launcher"].get(key) for key in ("status", "fault", "tension")}
            if not (table["status"] == "live" and table["seq"] == state["seq"]):
                return False
            if table["launcher"] != shown or table["match"]["turn"] is None:
                return False
        return True

    wait_until(caught_up, "the hall read everything of both tables")
    return night.view()


def start_hall(urls: list[str], port: int) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "hall", *urls,
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip

    def answering() -> bool:
        assert process.poll() is None, process.communicate()[0]
        try:
            get_json(f"http://127.0.0.1:{port}/api/hall")
        except OSError:  # not listening yet
            return False
        return True

    wait_until(answering, "the hall answers")
    return process


@pytest.fixture(scope="module")
def night(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Night]:
    """Both tables have scored a deal and stand still mid-deal; the hall is caught up."""
    folder = tmp_path_factory.mktemp("hall-night")
    tables = (Service(folder / "a"), Service(folder / "b"))
    hall = None
    try:
        for service in tables:
            service.start()
        port = free_port()
        hall = start_hall([service.url for service in tables], port)
        night = Night(tables, f"http://127.0.0.1:{port}/")
        for service in tables:
            wait_until(lambda s=service: logged_deals(s.log_path) >= 1, "a deal scored", PLAYING)
        hold_still(night)
        yield night
    finally:
        if hall is not None:
            hall.terminate()
            hall.wait(15)
        for service in tables:
            service.stop()


@pytest.fixture
def wall(browser: Any, night: Night) -> Iterator[Callable[[dict[str, int], str], Any]]:
    """Opens the board in a new browser window of a size, in a language, its first view drawn
    (the window keeps its script errors in `page.errors`)."""
    contexts: list[Any] = []

    def open_wall(viewport: dict[str, int], language: str) -> Any:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(f"{error}\n{error.stack or ''}"))
        page.errors = errors
        page.goto(f"{night.board}?lang={language}")
        expect(page.locator("#live")).to_have_attribute("data-state", "live")
        expect(page.locator("#tables")).to_have_attribute("data-count", "2")
        return page

    yield open_wall
    for context in contexts:
        context.close()


def card(page: Any, table: dict[str, Any]) -> Any:
    return page.locator(f'article.hall-table[data-url="{table["url"]}"]')


def shows_the_table(page: Any, table: dict[str, Any], language: str) -> None:
    """The table's card shows what the hall says of it: live, its seats, turn and launcher."""
    shown, match, launcher = card(page, table), table["match"], table["launcher"]
    expect(shown).to_be_visible()
    expect(shown).to_have_attribute("data-status", "live")
    expect(shown.locator(".hall-status")).to_have_text(say(language, "hall_live"))
    seats = [
        [seat["name"] + (" ◆" if seat["dealer"] else ""), str(seat["hand"]), str(seat["total"])]
        for seat in match["players"]
    ]
    wait_until(lambda: shown.evaluate(SEATS) == seats, f"the seats {seats}")
    expect(shown.locator(".hall-turn")).to_contain_text(
        say(language, "hall_to_play", name=match["turn"])
    )
    expect(shown.locator(".hall-seat.turn .hall-name")).to_contain_text(match["turn"])
    line = shown.locator(".hall-launcher")
    expect(line).to_have_attribute("data-status", launcher["status"])
    status = say(language, launcher["status"])
    expect(line).to_contain_text(say(language, "hall_launcher", status=status))


def standings_rows(view: dict[str, Any]) -> list[list[str]]:
    keys = ("rank", "name", "total", "matches", "wins")
    return [[str(row[key]) for key in keys] for row in view["standings"]]


def shows_the_standings(page: Any, night: Night) -> None:
    """The standings on the page are those `GET /api/hall` answers (read again while the page
    catches up)."""
    wait_until(
        lambda: page.evaluate(STANDINGS) == standings_rows(night.view()),
        "the page's standings equal /api/hall's",
    )
    expect(page.locator("#standings tbody tr").first).to_be_visible()
    expect(page.locator("#no-standings")).to_be_hidden()


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize(("screen", "viewport"), SCREENS)
def test_the_wall_shows_both_tables_and_the_standings(
    wall: Callable[[dict[str, int], str], Any],
    night: Night,
    screen: str,
    viewport: dict[str, int],
    language: str,
) -> None:
    view = night.view()
    page = wall(viewport, language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#standings-title")).to_have_text(say(language, "standings"))
    for table in view["tables"]:
        shows_the_table(page, table, language)
    shows_the_standings(page, night)
    assert standings_rows(view), "no standings to show: no deal was scored"
    fits(page)
    shoot(page, f"hall-{screen}-{language}")
    assert page.errors == []


def test_a_killed_table_shows_offline_and_comes_back_live(
    wall: Callable[[dict[str, int], str], Any], night: Night
) -> None:
    screens = {"wall": (WALL, "en"), "tablet": (TABLET, "zh-CN")}
    pages = {name: wall(viewport, language) for name, (viewport, language) in screens.items()}
    killed = night.tables[1]
    kept_table, killed_table = night.view()["tables"]

    killed.kill()
    for name, page in pages.items():
        language = screens[name][1]
        shown = card(page, killed_table)
        expect(shown).to_have_attribute("data-status", "offline")
        expect(shown.locator(".hall-status")).to_have_text(say(language, "hall_offline"))
        expect(shown.locator(".hall-offline")).to_have_text(filled(language, "hall_offline_since"))
        # refused once the hall asks again (its stream may first have ended or been cut)
        refused = offline_line(language, "hall_reason_refused")
        expect(shown.locator(".hall-offline")).to_have_text(refused)
        expect(card(page, kept_table)).to_have_attribute("data-status", "live")
        for seat in killed_table["match"]["players"]:  # its last state stays on the wall
            expect(shown).to_contain_text(seat["name"])
        fits(page)
        shoot(page, f"hall-offline-{name}-{language}")
    offline = night.view()["tables"][1]
    assert (offline["error"], offline["error_code"]) == ("connection refused", "refused")

    killed.start()
    for page in pages.values():
        expect(card(page, killed_table)).to_have_attribute("data-status", "live")
        expect(card(page, killed_table).locator(".hall-offline")).to_have_count(0)
    view = hold_still(night)  # the restarted bots carry on with their match: stop them again
    for name, page in pages.items():
        for table in view["tables"]:
            shows_the_table(page, table, screens[name][1])
        shows_the_standings(page, night)
        fits(page)
        assert page.errors == []
