"""The hardware-in-the-loop suite: one set of tests, three backends.

``mock``: always; the jig's wires are MockConnectedPins. ``fake-serial``: always; the same mock
wires end on a fake launcher board (the real firmware behind a pty), and the launcher under test
is the serial backend talking to it. ``real``: only with ``UNO_HIL=1`` on a
Raspberry Pi wired as hardware/JIG.md says (marked ``hil_real``); skipped elsewhere with the
reason. The pin factory is always set explicitly, never left to gpiozero's fallback.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from gpiozero import Device

from controller.launcher import Launcher, open_launcher
from controller.launcher.board import SerialLauncher
from controller.launcher.factory import on_raspberry_pi

from .jig import Jig, JigWiring, load_jig, mock_jig_factory

REAL_REASON = (
    "real jig: run on a Raspberry Pi wired as hardware/JIG.md with UNO_HIL=1 "
    "(this machine: UNO_HIL={env}, Raspberry Pi={pi})"
)


def real_jig_available() -> tuple[bool, str]:
    env = os.environ.get("UNO_HIL", "")
    pi = on_raspberry_pi()
    return env == "1" and pi, REAL_REASON.format(env=env or "unset", pi="yes" if pi else "no")


@dataclass
class Rig:
    backend: str
    wiring: JigWiring
    factory: Any
    launcher: Launcher
    jig: Jig


def _factory(backend: str, wiring: JigWiring) -> Any:
    if backend in ("mock", "fake-serial"):
        return mock_jig_factory(wiring)
    available, reason = real_jig_available()
    if not available:
        pytest.skip(reason)
    from controller.launcher.factory import gpio_pin_factory  # lgpio, only on the Pi

    return gpio_pin_factory()


def _settle(launcher: Launcher, timeout: float = 10.0) -> None:
    """Wait until the launcher has seen the jig close the lid (its input thread is async)."""
    end = time.monotonic() + timeout
    while launcher.fault is not None and time.monotonic() < end:
        time.sleep(0.005)
    assert launcher.fault is None, f"the launcher did not settle: {launcher.fault}"
    if isinstance(launcher, SerialLauncher):  # the board debounces the lid on its own too
        while launcher.devices.lid_open and time.monotonic() < end:
            time.sleep(0.005)
        assert not launcher.devices.lid_open, "the launcher board still sees the lid open"


@pytest.fixture(params=["mock", "fake-serial", pytest.param("real", marks=pytest.mark.hil_real)])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    wiring = load_jig()
    factory = _factory(request.param, wiring)
    Device.pin_factory = factory
    profile = wiring.profile.with_ejector(first_card_timeout_ms=600.0, card_gap_timeout_ms=600.0)
    profile = profile.with_press(long_press_ms=200.0, stuck_ms=500.0)
    backend = "fake-serial" if request.param == "fake-serial" else "gpio"
    launcher = open_launcher(profile, backend=backend, pin_factory=factory)
    jig = Jig(wiring, pin_factory=factory)
    try:
        _settle(launcher)
        yield Rig(request.param, wiring, factory, launcher, jig)
    finally:
        launcher.close()
        jig.close()
        if request.param != "real":
            factory.reset()
        else:
            factory.close()
