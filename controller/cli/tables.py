"""The tables `uno-attack run` serves: one ([table] and [launcher]) or several ([[tables]]),
each with its own launcher and its own owner thread on the one event log.

`plans(config, demo)` says what to open for each table; `OpenedTables` opens the log, each
table's launcher (`open_launcher_for`) and `TableService`, and the tournament desk that follows
them all, and closes them in reverse order; `web_app` makes each table's scoreboard app and
mounts them (`web_ui.tables.Tables`). A table's launcher is the Pi's own pins (one table at
most), a Pico board told apart by its USB serial number, the simulated launcher, a fake board,
or none.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from controller.cli import UsageError
from controller.config import Config, TableConfig, TableEntry
from controller.launcher import Launcher, LauncherError, load_pin_profile, resolve_backend
from controller.launcher.guard import open_guarded
from controller.launcher.sim import SimOptions
from controller.policy import ProfileError
from controller.policy.custom_profiles import ProfileShelf, read_entry
from controller.store import FILE_NAME, Store
from controller.table import MAIN, DemoTable, TableService
from controller.tournament import TournamentDesk

if TYPE_CHECKING:
    from web_ui.tables import Tables

log = logging.getLogger("uno-attack")

# a [[tables]] entry's launcher → the launcher backend that opens it (None: no launcher)
BACKENDS: dict[str, str | None] = {
    "gpio": "gpio",
    "board": "serial",
    "sim": "sim",
    "fake-board": "fake-serial",
    "none": None,
}
KINDS = {backend: kind for kind, backend in BACKENDS.items() if backend is not None}
FASTEST_CARDS = 10.0  # a faster demo: beyond this a simulated card's beam pulse nears the filter


@dataclass(frozen=True)
class TablePlan:
    """One table to open: its id, what its scoreboard shows (name, PIN, language), its
    launcher's kind as the tables' list names it (`gpio`, `board`, `sim`, `fake-board`, `none`)
    and how to open it: the launcher backend (None: no launcher), the pin profile and a board's
    USB serial number."""

    table_id: str
    table: TableConfig
    kind: str
    backend: str | None
    pin_profile: str
    serial_number: str | None = None


def plans(config: Config, demo: bool = False) -> list[TablePlan]:
    """The tables to open, the first one first (it is also served at /). With --demo, a table
    on the Pi's pins gets the simulated launcher instead (the one table's [launcher] is
    changed so before)."""
    if not config.tables:
        return [_only_plan(config)]
    return [_entry_plan(entry, demo) for entry in config.tables]


def _only_plan(config: Config) -> TablePlan:
    """A service of one table, "main": [table] and [launcher]."""
    backend = config.launcher.backend
    if backend == "none":
        return TablePlan(MAIN, config.table, "none", None, config.launcher.pin_profile)
    kind = KINDS[resolve_backend(backend)]
    return TablePlan(MAIN, config.table, kind, backend, config.launcher.pin_profile)


def _entry_plan(entry: TableEntry, demo: bool) -> TablePlan:
    kind = "sim" if demo and entry.launcher == "gpio" else entry.launcher
    return TablePlan(
        entry.id,
        TableConfig(name=entry.title, pin=entry.pin, language=entry.language),
        kind,
        BACKENDS[kind],
        entry.pin_profile,
        entry.serial_number or None,
    )


@dataclass(frozen=True)
class OpenTable:
    """A table the service opened: its plan, its running service and, with --demo, its bots."""

    plan: TablePlan
    service: TableService
    demo: DemoTable | None = None


@dataclass(frozen=True)
class Opened:
    """What the service opened: its tables (the first first) and the tournament desk."""

    tables: list[OpenTable]
    desk: TournamentDesk


def open_launcher_for(plan: TablePlan, speed: float = 1.0) -> Launcher | None:
    """The table's launcher, under a motor guard where it drives the Pi's pins; None for a
    table without one. A faster demo's simulated cards run faster and the ejector's timings
    shrink alike. UsageError, naming the table, when it cannot be opened."""
    if plan.backend is None:
        return None
    options: dict[str, Any] = {"profile": plan.pin_profile, "backend": plan.backend}
    if plan.serial_number:
        options["serial_number"] = plan.serial_number
    if speed != 1 and plan.backend == "sim":
        scale = 1 / min(speed, FASTEST_CARDS)
        profile = load_pin_profile(plan.pin_profile)
        options["profile"] = profile.with_ejector(**profile.ejector.scaled(scale).__dict__)
        options["sim"] = SimOptions(time_scale=scale)
    try:
        return open_guarded(**options)
    except (LauncherError, ValueError, OSError) as error:
        which = "" if plan.table_id == MAIN else f"table {plan.table_id}'s "
        raise UsageError(f"cannot open {which}launcher: {error}") from None


LauncherOpener = Callable[[TablePlan, float], Launcher | None]
"""How a table's launcher is opened (its plan, the demo's speed): `open_launcher_for`, or a
test's own."""


