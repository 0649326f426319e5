"""The launcher: feed motor, UNO button, card sensor and lights.

The table service needs only what is exported here:

* `open_launcher(profile, backend=...)` → `Launcher` (real pins on a Pi, the simulator elsewhere);
* `Launcher.add_press_consumer`, `add_status_consumer`, `add_settlement_consumer` (a finished
  run's count corrected: a `Settlement`), `eject`, `deal`, `suspense`, `show_colour`,
  `show_tension`, `status`, `fault`, `clear_fault`, `stop`, `close`, and `simulator` (the
  `SimulatedLauncher` on a simulated launcher's pins, None on real hardware);
* `handle_press` (press → policy → suspense → eject); the policy itself is `controller.policy`,
  pure and outside this hardware layer.
"""

from controller.launcher.buttons import ButtonEvent
from controller.launcher.ejector import EjectResult
from controller.launcher.errors import (
    BackendUnavailable,
    LauncherBusy,
    LauncherClosed,
    LauncherError,
    LauncherFault,
    PinProfileError,
)
from controller.launcher.factory import open_launcher, resolve_backend
from controller.launcher.late_cards import Settlement
from controller.launcher.launcher import Fault, Launcher, LauncherStatus
from controller.launcher.pins import PinProfile, load_pin_profile
from controller.launcher.runner import PressOutcome, PressRunner, handle_press
from controller.launcher.sim import SimOptions, SimulatedLauncher

__all__ = [
    "BackendUnavailable",
    "ButtonEvent",
    "EjectResult",
    "Fault",
    "Launcher",
    "LauncherBusy",
    "LauncherClosed",
    "LauncherError",
    "LauncherFault",
    "LauncherStatus",
    "PinProfile",
    "PinProfileError",
    "PressOutcome",
    "PressRunner",
    "Settlement",
    "SimOptions",
    "SimulatedLauncher",
    "handle_press",
    "load_pin_profile",
    "open_launcher",
    "resolve_backend",
]
