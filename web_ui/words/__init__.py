"""The scoreboard's words as data: one TOML file per language beside this module, named by its
language tag (`en.toml`, `zh-CN.toml`), each with the same tables (`words`, `operator`, `uno`,
`cards`, `colours`, `sections`, `options`, `choices`). The files are read once, on first use.

A language's words are added by adding its file (`web_ui/README.md`); `tests/web/test_i18n.py`
checks that every file has the same keys and each word the same `{placeholders}` as English.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Any, Final

ENGLISH: Final = "en"
"""The language every lookup falls back to."""


@cache
def files_by_language() -> dict[str, dict[str, Any]]:
    """Every language's file, parsed: language tag → its tables, in the order of the tags."""
    found = [entry for entry in files(__name__).iterdir() if entry.name.endswith(".toml")]
    return {
        entry.name.removesuffix(".toml"): tomllib.loads(entry.read_text(encoding="utf-8"))
        for entry in sorted(found, key=lambda entry: entry.name)
    }


def by_language(name: str) -> dict[str, Any]:
    """One table of every language's file: language tag → that table
    (`by_language("cards")["en"]`)."""
    return {language: tables[name] for language, tables in files_by_language().items()}
