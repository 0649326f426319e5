"""Choosing the backend: the simulator off a Pi, never gpiozero's fallback, lgpio only on demand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import (
    BackendUnavailable,
    LauncherStatus,
    SimulatedLauncher,
    open_launcher,
    resolve_backend,
)
from controller.launcher.factory import gpio_pin_factory, on_raspberry_pi


def test_factory_auto_is_the_simulator_off_a_pi(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UNO_ATTACK_BACKEND", raising=False)
    monkeypatch.setattr("controller.launcher.factory.on_raspberry_pi", lambda: False)
    assert resolve_backend("auto") == "sim"
    monkeypatch.setattr("controller.launcher.factory.on_raspberry_pi", lambda: True)
    assert resolve_backend("auto") == "gpio"
    monkeypatch.setenv("UNO_ATTACK_BACKEND", "sim")
    assert resolve_backend("auto") == "sim"
    assert resolve_backend("gpio") == "gpio"


def test_factory_unknown_backend() -> None:
    with pytest.raises(ValueError, match="backend must be one of"):
        resolve_backend("pigpio")


def test_factory_detects_a_pi_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi(model)
    model.write_text("QEMU Virtual Machine")
    assert not on_raspberry_pi(model)
    assert not on_raspberry_pi(tmp_path / "missing")


def test_factory_gpio_without_lgpio_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # blocks the import
    with pytest.raises(BackendUnavailable, match="use --backend sim"):
        gpio_pin_factory()


def test_factory_open_sim_by_default_and_close_closes_the_machine() -> None:
    launcher = open_launcher("mosfet", backend="sim")
    machine = launcher.simulator
    assert isinstance(machine, SimulatedLauncher)
    assert launcher.status is LauncherStatus.READY
    launcher.close()
    assert launcher.status is LauncherStatus.CLOSED
    assert not machine._thread.is_alive()


def test_factory_sim_needs_mock_pins(mock_factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="MockFactory"):
        open_launcher("hbridge", backend="sim", pin_factory=object())


def test_factory_simulator_must_come_before_the_launcher(mock_factory: MockFactory) -> None:
    with (
        open_launcher("hbridge", backend="gpio", pin_factory=mock_factory),
        pytest.raises(RuntimeError, match="create the simulator first"),
    ):
        open_launcher("hbridge", backend="sim", pin_factory=mock_factory)
