"""Launcher board benchmarks: the production serial code against the fake board over a pty.

- serial.roundtrip_p99: ``PING`` → ACK through pyserial, the pty and the board's main loop
  (the firmware itself, under CPython), 2,000 times; p50 reported too.
- serial.press_to_motor_p99: the board sends ``BUTTON down`` → the host's press detector, press
  runner and policy decide → ``EJECT`` reaches the board, which starts the motor and sends its
  ACK; timed on the board's side from the BUTTON frame leaving to the ACK leaving (the motor
  is already running then), 300 presses, suspense 0. Target: < 10 ms.
- serial.cable_pull_to_return_p99: the USB cable pulled mid-eject (a self-powered board runs on)
  → the eject returns what it heard, without waiting for the board; 10 pulls. Then the cable is
  plugged back in and the run settled: `settled_exact` is the share of runs whose settled count
  equals the cards that came out (target 1.0).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from benchmarks.latency import latency_line
from controller.launcher import PressRunner, SimOptions, load_pin_profile
from controller.launcher.board import FakeBoard, Settlement, open_serial_launcher
from controller.policy import ScriptedPolicy

PINGS = 2000
PRESSES = 300
PULLS = 10
TIME_SCALE = 0.05  # cards twenty times faster than real ones: many presses in little time


def roundtrip(pings: int = PINGS) -> dict[str, Any]:
    profile = load_pin_profile("hbridge")
    launcher = open_serial_launcher(profile, "fake-serial")
    try:
        link = launcher.link
        for _ in range(50):  # warm up
            link.request("PING")
        times = []
        for _ in range(pings):
            start = time.perf_counter()
            link.request("PING")
            times.append((time.perf_counter() - start) * 1e3)
    finally:
        launcher.close()
    return latency_line("serial.roundtrip_p99", times, pings=pings)


class _Watch:
    """Stamps the BUTTON frame and the EJECT's ACK as the fake board sends them."""

    def __init__(self) -> None:
        self.pressed_at: float | None = None
        self.acked = threading.Event()
        self.latency = 0.0
        self._eject_seq: bytes | None = None

    def on_frame(self, frame: bytes, at: float) -> None:
        parts = frame.split(b" ")
        if parts[1] == b"BUTTON" and b"down=1" in parts and self.pressed_at is None:
            self.pressed_at = at
        elif parts[1] == b"ACK" and parts[0] == self._eject_seq and self.pressed_at is not None:
            self.latency = (at - self.pressed_at) * 1e3
            self.acked.set()

    def on_command(self, data: bytes) -> None:
        for line in data.splitlines():
            parts = line.split(b" ")
            if len(parts) > 1 and parts[1] == b"EJECT":
                self._eject_seq = parts[0]

    def reset(self) -> None:
        self.pressed_at, self._eject_seq = None, None
        self.acked.clear()


def press_to_motor(presses: int = PRESSES) -> dict[str, Any]:
    profile = load_pin_profile("hbridge")
    profile = profile.with_ejector(**profile.ejector.scaled(TIME_SCALE).__dict__)
    profile = profile.with_press(debounce_ms=5.0)
    sim = SimOptions(cards=10**7, time_scale=TIME_SCALE)
    launcher = open_serial_launcher(profile, "fake-serial", sim=sim)
    board, machine = launcher.board, launcher.simulator
    assert isinstance(board, FakeBoard) and machine is not None
    watch = _Watch()
    board.tap = watch.on_frame
    original = board.app.receive
    board.app.receive = lambda data: (watch.on_command(data), original(data))
    latencies, refused = [], 0
    try:
        with PressRunner(launcher, ScriptedPolicy([1] * presses)) as runner:
            while len(latencies) < presses:
                watch.reset()
                machine.hold_button()
                outcome = runner.outcomes.get(timeout=10)
                if watch.acked.is_set():
                    latencies.append(watch.latency)
                elif outcome.refused and refused < presses:
                    # a fault from the run before (cards twenty times faster than real ones
                    # stretch into "jams" when a busy machine delays the simulator): clear it
                    refused += 1
                    launcher.clear_fault()
                else:
                    raise RuntimeError(f"no EJECT acknowledged after a press: {outcome}")
                machine.release_button()
                time.sleep(0.03)  # the release reaches the host, past the debounce lock-out
    finally:
        launcher.close()
    return latency_line(
        "serial.press_to_motor_p99", latencies, presses=presses, refused=refused, target="< 10"
    )


def cable_pull(pulls: int = PULLS) -> dict[str, Any]:
    profile = load_pin_profile("hbridge")
    launcher = open_serial_launcher(profile, "fake-serial", sim=SimOptions(cards_per_second=2.0))
    settled: list[Settlement] = []
    launcher.add_settlement_consumer(settled.append)
    try:
        trials = [_pull_once(launcher, settled) for _ in range(pulls)]
    finally:
        launcher.close()
    line = latency_line("serial.cable_pull_to_return_p99", [t for t, _ in trials], pulls=pulls)
    return line | {"settled_exact": sum(ok for _, ok in trials) / pulls}


def _pull_once(launcher: Any, settled: list[Settlement]) -> tuple[float, bool]:
    """Pull the cable mid-eject: ms until eject() returned, and whether it settled exactly."""
    board, machine = launcher.board, launcher.simulator
    before, count = machine.cards_out, len(settled)
    done = threading.Event()
    threading.Thread(target=lambda: (launcher.eject(8), done.set()), daemon=True).start()
    _wait(lambda: machine.cards_out > before)
    pulled = time.perf_counter()
    board.disconnect()
    if not done.wait(10.0):
        raise RuntimeError("the eject waited for the pulled cable")
    latency = (time.perf_counter() - pulled) * 1e3
    _wait(lambda: board.app.ejector.phase == 0 and machine.speed == 0)  # host-silence stop
    board.reconnect()
    _wait(lambda: len(settled) > count)
    _wait(lambda: launcher.fault is None)
    return latency, settled[-1].ejected == machine.cards_out - before


def _wait(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise RuntimeError("the fake board did not get there in time")
        time.sleep(0.005)


def run() -> Iterator[dict[str, Any]]:
    yield roundtrip()
    yield press_to_motor()
    yield cable_pull()
