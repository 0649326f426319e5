"""A table served over HTTP in this process, that can leave the network and come back on the
same address while it goes on logging (a Pi that left the Wi-Fi), and play for it: score-only
matches, one record at a time."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from controller.config import Config, ServiceConfig
from controller.engine import IllegalAction
from controller.store import FILE_NAME, Store
from controller.table import TableService
from tests.hall.relay import Relay
from tests.serving import serve
from web_ui.app import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
SETUP: dict[str, Any] = {
    "players": PLAYERS,
    "game": "attack",
    "mode": "score_only",
    "first_dealer": 0,
    "seed": 1,
    "options": {"target": 150},
}
UNDO_EVERY = 13  # every 13th record is an undo (of the round before), when there is one


class ServedTable:
    """One table service served by waitress, reached through a `Relay`: cutting the relay
    takes the table off the network while it goes on logging."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        self.log_path = folder / FILE_NAME
        self.store = Store(self.log_path)
        self.service = TableService(self.store).start()
        config = Config(service=ServiceConfig(data_dir=str(folder)))
        app = create_app(self.service, config, secret_key="hall-tests")
        served, self._stop = serve(app)
        self.relay = Relay(int(served.rsplit(":", 1)[1]), port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.relay.port}/"

    def cut(self) -> None:
        self.relay.cut()

    def back(self) -> None:
        self.relay.back()

    @property
    def seq(self) -> int:
        return int(self.service.snapshot().get("seq", 0))

    def close(self) -> None:
        self.relay.cut()
        self._stop()
        self.service.stop()
        self.store.close()


def play(service: TableService, records: int, rng: random.Random) -> None:
    """Log `records` records: a set-up whenever no match goes on, else a round (now and then
    an undo of the last one)."""
    for number in range(1, records + 1):
        state = service.snapshot()
        if not state.get("setup") or state.get("match_over"):
            service.submit({"type": "setup", "setup": SETUP})
            continue
        if number % UNDO_EVERY == 0:
            try:
                service.submit({"type": "undo"})
                continue
            except IllegalAction:
                pass  # nothing to undo: a round instead
        winner = rng.randrange(len(PLAYERS))
        points = [0 if seat == winner else rng.randrange(0, 40) for seat in range(len(PLAYERS))]
        service.submit({"type": "round", "winner": winner, "points": points})