class OpenedTables:
    """The log, the launchers and the table services (with --demo, their bots), closed in
    reverse order whatever happens. `with OpenedTables(config) as tables:` (started)."""

    def __init__(
        self,
        config: Config,
        demo: bool = False,
        speed: float = 1.0,
        *,
        open_launcher: LauncherOpener = open_launcher_for,
    ) -> None:
        self.config, self.demo, self.speed = config, demo, speed
        self.open_launcher = open_launcher
        self.closers: list[Callable[[], object]] = []

    def __enter__(self) -> Opened:
        try:
            return self._open()
        except BaseException:
            self.__exit__()
            raise

    def _open(self) -> Opened:
        config = self.config
        # Only the demo makes its data directory: a missing one elsewhere is a disk that
        # was not mounted, and starting an empty log there would hide the real one.
        store = Store(config.data_path / FILE_NAME, create_dir=self.demo)
        self.closers.append(store.close)
        shelf, eject_profile = eject_profiles(config)
        tables = [
            self._table(store, plan, shelf, eject_profile) for plan in plans(config, self.demo)
        ]
        for table in tables:
            table.service.start()
        names = {t.plan.table_id: t.plan.table.name for t in tables}
        desk = TournamentDesk(store, {t.plan.table_id: t.service for t in tables}, names).start()
        self.closers.append(desk.stop)
        return Opened(tables, desk)

    def _table(
        self, store: Store, plan: TablePlan, shelf: ProfileShelf, eject_profile: str
    ) -> OpenTable:
        config, speed = self.config, self.speed
        launcher = self.open_launcher(plan, speed)
        if launcher is not None:
            self.closers.append(launcher.close)
        service = TableService(
            store,
            table_id=plan.table_id,
            launcher=launcher,
            suspense=config.launcher.suspense / speed,
            deal_pause=config.launcher.deal_pause / speed,
            eject_profile=eject_profile,
            eject_profiles=shelf,
        )
        self.closers.append(service.stop)
        demo = None
        if self.demo:
            demo = DemoTable(service, players=config.demo.players, pace=config.demo.pace,
                             speed=speed)  # fmt: skip
        return OpenTable(plan, service, demo)

    def __exit__(self, *_: object) -> None:
        while self.closers:
            closer = self.closers.pop()
            try:
                closer()
            except Exception:
                log.exception("while shutting down")


def eject_profiles(config: Config) -> tuple[ProfileShelf, str]:
    """The tables' eject profiles and the name of the one a set-up gets by default, checked:
    a custom profile that is missing or broken stops the start with a message (exit 2)."""
    file = config.launcher.eject_profile_file
    shelf = ProfileShelf.for_data_dir(config.data_path, [file] if file else [])
    name = file.stem if file else config.launcher.eject_profile
    refused = read_entry(file).error if file else None  # a file named like a built-in, too
    try:
        if refused is not None:
            raise ProfileError(refused)
        shelf.load(name)
    except ProfileError as error:
        raise UsageError(f"[launcher] eject_profile: {error}") from None
    return shelf, name


def web_app(config: Config, opened: Opened) -> Tables:
    """Every table's scoreboard app (its name, PIN and language its plan's), mounted: the
    first one also at /; the tournament desk answers at each."""
    from web_ui.app import create_app
    from web_ui.tables import Mount, Tables

    mounts = []
    for table in opened.tables:
        plan = table.plan
        app = create_app(
            table.service,
            replace(config, table=plan.table),
            secret_key=table_secret(table.service),
            demo=table.demo,
        )
        mounts.append(Mount(plan.table_id, plan.table.name, plan.kind, app))
    return Tables(mounts, opened.desk)


def table_secret(table: TableService) -> str:
    """The key that signs a table's session cookies, kept in its settings so tablets stay
    unlocked."""
    key = table.setting("secret_key")
    if key is None:
        key = secrets.token_hex(32)
        table.set_setting("secret_key", key)
    return key
