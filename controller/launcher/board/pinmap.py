"""A pin profile as the board's pin map (``firmware/uno_board.py``'s format).

The fake board wires its firmware to a profile's pins this way, and ``make firmware-deploy``
writes the same map to the Pico as ``board.json``, so one TOML file describes a build whichever
computer drives its motor.
"""

from __future__ import annotations

from typing import Any

from controller.launcher.board.firmware import make_importable
from controller.launcher.pins import PinProfile

make_importable()
from uno_motor import check_pwm_hz  # noqa: E402  (the board's own limits)


def board_pins(profile: PinProfile) -> dict[str, Any]:
    """The firmware's pin map for `profile` (only the parts the board drives). Raises
    ValueError for a PWM frequency the board refuses (it would not start its motor)."""
    pins: dict[str, Any] = {"driver": profile.motor.driver}
    pins.update(dict(profile.motor.lines))
    try:
        pins["pwm_hz"] = check_pwm_hz(profile.motor.pwm_frequency)
    except ValueError as error:
        raise ValueError(f"pin profile {profile.name!r}, [motor] pwm_frequency: {error}") from None
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
