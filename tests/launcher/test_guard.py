"""The motor stops after any death of the process: SIGKILL mid-eject on a faithful kernel model.

The kernel model (tests/kernel_gpio.py) keeps a dead owner's level, as Raspberry Pi OS kernels
do unless ``dtparam=strict_gpiod`` is set. A child process runs the motor at its eject duty on
it and is SIGKILLed: without the guard the line stays driven (the model is faithful), with
strict mode it reverts, and with the guard every motor line is driven off, by the guard alone,
which never drives one on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.launcher.guard import (
    FACTORY_ENV,
    GuardUnavailable,
    MotorGuard,
    drive_off,
    open_guarded,
)
from controller.launcher.pins import PinProfile
from tests.dying_motor import (
    kernel_env,
    kill,
    kill_strays,
    motor_levels,
    motor_off,
    motor_running,
    slow_profile,
    spin,
    start,
    wait_running,
)
from tests.kernel_gpio import ENV, SPEC, KernelFactory, KernelLines
from tests.serving import free_port
from tests.waiting import wait_until


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


def guard_writes(kernel: KernelLines, owner: int, after: float) -> list[tuple[int, int, float]]:
    """Changes made after `after` by any process but `owner`: the guard's."""
    return [(pid, g, v) for t, pid, g, v in kernel.history() if t >= after and pid != owner]


def test_guard_without_it_a_killed_process_leaves_the_motor_running(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path]
) -> None:
    profile, path = profile_file
    child = spin(kernel, path, guarded=False)
    wait_running(child, kernel, profile)
    before = motor_levels(kernel, profile)
    kill(child)
    assert motor_running(kernel, profile), "the model must keep a dead owner's levels"
    assert motor_levels(kernel, profile) == before
    assert kernel.owner(profile.motor.forward or 0) == child.pid  # nobody released it


def test_guard_strict_gpiod_reverts_a_dead_owners_lines(
    tmp_path: Path, profile_file: tuple[PinProfile, Path]
) -> None:
    kernel = KernelLines.create(tmp_path / "strict.json", strict=True)
    profile, path = profile_file
    child = spin(kernel, path, guarded=False)
    wait_running(child, kernel, profile)
    kill(child)
    assert motor_off(kernel, profile)


@pytest.mark.parametrize("name", ["hbridge", "phase-enable", "mosfet"])
def test_guard_drives_every_motor_line_off_after_sigkill(
    kernel: KernelLines, tmp_path: Path, name: str
) -> None:
    path = tmp_path / f"{name}.toml"
    profile = slow_profile(path, name)
    child = spin(kernel, path)
    wait_running(child, kernel, profile)
    driven = {gpio for _, gpio in profile.motor.lines if kernel.level(gpio) > 0}
    killed = kill(child)
    assert wait_until(lambda: motor_off(kernel, profile)), motor_levels(kernel, profile)
    writes = guard_writes(kernel, child.pid, killed)
    assert {g for _, g, _ in writes} >= driven, "the guard turned off what was driven"
    assert all(value == 0.0 for _, _, value in writes), "the guard drove a line on"
    released = lambda: all(kernel.owner(gpio) == 0 for _, gpio in profile.motor.lines)  # noqa: E731
    assert wait_until(released), "the guard claims every motor line, then releases it"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_guard_outlives_a_signal_to_the_whole_group_and_turns_the_motor_off(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path], sig: signal.Signals
) -> None:
    """Ctrl-C, a closed terminal and ``systemctl stop`` (after the main process died, systemd
    sends SIGTERM to what is left) reach the guard too: it ignores them and does its job."""
    profile, path = profile_file
    child = spin(kernel, path, session=True)
    wait_running(child, kernel, profile)
    os.killpg(child.pid, sig)
    child.wait()
    assert wait_until(lambda: motor_off(kernel, profile)), motor_levels(kernel, profile)


def test_guard_that_cannot_start_stops_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard's own pin factory fails (here: no kernel model named): no motor without it."""
    monkeypatch.delenv(ENV, raising=False)
    with pytest.raises(GuardUnavailable):
        MotorGuard([12, 13], SPEC)


def test_guard_stands_down_after_a_clean_close(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    profile, path = profile_file
    monkeypatch.setenv(FACTORY_ENV, SPEC)
    monkeypatch.setenv(ENV, str(kernel.path))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    launcher = open_guarded(path, backend="gpio")
    guard = launcher._closers[-1].__self__  # the guard's release is the last closer
    assert isinstance(guard, MotorGuard) and guard.process.poll() is None
    launcher.devices.motor.forward(0.5)
    launcher.close()
    assert guard.process.poll() == 0
    assert not [w for w in kernel.history() if w[1] == guard.pid], "the guard touched a line"
    assert motor_off(kernel, profile)


def test_guard_never_takes_a_line_from_a_live_owner_and_takes_a_dead_ones(
    kernel: KernelLines,
) -> None:
    holder = start(
        kernel,
        ["-c", "import sys\nfrom tests.kernel_gpio import factory\n"
         "pin = factory().pin(12); pin.function = 'output'; pin.state = 1\n"
         "print('held', flush=True); sys.stdin.read()"],
    )  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
    pins = KernelFactory(kernel.path)
    outcome = drive_off([12], pins, patience=0.05)
    assert outcome[12] is not None and "busy" in outcome[12]
    assert kernel.level(12) == 1.0
    kill(holder)  # dead now: its line keeps its level, and is free to claim
    assert kernel.level(12) == 1.0
    assert drive_off([12], pins) == {12: None}
    assert kernel.level(12) == 0.0


def test_guard_process_refuses_a_bad_factory_and_the_launcher_does_not_open(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path]
) -> None:
    env = {**kernel_env(kernel), FACTORY_ENV: "tests.kernel_gpio:nothing_here"}
    result = subprocess.run(
        [sys.executable, "-c", "from controller.cli import main; raise SystemExit(main())",
         "selftest", "--backend", "gpio", "--profile", str(profile_file[1])],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "nothing_here" in result.stderr


CLI = "from controller.cli import main; raise SystemExit(main())"


def cli_command(command: str, profile: Path, tmp_path: Path) -> list[str]:
    if command == "run":
        config = tmp_path / "config.toml"
        config.write_text(f'[launcher]\nbackend = "gpio"\npin_profile = "{profile}"\n')
        port = free_port()
        return ["run", "--config", str(config), "--data-dir", str(tmp_path), "--port", str(port)]
    return [command, "--backend", "gpio", "--profile", str(profile)]


@pytest.mark.parametrize("command", ["selftest", "calibrate", "run"])
def test_guard_covers_every_command_that_can_move_the_motor(
    kernel: KernelLines, profile_file: tuple[PinProfile, Path], tmp_path: Path, command: str
) -> None:
    """selftest and calibrate are killed with the motor running; `run` once it holds the lines
    (its motor runs only when a press or a deal asks). The guard then drives every line off."""
    profile, path = profile_file
    child = start(kernel, ["-c", CLI, *cli_command(command, path, tmp_path)])
    if command == "run":
        holds = lambda: kernel.owner(profile.motor.forward or 0) == child.pid  # noqa: E731
        assert wait_until(lambda: child.poll() is None and holds()), child.communicate()
    else:
        wait_running(child, kernel, profile)
    killed = kill(child)
    assert wait_until(lambda: motor_off(kernel, profile))
    released = lambda: all(kernel.owner(g) == 0 for _, g in profile.motor.lines)  # noqa: E731
    assert wait_until(released), "no guard claimed the lines after the death"
    assert all(value == 0.0 for _, _, value in guard_writes(kernel, child.pid, killed))
