"""The motor guard on the real chip: a launcher process running the motor is killed or stopped
mid-eject while freed lines keep their last level (Raspberry Pi OS without strict_gpiod), and
its guard drives every motor line off. Without the guard the motor would run on for good."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.waiting import wait_until

from .conftest import PROFILE, World, level

FORWARD, BACKWARD, ENABLE = 12, 13, 26
SLOW = 600.0  # seconds a step may take under software emulation (a safety net only)

RUNNER = """
import sys
from controller.launcher.guard import open_guarded
launcher = open_guarded(sys.argv[1], backend="gpio")
print("ready", flush=True)
launcher.eject(30)
"""


@pytest.fixture
def steady_profile(tmp_path: Path) -> Path:
    """The kernel profile with the forward line on or off, not PWM: a killed run's level is
    high for certain, not high most of the time."""
    path = tmp_path / "steady.toml"
    path.write_text(PROFILE.read_text().replace("pwm = true", "pwm = false"))
    return path


@pytest.fixture
def running(world: World, steady_profile: Path) -> Iterator[subprocess.Popen[str]]:
    """A launcher process (in its own session, as a service is) with its motor running."""
    world("released keep")
    world("cards 40")
    process = subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(steady_profile)],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    wait_until(lambda: world("state")["motor_on"], "the motor running", SLOW)
    yield process
    if process.poll() is None:
        process.kill()
    process.wait(SLOW)


def motor_stays_off(world: World) -> None:
    """The motor stops, and every motor line ends low (the guard drives them one by one: the
    enable first, which alone stops the motor)."""
    wait_until(lambda: not world("state")["motor_on"], "the motor off", SLOW)
    lines = (FORWARD, BACKWARD, ENABLE)
    wait_until(lambda: all(level(line) == 0 for line in lines), "every motor line low", SLOW)


KILLS: dict[str, Callable[[int], None]] = {
    "SIGKILL to the process": lambda pid: os.kill(pid, signal.SIGKILL),
    "SIGKILL to its process group": lambda pid: os.killpg(pid, signal.SIGKILL),
    "SIGQUIT to its process group": lambda pid: os.killpg(pid, signal.SIGQUIT),
}


@pytest.mark.parametrize("kill", KILLS.values(), ids=KILLS.keys())
def test_guard_drives_the_motor_off_when_its_launcher_is_killed(
    running: subprocess.Popen[str], world: World, kill: Callable[[int], None]
) -> None:
    kill(running.pid)
    running.wait(SLOW)
    motor_stays_off(world)


def test_guard_stops_a_launcher_stopped_mid_run(
    running: subprocess.Popen[str], world: World
) -> None:
    os.kill(running.pid, signal.SIGSTOP)  # Ctrl-Z: the process holds its lines, and sleeps
    motor_stays_off(world)
