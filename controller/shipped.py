"""The repository's files the app reads at run time, found in a checkout or an installed wheel.

They live where makers and the docs expect them: the pin profiles and example eject profiles
in ``hardware/``, the Pico's firmware in ``firmware/``, the API reference in ``docs/API.md``.
A checkout (and an editable install) reads them there. A built wheel carries a copy of them
under ``controller/_shipped/`` (``setup.py`` copies them in at build time), and reads that.

Standard library only, so that every layer may ask it.
"""

from __future__ import annotations

from pathlib import Path

PACKAGED = Path(__file__).with_name("_shipped")
"""The copy a built wheel carries (a checkout has none)."""

CHECKOUT = Path(__file__).resolve().parents[1]
"""The repository's root, in a checkout."""


def shipped(name: str) -> Path:
    """The shipped file or folder `name`, a path in the repository (``hardware``,
    ``docs/API.md``): the wheel's copy in an installed package, else the checkout's."""
    return (PACKAGED if PACKAGED.is_dir() else CHECKOUT) / name
