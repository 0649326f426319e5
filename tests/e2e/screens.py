"""`make screenshots`: the main screens at a landscape tablet, a portrait tablet and a phone, and
the hall's wall board at 1920×1080 and a landscape tablet, in English and Chinese, written as PNG
files into a folder that is not committed (default `screenshots/`), so anyone can look before
and after a change.

Each scene is a real table (real store, service, simulated launcher and waitress) brought to a
state through the same commands the tablets send, then photographed by Debian's Chromium. The
hall's board follows two such tables, and an address where no table answers.
"""

from __future__ import annotations

import random
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from controller.config import Config, ServiceConfig
from controller.hall import Hall
from controller.launcher import open_launcher
from controller.launcher.sim import SimOptions
from controller.policy import ScriptedPolicy
from controller.store import Store
from controller.table.demo import DemoTable
from controller.table.service import TableService
from tests.serving import free_port, serve
from tests.waiting import wait_until
from web_ui.app import create_app
from web_ui.hall import create_hall_app

from .conftest import ARGS, CHROMIUM, PIN, SETUP

SIZES = {"tablet-landscape": (1024, 768), "tablet-portrait": (768, 1024), "phone": (390, 844)}
HALL_SIZES = {"wall": (1920, 1080), "tablet-landscape": SIZES["tablet-landscape"]}
LANGUAGES = ("en", "zh-CN")


@contextmanager
def served_table(folder: Path, *, demo: bool = False) -> Iterator[tuple[TableService, str]]:
    store = Store(folder / "uno-attack.db")
    launcher = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25, seed=1))
    service = TableService(
        store, launcher=launcher, rng=random.Random(5), policy=ScriptedPolicy([3] * 20)
    )
    bots = DemoTable(service, pace=3600.0, rng=random.Random(2)) if demo else None
    service.start()
    if bots is not None:  # their one move: the bots' own match, which a person then replaces
        wait_until(lambda: bool(service.snapshot().get("setup")), "the bots set up")
    app = create_app(service, Config(service=ServiceConfig()), secret_key="screens", demo=bots)
    app.config["PRESETS_DIR"] = folder / "presets"
    url, stop = serve(app)
    try:
        yield service, url
    finally:
        stop()
        service.stop()
        launcher.close()
        store.close()


def act(service: TableService, **action: Any) -> None:
    service.submit({"type": "action", "action": action})


def in_play(service: TableService) -> None:
    """Two deals scored, a third in play with a Hit 2 owed."""
    service.submit({"type": "setup", "setup": SETUP | {"options": {"target": 500}}})
    for top, points in (("R5", (34, 0, 21)), ("B4", (12, 0, 40))):
        service.submit({"type": "deal"})
        act(service, type="TurnUp", card=top)
        mover = service.snapshot()["deal"]["to_move"]
        act(service, type="Correct", seat=mover, count=1)
        act(service, type="Play", seat=mover, card=f"{top[0]}9")
        for seat, value in enumerate(points):
            if seat != mover:
                act(service, type="EnterHand", seat=seat, points=value)
    service.submit({"type": "deal"})
    act(service, type="TurnUp", card="G2")
    mover = service.snapshot()["deal"]["to_move"]
    act(service, type="Play", seat=mover, card="GH2")


def end_of_deal(service: TableService) -> None:
    """A player went out: the others enter the cards they hold."""
    service.submit({"type": "setup", "setup": SETUP | {"players": ["Ann", "Bob", "Cy", "奶奶"]}})
    service.submit({"type": "deal"})
    act(service, type="TurnUp", card="R5")
    mover = service.snapshot()["deal"]["to_move"]
    act(service, type="Correct", seat=mover, count=1)
    act(service, type="Play", seat=mover, card="R9")


def persons_table(service: TableService) -> None:
    """On the demo server, a table a person set up: every control is theirs."""
    service.submit({"type": "setup", "setup": SETUP | {"players": ["Mum", "奶奶", "Kim", "Lou"]}})
    service.submit({"type": "deal"})
    act(service, type="TurnUp", card="B4")


def nothing_left(service: TableService) -> None:
    """Every card but the top one is in a hand: nothing is left to draw or reload (§8)."""
    service.submit({"type": "setup", "setup": SETUP})
    service.submit({"type": "deal"})
    act(service, type="TurnUp", card="R5")
    deal = service.snapshot()["deal"]
    act(service, type="Correct", seat=2, count=deal["hands"][2] + deal["pile"])


def reload(service: TableService) -> None:
    """The launcher ran empty during a deal: the players are asked to reload it."""
    service.submit({"type": "setup", "setup": SETUP})
    service.submit({"type": "deal"})
    act(service, type="TurnUp", card="R5")
    for card in ("R7", "R8"):
        act(service, type="Play", seat=service.snapshot()["deal"]["to_move"], card=card)
    assert service.launcher is not None
    service.launcher.simulator.load(0)
    service.virtual_press()
    wait_until(lambda: service.snapshot()["launcher"]["status"] == "empty")


