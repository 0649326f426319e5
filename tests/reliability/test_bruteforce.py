"""Brute force from many loopback addresses (127.x.y.z) against a real waitress server: the
guesses of every address together get the budget of one, while the tablets already unlocked
play on and a tablet unlocked before may still enter the right PIN."""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask, request

from controller.config import Config, ServiceConfig, TableConfig
from controller.table.service import TableService
from tests.serving import serve
from tests.waiting import FakeClock
from web_ui import security
from web_ui.app import create_app

from .loopback import Client, address

PIN = "8642"
ATTACKERS = int(os.environ.get("UNO_BRUTE_ADDRESSES", "300"))
SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "game": "attack", "first_dealer": 3, "seed": 1}


@pytest.fixture
def brute_app(service: TableService, tmp_path: Path) -> Iterator[tuple[Flask, int, FakeClock]]:
    settings = ServiceConfig(data_dir=str(tmp_path), admin_password="a long password")
    config = Config(table=TableConfig(pin=PIN), service=settings)
    app = create_app(service, config, secret_key="brute-secret")
    clock = FakeClock()  # stands still while the attack runs
    app.extensions["pin_guard"] = security.Guard("PIN", clock)
    seen: set[str] = set()
    app.extensions["seen_addresses"] = seen
    app.before_request(lambda: seen.add(request.remote_addr or "?"))
    url, stop = serve(app, threads=8)
    try:
        yield app, int(url.rsplit(":", 1)[1]), clock
    finally:
        stop()


def guess(port: int, n: int) -> list[int]:
    """One attacker at its own address: three wrong PINs."""
    attacker = Client(port, address(n))
    return [attacker.unlock(f"{(n * 3 + i) % 10000:04d}".replace(PIN, "0000")) for i in range(3)]


def test_many_addresses_share_one_budget_of_guesses(
    brute_app: tuple[Flask, int, FakeClock],
) -> None:
    app, port, clock = brute_app
    player = Client(port)
    assert player.unlock(PIN) == 200
    assert player.post("/api/setup", {"setup": SETUP})[0] == 200
    returning = Client(port, "127.0.0.1")
    assert returning.unlock(PIN) == 200
    assert returning.post("/session/lock")[0] == 200
    newcomer = Client(port, address(ATTACKERS + 1))

    plays: list[int] = []
    stop = threading.Event()

    def keep_playing() -> None:  # an unlocked tablet, all through the attack
        while not stop.is_set():
            plays.append(player.request("GET", "/api/session")[1]["unlocked"])
            plays.append(player.post("/api/undo")[0])

    watcher = threading.Thread(target=keep_playing)
    watcher.start()
    with ThreadPoolExecutor(16) as pool:
        answers = Counter(code for codes in pool.map(lambda n: guess(port, n), range(ATTACKERS))
                          for code in codes)  # fmt: skip
    stop.set()
    watcher.join()

    assert answers == {403: security.FREE, 429: 3 * ATTACKERS - security.FREE}
    assert len(app.extensions["seen_addresses"]) > ATTACKERS  # they really came from many
    assert plays and all(
        p is True or p == 409 for p in plays
    )  # never locked out (409: nothing to undo)
    assert returning.unlock(PIN) == 200  # unlocked here before: the right PIN is let in
    status, answer, headers = newcomer.post("/api/session/pin", {"pin": PIN})
    assert status == 429 and int(headers["Retry-After"]) > 0, answer
    clock.advance(int(headers["Retry-After"]))
    assert newcomer.unlock(PIN) == 200  # once the wait is over
