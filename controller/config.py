"""The service's configuration: one TOML file → frozen, typed, bounds-checked sections.

Every key is optional; an unknown section or key, or a value of the wrong type or out of
bounds, is an error naming `section.key`. `config.example.toml` beside this module is the
documented reference (every key, its default and its meaning), and parses to the defaults.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

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
class Config:
    service: ServiceConfig = field(default_factory=ServiceConfig)
    table: TableConfig = field(default_factory=TableConfig)
    launcher: LauncherConfig = field(default_factory=LauncherConfig)
    demo: DemoConfig = field(default_factory=DemoConfig)

    @property
    def data_path(self) -> Path:
        return Path(self.service.data_dir)


SECTIONS: dict[str, type[Section]] = {
    cls.SECTION: cls for cls in (ServiceConfig, TableConfig, LauncherConfig, DemoConfig)
}


def parse_config(text: str, source: str = "config") -> Config:
    """A `Config` from TOML text; errors name the file, section and key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    sections = {}
    for name, table in data.items():
        cls = SECTIONS.get(name)
        if cls is None:
            raise ConfigError(
                f"{source}: unknown section [{name}] (expected one of: {', '.join(SECTIONS)})"
            )
        try:
            sections[name] = build_section(cls, table)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None
    return Config(**sections)  # type: ignore[arg-type]


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
