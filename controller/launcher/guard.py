"""The motor guard: a second process that turns the motor off when the process it guards cannot.

Raspberry Pi OS kernels keep a released GPIO output at its last level when the process that
owned it dies (SIGKILL, a segfault, the OOM killer), and lgpio's software PWM is a thread that
dies with the process wherever the line was: the motor can keep running. No code in the dying
process can help, and a stopped process (SIGSTOP, Ctrl-Z) runs no code at all, so a second
process does the job (`controller.launcher.guard_process`, which says what it does and why):

* `MotorGuard` starts the guard *before* the launcher claims its pins, in a **session of its
  own** (``start_new_session``): Ctrl-C, Ctrl-\\ and Ctrl-Z at the terminal, ``timeout -s KILL``
  and any other signal to the owner's process group do not reach it. It waits until the guard
  is ready (`START_TIMEOUT`, or ``$UNO_ATTACK_GUARD_START_TIMEOUT`` seconds where Python starts
  slowly, as under software emulation).
* The owner holds the write end of the guard's stdin pipe, alone (not inherited across exec; the
  app forks no other children): the pipe closes when this process is gone, however it went, and
  the guard drives every motor line of the pin profile off.
* `guard_motor` taps the launcher's feed motor: the guard hears "on" before a line is driven and
  "off" once the lines rest, and while the motor may be on a thread sends a heartbeat every
  `BEAT_S`. An owner that is stopped, or hung past `HUNG_S`, with the motor on is SIGKILLed by
  the guard (the kernel lets nobody else claim a live process's lines), which then drives the
  lines off.
* **A launcher whose guard is gone refuses to run the motor.** The guard's stdout stays open to
  a watcher thread here: its end of file (the guard died, was killed, or is a zombie) stands a
  ``guard`` fault on the launcher (`Launcher.set_outage`; a person cannot clear it, a restart
  does), stops a running eject, and every later attempt to drive the motor raises `GuardLost`
  (a `LauncherFault`), before a line moves. A guard that stops reading (stopped itself) is
  found when the pipe fills, and counts as gone.
* A clean close (`MotorGuard.release`, after the launcher has stopped the motor and released its
  pins) sends release first, and the guard exits without touching a line.

Under systemd the guard stays in the service's cgroup: systemd/uno-attack.service says how the
stop path (``KillMode=control-group``, ``ExecStopPost=`` safe-off) works with it.

`open_guarded(profile, backend=...)` opens a launcher under a guard wherever its lines outlive
the process: the ``gpio`` backend. The simulator's mock pins die with the process, and a Pico
launcher board stops its own motor when the Pi goes quiet. ``$UNO_ATTACK_PIN_FACTORY``
(``module:callable``) names the gpio backend's pin factory, for the guard and the launcher alike
(default: gpiozero's lgpio factory).
"""

from __future__ import annotations

import functools
import os
import select
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

from controller.launcher.errors import BackendUnavailable, LauncherFault
from controller.launcher.factory import open_launcher, resolve_backend
from controller.launcher.guard_process import (
    BEAT,
    BEAT_S,
    FACTORY_ENV,
    GPIO_FACTORY,
    HUNG_S,
    OFF,
    ON,
    PATIENCE,
    READY,
    RELEASE,
    STOPPED,
    drive_off,
    env_seconds,
    load_factory,
    main,
    process_state,
)
from controller.launcher.launcher import Fault, Launcher
from controller.launcher.pins import PinProfile, load_pin_profile

__all__ = [
    "BEAT_S",
    "FACTORY_ENV",
    "GPIO_FACTORY",
    "HUNG_S",
    "PATIENCE",
    "START_TIMEOUT",
    "START_TIMEOUT_ENV",
    "GuardLost",
    "GuardUnavailable",
    "MotorGuard",
    "drive_off",
    "factory_spec",
    "guard_motor",
    "guard_of",
    "load_factory",
    "main",
    "open_guarded",
    "start_timeout",
]

START_TIMEOUT = 60.0  # seconds for a new interpreter to import gpiozero on a busy Pi Zero 2 W
START_TIMEOUT_ENV = "UNO_ATTACK_GUARD_START_TIMEOUT"
_GUARDS: weakref.WeakKeyDictionary[Launcher, MotorGuard] = weakref.WeakKeyDictionary()


class GuardUnavailable(BackendUnavailable):
    """The motor guard could not be started, so the motor must not run."""


class GuardLost(LauncherFault):
    """The motor guard is gone (or no longer listening): the motor must not run."""


def factory_spec() -> str:
    """The gpio backend's pin factory as ``module:callable``."""
    return os.environ.get(FACTORY_ENV) or GPIO_FACTORY


