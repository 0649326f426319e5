"""A pin profile as the board's pin map (``firmware/uno_board.py``'s format).

The fake board wires its firmware to a profile's pins this way, and ``make firmware-deploy``
writes the same map to the Pico as ``board.json``, so one TOML file describes a build whichever
computer drives its motor.
"""

from __future__ import annotations

from typing import Any

from controller.launcher.pins import PinProfile


def board_pins(profile: PinProfile) -> dict[str, Any]:
    """The firmware's pin map for `profile` (only the parts the board drives)."""
    pins: dict[str, Any] = {"driver": profile.motor.driver}
    pins.update(dict(profile.motor.lines))
    pins["pwm_hz"] = 20_000
    pins["button"] = profile.button.pin
    pins["beam"] = profile.beam.pin
    pins["beam_blocked"] = 0 if profile.beam.blocked == "low" else 1
    pins["lid"] = profile.lid.pin if profile.lid is not None else None
    pins["lid_open"] = 1 if profile.lid is None or profile.lid.open == "high" else 0
    pins["button_led"] = profile.button_led.pin if profile.button_led is not None else None
    rgb = profile.rgb_led
    for colour in ("red", "green", "blue"):
        pins[colour] = getattr(rgb, colour) if rgb is not None else None
    pins["rgb_active_high"] = 1 if rgb is None or rgb.active_high else 0
    return pins
