"""The motor guard: a small process that turns the motor off when the process it guards dies.

Raspberry Pi OS kernels keep a released GPIO output at its last level when the process that
owned it dies (SIGKILL, a segfault, the OOM killer), and lgpio's software PWM is a thread that
dies with the process wherever the line was: the motor can keep running. No code in the dying
process can help, so a second process does the job:

* `MotorGuard` starts ``python -m controller.launcher.guard`` *before* the launcher claims its
  pins and waits until it is ready. The guard holds the read end of a pipe whose write end only
  this process has (it is not inherited across exec, and the app forks no other children): the
  pipe closes when this process is gone, however it went.
* On that end of file the guard claims every motor line of the pin profile, drives it low (off
  for every motor driver the pin profiles know) and releases it, through the same pin factory
  and the same code as ``uno-attack safe-off``. While the dead process's lines are still being
  released the claim fails; the guard retries for a short while.
* A clean close (`MotorGuard.release`, after the launcher has stopped the motor and released its
  pins) sends ``release`` first, and the guard exits without touching a line.

The guard ignores SIGINT, SIGTERM and SIGHUP (Ctrl-C, ``systemctl stop`` and a closed terminal
reach it together with the process it guards) and only ever drives a line low. If the guard
itself is killed first (a SIGKILL to the whole service), ``dtparam=strict_gpiod`` and systemd's
``ExecStopPost=`` safe-off remain.

`open_guarded(profile, backend=...)` opens a launcher under a guard wherever its lines outlive
the process: the ``gpio`` backend. The simulator's mock pins die with the process, and a Pico
launcher board stops its own motor when the Pi goes quiet. ``$UNO_ATTACK_PIN_FACTORY``
(``module:callable``) names the gpio backend's pin factory, for the guard and the launcher alike
(default: gpiozero's lgpio factory).
"""

from __future__ import annotations

import argparse
import importlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from controller.launcher.errors import BackendUnavailable
from controller.launcher.factory import open_launcher, resolve_backend
from controller.launcher.launcher import Launcher
from controller.launcher.pins import PinProfile, load_pin_profile
from controller.launcher.safeoff import drive_line_off

FACTORY_ENV = "UNO_ATTACK_PIN_FACTORY"
GPIO_FACTORY = "controller.launcher.factory:gpio_pin_factory"
READY = b"ready\n"
RELEASE = b"release\n"
START_TIMEOUT = 60.0  # seconds for a new interpreter to import gpiozero on a busy Pi Zero 2 W
PATIENCE = 2.0  # seconds the guard keeps trying to claim a line the dead process still holds


class GuardUnavailable(BackendUnavailable):
    """The motor guard could not be started, so the motor must not run."""


def factory_spec() -> str:
    """The gpio backend's pin factory as ``module:callable``."""
    return os.environ.get(FACTORY_ENV) or GPIO_FACTORY


def load_factory(spec: str) -> Any:
    """Import ``module:callable`` and call it: a gpiozero pin factory."""
    module, _, name = spec.partition(":")
    if not module or not name:
        raise BackendUnavailable(f"{FACTORY_ENV} must be module:callable, not {spec!r}")
    try:
        make = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        raise BackendUnavailable(f"pin factory {spec!r}: {error}") from None
    return make()


class MotorGuard:
    """A guard process for the motor lines `lines` on pin factory `spec`; ready once built."""

    def __init__(self, lines: Sequence[int], spec: str, *, timeout: float = START_TIMEOUT) -> None:
        self.lines = tuple(lines)
        command = [sys.executable, "-m", "controller.launcher.guard", "--factory", spec]
        self.process = subprocess.Popen(
            [*command, *map(str, self.lines)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        if not self._ready(timeout):
            self.process.kill()
            self.process.wait()
            raise GuardUnavailable("the motor guard did not start (see the messages above)")

    def _ready(self, timeout: float) -> bool:
        out = self.process.stdout
        assert out is not None
        readable, _, _ = select.select([out], [], [], timeout)
        ready = bool(readable) and out.readline() == READY
        out.close()
        return ready

    @property
    def pid(self) -> int:
        return self.process.pid

    def release(self) -> None:
        """Stand the guard down: call only once the motor is off and its lines are released."""
        if self.process.stdin is None or self.process.stdin.closed:
            return
        try:
            self.process.stdin.write(RELEASE)
            self.process.stdin.close()
        except BrokenPipeError:  # the guard is gone already
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def open_guarded(profile: PinProfile | str, *, backend: str = "auto", **options: Any) -> Launcher:
    """`open_launcher`, under a `MotorGuard` when the launcher drives GPIO lines itself."""
    if not isinstance(profile, PinProfile):
        profile = load_pin_profile(profile)
    resolved = resolve_backend(backend)
    if resolved != "gpio":
        return open_launcher(profile, backend=resolved, **options)
    spec = factory_spec()
    factory = load_factory(spec)  # fails here, with the reason, where there are no GPIO lines
    try:
        guard = MotorGuard([gpio for _, gpio in profile.motor.lines], spec)
    except BaseException:
        factory.close()
        raise
    try:
        launcher = open_launcher(profile, backend=resolved, pin_factory=factory, **options)
    except BaseException:
        factory.close()
        guard.release()
        raise
    launcher.add_closer(guard.release)
    return launcher


# --- the guard process ---


def drive_off(
    lines: Sequence[int], factory: Any, patience: float = PATIENCE
) -> dict[int, str | None]:
    """Drive every line in `lines` low, retrying busy ones for `patience` seconds.

    Returns each line's outcome: None when it was driven off, else the last error."""
    outcome: dict[int, str | None] = dict.fromkeys(lines, "not tried")
    end = time.monotonic() + patience
    while True:
        for gpio in [g for g, problem in outcome.items() if problem is not None]:
            outcome[gpio] = drive_line_off(gpio, factory)
        if all(problem is None for problem in outcome.values()) or time.monotonic() >= end:
            return outcome
        time.sleep(0.002)


def watch(lines: Sequence[int], factory: Any, stdin: Any, stderr: Any) -> int:
    """Wait for `release` or the end of `stdin`; on the end, drive every line off."""
    if stdin.readline() == RELEASE:
        return 0
    outcome = drive_off(lines, factory)
    for gpio, problem in outcome.items():
        done = "driven low and released" if problem is None else f"NOT driven off: {problem}"
        stderr.write(f"uno-attack motor guard: the guarded process died; GPIO{gpio} {done}\n")
    stderr.flush()
    return 0 if all(problem is None for problem in outcome.values()) else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m controller.launcher.guard",
        description="Drive the motor lines off when the process on the other end of stdin dies.",
    )
    parser.add_argument("--factory", default=GPIO_FACTORY, help="pin factory, module:callable")
    parser.add_argument("lines", nargs="+", type=int, help="the motor lines (GPIO numbers)")
    args = parser.parse_args(argv)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    try:
        factory = load_factory(args.factory)
    except BackendUnavailable as error:
        print(f"uno-attack motor guard: {error}", file=sys.stderr)
        return 2
    try:
        sys.stdout.buffer.write(READY)
        sys.stdout.flush()
        return watch(args.lines, factory, sys.stdin.buffer, sys.stderr)
    finally:
        factory.close()


if __name__ == "__main__":
    sys.exit(main())
