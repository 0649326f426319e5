"""Launcher benchmarks, on mock pins with the simulated machine (issue: the launcher).

- launcher.press_to_motor_p99: a press becoming real → forward motor line on, suspense 0, through
  the real callback → queue → input thread → press runner → eject path; 1,000 presses at a fast
  human's pace (held 30-60 ms, 60-120 ms apart), each running the motor into an empty hopper.
  A level counts as a press once it has been stable for the debounce time (5 ms here), so the
  latency is measured from that moment (the press's own stamp plus the debounce);
  `edge_to_motor_p99` is from the pin's edge itself.
- launcher.eject_accuracy: 10,000 ejects of 1-12 cards, no faults injected: the fraction where
  the ejector counted exactly the requested cards *and* exactly that many left the simulated
  machine. The simulator runs its cards 1/`TIME_SCALE` times faster than real ones (fast
  cards) with the ejector's times scaled to match, and several launchers run at once in a few
  processes; the scale is reported with the result.
- launcher.eject_accuracy_noise: the same with beam glitches injected while the motor runs.
- launcher.jam_detect_ms: from the jammed card blocking the beam to the motor line off, real
  time, shipped tuning. Target: <= max_pulse_ms + 50.
"""

from __future__ import annotations

import random
import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from benchmarks.latency import latency_line
from controller.launcher import (
    Launcher,
    PinProfile,
    PressRunner,
    ScriptedPolicy,
    SimOptions,
    load_pin_profile,
    open_launcher,
)

PRESSES = 1000
EJECTS = 10_000
TIME_SCALE = 0.2  # simulated cards 5x faster than real ones for the accuracy runs
PROCESSES = 16  # separate interpreters: a GIL per few launchers, not one for all 64
THREADS = 4  # launchers per process
NOISE_PER_SECOND = 8.0  # glitches per (unscaled) second of motor running: ~1 per card
JAM_TRIALS = 10


def scaled_profile(scale: float) -> PinProfile:
    profile = load_pin_profile("hbridge")
    return profile.with_ejector(**profile.ejector.scaled(scale).__dict__)


# --- press to motor ---


def press_to_motor(presses: int = PRESSES) -> dict[str, Any]:
    settle = 0.005
    profile = scaled_profile(0.02).with_press(debounce_ms=settle * 1e3)
    # An empty hopper: each press runs the motor until the (scaled) first-card timeout, so the
    # figure is the press path alone, not how fast simulated cards can be.
    launcher = open_launcher(profile, backend="sim", sim=SimOptions(cards=0))
    machine = launcher.simulator
    first_on: list[float] = []
    motor_on = threading.Event()

    def on_motor(t: float, speed: float) -> None:
        if speed > 0 and not motor_on.is_set():
            first_on.append(t)
            motor_on.set()

    machine.add_motor_listener(on_motor)
    latencies, from_edge = [], []
    rng = random.Random(3)
    with launcher, PressRunner(launcher, ScriptedPolicy([1] * presses)) as runner:
        for _ in range(presses):
            motor_on.clear()
            machine.hold_button()
            if not motor_on.wait(5.0):
                raise RuntimeError("the motor did not start after a press")
            time.sleep(rng.uniform(0.03, 0.06))
            machine.release_button()
            outcome = runner.outcomes.get(timeout=10)
            launcher.clear_fault()  # "empty": refill, as it were
            pressed_at = outcome.press.t  # the press edge's own stamp
            latencies.append((first_on[-1] - pressed_at - settle) * 1e3)
            from_edge.append((first_on[-1] - pressed_at) * 1e3)
            time.sleep(rng.uniform(0.06, 0.12))
    edge_line = latency_line("edge", from_edge)
    return latency_line(
        "launcher.press_to_motor_p99",
        latencies,
        presses=presses,
        debounce_ms=settle * 1e3,
        edge_to_motor_p99=edge_line["value"],
        target="< 2",
    )


# --- eject accuracy ---


def _eject_worker(counts: list[int], noise: float) -> Counter[str]:
    options = SimOptions(cards=10**7, time_scale=TIME_SCALE, noise_per_second=noise)
    outcome: Counter[str] = Counter()
    with open_launcher(scaled_profile(TIME_SCALE), backend="sim", sim=options) as launcher:
        machine = launcher.simulator
        for n in counts:
            before = machine.cards_out
            result = launcher.eject(n)
            out = machine.cards_out - before
            outcome[_verdict(launcher, result.ejected, result.reason, n, out)] += 1
    return outcome


def _verdict(launcher: Launcher, counted: int, reason: str, wanted: int, out: int) -> str:
    if launcher.fault is not None:
        launcher.clear_fault()
    if reason != "count":
        return reason
    if counted == wanted == out:
        return "exact"
    return "extra" if out > counted else "missed"


def _eject_process(shares: list[list[int]], noise: float) -> Counter[str]:
    with ThreadPoolExecutor(len(shares)) as pool:
        return sum(pool.map(_eject_worker, shares, [noise] * len(shares)), Counter())


def eject_accuracy(name: str, noise: float, ejects: int = EJECTS) -> dict[str, Any]:
    rng = random.Random(1)
    counts = [rng.randint(1, 12) for _ in range(ejects)]
    launchers = PROCESSES * THREADS
    shares = [counts[i::launchers] for i in range(launchers)]
    groups = [shares[i::PROCESSES] for i in range(PROCESSES)]
    started = time.monotonic()
    with ProcessPoolExecutor(PROCESSES) as pool:
        total = sum(pool.map(_eject_process, groups, [noise] * PROCESSES), Counter())
    line: dict[str, Any] = {
        "name": name,
        "value": round(total["exact"] / ejects, 5),
        "unit": "fraction",
        "ejects": ejects,
        "cards": sum(counts),
        "outcomes": dict(total),
        "time_scale": TIME_SCALE,
        "launchers_in_parallel": launchers,
        "seconds": round(time.monotonic() - started, 1),
        "target": 1.0,
    }
    if noise:
        line["noise_per_second"] = noise
    return line


# --- jam detection ---


def jam_detect(trials: int = JAM_TRIALS) -> dict[str, Any]:
    profile = load_pin_profile("hbridge")
    delays = []
    for _ in range(trials):
        launcher = open_launcher(profile, backend="sim", sim=SimOptions(jam_at=2))
        machine = launcher.simulator
        stopped: list[float] = []
        machine.add_motor_listener(lambda t, speed, s=stopped: s.append(t) if speed == 0 else None)
        with launcher:
            result = launcher.eject(5)
        if result.reason != "jam" or machine.jam_blocked_at is None:
            raise RuntimeError(f"expected a jam, got {result}")
        off = min(t for t in stopped if t >= machine.jam_blocked_at)
        delays.append((off - machine.jam_blocked_at) * 1e3)
    timeout = profile.ejector.max_pulse_ms
    return {
        "name": "launcher.jam_detect_ms",
        "value": round(max(delays), 1),
        "unit": "ms",
        "p50": round(statistics.median(delays), 1),
        "trials": trials,
        "timeout_ms": timeout,
        "target": f"<= {timeout + 50:g}",
    }


def run() -> Iterator[dict[str, Any]]:
    yield press_to_motor()
    yield eject_accuracy("launcher.eject_accuracy", noise=0.0)
    yield eject_accuracy("launcher.eject_accuracy_noise", noise=NOISE_PER_SECOND)
    yield jam_detect()
