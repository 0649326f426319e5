"""Launcher subcommands (selftest, calibrate, safe-off, press): registered by the launcher work."""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    """Add the launcher's subcommands to the `uno-attack` parser."""
    del commands  # filled in by the launcher layer
