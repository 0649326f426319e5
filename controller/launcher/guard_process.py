"""The motor guard process: ``python -m controller.launcher.guard_process --owner PID LINES``.

`controller.launcher.guard.MotorGuard` starts it, in a session of its own, before the launcher
claims its pins. Its stdin is the read end of a pipe whose write end only the owner holds, and
the owner speaks one byte at a time:

* ``+`` the motor may be on from now (sent before a motor line is driven), ``-`` it is off
  (sent after the lines are back at rest), ``.`` a heartbeat, every `BEAT_S` while the motor
  may be on (from a thread of its own, so a busy owner thread does not miss one);
* ``r`` release: the launcher stopped the motor and released its pins; exit, touching nothing.

What the guard does:

* **The owner dies** (the pipe's end of file, however it died: SIGKILL, SIGQUIT, SIGABRT, a
  segfault, the OOM killer): claim every motor line, drive it low and release it, retrying for
  `PATIENCE` while the dead process's lines are still being freed (`drive_off`).
* **The owner is stopped** (SIGSTOP, Ctrl-Z, a debugger) **or hung** (no heartbeat for `HUNG_S`:
  its whole interpreter is stuck) **while the motor may be on**: the kernel lets no one else
  claim a line a live process holds (EBUSY), stopped or not, so the only way to the lines is
  through the owner's death: the guard SIGKILLs it (a pidfd, so never another process that
  got the pid), the lines are freed, and it drives them off as above. A stopped owner is
  noticed `STALE_S` after its last heartbeat (its state in ``/proc`` says ``T``); one that still
  runs but has said nothing for `HUNG_S` is judged hung. Whatever the owner does while the motor
  is off (a Ctrl-Z at the prompt, a pause in a debugger) is left alone.

The guard ignores the signals meant for the process it guards (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
SIGABRT and the terminal's stop signals): in a session of its own, no terminal and no signal to
the owner's process group reaches it anyway, and under systemd (``KillMode=control-group``:
the stop's SIGTERM and the watchdog's SIGABRT go to every process of the service) it must outlive
the owner to do its job; it exits by itself once the owner is gone. It only ever drives a line
low. Nothing survives a SIGKILL to itself: ``dtparam=strict_gpiod`` and systemd's
``ExecStopPost=`` safe-off remain.
"""

from __future__ import annotations

import argparse
import importlib
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import IO, Any

from controller.launcher.errors import BackendUnavailable
from controller.launcher.safeoff import drive_line_off

FACTORY_ENV = "UNO_ATTACK_PIN_FACTORY"
GPIO_FACTORY = "controller.launcher.factory:gpio_pin_factory"

READY = b"ready\n"  # the guard's one line to the owner, once it can drive the lines
ON = b"+"
OFF = b"-"
BEAT = b"."
RELEASE = b"r"

BEAT_S = 0.02  # the owner's heartbeat while the motor may be on
STALE_S = 0.06  # a heartbeat this late: look whether the owner is stopped
LOOK_S = 0.01  # then look again this often
HUNG_ENV = "UNO_ATTACK_GUARD_HUNG_S"


def env_seconds(name: str, default: float) -> float:
    """A positive, finite number of seconds from ``$name``, else `default`."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise BackendUnavailable(f"{name} must be a number of seconds, not {text!r}")
    return seconds


# A running owner silent this long with the motor on is hung. Long enough that a busy Pi's
# scheduler never makes a live owner look hung (under software emulation beside CPU hogs a
# live owner once went 2.3 s without a beat); a stopped owner is seen at once all the same.
HUNG_S = env_seconds(HUNG_ENV, 3.0)
PATIENCE = 2.0  # seconds the guard keeps trying to claim a line the dead process still holds
IGNORED = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGABRT,
    signal.SIGTSTP,
    signal.SIGTTIN,
    signal.SIGTTOU,
)
STOPPED = ("T", "t")  # /proc/PID/stat: stopped by a signal, or by a tracer


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


def process_state(pid: int) -> str | None:
    """The state letter of `pid` in ``/proc`` (R, S, D, T, t, Z...), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return fields[0] if fields else None


