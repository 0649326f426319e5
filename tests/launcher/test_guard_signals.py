"""A guard nothing gets around: every signal case on the kernel model, and the guard's own death.

The kernel model (tests/kernel_gpio.py) keeps a dead owner's level and refuses a live owner's
line to anyone else, stopped or not, as a Raspberry Pi OS kernel does. A child process
(tests/dying_motor.py) runs the motor at its eject duty under its guard, in a process group of
its own as a shell would start it, and the test signals it as a terminal, ``timeout`` or systemd
would: SIGKILL, SIGQUIT (Ctrl-\\) and SIGABRT (systemd's watchdog), to the owner alone and to the
whole group; SIGSTOP (Ctrl-Z) and a hang with the motor on. Each time the motor lines must come
back off, and only the guard may have written them after the signal, and only low. The other
way round, a launcher whose guard is gone refuses to run the motor. Every wait is for a
condition: the timings are the benchmark's (benchmarks/bench_guard.py, ``launcher.guard_signals``).
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.launcher import LauncherFault, LauncherStatus
from controller.launcher.guard import (
    FACTORY_ENV,
    START_TIMEOUT,
    START_TIMEOUT_ENV,
    GuardLost,
    GuardUnavailable,
    MotorGuard,
    guard_of,
    open_guarded,
    start_timeout,
)
from controller.launcher.guard_process import (
    HUNG_S,
    OFF,
    ON,
    RELEASE,
    STALE_S,
    Heartbeat,
    process_state,
)
from controller.launcher.launcher import Launcher
from controller.launcher.pins import PinProfile
from tests.dying_motor import (
    ever_ran,
    guard_pid,
    kill_strays,
    motor_levels,
    motor_off,
    signal_at,
    slow_profile,
    spin,
    wait_running,
    writers,
)
from tests.kernel_gpio import ENV, SPEC, KernelLines, alive
from tests.waiting import wait_until

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def kernel(tmp_path: Path) -> KernelLines:
    return KernelLines.create(tmp_path / "gpiochip0.json")


@pytest.fixture(autouse=True)
def no_strays() -> Iterator[None]:
    yield
    kill_strays()


@pytest.fixture
def profile_file(tmp_path: Path) -> tuple[PinProfile, Path]:
    path = tmp_path / "slow.toml"
    return slow_profile(path), path


def guard_turned_it_off(
    kernel: KernelLines, profile: PinProfile, guard: int, since: float, owner: int = 0
) -> None:
    """Every motor line is off and free again, and after `since` only the guard wrote them
    (besides `owner`, whose last step may still land after a signal it handles), only low;
    the guard then exits by itself."""
    assert wait_until(lambda: motor_off(kernel, profile)), motor_levels(kernel, profile)
    free = lambda: all(kernel.owner(gpio) == 0 for _, gpio in profile.motor.lines)  # noqa: E731
    assert wait_until(free, "the guard released every motor line")
    wrote = writers(kernel, profile, since)
    wrote.pop(owner, None)
    assert wrote == {guard: {0.0}}
    assert wait_until(lambda: not alive(guard), "the guard exited by itself")


def started(
    kernel: KernelLines, path: Path, *, hang_on_usr1: bool = False
) -> tuple[subprocess.Popen[bytes], int]:
    """A motor-running child in a process group of its own, and its guard's pid."""
    child = spin(kernel, path, session=True, hang_on_usr1=hang_on_usr1)
    return child, guard_pid(child)


# --- the owner dies: any signal, to it or to its whole group ---


@pytest.mark.parametrize("target", ["owner", "group"])
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGQUIT, signal.SIGABRT])
def test_guard_outlives_a_deadly_signal_and_turns_the_motor_off(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path], sig: signal.Signals, target: str
) -> None:
    """SIGKILL (``timeout -s KILL``, the OOM killer), SIGQUIT (Ctrl-\\) and SIGABRT (systemd's
    watchdog): to the group they would once have killed the guard too."""
    profile, path = profile_file
    child, guard = started(kernel, path)
    wait_running(child, kernel, profile)
    assert os.getsid(guard) == guard != os.getsid(child.pid), "the guard has its own session"
    sent = signal_at(child.pid, sig, group=target == "group")
    assert child.wait() == -sig
    guard_turned_it_off(kernel, profile, guard, sent)


# --- the owner stops or hangs with the motor on: the guard kills it ---


