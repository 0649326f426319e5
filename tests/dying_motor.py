"""A process that runs the feed motor on the kernel model until something kills it.

``python -m tests.dying_motor PROFILE [--unguarded]`` opens the launcher on the gpio backend with
``$UNO_ATTACK_PIN_FACTORY`` (the kernel model) under its motor guard, or without one, and ejects
cards that never come (the profile's first-card timeout is long), so the motor runs at its
eject duty until the process is killed. The helpers start it, wait for the motor, kill it and
read what the lines did.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from controller.launcher.guard import FACTORY_ENV
from controller.launcher.pins import PinProfile, dump_pin_profile, load_pin_profile
from tests.kernel_gpio import ENV, SPEC, KernelLines
from tests.waiting import wait_until

REPO = Path(__file__).resolve().parents[1]


def slow_profile(
    path: Path, profile: PinProfile | str = "hbridge", *, lid: bool = False
) -> PinProfile:
    """`profile` with a first card that may take a minute, written to `path`. Without its lid
    switch unless `lid` (the model's pulled-up lid input would read "open"; a jig closes it)."""
    if not isinstance(profile, PinProfile):
        profile = load_pin_profile(profile)
    profile = profile.with_ejector(first_card_timeout_ms=60_000.0, max_run_ms=60_000.0)
    if not lid:
        profile = replace(profile, lid=None)
    path.write_text(dump_pin_profile(profile), encoding="utf-8")
    return profile


def kernel_env(kernel: KernelLines | None) -> dict[str, str]:
    """The environment that puts a child's gpio backend (and its guard) on `kernel`, or with
    None on the real GPIO chip (lgpio, on a Raspberry Pi)."""
    env = {k: v for k, v in os.environ.items() if k not in (FACTORY_ENV, ENV)}
    env["PYTHONPATH"] = str(REPO)
    if kernel is not None:
        env.update({FACTORY_ENV: SPEC, ENV: str(kernel.path)})
    return env


STARTED: list[subprocess.Popen[bytes]] = []


def start(
    kernel: KernelLines | None, argv: list[str], *, session: bool = False
) -> subprocess.Popen[bytes]:
    """Start `argv` (after the interpreter) on `kernel` (None: real lines), output captured;
    with `session`, in a process group of its own (with its guard), as a terminal would."""
    child = subprocess.Popen(
        [sys.executable, *argv],
        cwd=REPO,
        env=kernel_env(kernel),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.PIPE,
        start_new_session=session,
    )
    STARTED.append(child)
    return child


def kill_strays() -> None:
    """Kill what a failed test left running."""
    while STARTED:
        child = STARTED.pop()
        if child.poll() is None:
            kill(child)


def spin(
    kernel: KernelLines | None, profile_path: Path, *, guarded: bool = True, session: bool = False
) -> subprocess.Popen[bytes]:
    argv = ["-m", "tests.dying_motor", str(profile_path)]
    return start(kernel, argv if guarded else [*argv, "--unguarded"], session=session)


def motor_levels(kernel: KernelLines, profile: PinProfile) -> dict[str, float]:
    return {role: kernel.level(gpio) for role, gpio in profile.motor.lines}


def motor_running(kernel: KernelLines, profile: PinProfile) -> bool:
    """The driver powers the motor: its PWM line on (PHASE/ENABLE: EN; MOSFET: the gate), or on
    an H-bridge a direction input on with the enable line (if fitted) on."""
    levels = motor_levels(kernel, profile)
    if profile.motor.driver == "phase_enable":
        return levels["enable"] > 0
    if profile.motor.driver == "mosfet":
        return levels["pin"] > 0
    return levels.get("enable", 1.0) > 0 and (levels["forward"] > 0 or levels["backward"] > 0)


def motor_off(kernel: KernelLines, profile: PinProfile) -> bool:
    return all(v == 0 for v in motor_levels(kernel, profile).values())


def wait_running(child: subprocess.Popen[bytes], kernel: KernelLines, profile: PinProfile) -> None:
    def running() -> bool:
        assert child.poll() is None, child.communicate()
        return motor_running(kernel, profile)

    assert wait_until(running), "the motor never started"


def kill(child: subprocess.Popen[bytes]) -> float:
    """SIGKILL `child` and reap it; returns the monotonic time of the kill."""
    killed = time.monotonic()
    child.send_signal(signal.SIGKILL)
    child.wait()
    return killed


def main(argv: list[str]) -> None:
    from controller.launcher import open_launcher
    from controller.launcher.guard import open_guarded
    from tests.kernel_gpio import factory

    profile = load_pin_profile(argv[0])
    if "--unguarded" in argv:
        launcher = open_launcher(profile, backend="gpio", pin_factory=factory())
    else:
        launcher = open_guarded(profile, backend="gpio")
    launcher.eject(50)
    launcher.close()


if __name__ == "__main__":
    main(sys.argv[1:])