class Owner:
    """The guarded process, held by a pidfd where the kernel has them (Linux 5.3+)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._pidfd: int | None = None
        with suppress(AttributeError, OSError):  # an old kernel: the pid (the pipe is open)
            self._pidfd = os.pidfd_open(pid)

    def state(self) -> str | None:
        return process_state(self.pid)

    def kill(self) -> str | None:
        """SIGKILL the owner; None if sent, else why not."""
        try:
            if self._pidfd is not None:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        except OSError as error:
            return str(error)
        return None


class Heartbeat:
    """What the guard knows of its owner: may the motor be on, and its last sign of life."""

    def __init__(self, now: float) -> None:
        self.motor_on = False
        self.last = now

    def feed(self, data: bytes, now: float) -> bool:
        """The owner's bytes, read at `now`; True once it released the guard."""
        self.last = now
        for byte in data:
            if byte == RELEASE[0]:
                return True
            if byte == ON[0]:
                self.motor_on = True
            elif byte == OFF[0]:
                self.motor_on = False
        return False

    def wait(self, now: float) -> float | None:
        """Seconds until the owner must be looked at, or None: only its pipe matters now."""
        if not self.motor_on:
            return None
        return max(self.last + STALE_S - now, 0.0) if now - self.last < STALE_S else LOOK_S

    def verdict(self, now: float, state: str | None) -> str | None:
        """Why the owner must be killed now (its `state` letter given), or None."""
        silent = now - self.last
        if not self.motor_on or silent < STALE_S or state is None:
            return None
        if state in STOPPED:
            return f"was stopped (state {state}) with the motor on"
        if silent >= HUNG_S:
            return f"sent no heartbeat for {silent:.1f} s with the motor on (hung)"
        return None


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


def watch(
    lines: Sequence[int],
    factory: Any,
    fd: int,
    stderr: IO[str],
    owner: Owner,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Follow the owner on pipe `fd` until it releases the guard (0) or dies; then drive every
    line off (0 when all are off, else 1). A stopped or hung owner with the motor on is killed."""
    heart = Heartbeat(clock())
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    killed = False  # then only its end of file matters
    failure = ""
    while True:
        wait = None if killed else heart.wait(clock())
        if poller.poll(None if wait is None else wait * 1000.0):
            data = os.read(fd, 4096)
            if not data:
                break  # the owner is gone
            if heart.feed(data, clock()):
                return 0
            continue
        reason = heart.verdict(clock(), owner.state())
        if reason is None:
            continue
        problem = owner.kill()
        killed = problem is None
        if killed or problem != failure:  # a kill that keeps failing is said once
            done = "killed it" if killed else f"could NOT kill it: {problem}"
            _say(stderr, f"the guarded process (pid {owner.pid}) {reason}: {done}")
            failure = problem or ""
    outcome = drive_off(lines, factory)
    for gpio, problem in outcome.items():
        done = "driven low and released" if problem is None else f"NOT driven off: {problem}"
        _say(stderr, f"the guarded process (pid {owner.pid}) is gone; GPIO{gpio} {done}")
    return 0 if all(problem is None for problem in outcome.values()) else 1


def _say(stderr: IO[str], text: str) -> None:
    try:
        stderr.write(f"uno-attack motor guard: {text}\n")
        stderr.flush()
    except (OSError, ValueError):  # nobody reads the guard's messages any more
        pass


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m controller.launcher.guard_process",
        description="Drive the motor lines off when the process on the other end of stdin dies, "
        "and kill it if it stops or hangs with the motor on.",
    )
    parser.add_argument("--factory", default=GPIO_FACTORY, help="pin factory, module:callable")
    parser.add_argument("--owner", type=int, default=0, help="the guarded pid (default: parent)")
    parser.add_argument("lines", nargs="+", type=int, help="the motor lines (GPIO numbers)")
    args = parser.parse_args(argv)
    for sig in IGNORED:
        signal.signal(sig, signal.SIG_IGN)
    owner = Owner(args.owner or os.getppid())
    try:
        factory = load_factory(args.factory)
    except BackendUnavailable as error:
        print(f"uno-attack motor guard: {error}", file=sys.stderr)
        return 2
    try:
        sys.stdout.buffer.write(READY)
        sys.stdout.flush()
        return watch(args.lines, factory, sys.stdin.fileno(), sys.stderr, owner)
    finally:
        factory.close()


if __name__ == "__main__":
    sys.exit(main())
