"""Launcher benchmarks, on mock pins with the simulated machine (issue: the launcher; issue: a
motor that behaves like a motor).

The simulated machine runs on event time (controller/launcher/sim.py): a starved host delays
when edges reach the controller, never where the cards are, so what these lines measure is
the controller alone. The accuracy lines run idle and beside one CPU hog per core
(``sh -c 'while :; do :; done'``, started here and killed after).

- launcher.press_to_motor_p99: a press becoming real → forward motor line on, suspense 0, through
  the real callback → queue → input thread → press runner → eject path; 1,000 presses at a fast
  human's pace (held 30-60 ms, 60-120 ms apart), each running the motor into an empty hopper.
  A level counts as a press once it has been stable for the debounce time (5 ms here), so the
  latency is measured from that moment (the press's own stamp plus the debounce);
  `edge_to_motor_p99` is from the pin's edge itself.
- launcher.eject_accuracy / launcher.eject_accuracy_busy: 10,000 ejects of 1-12 cards from a
  hopper of 10^7 cards, on a physical motor (`N20`: dead zone, spin-up lag, coast, a full
  hopper's sag) whose profile says what a bench measured. The fraction of ejects where every
  card that came out was charged (at return, or by a late count) and no fault was declared
  (with 10^7 cards and no jam, any jam or "empty" is false). `failures` counts each kind:
  `uncounted` (a card out, never charged), `overcounted`, `false_jam`, `false_empty`,
  `timeout`; `charged_late` and `overrun` (more cards came out than asked, all charged) are
  reported beside. Cards run 1/`TIME_SCALE` times faster than real ones with the ejector's
  times scaled to match, several launchers at once in a few processes.
- launcher.eject_accuracy_noise: the same, idle, with beam glitches while the motor runs.
- launcher.calibrate_nonlinear / _busy: `calibrate` on motors the profile knows nothing about
  (dead zone 0-0.35, time constant 20-150 ms, sag 0.1, coast 80 ms), then ejects of 1-8 cards
  with one feed in twenty a shingled double, the hopper emptying and refilled (so the sag
  drifts): the fraction of ejects charged exactly; every motor must calibrate, and the fitted
  dead zone and time constant are reported beside the true ones.
- launcher.jam_detect_ms: from the jammed card blocking the beam to the motor line off, real
  time, shipped tuning. Target: <= max_pulse_ms + 50.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from benchmarks.latency import latency_line
from controller.launcher import (
    Launcher,
    PinProfile,
    PressRunner,
    SimOptions,
    load_pin_profile,
    open_launcher,
)
from controller.launcher.calibrate import CalibrationFailed, calibrate
from controller.launcher.ejector import EjectResult
from controller.launcher.wheel import Wheel
from controller.policy import ScriptedPolicy

PRESSES = 1000
EJECTS = 10_000
TIME_SCALE = 0.2  # simulated cards 5x faster than real ones for the accuracy runs
PROCESSES = 16  # separate interpreters: a GIL per few launchers, not one for all 64
THREADS = 4  # launchers per process
NOISE_PER_SECOND = 8.0  # glitches per (unscaled) second of motor running: ~1 per card
JAM_TRIALS = 10
# a small N20 gear motor as a bench measured it (hardware/README.md, "Measuring the motor")
N20 = {"dead_zone": 0.2, "time_constant_ms": 60.0, "coast_ms": 80.0, "sag": 0.1}
DEAD_ZONES = (0.0, 0.12, 0.24, 0.35)
TIME_CONSTANTS_MS = (20.0, 60.0, 150.0)
NONLINEAR_EJECTS = 110  # per motor, after its calibration
NONLINEAR_SAG, NONLINEAR_COAST_MS = 0.1, 80.0
FAILURES = ("uncounted", "overcounted", "false_jam", "false_empty", "timeout", "stopped")


def scaled_profile(scale: float, profile: PinProfile | None = None) -> PinProfile:
    """A profile for a machine running 1/`scale` times fast: the ejector's times and the
    motor's (wheel speed, lag, coast) scaled alike."""
    profile = profile or load_pin_profile("hbridge")
    m = profile.motor
    motor = replace(
        m,
        wheel_rpm=m.wheel_rpm / scale,
        time_constant_ms=m.time_constant_ms * scale,
        coast_ms=m.coast_ms * scale,
    )
    return replace(profile, motor=motor, ejector=profile.ejector.scaled(scale))


def n20_profile() -> PinProfile:
    profile = load_pin_profile("hbridge")
    return replace(profile, motor=replace(profile.motor, **N20))