@pytest.mark.parametrize("target", ["owner", "group"])
def test_guard_kills_an_owner_stopped_with_the_motor_on(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path], target: str
) -> None:
    """SIGSTOP (Ctrl-Z stops the terminal's group): the owner's lines are its own while it
    lives, so the guard kills it and then drives them off, long before the run's deadline."""
    profile, path = profile_file
    child, guard = started(kernel, path)
    wait_running(child, kernel, profile)
    sent = signal_at(child.pid, signal.SIGSTOP, group=target == "group")
    assert child.wait() == -signal.SIGKILL, "the guard killed the stopped owner"
    guard_turned_it_off(kernel, profile, guard, sent)
    _, err = child.communicate()
    assert b"was stopped (state T) with the motor on: killed it" in err, err


def test_guard_kills_an_owner_hung_with_the_motor_on(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path]
) -> None:
    """A wedged interpreter (a C call that never lets go of the GIL) runs, but says nothing:
    after `HUNG_S` without a heartbeat the guard kills it."""
    profile, path = profile_file
    child, guard = started(kernel, path, hang_on_usr1=True)
    wait_running(child, kernel, profile)
    sent = signal_at(child.pid, signal.SIGUSR1)
    assert child.wait() == -signal.SIGKILL, "the guard killed the hung owner"
    guard_turned_it_off(kernel, profile, guard, sent, owner=child.pid)
    _, err = child.communicate()
    assert b"with the motor on (hung): killed it" in err, err


# --- the guard dies first: the launcher refuses to run the motor ---


def test_a_guard_killed_mid_eject_stops_the_run_and_the_launcher_refuses(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path]
) -> None:
    profile, path = profile_file
    child, guard = started(kernel, path)
    wait_running(child, kernel, profile)
    sent = signal_at(guard, signal.SIGKILL)
    assert wait_until(lambda: motor_off(kernel, profile)), motor_levels(kernel, profile)
    out, err = child.communicate()
    assert child.returncode == 0, err
    lines = out.decode().splitlines()
    assert lines[0] == "ejected stopped", lines
    assert lines[1].startswith(f"refused guard: the motor guard (pid {guard}) is gone"), lines
    assert set(writers(kernel, profile, sent)) == {child.pid}, "the launcher stopped it"


@pytest.fixture
def guarded(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Launcher, MotorGuard]]:
    """A launcher under its guard in this process, on the kernel model."""
    monkeypatch.setenv(FACTORY_ENV, SPEC)
    monkeypatch.setenv(ENV, str(kernel.path))
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    launcher = open_guarded(str(profile_file[1]), backend="gpio")
    guard = guard_of(launcher)
    assert guard is not None and guard.process.poll() is None
    yield launcher, guard
    launcher.close()


@pytest.mark.parametrize("how", ["killed", "stopped"])
def test_a_launcher_whose_guard_is_gone_refuses_to_run_the_motor(
    guarded: tuple[Launcher, MotorGuard],
    kernel: KernelLines,
    profile_file: tuple[PinProfile, Path],
    how: str,
) -> None:
    """Killed: its end of file stands a ``guard`` fault the table shows. Stopped (it reads
    nothing, and would do nothing): found when the motor is asked for. Either way the eject
    raises before a line moves, and a person cannot clear it: a restart brings a new guard."""
    launcher, guard = guarded
    profile = profile_file[0]
    if how == "killed":
        os.kill(guard.pid, signal.SIGKILL)
        assert wait_until(lambda: launcher.fault is not None, "the launcher noticed")
    else:
        os.kill(guard.pid, signal.SIGSTOP)
        assert wait_until(lambda: process_state(guard.pid) == "T", "the guard stopped")
    with pytest.raises(LauncherFault, match="guard"):
        launcher.eject(1)
    fault = launcher.fault
    assert fault is not None and fault.kind == "guard" and str(guard.pid) in fault.detail
    assert launcher.status is LauncherStatus.FAULT
    launcher.clear_fault()
    with pytest.raises(LauncherFault, match="guard"):
        launcher.eject(1)
    with pytest.raises(GuardLost):
        launcher.devices.motor.forward(0.5)  # selftest and calibrate drive it directly
    assert not ever_ran(kernel, profile), kernel.history()


