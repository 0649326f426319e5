"""The feed motor behind its driver chip, on PWM outputs the caller builds.

Drivers (as in the Pi's pin profiles): ``hbridge`` (DRV8833 / TB6612: a PWM line per direction
and an optional enable line), ``phase_enable`` (DRV8838: PWM on ENABLE, direction on PHASE) and
``mosfet`` (one PWM gate; no reverse, so no retract). Speeds are per mille (0-1000): the board
avoids floats in its control loop. `off()` drives every line low, the state the pull-down
resistors also hold when the board is reset or unpowered.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

FULL = 65535


def duty(permille: int) -> int:
    """A PWM duty (0-65535) for a speed in per mille, clamped."""
    if permille <= 0:
        return 0
    if permille >= 1000:
        return FULL
    return permille * FULL // 1000


class Motor:
    """Forward, backward, off. `pwm_a` is the forward (hbridge), enable (phase_enable) or gate
    (mosfet) PWM; `pwm_b` the backward PWM (hbridge only); `phase` the direction pin
    (phase_enable only); `enable` the driver's sleep/standby pin, if wired."""

    def __init__(
        self,
        driver: str,
        pwm_a: Any,
        pwm_b: Any = None,
        phase: Any = None,
        enable: Any = None,
    ) -> None:
        if driver not in ("hbridge", "phase_enable", "mosfet"):
            raise ValueError("unknown driver " + driver)
        if driver == "hbridge" and pwm_b is None:
            raise ValueError("an hbridge needs a backward line")
        if driver == "phase_enable" and phase is None:
            raise ValueError("a phase_enable driver needs a phase line")
        self.driver = driver
        self._a = pwm_a
        self._b = pwm_b
        self._phase = phase
        self._enable = enable
        self.speed = 0  # signed per mille: what the lines say now
        self.enabled = False
        self.off()
        self.disable()

    @property
    def can_reverse(self) -> bool:
        return self.driver != "mosfet"

    def forward(self, permille: int) -> None:
        self._drive(max(0, min(1000, permille)))

    def backward(self, permille: int) -> None:
        if not self.can_reverse:
            self.off()
            return
        self._drive(-max(0, min(1000, permille)))

    def off(self) -> None:
        """Every driver input low: the motor coasts to a stop."""
        self._a.duty_u16(0)
        if self._b is not None:
            self._b.duty_u16(0)
        if self._phase is not None:
            self._phase.value(0)
        self.speed = 0

    def enable(self) -> None:
        """Wake the driver (nSLEEP / STBY high), if its enable line is wired."""
        if self._enable is not None:
            self._enable.value(1)
        self.enabled = True

    def disable(self) -> None:
        """Motor off and the driver asleep."""
        self.off()
        if self._enable is not None:
            self._enable.value(0)
        self.enabled = False

    def _drive(self, speed: int) -> None:
        if speed != 0 and not self.enabled:
            speed = 0  # a sleeping driver never runs the motor
        if self.driver == "hbridge":
            forward, backward = (speed, 0) if speed >= 0 else (0, -speed)
            # the falling side first, so both inputs are never high together
            if speed >= 0:
                self._b.duty_u16(0)
                self._a.duty_u16(duty(forward))
            else:
                self._a.duty_u16(0)
                self._b.duty_u16(duty(backward))
        elif self.driver == "phase_enable":
            self._a.duty_u16(0)
            self._phase.value(1 if speed < 0 else 0)
            self._a.duty_u16(duty(abs(speed)))
        else:
            self._a.duty_u16(duty(speed))
        self.speed = speed
