"""Typed, bounds-checked configuration sections: TOML tables to frozen dataclasses and back.

A section is a frozen dataclass whose fields carry their bounds in `metadata` (``ge``, ``gt``,
``le``, ``pin``); a list is a ``tuple[T, ...]`` field (a TOML array, kept as a tuple). Values are
checked on construction, however the section was built, and every error names ``section.key``
(the Klipper habit: an unknown or bad option is an error that says where). `build_section` adds
the checks only a text file needs: unknown and missing keys.
"""

from __future__ import annotations

import json
import types
import typing
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Literal, TypeVar, get_args, get_origin

# GPIO numbers (BCM) on the Raspberry Pi's 40-pin header. GPIO 0 and 1 are reserved for the
# HAT ID EEPROM; 28 and up are not brought out on the header.
HEADER_PINS = range(2, 28)

PIN: dict[str, Any] = {"pin": True}

S = TypeVar("S", bound="Section")


class ConfigError(ValueError):
    """A configuration value is missing, unknown or wrong; the message names `section.key`."""


def check_pin(name: str, value: int, error: type[ConfigError] = ConfigError) -> None:
    """Raise `error` naming `name` unless `value` is a usable header GPIO."""
    if value in (0, 1):
        raise error(f"{name}: GPIO {value} is reserved for the HAT ID EEPROM")
    if value not in HEADER_PINS:
        raise error(
            f"{name}: GPIO {value} does not exist on the Raspberry Pi 40-pin header (GPIO 2-27)"
        )


@dataclass(frozen=True)
class Section:
    """Base of every configuration section; subclasses set `SECTION` and may add `check()`."""

    SECTION: ClassVar[str] = ""
    ERROR: ClassVar[type[ConfigError]] = ConfigError

    def __post_init__(self) -> None:
        hints = typing.get_type_hints(type(self))
        for f in fields(self):
            value = getattr(self, f.name)
            name = f"{self.SECTION}.{f.name}"
            _check_type(name, value, hints[f.name], self.ERROR)
            if isinstance(value, list):
                value = tuple(value)
                object.__setattr__(self, f.name, value)
            _check_bounds(name, value, f.metadata, self.ERROR)
            if isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, f.name, _coerce(value, hints[f.name]))
        self.check()

    def check(self) -> None:
        """Cross-field rules; raise `self.error(key, message)` naming the key."""

    def error(self, key: str, message: str) -> ConfigError:
        return self.ERROR(f"{self.SECTION}.{key}: {message}")


def _coerce(value: int, hint: Any) -> Any:
    """Integers given for float fields become floats, so equal profiles compare equal."""
    return float(value) if hint is float else value


def _check_type(name: str, value: object, hint: Any, error: type[ConfigError]) -> None:
    if not _matches(value, hint):
        raise error(f"{name}: expected {_describe(hint)}, got {value!r}")


def _matches(value: object, hint: Any) -> bool:
    origin = get_origin(hint)
    if origin is Literal:
        return value in get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return any(_matches(value, arg) for arg in get_args(hint))
    if hint is type(None):
        return value is None
    if origin is tuple:
        item = get_args(hint)[0]
        return isinstance(value, list | tuple) and all(_matches(v, item) for v in value)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _describe(hint: Any) -> str:
    origin = get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(hint))
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_describe(a) for a in get_args(hint))
    if hint is type(None):
        return "nothing"
    if origin is tuple:
        return f"a list of {_describe(get_args(hint)[0]).removeprefix('a ')}s"
    return {int: "an integer", float: "a number", bool: "true or false", str: "a string"}.get(
        hint, str(hint)
    )


def _check_bounds(
    name: str, value: object, meta: typing.Mapping[str, Any], error: type[ConfigError]
) -> None:
    if value is None or isinstance(value, bool) or not isinstance(value, int | float):
        return
    if meta.get("pin"):
        check_pin(name, int(value), error)
    if "ge" in meta and value < meta["ge"]:
        raise error(f"{name}: must be >= {meta['ge']}, got {value}")
    if "gt" in meta and value <= meta["gt"]:
        raise error(f"{name}: must be > {meta['gt']}, got {value}")
    if "le" in meta and value > meta["le"]:
        raise error(f"{name}: must be <= {meta['le']}, got {value}")


def build_section(cls: type[S], table: object) -> S:
    """Build section `cls` from a parsed TOML table; unknown and missing keys are errors."""
    if not isinstance(table, dict):
        raise cls.ERROR(f"[{cls.SECTION}] must be a table, got {table!r}")
    known = {f.name: f for f in fields(cls) if f.init}
    for key in table:
        if key not in known:
            raise cls.ERROR(
                f"unknown key '{cls.SECTION}.{key}' (expected one of: {', '.join(known)})"
            )
    for key, f in known.items():
        if key not in table and f.default is MISSING and f.default_factory is MISSING:
            raise cls.ERROR(f"missing key '{cls.SECTION}.{key}'")
    return cls(**table)


def dump_section(section: Section) -> str:
    """The section as a TOML table; fields that are unset (None) are left out."""
    lines = [f"[{section.SECTION}]"]
    for f in fields(section):
        value = getattr(section, f.name)
        if value is not None:
            lines.append(f"{f.name} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def toml_value(value: object) -> str:
    """A scalar, or a list of them, as TOML text."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"cannot write {value!r} as a TOML scalar")