def test_a_motor_driven_right_after_the_guard_died_drives_nothing(
    guarded: tuple[Launcher, MotorGuard], kernel: KernelLines, profile_file: tuple[PinProfile, Path]
) -> None:
    """Whether or not the watcher has heard yet: the motor asks the guard (and the kernel)
    before a line moves, and finds it gone."""
    launcher, guard = guarded
    os.kill(guard.pid, signal.SIGKILL)
    assert wait_until(lambda: not alive(guard.pid), "the guard died")
    with pytest.raises(GuardLost):
        launcher.devices.motor.forward(0.5)
    assert not ever_ran(kernel, profile_file[0]), kernel.history()


def test_guard_hears_on_and_off_around_a_run_and_stands_down_after_close(
    guarded: tuple[Launcher, MotorGuard], kernel: KernelLines, profile_file: tuple[PinProfile, Path]
) -> None:
    launcher, guard = guarded
    motor = launcher.devices.motor
    motor.forward(0.5)
    assert guard.told_on
    motor.brake()  # brake stops first on its way: still driven, still "on"
    assert guard.told_on
    motor.stop()
    assert not guard.told_on
    launcher.close()
    assert guard.process.poll() == 0 and guard.lost is None
    assert launcher.fault is None
    assert motor_off(kernel, profile_file[0])


# --- the guard's reading of its owner, step by step (no clock: the times are given) ---


def test_heartbeat_watches_the_owner_only_while_the_motor_may_be_on() -> None:
    heart = Heartbeat(now=100.0)
    assert heart.wait(100.0) is None
    assert heart.verdict(100.0 + HUNG_S * 10, "T") is None, "motor off: a stopped owner is left"
    assert heart.feed(ON, 200.0) is False and heart.motor_on
    assert heart.wait(200.0) == pytest.approx(STALE_S)
    assert heart.verdict(200.0 + STALE_S / 2, "T") is None, "a heartbeat is not late yet"
    stopped = heart.verdict(200.0 + STALE_S, "T")
    assert stopped is not None and "stopped" in stopped
    assert heart.verdict(200.0 + STALE_S, "S") is None, "late, running: not hung yet"
    hung = heart.verdict(200.0 + HUNG_S, "R")
    assert hung is not None and "hung" in hung
    assert heart.verdict(200.0 + HUNG_S, None) is None, "gone: its end of file comes"
    heart.feed(b".", 300.0)
    assert heart.verdict(300.0 + STALE_S / 2, "T") is None, "each byte is a sign of life"
    assert heart.feed(OFF, 301.0) is False and not heart.motor_on
    assert heart.feed(ON + OFF, 302.0) is False and not heart.motor_on
    assert heart.feed(b"." + RELEASE, 303.0) is True


# --- start-up and the unit's stop path ---


def test_guard_start_timeout_can_be_set_for_slow_machines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(START_TIMEOUT_ENV, raising=False)
    assert start_timeout() == START_TIMEOUT
    monkeypatch.setenv(START_TIMEOUT_ENV, "600")
    assert start_timeout() == 600.0
    for bad in ("soon", "0", "-5", "inf", "nan"):
        monkeypatch.setenv(START_TIMEOUT_ENV, bad)
        with pytest.raises(GuardUnavailable, match=START_TIMEOUT_ENV):
            start_timeout()


def _service_lines() -> list[str]:
    unit = (REPO / "systemd/uno-attack.service").read_text()
    section, lines = "", []
    for line in unit.splitlines():
        if line.startswith("["):
            section = line
        elif section == "[Service]" and line and not line.startswith("#"):
            lines.append(line)
    return lines


def test_unit_lets_the_guard_finish_before_the_stop_post_safe_off() -> None:
    """``KillMode=control-group``: when the main process dies, systemd SIGTERMs what is left
    (the guard ignores it) and waits for the cgroup to empty before ``ExecStopPost=``; ``mixed``
    would find nothing to SIGTERM and SIGKILL the guard at once, mid drive-off. SIGKILL only
    after ``TimeoutStopSec=``, and ``ExecStopPost=`` safe-off after every stop."""
    service = _service_lines()
    assert "KillMode=control-group" in service
    assert not [ln for ln in service if ln.startswith("SendSIGKILL=") and ln != "SendSIGKILL=yes"]
    assert [ln for ln in service if ln.startswith("TimeoutStopSec=")]
    assert [ln for ln in service if ln.startswith("ExecStopPost=") and " safe-off " in ln]
