"""A service of several tables in this process, as `uno-attack run` opens and serves one, with
test launchers: a table on the Pi's pins gets the real launcher code on gpiozero's mock pins
(with the simulated machine driving them), a table on a board gets the real serial code
against the fake Pico board over a pty."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.cli.tables import OpenedTables, OpenTable, TablePlan, web_app
from controller.config import Config, parse_config
from controller.launcher import Launcher, open_launcher
from controller.launcher.sim import SimOptions
from controller.tournament import TournamentDesk
from tests.launcher.helpers import fast_profile
from tests.serial.conftest import SCALE, serial_profile
from tests.serving import serve

GPIO_SCALE = 0.25  # simulated cards four times as fast as real ones (as tests/launcher run them)


def mock_launcher(plan: TablePlan, speed: float = 1.0) -> Launcher | None:
    """The test's launcher for a table's plan (None for a table without one)."""
    if plan.kind in ("gpio", "sim"):  # the launcher's GPIO code on mock pins
        options = SimOptions(time_scale=GPIO_SCALE)
        return open_launcher(fast_profile(scale=GPIO_SCALE), backend="sim", sim=options)
    if plan.kind in ("board", "fake-board"):  # the serial code against the fake Pico
        return open_launcher(
            serial_profile(), backend="fake-serial", sim=SimOptions(time_scale=SCALE)
        )
    return None


@dataclass
class Served:
    """The service's tables by id (the first first), its address, its configuration, its web
    app and its tournament desk."""

    url: str
    tables: dict[str, OpenTable]
    config: Config
    app: Any
    desk: TournamentDesk

    def table(self, table_id: str) -> OpenTable:
        return self.tables[table_id]


@contextmanager
def serving(
    config_text: str,
    data: Path,
    *,
    launcher: Callable[[TablePlan, float], Launcher | None] = mock_launcher,
    bots: bool = False,
) -> Iterator[Served]:
    """The tables `config_text` ([[tables]] entries) opened with test launchers and served on a
    free loopback port: the log in `data`, no suspense before a press fires; with `bots`, the
    demo's bots play every table, a move every 5 ms."""
    shared = (
        f'[service]\ndata_dir = "{data}"\n[launcher]\nsuspense = 0\ndeal_pause = 0\n'
        "[demo]\npace = 0.005\n"
    )
    config = parse_config(shared + config_text)
    with OpenedTables(config, bots, open_launcher=launcher) as opened:
        app = web_app(config, opened)
        url, stop = serve(app)
        try:
            yield Served(url, {t.plan.table_id: t for t in opened.tables}, config, app, opened.desk)
        finally:
            stop()
