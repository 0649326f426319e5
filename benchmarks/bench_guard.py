"""The motor guard: how long the motor keeps running after its process is SIGKILLed.

`launcher.kill_to_motor_off_ms`: a child process runs the feed motor at its eject duty under
its guard on the kernel model (tests/kernel_gpio.py: a dead owner's level persists, as on
Raspberry Pi OS without ``dtparam=strict_gpiod``); it is SIGKILLed, and the line is timed from
the kill to the guard's last write that drives a motor line off (CLOCK_MONOTONIC, the same clock
in every process). p99 over the trials is the value, target <= 200 ms.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.latency import latency_line
from tests.dying_motor import kill, kill_strays, slow_profile, spin, wait_running
from tests.kernel_gpio import KernelLines
from tests.waiting import wait_until

TRIALS = 20


def kill_to_off(directory: Path, trial: int) -> float:
    """One trial: milliseconds from SIGKILL to the last motor line driven off."""
    kernel = KernelLines.create(directory / f"gpiochip-{trial}.json")
    path = directory / "slow.toml"
    profile = slow_profile(path)
    lines = {gpio for _, gpio in profile.motor.lines}
    child = spin(kernel, path)
    try:
        wait_running(child, kernel, profile)
        driven = {gpio for gpio in lines if kernel.level(gpio) > 0}
        killed = kill(child)
        done = lambda: all(kernel.owner(gpio) == 0 for gpio in lines)  # noqa: E731
        wait_until(done, "the guard turned the motor off", timeout=30)
    finally:
        kill_strays()
    offs = [t for t, pid, gpio, value in kernel.history() if t >= killed and gpio in driven]
    return (max(offs) - killed) * 1000.0


def run() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as directory:
        millis = [kill_to_off(Path(directory), trial) for trial in range(TRIALS)]
    yield latency_line("launcher.kill_to_motor_off_ms", millis, trials=TRIALS, target="<= 200")
