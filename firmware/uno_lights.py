"""The lights the host may ask for with ``SHOW``: the RGB LED (the active colour) and the LED
behind the button (brighter as the tension rises). Either may be missing."""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

from uno_motor import duty

COLOURS = {
    "red": (1000, 0, 0),
    "yellow": (1000, 600, 0),
    "green": (0, 1000, 0),
    "blue": (0, 0, 1000),
    "none": (0, 0, 0),
}


class Lights:
    """`rgb` is ``(red, green, blue)`` PWMs or None; `button` a PWM or None."""

    def __init__(self, rgb: Any = None, button: Any = None, active_high: bool = True) -> None:
        self._rgb = rgb
        self._button = button
        self._active_high = active_high
        self.off()

    def show(self, colour: str | None, tension: int = -1) -> None:
        """Show `colour` (a name in `COLOURS`; None keeps the current one) and the tension in
        per mille on the button LED (-1 keeps it). An unknown colour raises ValueError."""
        if colour is not None:
            if colour not in COLOURS:
                raise ValueError("unknown colour " + colour)
            if self._rgb is not None:
                levels = COLOURS[colour]
                for i in range(3):  # no zip(strict=...) in MicroPython
                    level = levels[i] if self._active_high else 1000 - levels[i]
                    self._rgb[i].duty_u16(duty(level))
        if tension >= 0 and self._button is not None:
            self._button.duty_u16(duty(100 + tension * 9 // 10))

    def off(self) -> None:
        if self._rgb is not None:
            for pwm in self._rgb:
                pwm.duty_u16(0 if self._active_high else duty(1000))
        if self._button is not None:
            self._button.duty_u16(0)
