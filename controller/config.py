"""The service's configuration: one TOML file → frozen, typed, bounds-checked sections.

Every key is optional; an unknown section or key, or a value of the wrong type or out of
bounds, is an error naming `section.key`. `config.example.toml` beside this module is the
documented reference (every key, its default and its meaning), and parses to the defaults.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

from controller.hall.urls import table_url
from controller.policy import PROFILES
from controller.policy.custom_profiles import NAME, NAME_RULE
from controller.sections import ConfigError, Section, build_section

EXAMPLE = Path(__file__).with_name("config.example.toml")


@dataclass(frozen=True)
class ServiceConfig(Section):
    SECTION = "service"

    host: str = "0.0.0.0"
    port: int = field(default=8080, metadata={"ge": 1, "le": 65535})
    data_dir: str = "data"
    threads: int = field(default=32, metadata={"ge": 8, "le": 256})
    # Open connections waitress serves at once (requests, idle keep-alives, slow heads) and
    # open scoreboard streams; with a margin for the rest of the process they must fit its
    # open-file limit (checked at start: `web_ui/server.py`, `fit_descriptors`).
    connections: int = field(default=500, metadata={"ge": 16, "le": 100_000})
    streams: int = field(default=200, metadata={"ge": 1, "le": 100_000})
    admin_password: str = ""
    # Announce the table on the network (mDNS/DNS-SD), so a hall board finds it by itself.
    announce: bool = True


@dataclass(frozen=True)
class TableConfig(Section):
    SECTION = "table"

    name: str = "UNO Attack"
    pin: str = "1234"
    language: Literal["en", "zh-CN"] = "en"

    def check(self) -> None:
        if not (self.pin.isascii() and self.pin.isdigit() and 4 <= len(self.pin) <= 8):
            raise self.error("pin", "must be 4 to 8 digits (0-9)")


@dataclass(frozen=True)
class LauncherConfig(Section):
    SECTION = "launcher"

    backend: Literal["auto", "gpio", "sim", "serial", "fake-serial", "none"] = "auto"
    pin_profile: str = "hbridge"
    eject_profile: str = "toy"
    suspense: float = field(default=1.0, metadata={"ge": 0, "le": 10})
    deal_pause: float = field(default=2.0, metadata={"ge": 0, "le": 30})

    def check(self) -> None:
        """The eject profile's form: whether a custom one exists is known only where the data
        directory is (`uno-attack run` loads it before the table starts)."""
        value = self.eject_profile
        if value in PROFILES or NAME.fullmatch(value) or value.endswith(".toml"):
            return
        raise self.error(
            "eject_profile",
            f"must be a built-in profile ({', '.join(PROFILES)}), a custom profile's name "
            f"({NAME_RULE}) or the path of a .toml file",
        )

    @property
    def eject_profile_file(self) -> Path | None:
        """The eject profile's file when the configuration names one by its path."""
        return Path(self.eject_profile) if self.eject_profile.endswith(".toml") else None


@dataclass(frozen=True)
class DemoConfig(Section):
    SECTION = "demo"

    pace: float = field(default=1.2, metadata={"ge": 0, "le": 60})
    players: int = field(default=4, metadata={"ge": 2, "le": 10})


@dataclass(frozen=True)
class HallConfig(Section):
    """`uno-attack hall`: the wall board that follows several tables (docs/HALL.md)."""

    SECTION = "hall"

    host: str = "0.0.0.0"
    port: int = field(default=8090, metadata={"ge": 1, "le": 65535})
    title: str = "UNO Attack"
    tables: tuple[str, ...] = ()  # the tables' addresses; none: found on the network
    since: str = ""  # only matches started at or after this local time count (ISO 8601)

    def check(self) -> None:
        for url in self.tables:
            try:
                table_url(url)
            except ValueError as error:
                raise self.error("tables", str(error)) from None
        if self.since:
            try:
                datetime.fromisoformat(self.since)
            except ValueError:
                raise self.error(
                    "since",
                    'must be a date or a date and time, like "2025-06-14" or "2025-06-14 13:00"',
                ) from None

    @property
    def since_time(self) -> float | None:
        """`since` as Unix seconds (a time without a zone is this machine's), or None."""
        return datetime.fromisoformat(self.since).timestamp() if self.since else None


TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
TABLE_ID_RULE = "1 to 32 of a-z, 0-9, - and _, starting with a letter or digit"
TableLauncher = Literal["gpio", "board", "sim", "fake-board", "none"]


