"""The hardware-in-the-loop suite: one set of tests, three backends.

``mock``: always; the jig's wires are MockConnectedPins. ``fake-serial``: always; the same mock
wires end on a fake launcher board (the real firmware behind a pty), and the launcher under test
is the serial backend talking to it. ``real``: only with ``UNO_HIL=1`` on a
Raspberry Pi wired as hardware/JIG.md says (marked ``hil_real``); skipped elsewhere with the
reason. The pin factory is always set explicitly, never left to gpiozero's fallback.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from gpiozero import Device

from controller.launcher import Launcher, PinProfile, open_launcher
from controller.launcher.board import SerialLauncher
from controller.launcher.factory import on_raspberry_pi
from controller.launcher.pins import Calibration
from tests.waiting import wait_until

from .jig import Jig, JigWiring, load_jig, mock_jig_factory

JIG_CARD_MS = 100.0  # the card generator's pulse (tests/hil/feeder.py)

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


def jig_profile(wiring: JigWiring) -> PinProfile:
    """The launcher's profile against the jig's cards: they cross the beam in `JIG_CARD_MS` at
    any duty (the jig is not a motor), so the run has no soft start and no slower last card,
    and one card is calibrated to the jig's pulse (so a longer pulse is a double)."""
    profile = wiring.profile
    speed = profile.ejector.speed
    profile = profile.with_ejector(
        first_card_timeout_ms=600.0,
        card_gap_timeout_ms=600.0,
        soft_start_ms=0.0,
        last_card_speed=speed,
    )
    jig_card = Calibration(
        speed=speed,
        samples=1,
        cards_per_second=round(1 / 0.18, 2),
        pulse_ms_min=JIG_CARD_MS,
        pulse_ms_median=JIG_CARD_MS,
        pulse_ms_max=JIG_CARD_MS,
        gap_ms_median=80.0,
    )
    profile = replace(profile, calibration=jig_card)
    return profile.with_press(long_press_ms=200.0, stuck_ms=500.0)


def _settle(launcher: Launcher) -> None:
    """Wait until the launcher has seen the jig close the lid (its input thread is async)."""
    wait_until(lambda: launcher.fault is None, "the launcher settled")
    if isinstance(launcher, SerialLauncher):  # the board debounces the lid on its own too
        wait_until(lambda: not launcher.devices.lid_open, "the launcher board sees the lid shut")


@pytest.fixture(params=["mock", "fake-serial", pytest.param("real", marks=pytest.mark.hil_real)])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    wiring = load_jig()
    factory = _factory(request.param, wiring)
    Device.pin_factory = factory
    profile = jig_profile(wiring)
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
