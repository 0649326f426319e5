"""The motor guard: how long the motor keeps running after its process is killed, stopped, or
loses its guard.

Every trial runs the feed motor at its eject duty in a child process under its guard on the
kernel model (tests/kernel_gpio.py: a dead owner's level persists, as on Raspberry Pi OS without
``dtparam=strict_gpiod``; a live owner's line is busy to everyone else), in a process group of
its own, and times from the signal to the moment every motor line is off again (the model's
history replayed; CLOCK_MONOTONIC is one clock for every process).

`launcher.kill_to_motor_off_ms`: SIGKILL to the owner. p99 over the trials, target <= 200 ms.

`launcher.guard_signals`: every signal case, `TRIALS_PER_CASE` trials each: SIGKILL, SIGQUIT
and SIGABRT to the owner alone and to its whole process group (``timeout -s KILL``, Ctrl-\\,
systemd's watchdog), SIGSTOP of the owner (Ctrl-Z: the guard kills it), and the guard killed
first (the launcher stops the run itself, and must then refuse the next one). The value is the
p99 over all trials, ``cases`` each case's slowest, target <= 200 ms; ``ok`` says every trial
turned the motor off within the target, only the guard (or, its guard gone, the launcher) wrote
the lines, and the launcher refused. `launcher.guard_signals_busy` is the same beside one
CPU-hogging process per core (``sh -c 'while :; do :; done'``), with the idle line as its peer
and ``ratio`` busy/idle.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.latency import latency_line, percentile
from tests.dying_motor import (
    guard_pid,
    kill,
    kill_strays,
    motor_off,
    off_at,
    signal_at,
    slow_profile,
    spin,
    wait_running,
    writers,
)
from tests.kernel_gpio import KernelLines
from tests.waiting import wait_until

TRIALS = 20
TRIALS_PER_CASE = 5
TARGET_MS = 200.0
TRIAL = itertools.count()
CASES: list[tuple[str, signal.Signals, bool]] = [  # (name, signal, to the whole group)
    *[
        (f"{sig.name}-{'group' if group else 'owner'}", sig, group)
        for sig in (signal.SIGKILL, signal.SIGQUIT, signal.SIGABRT)
        for group in (False, True)
    ],
    ("SIGSTOP-owner", signal.SIGSTOP, False),
    ("guard-killed-first", signal.SIGKILL, False),
]


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


def signal_to_off(
    directory: Path, name: str, sig: signal.Signals, group: bool
) -> tuple[float, bool]:
    """One trial of case `name`: (ms from the signal to every motor line off, all as it must)."""
    kernel = KernelLines.create(directory / f"gpiochip-{name}-{next(TRIAL)}.json")
    path = directory / "slow.toml"
    profile = slow_profile(path)
    child = spin(kernel, path, session=True)
    try:
        guard = guard_pid(child)
        wait_running(child, kernel, profile)
        target = guard if name == "guard-killed-first" else child.pid
        sent = signal_at(target, sig, group=group)
        wait_until(lambda: motor_off(kernel, profile), "the motor turned off", timeout=60)
        out, _ = child.communicate(timeout=60)
    finally:
        kill_strays()
    off = off_at(kernel, profile, sent)
    assert off is not None
    wrote = writers(kernel, profile, sent)
    said = out.decode().splitlines()
    if name == "guard-killed-first":  # the launcher stopped the run, then refused the next
        refused = said[:1] == ["ejected stopped"] and said[1:2] != [] and "guard" in said[1]
        right = refused and said[1].startswith("refused") and set(wrote) == {child.pid}
    else:
        died = -signal.SIGKILL if sig == signal.SIGSTOP else -sig
        right = child.returncode == died and wrote == {guard: {0.0}}
    return (off - sent) * 1000.0, right


def guard_signals(directory: Path) -> tuple[list[float], dict[str, float], bool]:
    """Every case `TRIALS_PER_CASE` times, interleaved: (all ms, each case's max, all right)."""
    millis: list[float] = []
    worst: dict[str, float] = {}
    right = True
    for _ in range(TRIALS_PER_CASE):
        for name, sig, group in CASES:
            ms, ok = signal_to_off(directory, name, sig, group)
            millis.append(ms)
            worst[name] = round(max(worst.get(name, 0.0), ms), 1)
            right = right and ok
    return millis, worst, right


def hogs() -> list[subprocess.Popen[bytes]]:
    """One busy shell loop per core."""
    return [
        subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(os.cpu_count() or 1)
    ]


def signals_line(
    name: str, millis: list[float], worst: dict[str, float], right: bool
) -> dict[str, Any]:
    return latency_line(
        name,
        millis,
        cases=worst,
        trials=len(millis),
        target=f"<= {TARGET_MS:g}",
        ok=right and max(millis) <= TARGET_MS,
    )


def run() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as directory:
        millis = [kill_to_off(Path(directory), trial) for trial in range(TRIALS)]
        yield latency_line("launcher.kill_to_motor_off_ms", millis, trials=TRIALS, target="<= 200")
        idle = guard_signals(Path(directory))
        yield (idle_line := signals_line("launcher.guard_signals", *idle))
        busy_hogs = hogs()
        try:
            busy = guard_signals(Path(directory))
        finally:
            for hog in busy_hogs:
                hog.kill()
                hog.wait()
        line = signals_line("launcher.guard_signals_busy", *busy)
        line.update(
            hogs=len(busy_hogs),
            peer="launcher.guard_signals",
            peer_value=idle_line["value"],
            ratio=round(percentile(busy[0], 0.99) / max(percentile(idle[0], 0.99), 1e-9), 2),
        )
        yield line
