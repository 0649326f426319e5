"""Where the board's firmware lives, and its modules made importable on the Pi.

The Pico runs ``firmware/*.py``; the Pi imports the very same ``uno_proto`` codec (one codec,
two interpreters), and the fake board runs the very same ``uno_app`` on fake pins. The firmware
modules import each other by plain name (as they must on the Pico), so their directory is put on
``sys.path``; their names all start with ``uno_`` to stay out of everyone else's way.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from controller.shipped import shipped


def firmware_dir() -> Path:
    """``$UNO_ATTACK_FIRMWARE`` or the shipped firmware/ (`controller.shipped`)."""
    configured = os.environ.get("UNO_ATTACK_FIRMWARE")
    return Path(configured) if configured else shipped("firmware")


def make_importable() -> None:
    path = str(firmware_dir())
    if path not in sys.path:
        sys.path.append(path)


make_importable()

import uno_proto as proto  # noqa: E402

__all__ = ["firmware_dir", "make_importable", "proto"]
