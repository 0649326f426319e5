"""Building the board's parts from a pin map and a `machine` module (the real one on the Pico,
a fake one in tests and in the fake board). Nothing here runs a motor."""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

from uno_beam import Beam
from uno_lights import Lights
from uno_motor import build_motor, check_pwm_hz, pwm_line
from uno_switch import Switch


def safe_lines(machine: Any, pins: dict[str, Any]) -> None:
    """Drive every motor line low at once: the first thing the board does at boot."""
    for role in ("forward", "backward", "enable", "phase", "pin"):
        gpio = pins.get(role)
        if gpio is not None:
            machine.Pin(gpio, machine.Pin.OUT, value=0)


class Hardware:
    """Motor, beam, button, lid and lights on the pins of `pins` (see uno_board.PINS)."""

    def __init__(self, machine: Any, pins: dict[str, Any], clock: Any) -> None:
        self._machine = machine
        hz = check_pwm_hz(pins.get("pwm_hz", 20000))  # refused before any line is a PWM
        off, on = machine.disable_irq, machine.enable_irq
        self.motor = build_motor(machine, pins, hz)
        edges = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
        beam_pin = _input(machine, pins["beam"])
        self.beam = Beam(beam_pin, clock, off, on, pins.get("beam_blocked", 0))
        beam_pin.irq(handler=self.beam.irq, trigger=edges, hard=True)
        button_pin = _input(machine, pins["button"])
        self.button = Switch(button_pin, clock, off, on, 0, 5)
        button_pin.irq(handler=self.button.irq, trigger=edges, hard=True)
        self.lid = None
        if pins.get("lid") is not None:
            lid_pin = _input(machine, pins["lid"])
            self.lid = Switch(lid_pin, clock, off, on, pins.get("lid_open", 1), 20)
            lid_pin.irq(handler=self.lid.irq, trigger=edges, hard=True)
        self.lights = _lights(machine, pins, hz)

    def safe(self) -> None:
        """Motor off, driver asleep, lights off."""
        self.motor.disable()
        if self.lights is not None:
            self.lights.off()


def _input(machine: Any, gpio: int) -> Any:
    return machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)


def _lights(machine: Any, pins: dict[str, Any], hz: int) -> Lights | None:
    rgb = None
    if pins.get("red") is not None:
        rgb = tuple(pwm_line(machine, pins[c], 1000) for c in ("red", "green", "blue"))
    button = None
    if pins.get("button_led") is not None:
        button = pwm_line(machine, pins["button_led"], 1000)
    if rgb is None and button is None:
        return None
    return Lights(rgb, button, bool(pins.get("rgb_active_high", 1)))
