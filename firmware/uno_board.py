"""This board's wiring: which Pico GPIO does what. Matches ``hardware/pico.toml`` and
``hardware/PICO.md`` (a test checks they agree).

``make firmware-deploy`` may also copy a ``board.json`` generated from a pin profile; when it is
present its keys replace these defaults, so a builder who wired differently changes the profile
on the Pi, not this file.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

PINS: dict[str, Any] = {
    "driver": "hbridge",  # hbridge | phase_enable | mosfet
    "forward": 14,  # DRV8833 AIN1 (PWM slice 7A)
    "backward": 15,  # DRV8833 AIN2 (PWM slice 7B)
    "enable": 13,  # DRV8833 nSLEEP (a PWM line on a phase_enable driver)
    "button": 6,  # UNO button to GND, internal pull-up
    "beam": 7,  # IR break-beam receiver, internal pull-up
    "beam_blocked": 0,  # the level the beam pin reads when a card blocks it
    "lid": 8,  # lid switch to GND, internal pull-up
    "lid_open": 1,  # the level the lid pin reads when the lid is open
    "button_led": 9,  # the LED behind the button (PWM)
    "red": 10,
    "green": 11,
    "blue": 12,
    "rgb_active_high": 1,
    "pwm_hz": 20000,  # above hearing: the motor does not whine
}

MOTOR_LINES = ("forward", "backward", "enable", "phase", "pin")


def load(path: str = "board.json") -> dict[str, Any]:
    """The defaults, overridden by `path` if it exists (a missing or broken file is ignored:
    the board must still boot into a safe state)."""
    pins = dict(PINS)
    try:
        import json

        with open(path) as handle:
            given = json.load(handle)
        if isinstance(given, dict):
            pins.update(given)
    except (OSError, ValueError):
        pass
    return pins