@contextlib.contextmanager
def cpu_hogs(busy: bool) -> Iterator[list[subprocess.Popen[bytes]]]:
    """One ``sh -c 'while :; do :; done'`` per core while the block runs (none if not busy)."""
    hogs = []
    if busy:
        for _ in range(os.cpu_count() or 1):
            hogs.append(subprocess.Popen(["sh", "-c", "while :; do :; done"]))
    try:
        yield hogs
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.wait()


class Ledger:
    """Every eject of one launcher, judged once its late counts are in: what came out against
    what was charged (at return, plus late counts) and the fault declared, if any."""

    def __init__(self, launcher: Launcher) -> None:
        self._late: dict[int, int] = {}
        self._lock = threading.Lock()
        self._runs: list[tuple[EjectResult, int]] = []
        launcher.add_settlement_consumer(self._on_late)
        self.launcher = launcher

    def _on_late(self, late: Any) -> None:
        with self._lock:
            self._late[id(late.result)] = late.ejected

    def eject(self, cards: int) -> EjectResult:
        machine = self.launcher.simulator
        before = machine.cards_out
        result = self.launcher.eject(cards)
        machine.wait_still()  # the wheel has stopped: every card it moved is out
        self._runs.append((result, machine.cards_out - before))
        if self.launcher.fault is not None:
            self.launcher.clear_fault()
        return result

    def tally(self) -> Counter[str]:
        """Every eject judged, once every edge the machine made has been delivered."""
        self.launcher.simulator.wait_delivered()
        with self._lock:
            late = dict(self._late)
        tally: Counter[str] = Counter()
        for result, out in self._runs:
            charged = late.get(id(result), result.ejected)
            kinds = []
            if result.reason == "jam":
                kinds.append("false_jam")
            elif result.reason == "empty":
                kinds.append("false_empty")
            elif result.reason != "count":
                kinds.append(result.reason)
            if out > charged:
                kinds.append("uncounted")
            elif charged > out:
                kinds.append("overcounted")
            tally["ejects"] += 1
            tally["ok"] += not kinds
            tally["exact"] += not kinds and out == result.requested == result.ejected
            tally["charged_late"] += id(result) in late
            tally["overrun"] += out > result.requested
            tally["cards_out"] += out
            for kind in kinds:
                tally[kind] += 1
        return tally


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


def _eject_worker(counts: list[int], noise: float, seed: int) -> Counter[str]:
    profile = n20_profile()
    options = SimOptions(
        cards=10**7,
        time_scale=TIME_SCALE,
        noise_per_second=noise,
        wheel=Wheel.of_motor(profile.motor),
        seed=seed,
    )
    with open_launcher(scaled_profile(TIME_SCALE, profile), backend="sim", sim=options) as launcher:
        ledger = Ledger(launcher)
        for n in counts:
            ledger.eject(n)
        return ledger.tally()


def _eject_process(shares: list[list[int]], noise: float, seeds: list[int]) -> Counter[str]:
    with ThreadPoolExecutor(len(shares)) as pool:
        return sum(pool.map(_eject_worker, shares, [noise] * len(shares), seeds), Counter())


def outcomes(total: Counter[str]) -> dict[str, Any]:
    return {
        "failures": {kind: total[kind] for kind in FAILURES},
        "exact": total["exact"],
        "charged_late": total["charged_late"],
        "overrun": total["overrun"],
        "cards_out": total["cards_out"],
    }


def eject_accuracy(
    name: str, noise: float = 0.0, *, busy: bool = False, ejects: int = EJECTS
) -> dict[str, Any]:
    rng = random.Random(1)
    counts = [rng.randint(1, 12) for _ in range(ejects)]
    launchers = PROCESSES * THREADS
    shares = [counts[i::launchers] for i in range(launchers)]
    groups = [shares[i::PROCESSES] for i in range(PROCESSES)]
    seeds = [[p * THREADS + i for i in range(THREADS)] for p in range(PROCESSES)]
    started = time.monotonic()
    with cpu_hogs(busy) as hogs, ProcessPoolExecutor(PROCESSES) as pool:
        tallies = pool.map(_eject_process, groups, [noise] * PROCESSES, seeds)
        total: Counter[str] = sum(tallies, Counter())
    line: dict[str, Any] = {
        "name": name,
        "value": round(total["ok"] / ejects, 5),
        "unit": "fraction",
        "ejects": ejects,
        "cards": sum(counts),
        **outcomes(total),
        "motor": N20,
        "cpu_hogs": len(hogs),
        "time_scale": TIME_SCALE,
        "launchers_in_parallel": launchers,
        "seconds": round(time.monotonic() - started, 1),
        "target": 1.0,
    }
    if noise:
        line["noise_per_second"] = noise
    return line


