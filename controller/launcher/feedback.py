"""Lights and sounds: the button LED, the RGB LED and the buzzer, played by one worker thread.

Every method only enqueues a pattern, so feedback never delays the motor. The worker sets the
LEDs (gpiozero's own background blink/pulse) and plays chimes step by step, abandoning a chime
as soon as a newer pattern arrives. Like the original toy, the button LED breathes and the
suspense ticks get faster as the policy's *tension* rises. Jam, empty and other faults latch a
blinking display until `clear()`.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

from controller.launcher.devices import LauncherDevices

# RGB values for the four UNO colours (yellow is mixed warm so it does not read as green).
UNO_COLOURS: dict[str, tuple[float, float, float]] = {
    "red": (1.0, 0.0, 0.0),
    "yellow": (1.0, 0.6, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
}

Step = tuple[float | None, float]  # (frequency in Hz or None for silence, seconds)

log = logging.getLogger(__name__)

LOW, HIGH = 230.0, 860.0  # the range a TonalBuzzer with mid_tone A4 and one octave can play


def tick_interval(tension: float) -> float:
    """Seconds between suspense ticks: 0.5 s when calm, 0.08 s just before a forced fire."""
    return 0.5 - 0.42 * _unit(tension)


def _unit(value: float) -> float:
    return min(1.0, max(0.0, float(value)))


def _pitch(tension: float) -> float:
    return 440.0 + 380.0 * _unit(tension)


CHIMES: dict[str, Callable[[float], list[Step]]] = {
    "press": lambda t: [(_pitch(t), 0.04)],
    "suspense": lambda t: [(_pitch(t), 0.03), (None, tick_interval(t))],
    "fire": lambda t: [(523.0, 0.06), (659.0, 0.06), (784.0, 0.14)],
    "jam": lambda t: [(LOW, 0.25), (None, 0.1)] * 3,
    "empty": lambda t: [(392.0, 0.15), (262.0, 0.3)],
    "fault": lambda t: [(LOW, 0.4)],
    "deal": lambda t: [(659.0, 0.05)],
}
REPEATING = {"suspense"}
_FINISHED = ("finished", 0.0)  # compared by identity: a chime played to its end
LATCHING = {"jam", "empty", "fault"}


class Feedback:
    """Feedback patterns on whichever indicator parts are fitted (any may be missing)."""

    def __init__(self, devices: LauncherDevices) -> None:
        self._led = devices.button_led
        self._rgb = devices.rgb_led
        self._buzzer = devices.buzzer
        self._queue: queue.SimpleQueue[tuple[str, float] | None] = queue.SimpleQueue()
        self.colour: str | None = None
        self.tension = 0.0
        self.latched: str | None = None
        self._thread = threading.Thread(target=self._run, name="launcher-feedback", daemon=True)
        self._thread.start()

    # --- what the launcher calls (all non-blocking) ---

    def play(self, pattern: str, tension: float | None = None) -> None:
        """Play ``press``, ``suspense``, ``fire``, ``jam``, ``empty``, ``fault`` or ``deal``."""
        if pattern not in CHIMES:
            raise ValueError(f"unknown feedback pattern {pattern!r}")
        self._queue.put((pattern, self.tension if tension is None else _unit(tension)))

    def show_tension(self, tension: float) -> None:
        """The idle display breathes faster as tension rises."""
        self._queue.put(("tension", _unit(tension)))

    def show_colour(self, colour: str | None) -> None:
        """Show the active colour on the RGB LED (``None``: off)."""
        if colour is not None and colour not in UNO_COLOURS:
            raise ValueError(f"colour must be one of {', '.join(UNO_COLOURS)} or None")
        self._queue.put(("colour:" + (colour or ""), 0.0))

    def clear(self) -> None:
        """Leave a latched fault display and return to the idle display."""
        self._queue.put(("clear", 0.0))

    def close(self) -> None:
        self._queue.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)

    # --- the worker ---

    def _run(self) -> None:
        item: tuple[str, float] | None = ("clear", 0.0)
        while item is not None:
            try:
                item = self._handle(*item)
            except Exception:  # lights must never take the launcher down
                log.exception("feedback pattern %r failed", item)
                item = self._queue.get()
        self._silence()

    def _handle(self, name: str, value: float) -> tuple[str, float] | None:
        """Apply one item; return the next one (it may interrupt a chime)."""
        if name == "tension":
            self.tension = value
        elif name.startswith("colour:"):
            self.colour = name.split(":", 1)[1] or None
        elif name == "clear":
            self.latched = None
        else:
            return self._pattern(name, value)
        self._idle_display()
        return self._queue.get()

    def _pattern(self, name: str, tension: float) -> tuple[str, float] | None:
        if name in LATCHING:
            self.latched = name
        self._lights(name, tension)
        steps = CHIMES[name](tension)
        after = self._chime(steps)
        while after is _FINISHED and name in REPEATING:
            after = self._chime(steps)
        if after is _FINISHED:
            self._idle_display()
            return self._queue.get()
        return after

    def _chime(self, steps: list[Step]) -> tuple[str, float] | None:
        """Play steps; return the item that interrupted them, or `_FINISHED`."""
        for frequency, seconds in steps:
            self._sound(frequency)
            try:
                item = self._queue.get(timeout=seconds)
            except queue.Empty:
                continue
            self._silence()
            return item
        self._silence()
        return _FINISHED

    def _sound(self, frequency: float | None) -> None:
        buzzer = self._buzzer
        if buzzer is None:
            return
        if frequency is None:
            buzzer.off() if not isinstance(buzzer, TonalBuzzer) else buzzer.stop()
        elif isinstance(buzzer, TonalBuzzer):
            buzzer.play(Tone(frequency=min(HIGH, max(LOW, frequency))))
        else:
            buzzer.on()

    def _silence(self) -> None:
        self._sound(None)

    def _lights(self, name: str, tension: float) -> None:
        led, rgb = self._led, self._rgb
        if name == "suspense" and led is not None:
            half = tick_interval(tension) / 2
            led.blink(on_time=half, off_time=half)
        elif name in ("press", "fire", "deal") and led is not None:
            led.on()
        if name == "fire" and rgb is not None:
            rgb.blink(
                on_time=0.05, off_time=0.05, on_color=(1, 1, 1), off_color=self._rgb_colour(), n=3
            )
        if name in LATCHING:
            self._fault_display(name)

    def _fault_display(self, name: str) -> None:
        period = 0.5 if name == "empty" else 0.1
        if self._led is not None:
            self._led.blink(on_time=period, off_time=period)
        if self._rgb is not None:
            self._rgb.blink(
                on_time=period, off_time=period, on_color=(1, 0, 0), off_color=(0, 0, 0)
            )

    def _idle_display(self) -> None:
        if self.latched is not None:
            self._fault_display(self.latched)
            return
        if self._led is not None:
            fade = 1.2 - 1.0 * self.tension
            self._led.pulse(fade_in_time=fade, fade_out_time=fade)
        if self._rgb is not None:
            self._rgb.color = self._rgb_colour()

    def _rgb_colour(self) -> tuple[float, float, float]:
        return UNO_COLOURS.get(self.colour or "", (0.0, 0.0, 0.0))


def describe(devices: Any) -> list[str]:
    """Which indicator parts are fitted, for reports."""
    names = (("button_led", "button LED"), ("rgb_led", "RGB LED"), ("buzzer", "buzzer"))
    return [label for attr, label in names if getattr(devices, attr, None) is not None]