def start_timeout() -> float:
    """Seconds to wait for the guard to start: ``$UNO_ATTACK_GUARD_START_TIMEOUT``, else 60."""
    try:
        return env_seconds(START_TIMEOUT_ENV, START_TIMEOUT)
    except BackendUnavailable as error:
        raise GuardUnavailable(str(error)) from None


class MotorGuard:
    """A guard process for the motor lines `lines` on pin factory `spec`; ready once built.

    `motor_on()` before driving a motor line (raises `GuardLost` when the guard is gone),
    `motor_off()` once they rest; `on_lost(callback)` hears why the guard went; `release()` when
    the motor is off and the lines are released."""

    def __init__(
        self,
        lines: Sequence[int],
        spec: str,
        *,
        timeout: float | None = None,
        beat: float = BEAT_S,
    ) -> None:
        self.lines = tuple(lines)
        self.beat = beat
        timeout = start_timeout() if timeout is None else timeout
        command = [sys.executable, "-m", "controller.launcher.guard_process", "--factory", spec]
        self.process = subprocess.Popen(
            [*command, "--owner", str(os.getpid()), *map(str, self.lines)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,  # no terminal and no signal to our process group reaches it
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._pipe = self.process.stdin.fileno()
        self._from_guard = self.process.stdout
        problem = self._ready(timeout)
        if problem is not None:
            self.process.kill()
            self.process.wait()
            self._from_guard.close()
            self.process.stdin.close()
            raise GuardUnavailable(f"the motor guard did not start: {problem}")
        os.set_blocking(self._pipe, False)  # a guard that stops reading never blocks us
        self._lock = threading.RLock()  # the state below, and the order of "on" and "off"
        self._changed = threading.Condition(self._lock)
        self._motor_on = False  # the guard was told "on": beat
        self._ending = False  # released or lost: the threads end
        self._released = False
        self._lost: str | None = None
        self._told = False
        self._callbacks: list[Callable[[str], None]] = []
        self._watcher = threading.Thread(target=self._watch, name="motor-guard-watch", daemon=True)
        self._beater = threading.Thread(target=self._beat, name="motor-guard-beat", daemon=True)
        self._watcher.start()
        self._beater.start()

    def _ready(self, timeout: float) -> str | None:
        """None once the guard says it is ready, else why it is not."""
        readable, _, _ = select.select([self._from_guard], [], [], timeout)
        if not readable:
            return (
                f"not ready within {timeout:g} s (a slow machine may allow longer: "
                f"{START_TIMEOUT_ENV}=seconds)"
            )
        if self._from_guard.readline() != READY:
            return "it exited (see the messages above)"
        return None

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def told_on(self) -> bool:
        """The guard was told the motor may be on (and hears a heartbeat)."""
        return self._motor_on

    @property
    def lost(self) -> str | None:
        """Why the guard is gone, or None while it guards."""
        return self._lost

    def on_lost(self, callback: Callable[[str], None]) -> None:
        """Call `callback(why)` once the guard is gone (at once if it is already)."""
        with self._lock:
            self._callbacks.append(callback)
            told, why = self._told, self._lost
        if told and why is not None:
            _call_safely(callback, why)
        else:
            self._tell()

    # --- the motor (any thread) ---

    def motor_on(self) -> None:
        """The motor is about to be driven: tell the guard, or raise `GuardLost` if it is gone."""
        try:
            with self._lock:
                self._check(look=not self._motor_on)
                if not self._motor_on:
                    self._send(ON)
                    self._motor_on = True
                    self._changed.notify_all()
        except GuardLost:
            self._tell()
            raise

    def motor_off(self) -> None:
        """The motor lines rest: the guard stops watching the heartbeat."""
        with self._lock:
            if not self._motor_on:
                return
            self._motor_on = False
            if not self._ending:
                with suppress(GuardLost):
                    self._send(OFF)
        self._tell()

    def _check(self, look: bool) -> None:
        """Raise `GuardLost` if the guard is gone; with `look`, ask the kernel too (it may have
        died a moment ago, or be stopped and read nothing)."""
        if self._released:
            raise GuardLost("the motor guard was released: the launcher is closing")
        if self._lost is None and look:
            state = process_state(self.pid)
            if state is None or state in ("Z", "X"):
                self._lose(f"the motor guard (pid {self.pid}) is gone")
            elif state in STOPPED:
                self._lose(f"the motor guard (pid {self.pid}) is stopped (state {state})")
        if self._lost is not None:
            raise GuardLost(self._lost)

    def _send(self, byte: bytes) -> None:
        """Write `byte` to the guard; raise `GuardLost` (once it is recorded) if it cannot."""
        try:
            os.write(self._pipe, byte)
        except BlockingIOError:  # the pipe is full: the guard stopped reading
            self._lose(f"the motor guard (pid {self.pid}) stopped reading its pipe")
        except OSError as error:  # EPIPE: it is gone
            self._lose(f"the motor guard (pid {self.pid}) is gone ({error.strerror})")
        else:
            return
        raise GuardLost(self._lost or "the motor guard is gone")

    # --- the threads ---

    def _beat(self) -> None:
        """While the motor may be on: a heartbeat every `beat` seconds. (Every write to the
        pipe holds the lock, so none can go to a descriptor `release` closed and reused.)"""
        with self._lock:
            while True:
                self._changed.wait_for(lambda: self._motor_on or self._ending)
                if self._ending:
                    return
                try:
                    self._send(BEAT)
                except GuardLost:
                    break
                if self._changed.wait_for(lambda: self._ending, timeout=self.beat):
                    return
        self._tell()

    def _watch(self) -> None:
        """Wait for the guard's stdout to end: it exited, or was killed."""
        try:
            while self._from_guard.read(64):
                pass
        except OSError:
            pass
        code = self.process.wait()
        how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        self._lose(f"the motor guard (pid {self.pid}) is gone ({how})")
        self._tell()

    def _lose(self, why: str) -> None:
        """Record that the guard is gone (the first reason stays); `_tell` says so."""
        with self._lock:
            if self._released or self._lost is not None:
                return
            self._lost = why
            self._ending = True
            self._changed.notify_all()

    def _tell(self) -> None:
        """Tell every `on_lost` callback once, if the guard is lost (holding no lock)."""
        with self._lock:
            if self._lost is None or self._told:
                return
            self._told = True
            why, callbacks = self._lost, list(self._callbacks)
        for callback in callbacks:
            _call_safely(callback, why)

    # --- standing down ---

    def release(self) -> None:
        """Stand the guard down: call only once the motor is off and its lines are released."""
        assert self.process.stdin is not None
        with self._lock:
            if self._released:
                return
            self._released = True
            self._ending = True
            self._changed.notify_all()
            with suppress(OSError):  # the guard is gone already, or its pipe is full
                os.write(self._pipe, RELEASE)
            self.process.stdin.close()
        if self._lost is not None:  # dead, or stopped and of no use: nothing to wait for
            self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._watcher.join(timeout=2.0)  # the guard is gone: its stdout has ended
        if not self._watcher.is_alive():  # (never close a descriptor a thread still reads)
            self._from_guard.close()


def guard_motor(motor: Any, guard: MotorGuard) -> None:
    """Tap `motor` (a `FeedMotor`): `guard` hears "on" before `forward`, `backward` or `brake`
    drives a line, and "off" after `stop` (not the one `brake` makes on the way); a motor whose
    guard is gone raises `GuardLost` and drives nothing."""
    inside = threading.local()  # brake() stops first: that stop is not "off"

    def driving(name: str) -> None:
        original = getattr(motor, name)

        @functools.wraps(original)
        def drive(*args: Any, **kwargs: Any) -> Any:
            guard.motor_on()
            inside.depth = getattr(inside, "depth", 0) + 1
            try:
                return original(*args, **kwargs)
            finally:
                inside.depth -= 1

        setattr(motor, name, drive)

    for name in ("forward", "backward", "brake"):
        driving(name)
    original_stop = motor.stop

    @functools.wraps(original_stop)
    def stop() -> None:
        try:
            original_stop()
        finally:
            if not getattr(inside, "depth", 0):
                guard.motor_off()

    motor.stop = stop


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
    guard_motor(launcher.devices.motor, guard)
    launcher.add_closer(factory.close)  # frees the lines: closing a pin only makes it an input
    launcher.add_closer(guard.release)
    _GUARDS[launcher] = guard
    guard.on_lost(functools.partial(_refuse, weakref.ref(launcher)))  # no cycle through us
    return launcher


def guard_of(launcher: Launcher) -> MotorGuard | None:
    """The guard `open_guarded` put over `launcher`, if any."""
    return _GUARDS.get(launcher)


def _refuse(launcher_ref: weakref.ref[Launcher], why: str) -> None:
    """The guard is gone: a standing ``guard`` fault, and a running eject stops now."""
    launcher = launcher_ref()
    if launcher is None:
        return
    detail = f"{why}: the motor stays off until the launcher is restarted"
    launcher.set_outage(Fault("guard", detail))
    launcher.stop(detail)


def _call_safely(callback: Callable[[str], None], why: str) -> None:
    try:
        callback(why)
    except Exception as error:  # one broken listener must not keep the others from hearing
        print(f"uno-attack motor guard: a listener failed: {error!r}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
