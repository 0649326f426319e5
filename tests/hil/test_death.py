"""Hardware-in-the-loop: the motor stops when the process running it is SIGKILLed.

A child process runs the motor at its eject duty under its motor guard and is killed with
SIGKILL, which no Python code can catch. ``mock``: the launcher's lines are the kernel model
(tests/kernel_gpio.py), where a dead owner's level persists as on Raspberry Pi OS; the test reads
the lines there. ``real`` (``UNO_HIL=1`` on a Pi wired as hardware/JIG.md): the child drives the
real lines through lgpio and the jig's sense inputs read them back; the jig closes the lid.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.dying_motor import (
    kill,
    kill_strays,
    motor_off,
    motor_running,
    slow_profile,
    spin,
)
from tests.kernel_gpio import KernelLines
from tests.waiting import wait_until

from .conftest import real_jig_available
from .jig import Jig, load_jig


@dataclass
class DeathRig:
    spin: Callable[[], subprocess.Popen[bytes]]
    running: Callable[[], bool]
    off: Callable[[], bool]


def _mock_rig(tmp_path: Path) -> DeathRig:
    kernel = KernelLines.create(tmp_path / "gpiochip0.json")
    path = tmp_path / "slow.toml"
    profile = slow_profile(path, load_jig().profile)
    return DeathRig(
        spin=lambda: spin(kernel, path),
        running=lambda: motor_running(kernel, profile),
        off=lambda: motor_off(kernel, profile),
    )


def _real_rig(tmp_path: Path, jig: Jig) -> DeathRig:
    path = tmp_path / "slow.toml"
    slow_profile(path, load_jig().profile, lid=True)
    roles = list(jig.sense)
    return DeathRig(
        spin=lambda: spin(None, path),
        running=lambda: jig.line_on("forward") and jig.line_on("enable"),
        off=lambda: not any(jig.line_on(role, window=0.05) for role in roles),
    )


@pytest.fixture(params=["mock", pytest.param("real", marks=pytest.mark.hil_real)])
def death_rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[DeathRig]:
    if request.param == "mock":
        yield _mock_rig(tmp_path)
        kill_strays()
        return
    available, reason = real_jig_available()
    if not available:
        pytest.skip(reason)
    from controller.launcher.factory import gpio_pin_factory  # lgpio, only on the Pi

    factory = gpio_pin_factory()
    jig = Jig(load_jig(), pin_factory=factory)
    try:
        yield _real_rig(tmp_path, jig)
    finally:
        kill_strays()
        jig.close()
        factory.close()


def test_hil_sigkill_mid_eject_leaves_the_motor_off(death_rig: DeathRig) -> None:
    child = death_rig.spin()

    def running() -> bool:
        assert child.poll() is None, child.communicate()
        return death_rig.running()

    assert wait_until(running), "the motor never started"
    kill(child)
    assert wait_until(death_rig.off, timeout=10), "a motor line is still driven after the kill"