def score_only(service: TableService, *, finish: bool = False) -> None:
    players = ["Mum", "Dad", "Kim", "Lou"]
    setup = {"players": players, "mode": "score_only", "options": {"target": 200}}
    service.submit({"type": "setup", "setup": setup})
    rounds = [(1, [30, 0, 12, 8]), (2, [40, 25, 0, 3]), (1, [50, 0, 20, 14])]
    if finish:
        rounds.append((1, [60, 0, 10, 5]))
    for winner, points in rounds:
        service.submit({"type": "round", "winner": winner, "points": points})


def finished(service: TableService) -> None:
    score_only(service, finish=True)


# name: (how the table gets there, the page, what shows that the page is drawn)
SCENES: dict[str, tuple[Callable[[TableService], None], str, str]] = {
    "board": (in_play, "/", "#live[data-state=live]"),
    "reload": (reload, "/", "#live[data-state=live]"),
    "end-of-deal": (end_of_deal, "/", "#live[data-state=live]"),
    "nothing-left": (nothing_left, "/", "#live[data-state=live]"),
    "demo-own-table": (persons_table, "/", "#live[data-state=live]"),
    "score-only": (score_only, "/", "#live[data-state=live]"),
    "match-end": (finished, "/", "#live[data-state=live]"),
    "setup": (in_play, "/setup", "#setup-form[data-ready=true]"),
    "rules": (in_play, "/rules", "body[data-rules=ready]"),
    "history": (finished, "/history", "body[data-history=ready]"),
}


def shoot_scene(browser: Any, name: str, folder: Path, out: Path) -> list[Path]:
    build, path, drawn = SCENES[name]
    written = []
    with served_table(folder, demo=name.startswith("demo")) as (service, url):
        build(service)
        for language in LANGUAGES:
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(f"{url}/")
                token = page.locator('meta[name="csrf-token"]').get_attribute("content")
                headers = {"X-CSRF-Token": str(token)}
                page.request.post(f"{url}/api/session/pin", data={"pin": PIN}, headers=headers)
                page.request.post(
                    f"{url}/api/session/language", data={"language": language}, headers=headers
                )
                page.goto(f"{url}{path}")
                page.wait_for_selector("html[data-ready=true]", state="attached")
                page.wait_for_selector(drawn, state="attached")
                target = out / f"{name}-{size}-{language}.png"
                # animations at their end: a card dealt in or the trophy caught half-way would
                # look like a fault in the picture
                page.screenshot(path=str(target), full_page=True, animations="disabled")
                written.append(target)
                context.close()
    return written


@contextmanager
def served_hall(urls: list[str]) -> Iterator[tuple[Hall, str]]:
    """A hall following `urls`, its board served by waitress as `uno-attack hall` serves it."""
    from waitress import create_server

    hall = Hall(retry=0.2)
    for url in urls:
        hall.follow(url)
    server: Any = create_server(create_hall_app(hall), host="127.0.0.1", port=0, threads=4)
    stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:  # the loop was polling sockets that close() just closed
            if not stopping.is_set():
                raise

    threading.Thread(target=run, name="hall-board", daemon=True).start()
    try:
        yield hall, f"http://127.0.0.1:{server.effective_port}/"
    finally:
        stopping.set()
        server.close()
        hall.stop()


def hall_caught_up(hall: Hall, services: list[TableService]) -> bool:
    """The hall has read all of each table's log (they come first), and tried the rest."""
    tables = hall.view()["tables"]
    read = all(
        table["status"] == "live" and table["seq"] == service.snapshot()["seq"]
        for table, service in zip(tables, services, strict=False)
    )
    return read and all(table["status"] != "connecting" for table in tables)


def shoot_hall(browser: Any, folder: Path, out: Path) -> list[Path]:
    """The wall board: a table in play, one scoring by hand, one address nobody answers on."""
    written = []
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    with (
        served_table(folder / "a") as (playing, playing_url),
        served_table(folder / "b") as (scoring, scoring_url),
    ):
        in_play(playing)
        score_only(scoring)
        urls = [playing_url, scoring_url, f"http://127.0.0.1:{free_port()}/"]
        with served_hall(urls) as (hall, board):
            wait_until(lambda: hall_caught_up(hall, [playing, scoring]), "the hall read both")
            for language in LANGUAGES:
                for size, (width, height) in HALL_SIZES.items():
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    page.goto(f"{board}?lang={language}")
                    page.wait_for_selector("#live[data-state=live]", state="attached")
                    target = out / f"hall-{size}-{language}.png"
                    page.screenshot(path=str(target), full_page=True, animations="disabled")
                    written.append(target)
                    context.close()
    return written


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as scratch:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        count = 0
        for name in SCENES:
            folder = Path(scratch) / name
            folder.mkdir()
            count += len(shoot_scene(browser, name, folder, out))
        hall_folder = Path(scratch) / "hall"
        hall_folder.mkdir()
        count += len(shoot_hall(browser, hall_folder, out))
        browser.close()
    print(f"{count} screenshots in {out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