# --- calibrating a motor the profile knows nothing about, then counting on it ---


def _nonlinear_worker(dead_zone: float, time_constant_ms: float, seed: int) -> dict[str, Any]:
    shipped = load_pin_profile("hbridge")  # an ideal motor: what the maker has not measured
    truth = Wheel(
        shipped.motor.card_ms(1.0) / 1e3,
        dead_zone,
        time_constant_ms / 1e3,
        NONLINEAR_COAST_MS / 1e3,
        NONLINEAR_SAG,
    )
    options = SimOptions(cards=112, time_scale=TIME_SCALE, wheel=truth, seed=seed)
    report: dict[str, Any] = {"dead_zone": dead_zone, "time_constant_ms": time_constant_ms}
    with open_launcher(scaled_profile(TIME_SCALE), backend="sim", sim=options) as launcher:
        try:
            tuned = calibrate(launcher, cards=10, runs=3)
        except CalibrationFailed as error:
            return {**report, "calibrated": False, "error": str(error)}
        stack = launcher.simulator.stack
    report["calibrated"] = True
    report["fitted"] = {
        "dead_zone": tuned.motor.dead_zone,
        "time_constant_ms": round(tuned.motor.time_constant_ms / TIME_SCALE, 1),
    }
    doubles = replace(options, cards=stack, double_rate=0.05)
    rng = random.Random(seed)
    injected = detected = 0
    with open_launcher(tuned, backend="sim", sim=doubles) as launcher:
        ledger, machine = Ledger(launcher), launcher.simulator
        for _ in range(NONLINEAR_EJECTS):
            if machine.stack < 12:
                machine.load(112)  # the players refill it: the sag is back at its worst
            before = machine.doubles_fed
            result = ledger.eject(rng.randint(1, 8))
            injected += machine.doubles_fed - before
            detected += result.doubles
        tally = ledger.tally()
    return {**report, "tally": dict(tally), "doubles": [injected, detected]}


def calibrate_nonlinear(name: str, *, busy: bool = False) -> dict[str, Any]:
    motors = [(z, tau) for z in DEAD_ZONES for tau in TIME_CONSTANTS_MS]
    started = time.monotonic()
    with cpu_hogs(busy) as hogs, ProcessPoolExecutor(len(motors)) as pool:
        reports = list(
            pool.map(
                _nonlinear_worker,
                [z for z, _ in motors],
                [tau for _, tau in motors],
                range(len(motors)),
            )
        )
    total: Counter[str] = Counter()
    for report in reports:
        total.update(report.get("tally", {}))
    calibrated = sum(r["calibrated"] for r in reports)
    ejects = len(motors) * NONLINEAR_EJECTS
    injected = sum(r.get("doubles", [0, 0])[0] for r in reports)
    detected = sum(r.get("doubles", [0, 0])[1] for r in reports)
    return {
        "name": name,
        "value": round(total["ok"] / ejects, 5),
        "unit": "fraction",
        "motors": len(motors),
        "motors_calibrated": calibrated,
        "ejects": ejects,
        **outcomes(total),
        "doubles_injected": injected,
        "doubles_detected": detected,
        "fits": [
            [r["dead_zone"], r["time_constant_ms"], r.get("fitted", r.get("error"))]
            for r in reports
        ],
        "sag": NONLINEAR_SAG,
        "coast_ms": NONLINEAR_COAST_MS,
        "cpu_hogs": len(hogs),
        "time_scale": TIME_SCALE,
        "seconds": round(time.monotonic() - started, 1),
        "target": f"1.0, {len(motors)} of {len(motors)} calibrated",
    }


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
            blocked_at = machine.jam_blocked_at
        if result.reason != "jam" or blocked_at is None:
            raise RuntimeError(f"expected a jam, got {result}")
        off = min(t for t in stopped if t >= blocked_at)
        delays.append((off - blocked_at) * 1e3)
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
    yield eject_accuracy("launcher.eject_accuracy")
    yield eject_accuracy("launcher.eject_accuracy_busy", busy=True)
    yield eject_accuracy("launcher.eject_accuracy_noise", noise=NOISE_PER_SECOND)
    yield calibrate_nonlinear("launcher.calibrate_nonlinear")
    yield calibrate_nonlinear("launcher.calibrate_nonlinear_busy", busy=True)
    yield jam_detect()
