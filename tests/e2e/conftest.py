"""Browser tests: real headless Chromium (Debian's package) driven by Playwright, against a
real waitress server in this process, with the simulated launcher on mock pins.

Each test gets a fresh table (store in tmp_path) and opens one browser context per simulated
tablet. Without Chromium or Playwright the tests skip and say why; `make test` installs
Chromium when it runs as root.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, ServiceConfig
from controller.launcher import open_launcher
from controller.launcher.sim import SimOptions
from controller.store import Store
from controller.table.demo import DemoTable
from controller.table.service import TableService
from tests.serving import serve
from tests.waiting import wait_until
from web_ui.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
PIN = "1234"
ADMIN_PASSWORD = "let-me-in"
TIMEOUT_MS = 60_000  # a safety net for a busy machine: every wait is for a condition
SETUP: dict[str, Any] = {"players": ["Ann", "Bob", "Cy"], "game": "attack", "seed": 3}

TABLET = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole run (each test opens its own contexts)."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: `make test` installs it as root "
            "(apt-get install -y chromium); otherwise install Debian's chromium package"
        )
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: pip install -e '.[test]'")
    expect.set_options(timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        yield chromium
        chromium.close()


@dataclass
class Table:
    """A served table: its service, simulated launcher, URL, and a way to open tablets."""

    service: TableService
    url: str
    browser: Any
    launcher: Any = None
    demo: DemoTable | None = None
    app: Any = None
    stop_server: Callable[[], None] = lambda: None
    contexts: list[Any] = field(default_factory=list)

    def restart_server(self, between: Callable[[], object] = lambda: None) -> None:
        """Stop serving (tablets lose their streams), run `between`, serve again on the same
        port."""
        self.stop_server()
        between()
        port = int(self.url.rsplit(":", 1)[1])

        def served() -> bool:
            try:
                _, self.stop_server = serve(self.app, port)
            except OSError:  # the old socket is freed once the server's poll (1 s) returns
                return False
            return True

        wait_until(served, f"port {port} free to serve again")

    def tablet(
        self,
        viewport: dict[str, int] | None = None,
        *,
        unlocked: bool = False,
        language: str | None = None,
        path: str = "/",
    ) -> Any:
        """A new tablet (its own cookies) showing `path` (the scoreboard); unlocked with the
        PIN and set to `language` first if asked (through the API, as the PIN form and the
        language switch do), so the page loads once."""
        context = self.browser.new_context(viewport=viewport or TABLET, base_url=self.url)
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(f"{error}\n{error.stack or ''}"))
        page.errors = errors
        settings = {"pin": {"pin": PIN}} if unlocked else {}
        if language is not None:
            settings["language"] = {"language": language}
        if settings:
            token = page.request.get(f"{self.url}/api/session").json()["csrf"]
            for name, data in settings.items():
                answer = page.request.post(
                    f"{self.url}/api/session/{name}", data=data, headers={"X-CSRF-Token": token}
                )
                assert answer.ok, answer.text()
        open_page(page, path)
        return page

    def submit(self, command: dict[str, Any]) -> Any:
        return self.service.submit(command)

    def act(self, **action: Any) -> Any:
        return self.service.submit({"type": "action", "action": action})

    def state(self) -> dict[str, Any]:
        return self.service.snapshot()

    def started(self, top: str = "R5", **setup: Any) -> dict[str, Any]:
        """Set up a match, deal and turn up `top`, through the service (not the pages)."""
        self.submit({"type": "setup", "setup": SETUP | setup})
        self.submit({"type": "deal"})
        self.act(type="TurnUp", card=top)
        return self.state()


def open_page(page: Any, path: str) -> None:
    """Go to `path` and wait until the page's scripts answer taps."""
    page.goto(path)
    wait_ready(page)


def wait_ready(page: Any) -> None:
    """Wait until the page now shown answers taps: a tap before its scripts run would submit a
    form natively (a reload that loses it) or do nothing at all."""
    page.wait_for_load_state()
    page.wait_for_selector("html[data-ready=true]", state="attached")


def open_house_rules(page: Any) -> None:
    """Unfold the set-up page's house rules (folded while they are the standard ones)."""
    if not page.locator("#options-box").evaluate("box => box.open"):
        page.click("#options-box summary")


def csrf(page: Any) -> str:
    return str(page.locator('meta[name="csrf-token"]').get_attribute("content"))


def _table(
    browser: Any,
    tmp_path: Path,
    *,
    demo_pace: float | None = None,
    launcher: bool = True,
    policy: Any = None,
    demo: dict[str, Any] | None = None,
) -> Iterator[Table]:
    store = Store(tmp_path / "uno-attack.db")
    sim = SimOptions(time_scale=0.25, seed=1)
    machine = open_launcher("hbridge", backend="sim", sim=sim) if launcher else None
    service = TableService(
        store, launcher=machine, rng=random.Random(5), suspense=0.0, policy=policy
    )
    bots = None
    if demo_pace is not None:
        bots = DemoTable(service, pace=demo_pace, rng=random.Random(2), **(demo or {}))
    service.start()
    config = Config(service=ServiceConfig(admin_password=ADMIN_PASSWORD))
    app = create_app(service, config, secret_key="browser-tests", demo=bots)
    app.config["SSE_HEARTBEAT"] = 1.0
    app.config["PRESETS_DIR"] = tmp_path / "presets"  # a table's own presets stay in the test
    url, stop = serve(app)
    table = Table(service, url, browser, machine, bots, app=app, stop_server=stop)
    try:
        yield table
    finally:
        for context in table.contexts:
            context.close()
        table.stop_server()
        service.stop()
        if machine is not None:
            machine.close()
        store.close()


@pytest.fixture
def table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A table with the simulated launcher, nobody set up yet."""
    yield from _table(browser, tmp_path)


@pytest.fixture
def manual_table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A table without a launcher: presses are typed in."""
    yield from _table(browser, tmp_path, launcher=False)


@pytest.fixture
def demo_table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A demo table: bots play quickly on the simulated launcher."""
    yield from _table(browser, tmp_path, demo_pace=0.05)


@pytest.fixture
def idle_demo_table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    """A demo table whose bots set up a match and then sit still."""
    yield from _table(browser, tmp_path, demo_pace=3600.0)


def shoot(page: Any, name: str) -> Path:
    """Keep a full-page screenshot under test-artifacts/browser/."""
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
