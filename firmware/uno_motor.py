"""The feed motor behind its driver chip, on PWM outputs the caller builds.

Drivers, as the host's table declares them (controller/launcher/drivers.py; tests/firmware
checks this module agrees): ``hbridge`` (DRV8833 / TB6612: a PWM line per direction and an
optional enable line), ``phase_enable`` (DRV8838: PWM on ENABLE, direction on PHASE) and
``mosfet`` (one PWM gate; no reverse, so no retract). Speeds are per mille (0-1000): the board
avoids floats in its control loop. `off()` drives every line low, the state the pull-down
resistors also hold when the board is reset or unpowered.

`brake()` shorts the motor's windings through the driver (both inputs high on an H-bridge,
ENABLE low on a phase/enable driver), so it stops in a few ms instead of coasting; the ejector
brakes before it reverses, so the bridge never slams a spinning motor into reverse (a current
spike of about twice the stall current). `max_duty` caps every speed: a stalled N20 draws its
stall current at full duty, which the driver must survive (see hardware/PICO.md).
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

FULL = 65535
PWM_HZ = (100, 100000)  # PWM frequencies the board accepts for the motor driver


def check_pwm_hz(hz: int) -> int:
    """`hz` if the driver and the RP2040 can use it, else ValueError. Below 100 Hz the motor
    jerks; above 100 kHz the DRV8833/TB6612 lose their edges in switching time (and the RP2040's
    duty resolution falls to under 1,250 steps at its 125 MHz clock)."""
    if not isinstance(hz, int) or not PWM_HZ[0] <= hz <= PWM_HZ[1]:
        raise ValueError("pwm_hz must be an integer %d..%d, not %s" % (PWM_HZ[0], PWM_HZ[1], hz))
    return hz


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
        self.braking = False
        self.max_duty = 1000  # per mille: every speed is capped to this
        self.off()
        self.disable()

    @property
    def can_reverse(self) -> bool:
        return self.driver != "mosfet"

    def forward(self, permille: int) -> None:
        self._drive(max(0, min(self.max_duty, permille)))

    def backward(self, permille: int) -> None:
        if not self.can_reverse:
            self.off()
            return
        self._drive(-max(0, min(self.max_duty, permille)))

    def off(self) -> None:
        """Every driver input low: the motor coasts to a stop (allocation-free: the beam's
        interrupt may call it)."""
        self._a.duty_u16(0)
        if self._b is not None:
            self._b.duty_u16(0)
        if self._phase is not None:
            self._phase.value(0)
        self.speed = 0
        self.braking = False

    def brake(self) -> None:
        """Stop now: short the windings (hbridge: both inputs high; phase_enable: ENABLE low).
        A MOSFET cannot brake: it coasts. Allocation-free. End with `off()` or a new speed."""
        if self.driver == "hbridge" and self.enabled:
            self._a.duty_u16(FULL)
            self._b.duty_u16(FULL)
            self.speed = 0
            self.braking = True
        else:
            self.off()

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
        self.braking = False
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


def pwm_line(machine: Any, gpio: int, hz: int) -> Any:
    """A PWM output at `hz`, low."""
    pwm = machine.PWM(machine.Pin(gpio, machine.Pin.OUT, value=0))
    pwm.freq(hz)
    pwm.duty_u16(0)
    return pwm


def _output(machine: Any, gpio: int) -> Any:
    return machine.Pin(gpio, machine.Pin.OUT, value=0)


def build_motor(machine: Any, pins: dict[str, Any], hz: int) -> Motor:
    """The `Motor` on the lines `pins` names for its driver, every line low."""
    driver = pins["driver"]
    if driver == "hbridge":
        enable = _output(machine, pins["enable"]) if pins.get("enable") is not None else None
        return Motor(
            driver,
            pwm_line(machine, pins["forward"], hz),
            pwm_line(machine, pins["backward"], hz),
            enable=enable,
        )
    if driver == "phase_enable":
        pwm = pwm_line(machine, pins["enable"], hz)
        return Motor(driver, pwm, phase=_output(machine, pins["phase"]))
    return Motor(driver, pwm_line(machine, pins["pin"], hz))
