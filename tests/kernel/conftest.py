"""The kernel tier: these tests run only inside the rig's guest (`make test-kernel`), where
/dev/gpiochip0 is the kernel's gpio-sim chip and gpiozero's LGPIOFactory drives it through the
real lgpio. Anywhere else they are not collected: the host's suite never imports lgpio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

IN_GUEST = os.environ.get("KGPIO_GUEST") == "1"
if IN_GUEST:
    # Python in the guest runs 15-30x slower than on the host: a new interpreter importing
    # gpiozero once took the guard's whole default minute to start, and beside CPU hogs a
    # live launcher went 2.3 s without a heartbeat (its guard judged it hung)
    os.environ.setdefault("UNO_ATTACK_GUARD_START_TIMEOUT", "600")
    os.environ.setdefault("UNO_ATTACK_GUARD_HUNG_S", "30")
else:
    collect_ignore_glob = ["test_*.py"]

HERE = Path(__file__).parent
PROFILE = HERE / "kernel.toml"
UNO = [sys.executable, "-m", "controller.cli"]


def sysfs(line: int, attribute: str = "value") -> Path:
    return Path(os.environ["KGPIO_SYSFS"]) / f"sim_gpio{line}" / attribute


def level(line: int) -> int:
    """What the chip shows on `line` now: 0 or 1."""
    return int(sysfs(line).read_text())


class World:
    """The world process (tests/kernel/world.py), one command at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "world.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )  # fmt: skip
        assert self.answer() == {"ready": True}

    def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the world process ended"
        return dict(json.loads(line))

    def __call__(self, command: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        return self.answer()

    def out(self) -> int:
        return int(self("state")["out"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait(60)


@pytest.fixture(scope="session")
def world() -> Iterator[World]:
    running = World()
    yield running
    running.close()


@pytest.fixture(autouse=True)
def freed_lines_revert(world: World) -> Iterator[None]:
    """Each test starts and ends with freed lines reverting to the board's pull-downs and the
    lid shut; a test's own changes are undone even when it fails."""
    world("released revert")
    world("lid closed")
    yield
    world("released revert")
    world("lid closed")