@dataclass(frozen=True)
class TableEntry(Section):
    """One table of a service with several (`[[tables]]`): its id (its URLs are /t/<id>/), name,
    PIN and language (by default [table]'s) and its launcher: the Pi's own pins (`gpio`, with
    `pin_profile`), a Pico board over USB (`board`, told apart by its USB `serial_number`), the
    simulated launcher (`sim`), a fake board (`fake-board`: the board's serial code, no
    hardware) or none (`none`: score-only, or the cards typed in)."""

    SECTION = "tables"

    id: str
    name: str = ""  # shown at the top of its scoreboard; empty: the id
    pin: str = "1234"
    language: Literal["en", "zh-CN"] = "en"
    launcher: TableLauncher = "none"
    pin_profile: str = "hbridge"
    serial_number: str = ""

    def check(self) -> None:
        if not TABLE_ID.fullmatch(self.id):
            raise self.error("id", f"must be {TABLE_ID_RULE}, not {self.id!r}")
        if not (self.pin.isascii() and self.pin.isdigit() and 4 <= len(self.pin) <= 8):
            raise self.error("pin", "must be 4 to 8 digits (0-9)")
        if self.serial_number and self.launcher != "board":
            raise self.error("serial_number", 'only a launcher = "board" has one')

    @property
    def title(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class Config:
    service: ServiceConfig = field(default_factory=ServiceConfig)
    table: TableConfig = field(default_factory=TableConfig)
    launcher: LauncherConfig = field(default_factory=LauncherConfig)
    demo: DemoConfig = field(default_factory=DemoConfig)
    hall: HallConfig = field(default_factory=HallConfig)
    # [[tables]]: the tables of a service with several; none: the one table of [table]
    tables: tuple[TableEntry, ...] = ()

    def __post_init__(self) -> None:
        check_tables(self.tables)

    @property
    def data_path(self) -> Path:
        return Path(self.service.data_dir)


def check_tables(tables: tuple[TableEntry, ...]) -> None:
    """Several tables must be told apart: ids, and the boards' serial numbers, unique; the
    Pi's pins drive one table at most."""
    ids = [entry.id for entry in tables]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ConfigError(f"[[tables]]: the id {twice[0]!r} is given to two tables")
    on_pins = [entry.id for entry in tables if entry.launcher == "gpio"]
    if len(on_pins) > 1:
        raise ConfigError(
            f'[[tables]]: tables {", ".join(on_pins)} all have launcher = "gpio": the Pi\'s '
            'pins drive one launcher; put the others on boards (launcher = "board")'
        )
    boards = [entry for entry in tables if entry.launcher == "board"]
    numbers = [entry.serial_number for entry in boards]
    if len(boards) > 1 and ("" in numbers or len(set(numbers)) < len(numbers)):
        raise ConfigError(
            "[[tables]]: with several boards, give each table's its own serial_number "
            "(`python3 -m serial.tools.list_ports -v` shows each board's SER=...)"
        )


SECTIONS: dict[str, type[Section]] = {
    cls.SECTION: cls for cls in (ServiceConfig, TableConfig, LauncherConfig, DemoConfig, HallConfig)
}


def parse_config(text: str, source: str = "config") -> Config:
    """A `Config` from TOML text; errors name the file, section and key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    sections: dict[str, object] = {}
    entries = data.pop("tables", [])
    for name, table in data.items():
        cls = SECTIONS.get(name)
        if cls is None:
            raise ConfigError(
                f"{source}: unknown section [{name}] (expected one of: {', '.join(SECTIONS)}, "
                "or [[tables]])"
            )
        try:
            sections[name] = build_section(cls, table)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None
    shared = sections.get("table", TableConfig())
    assert isinstance(shared, TableConfig)
    try:
        sections["tables"] = table_entries(entries, shared)
        return Config(**sections)  # type: ignore[arg-type]
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None


def table_entries(entries: object, shared: TableConfig) -> tuple[TableEntry, ...]:
    """The `[[tables]]` array, each entry's PIN and language [table]'s unless it gives its own."""
    if not isinstance(entries, list):
        raise ConfigError(f"tables must be an array of tables ([[tables]]), got {entries!r}")
    built = []
    for number, entry in enumerate(entries, 1):
        if isinstance(entry, dict):
            entry = {"pin": shared.pin, "language": shared.language} | entry
        try:
            built.append(build_section(TableEntry, entry))
        except ConfigError as error:
            raise ConfigError(f"[[tables]] number {number}: {error}") from None
    return tuple(built)


def load_config(path: Path | str | None) -> Config:
    """The configuration in `path`, or the defaults when no path is given."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None
    return parse_config(text, str(path))
