"""Fixtures for the launcher tests: explicit mock pins, simulated launchers, event helpers.

Every test gets fresh mock pins set explicitly as gpiozero's factory (never its fallback), reset
afterwards. Waits use events with generous timeouts and no test asserts on latency: these
machines are shared and noisy.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.launcher import Launcher, PinProfile, SimOptions, open_launcher

from .helpers import SCALE, fast_profile

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


@pytest.fixture(autouse=True)
def mock_factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()


@pytest.fixture
def make_launcher(mock_factory: MockFactory) -> Iterator[Callable[..., Launcher]]:
    """Open simulated launchers on the test's mock pins; all are closed afterwards."""
    opened: list[Launcher] = []

    def make(profile: PinProfile | None = None, **sim: Any) -> Launcher:
        options = SimOptions(**{"time_scale": SCALE, **sim})
        launcher = open_launcher(
            profile or fast_profile(), backend="sim", pin_factory=mock_factory, sim=options
        )
        opened.append(launcher)
        return launcher

    yield make
    for launcher in opened:
        launcher.close()
