"""A process that runs the feed motor on the kernel model until something kills it.

``python -m tests.dying_motor PROFILE [--unguarded] [--hang-on-usr1]`` opens the launcher on the
gpio backend with ``$UNO_ATTACK_PIN_FACTORY`` (the kernel model) under its motor guard, or without
one, says ``guard PID`` (or ``unguarded``) on stdout, and ejects cards that never come (the
profile's first-card timeout is long), so the motor runs at its eject duty until the process is
killed. If the eject ends (its guard died, and the launcher stopped it) it says ``ejected
REASON``, tries one more eject and says ``refused WHY`` or ``ran``. With ``--hang-on-usr1``,
SIGUSR1 hangs the whole interpreter (a C loop that never lets go of the GIL), as a wedged
process does. Core dumps are off (SIGQUIT and SIGABRT would leave them in the checkout).
Ctrl-C and Ctrl-\\ act as they do on a program started from a terminal, even when the tests run
in the background (where a shell starts every command with SIGINT and SIGQUIT ignored).
The helpers start it, wait for the motor, signal it and read what the lines did.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

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
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
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
    kernel: KernelLines | None,
    profile_path: Path,
    *,
    guarded: bool = True,
    session: bool = False,
    hang_on_usr1: bool = False,
) -> subprocess.Popen[bytes]:
    argv = ["-m", "tests.dying_motor", str(profile_path)]
    argv += [] if guarded else ["--unguarded"]
    argv += ["--hang-on-usr1"] if hang_on_usr1 else []
    return start(kernel, argv, session=session)


def motor_levels(kernel: KernelLines, profile: PinProfile) -> dict[str, float]:
    return {role: kernel.level(gpio) for role, gpio in profile.motor.lines}


def motor_running(kernel: KernelLines, profile: PinProfile) -> bool:
    """The driver powers the motor: its PWM line on (PHASE/ENABLE: EN; MOSFET: the gate), or on
    an H-bridge a direction input on with the enable line (if fitted) on."""
    return _powered(motor_levels(kernel, profile), profile)


def ever_ran(kernel: KernelLines, profile: PinProfile) -> bool:
    """The motor lines' history (replayed) ever powered the motor."""
    roles = {gpio: role for role, gpio in profile.motor.lines}
    levels = dict.fromkeys(roles.values(), 0.0)
    for _t, _pid, gpio, value in kernel.history():
        if gpio in roles:
            levels[roles[gpio]] = value
            if _powered(levels, profile):
                return True
    return False


def _powered(levels: dict[str, float], profile: PinProfile) -> bool:
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


def guard_pid(child: subprocess.Popen[bytes]) -> int:
    """The pid of `child`'s motor guard (its first line on stdout)."""
    assert child.stdout is not None
    line = child.stdout.readline().decode()
    assert line.startswith("guard "), (line, child.poll())
    return int(line.split()[1])


def signal_at(pid: int, sig: int, *, group: bool = False) -> float:
    """Send `sig` to `pid` (or its whole process group); the monotonic time it was sent."""
    sent = time.monotonic()
    if group:
        os.killpg(pid, sig)
    else:
        os.kill(pid, sig)
    return sent


def off_at(kernel: KernelLines, profile: PinProfile, since: float) -> float | None:
    """When, after `since`, every motor line was first off again (the lines' history replayed);
    None if they never were."""
    lines = {gpio for _, gpio in profile.motor.lines}
    levels = dict.fromkeys(lines, 0.0)
    for t, _pid, gpio, value in kernel.history():
        if gpio not in lines:
            continue
        levels[gpio] = value
        if t >= since and all(v == 0 for v in levels.values()):
            return t
    return None


def writers(kernel: KernelLines, profile: PinProfile, since: float) -> dict[int, set[float]]:
    """Who wrote the motor lines after `since`, and which values: {pid: values}."""
    lines = {gpio for _, gpio in profile.motor.lines}
    seen: dict[int, set[float]] = {}
    for t, pid, gpio, value in kernel.history():
        if t >= since and gpio in lines:
            seen.setdefault(pid, set()).add(value)
    return seen


def _hang(signum: int, frame: Any) -> None:
    sum(range(1 << 62))  # one C call: the GIL is never let go, no thread of ours runs again


def main(argv: list[str]) -> None:
    from controller.launcher import LauncherFault, open_launcher
    from controller.launcher.guard import guard_of, open_guarded
    from tests.kernel_gpio import factory

    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    if "--hang-on-usr1" in argv:
        signal.signal(signal.SIGUSR1, _hang)
    profile = load_pin_profile(argv[0])
    if "--unguarded" in argv:
        launcher = open_launcher(profile, backend="gpio", pin_factory=factory())
        print("unguarded", flush=True)
    else:
        launcher = open_guarded(profile, backend="gpio")
        guard = guard_of(launcher)
        print(f"guard {guard.pid if guard else 0}", flush=True)
    result = launcher.eject(50)
    print(f"ejected {result.reason}", flush=True)
    try:
        launcher.eject(1)
        print("ran", flush=True)
    except LauncherFault as error:
        print(f"refused {error}", flush=True)
    launcher.close()


if __name__ == "__main__":
    main(sys.argv[1:])
