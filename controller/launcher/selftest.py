"""``uno-attack selftest``: check each fitted part and print a readable report.

Checks, in order: the pin profile, the motor at rest, the beam clear, the button released, the
lid closed, a button press reaching the launcher (pressed by the simulator, or by a person with
``--interactive``), one card ejected and counted with the motor off afterwards, and the
indicators driven. Lights and sound cannot read themselves back: the report says to look and
listen. Without a Raspberry Pi this runs against the simulator.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass

from controller.launcher.buttons import ButtonEvent
from controller.launcher.feedback import describe
from controller.launcher.launcher import Launcher

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


@dataclass(frozen=True)
class Check:
    name: str
    verdict: str
    detail: str


def say(text: str) -> None:
    """A prompt a person must see now, even through a pipe (`| tee`, a test)."""
    print(text, flush=True)


def run_selftest(
    launcher: Launcher,
    *,
    eject: bool = True,
    interactive: bool = False,
    prompt: Callable[[str], None] = say,
    press_timeout: float = 15.0,
) -> list[Check]:
    """Run every check against an open launcher (real or simulated)."""
    checks = [_profile(launcher), _motor_at_rest(launcher), _beam(launcher), _button(launcher)]
    if launcher.profile.lid is not None:
        checks.append(_lid(launcher))
    checks.append(_press(launcher, interactive, prompt, press_timeout))
    checks.append(_eject(launcher) if eject else Check("eject", SKIP, "skipped (--no-eject)"))
    checks.append(_indicators(launcher))
    return checks


def _profile(launcher: Launcher) -> Check:
    profile = launcher.profile
    gpios = sorted(gpio for _, gpio in profile.pins())
    listed = ", ".join(str(g) for g in gpios)
    return Check("pin profile", PASS, f"{profile.name}: {len(gpios)} lines valid (GPIO {listed})")


def _motor_at_rest(launcher: Launcher) -> Check:
    value = launcher.devices.motor.value
    if value != 0:
        return Check("motor", FAIL, f"driven at {value:g} with nothing running")
    return Check("motor", PASS, f"off at rest ({launcher.profile.motor.driver} driver)")


def _beam(launcher: Launcher) -> Check:
    if launcher.devices.beam_blocked:
        return Check("beam", FAIL, "blocked at rest: a card in the throat, or sensor misaligned")
    return Check("beam", PASS, "clear at rest")


def _button(launcher: Launcher) -> Check:
    if launcher.devices.button_pressed:
        return Check("button", FAIL, "reads pressed at rest: held down, stuck or shorted")
    return Check("button", PASS, "released at rest")


def _lid(launcher: Launcher) -> Check:
    if launcher.devices.lid_open:
        return Check("lid", FAIL, "open: close the lid")
    return Check("lid", PASS, "closed")


def _press(
    launcher: Launcher, interactive: bool, prompt: Callable[[str], None], timeout: float
) -> Check:
    events: queue.SimpleQueue[ButtonEvent] = queue.SimpleQueue()
    launcher.add_press_consumer(events.put)
    try:
        if launcher.simulator is not None:
            launcher.simulator.press()
        elif interactive:
            prompt(f"Press the UNO button within {timeout:g} s ...")
        else:
            return Check("button press", SKIP, "run with --interactive to press the button")
        return _wait_press(events, timeout)
    finally:
        launcher.remove_press_consumer(events.put)


def _wait_press(events: queue.SimpleQueue[ButtonEvent], timeout: float) -> Check:
    try:
        while (event := events.get(timeout=timeout)).kind != "press":
            pass
    except queue.Empty:
        return Check("button press", FAIL, f"no press seen within {timeout:g} s")
    return Check("button press", PASS, f"press #{event.seq} reached the launcher")


def _eject(launcher: Launcher) -> Check:
    if launcher.fault is not None:
        fault = launcher.fault
        return Check("eject", FAIL, f"not tried: {fault.kind}: {fault.detail}")
    result = launcher.eject(1)
    if launcher.devices.motor.value != 0:
        return Check("eject", FAIL, "the motor is still driven after the run")
    if not result.complete:
        return Check("eject", FAIL, f"{result.reason}: {result.detail} ({result.ejected} of 1)")
    width = result.pulse_ms[0] if result.pulse_ms else 0.0
    return Check("eject", PASS, f"1 card counted (pulse {width:.1f} ms, {result.seconds:.2f} s)")


def _indicators(launcher: Launcher) -> Check:
    fitted = describe(launcher.devices)
    if not fitted:
        return Check("indicators", SKIP, "none fitted")
    launcher.show_colour("green")
    launcher.feedback.play("press")
    return Check("indicators", PASS, f"{', '.join(fitted)} driven: look and listen")


def format_report(checks: list[Check], header: str) -> str:
    width = max(len(c.name) for c in checks)
    lines = [header]
    lines += [f"  {c.verdict}  {c.name.ljust(width)}  {c.detail}" for c in checks]
    failed = sum(c.verdict == FAIL for c in checks)
    counts = {v: sum(c.verdict == v for c in checks) for v in (PASS, FAIL, SKIP)}
    summary = ", ".join(
        f"{n} {v.lower()}ed" if v != SKIP else f"{n} skipped" for v, n in counts.items() if n
    )
    lines.append(f"result: {FAIL if failed else PASS} ({summary})")
    return "\n".join(lines)


def passed(checks: list[Check]) -> bool:
    return not any(c.verdict == FAIL for c in checks)
