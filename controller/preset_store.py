"""Named house-rule presets: a game and a set of options, kept as small TOML files.

Shipped presets live beside this module (`presets/*.toml`); a table saves its own into the
service's data directory and loads them back later. Every preset is checked by building its
`Rules`, so a bad one is refused with the engine's reason, naming the option.

A table keeps at most `LIMIT` presets of at most `SIZE` bytes each. A preset is written to a
temporary file and renamed over the old one, so a reader never sees half a file; a file that is
damaged anyway (a full disk, a hand edit) is left out with a warning, never a failure.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.engine import EngineError, OptionValue, Rules
from controller.sections import ConfigError, toml_value

SHIPPED = Path(__file__).with_name("presets")
KEYS = {"name", "name_zh", "game", "options"}
LIMIT = 50  # presets a table may save
SIZE = 8192  # bytes in one preset's file
NAME_LENGTH = 40

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Preset:
    key: str
    name: str
    game: str
    options: dict[str, OptionValue] = field(default_factory=dict)
    name_zh: str = ""
    shipped: bool = False

    def rules(self) -> Rules:
        return Rules.create(self.game, **self.options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "name_zh": self.name_zh or self.name,
            "game": self.game,
            "options": dict(self.options),
            "shipped": self.shipped,
        }


def parse_preset(text: str, key: str, *, shipped: bool = False) -> Preset:
    """A preset from TOML text; errors name the preset and what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"preset {key}: not valid TOML: {error}") from None
    unknown = set(data) - KEYS
    if unknown:
        raise ConfigError(f"preset {key}: unknown key {sorted(unknown)[0]!r}")
    options = data.get("options", {})
    if not isinstance(data.get("name"), str) or not isinstance(options, dict):
        raise ConfigError(f"preset {key}: needs a name and an [options] table")
    preset = Preset(key, data["name"], str(data.get("game", "attack")), options,
                    str(data.get("name_zh", "")), shipped)  # fmt: skip
    try:
        preset.rules()
    except EngineError as error:
        raise ConfigError(f"preset {key}: {error}") from None
    return preset


def preset_text(preset: Preset) -> str:
    lines = [f"name = {toml_value(preset.name)}"]
    if preset.name_zh:
        lines.append(f"name_zh = {toml_value(preset.name_zh)}")
    lines += [f"game = {toml_value(preset.game)}", "", "[options]"]
    lines += [f"{key} = {toml_value(value)}" for key, value in sorted(preset.options.items())]
    return "\n".join(lines) + "\n"


def slug(name: str) -> str:
    """A file-safe key for a preset name (letters, digits and dashes)."""
    key = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not key:
        raise ConfigError("a preset needs a name with a letter or a digit")
    return key[:40]


def _read(directory: Path, *, shipped: bool) -> dict[str, Preset]:
    found = {}
    for path in sorted(directory.glob("*.toml")) if directory.is_dir() else []:
        try:
            if path.stat().st_size > SIZE:
                raise ConfigError(f"preset {path.stem}: larger than {SIZE} bytes")
            text = path.read_text(encoding="utf-8")
            found[path.stem] = parse_preset(text, path.stem, shipped=shipped)
        except (ConfigError, OSError, UnicodeDecodeError) as error:
            if shipped:
                raise
            log.warning("preset %s left out: %s", path.name, error)
    return found


def presets(saved: Path | None = None) -> dict[str, Preset]:
    """Every preset: the shipped ones, then the table's own (which may not replace them)."""
    found = _read(SHIPPED, shipped=True)
    if saved is not None:
        for key, preset in _read(saved, shipped=False).items():
            found.setdefault(key, preset)
    return found


def save_preset(saved: Path, name: str, game: str, options: dict[str, OptionValue]) -> Preset:
    """Check and save a table's options under `name`; returns the saved preset."""
    _check_options(options)
    if len(name.strip()) > NAME_LENGTH:
        raise ConfigError(f"a preset's name may have at most {NAME_LENGTH} characters")
    key = slug(name)
    shipped = _read(SHIPPED, shipped=True)
    if key in shipped or any(p.name.lower() == name.strip().lower() for p in shipped.values()):
        raise ConfigError(f"{name!r} is the name of a shipped preset: choose another")
    preset = parse_preset(preset_text(Preset(key, name.strip(), game, options)), key)
    text = preset_text(preset)
    if len(text.encode()) > SIZE:
        raise ConfigError(f"a preset may take at most {SIZE} bytes")
    existing = set(_read(saved, shipped=False))
    if key not in existing and len(existing) >= LIMIT:
        raise ConfigError(f"this table already keeps {LIMIT} presets")
    _write_atomically(saved / f"{key}.toml", text)
    return preset


def _check_options(options: Mapping[str, object]) -> None:
    """Option values are single TOML values: true/false, a number or text."""
    for option, value in options.items():
        if not isinstance(value, bool | int | float | str):
            raise ConfigError(f"option {option!r} must be true, false, a number or text")


def _write_atomically(path: Path, text: str) -> None:
    """Write a whole new file beside `path`, then rename it over `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp",
        delete=False,
    ) as temporary:  # fmt: skip
        temporary.write(text)
        temporary.flush()
        os.fsync(temporary.fileno())
    try:
        os.replace(temporary.name, path)
    except OSError:
        Path(temporary.name).unlink(missing_ok=True)
        raise
