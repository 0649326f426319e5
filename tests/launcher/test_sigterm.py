"""SIGTERM in the middle of an eject leaves the motor off.

A child process runs a real launcher on the simulator with slow cards. The simulated machine
logs every motor speed change it sees on the driver pins to a file, independently of the
controller's own clean-up; the parent waits until the motor runs, sends SIGTERM, and reads the
log: the last speed the driver saw must be 0.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.launcher import load_pin_profile
from tests.waiting import wait_until

REPO = Path(__file__).resolve().parents[2]

RUN_SPEED = load_pin_profile("hbridge").ejector.speed
"""The speed the motor reaches once its soft start is over (both children use hbridge)."""

CLI = "import sys; from controller.cli import main; sys.exit(main())"

# The eject runs in the main thread here (the CLI's press command runs it on a worker thread).
MAIN_THREAD_EJECT = """
import sys, time
from pathlib import Path
from controller.launcher import SimOptions, open_launcher
from controller.launcher.lifecycle import motor_safe

log = Path(sys.argv[1]).open("a")
launcher = open_launcher("hbridge", backend="sim", sim=SimOptions(cards_per_second=1.0))
def record(t, speed):
    log.write(f"{t:.6f} {speed:g}\\n"); log.flush()
launcher.simulator.add_motor_listener(record)
with motor_safe(launcher):
    launcher.eject(12)
"""


def speeds(log: Path) -> list[float]:
    if not log.exists():
        return []
    return [float(line.split()[1]) for line in log.read_text().splitlines() if line.strip()]


def run_and_terminate(argv: list[str], log: Path) -> tuple[int, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )

    def at_full_speed() -> bool:
        assert child.poll() is None, child.communicate()
        return RUN_SPEED in speeds(log)

    try:
        wait_until(at_full_speed, "the motor runs at full speed, its soft start over")
        child.send_signal(signal.SIGTERM)  # well into the run: 12 cards take 12 s
        code = child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return code, speeds(log)


@pytest.mark.parametrize("where", ["cli-press", "main-thread"])
def test_sigterm_during_eject_leaves_motor_off(tmp_path: Path, where: str) -> None:
    log = tmp_path / "motor.log"
    if where == "cli-press":
        argv = [
            sys.executable,
            "-c",
            CLI,
            "press",
            "--script",
            "12",
            "--card-rate",
            "1",
            "--motor-log",
            str(log),
        ]
    else:
        argv = [sys.executable, "-c", MAIN_THREAD_EJECT, str(log)]
    code, seen = run_and_terminate(argv, log)
    assert code == 128 + signal.SIGTERM
    assert max(seen) > 0, "the motor was running when the signal came"
    assert seen[-1] == 0.0, f"motor left at {seen[-1]}"
