"""Opening a launcher on real pins or on the simulator.

`open_launcher(profile, backend=...)`:

* ``"gpio"``: real pins through gpiozero's lgpio factory (the only one that works on every Pi,
  including the Pi 5), or through the `pin_factory` you pass (a jig's mock pins in tests).
* ``"sim"``: a `SimulatedLauncher` on fresh mock pins (or on the `MockFactory` you pass).
* ``"serial"``: a Pico launcher board over USB serial (controller/launcher/board/, firmware/);
  ``port`` names the port, else ``$UNO_ATTACK_SERIAL_PORT``, ``/dev/uno-launcher`` or the Pico's
  USB id.
* ``"fake-serial"``: the same serial code against a fake board (the real firmware on the
  simulator, behind a pty); with `pin_factory`, the board's pins are those mock pins.
* ``"auto"`` (default): ``$UNO_ATTACK_BACKEND`` if set, else ``gpio`` on a Raspberry Pi and ``sim``
  anywhere else, so the product runs on any machine. gpiozero's own fallback is never used.

lgpio is imported only when the gpio backend is opened, never on a PC and never by the tests.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Literal

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.launcher.ejector import Clock
from controller.launcher.errors import BackendUnavailable
from controller.launcher.launcher import Launcher
from controller.launcher.pins import PinProfile, load_pin_profile
from controller.launcher.sim import SimOptions, SimulatedLauncher

Backend = Literal["auto", "gpio", "sim", "serial", "fake-serial"]
Resolved = Literal["gpio", "sim", "serial", "fake-serial"]
BACKENDS = ("auto", "gpio", "sim", "serial", "fake-serial")
_RESOLVED: dict[str, Resolved] = {
    "gpio": "gpio",
    "sim": "sim",
    "serial": "serial",
    "fake-serial": "fake-serial",
}


def on_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    """True on a Raspberry Pi (the device tree names the board)."""
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False


def resolve_backend(backend: str) -> Resolved:
    """Turn ``auto`` into ``gpio`` or ``sim``; reject anything unknown."""
    if backend == "auto":
        backend = os.environ.get("UNO_ATTACK_BACKEND", "auto")
        if backend == "auto":
            return "gpio" if on_raspberry_pi() else "sim"
    if backend in _RESOLVED:
        return _RESOLVED[backend]
    raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")


def gpio_pin_factory() -> Any:
    """gpiozero's lgpio pin factory, or a clear error where it cannot work."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as error:
        raise BackendUnavailable(
            f"the gpio backend needs lgpio ({error}); install the 'pi' extra on a Raspberry Pi, "
            "or use --backend sim"
        ) from None
    try:
        return LGPIOFactory()
    except Exception as error:
        raise BackendUnavailable(f"cannot open the GPIO chip: {error}") from None


def sim_pin_factory() -> MockFactory:
    """Fresh mock pins with PWM, as the simulator needs."""
    return MockFactory(pin_class=MockPWMPin)


def open_launcher(
    profile: PinProfile | str = "hbridge",
    *,
    backend: Backend | str = "auto",
    pin_factory: Any = None,
    sim: SimOptions | None = None,
    clock: Clock = time.monotonic,
    port: str | None = None,
) -> Launcher:
    """Open the launcher for `profile` (a `PinProfile`, a shipped name, or a path).

    With the simulator, ``launcher.simulator`` is the simulated machine (for demos and tests);
    it is closed with the launcher.
    """
    if not isinstance(profile, PinProfile):
        profile = load_pin_profile(profile)
    resolved = resolve_backend(backend)
    if resolved in ("serial", "fake-serial"):
        from controller.launcher.board import open_serial_launcher

        return open_serial_launcher(
            profile, resolved, port=port, pin_factory=pin_factory, sim=sim, clock=clock
        )
    if resolved == "gpio":
        factory = pin_factory if pin_factory is not None else gpio_pin_factory()
        return Launcher(profile, pin_factory=factory, clock=clock)
    factory = pin_factory if pin_factory is not None else sim_pin_factory()
    if not isinstance(factory, MockFactory):
        raise ValueError("the sim backend needs a MockFactory")
    machine = SimulatedLauncher(profile, pin_factory=factory, options=sim, clock=clock)
    try:
        launcher = Launcher(profile, pin_factory=factory, clock=clock)
    except BaseException:
        machine.close()
        raise
    launcher.simulator = machine
    launcher.add_closer(machine.close)
    return launcher
