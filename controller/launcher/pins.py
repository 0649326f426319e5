"""Pin profiles: which launcher parts are fitted on which GPIO pins, and how the ejector is tuned.

One profile per physical build lives in ``hardware/<name>.toml`` (see ``hardware/README.md`` for
the wiring). A profile is validated when it is loaded: unknown keys, missing keys, pins that do
not exist on the 40-pin header and pins used twice are all errors naming ``section.key``.

Sections: ``[motor]``, ``[button]``, ``[beam]`` (required); ``[button_led]``, ``[rgb_led]``,
``[buzzer]``, ``[lid]`` (optional: leave a section out when the part is not fitted);
``[ejector]`` and ``[press]`` (tuning, with defaults); ``[calibration]`` (written by
``uno-attack calibrate``). Pin numbers are BCM GPIO numbers.

The feed wheel's speed (``[motor] wheel_rpm`` and ``wheel_mm``) and the motor's physics
(``dead_zone``, ``time_constant_ms``, ``coast_ms``, ``sag``: `MotorPins`) fix how long a card
blocks the beam at each duty: a profile file that leaves out ``min_pulse_ms`` or
``max_pulse_ms`` gets them from it (`derived_window`), a file that sets them is checked against
it (`check_against_wheel`), and the simulator moves its cards that way (`wheel.Wheel`).
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from controller.launcher.drivers import DRIVERS, ROLES, DriverName
from controller.launcher.errors import PinProfileError
from controller.sections import PIN, Section, build_section, dump_section, toml_value
from controller.shipped import shipped

UNIT = {"gt": 0.0, "le": 1.0}
MS = {"ge": 0.0, "le": 60_000.0}
POSITIVE_MS = {"gt": 0.0, "le": 60_000.0}


CARD_MM = 87.0  # an UNO card is 56 x 87 mm and leaves the launcher long side first
# BCM GPIO 0-8 come out of reset with their pull-up on; 9-27 with their pull-down. A motor line
# on a pulled-up pin would run (or enable) the driver from power-on until the service starts.
BOOT_PULL_UP = range(0, 9)
LGPIO_MAX_PWM_HZ = 10_000  # lgpio's software PWM is a thread: it cannot toggle much faster


class PinSection(Section):
    """A section of a pin profile: its errors are `PinProfileError`s."""

    ERROR = PinProfileError


@dataclass(frozen=True)
class MotorPins(PinSection):
    """The feed motor's driver and its input lines.

    ``hbridge``: DRV8833 / TB6612 / L293D / L298N, ``forward`` and ``backward`` inputs and an
    optional ``enable`` (nSLEEP / STBY / EN). ``phase_enable``: PHASE/ENABLE drivers (DRV8838,
    DRV8835 in PH/EN mode). ``mosfet``: one logic-level MOSFET on ``pin``; it cannot reverse,
    so there is no retract. Every line needs a pull-down resistor (see hardware/README.md) and
    must be on a GPIO that is pulled down at boot (9-27), so the motor stays off from power-on.

    ``wheel_rpm`` (the wheel's speed at full duty, under load with a few cards in the hopper)
    and ``wheel_mm`` (its diameter) say how fast a card leaves: at full duty the surface moves
    ``pi * wheel_mm * wheel_rpm / 60`` mm/s. ``stall_current_a`` (the motor's stall current at
    the supply voltage) against ``driver_current_a`` (the driver's continuous rating per
    channel) caps the duty: a stalled motor at duty ``d`` draws about ``d * stall_current_a``.

    A real motor is not linear (`wheel.Wheel` is the model; hardware/README.md, "Measuring the
    motor", says how to measure each number once on the bench; ``uno-attack calibrate``
    measures the dead zone and the time constant again, from the cards, and writes them here):
    ``dead_zone`` is the lowest duty that moves a card (at duty ``d`` the wheel turns at
    ``(d - dead_zone) / (1 - dead_zone)`` of its full-duty speed), ``time_constant_ms`` how
    fast it follows a change of duty (63 % of the way in that time), ``coast_ms`` how long it
    takes to stop from full speed with the driver off, ``sag`` the fraction of its speed lost
    with a full hopper (or a weak supply). The defaults are an ideal motor.
    """

    SECTION = "motor"
    driver: DriverName
    forward: int | None = field(default=None, metadata=PIN)
    backward: int | None = field(default=None, metadata=PIN)
    enable: int | None = field(default=None, metadata=PIN)
    phase: int | None = field(default=None, metadata=PIN)
    pin: int | None = field(default=None, metadata=PIN)
    pwm: bool = True
    pwm_frequency: int = field(default=500, metadata={"ge": 10, "le": 20_000})
    wheel_rpm: float = field(default=300.0, metadata={"gt": 0.0, "le": 20_000.0})
    wheel_mm: float = field(default=35.0, metadata={"gt": 0.0, "le": 500.0})
    stall_current_a: float = field(default=1.6, metadata={"gt": 0.0, "le": 50.0})
    driver_current_a: float = field(default=1.5, metadata={"gt": 0.0, "le": 50.0})
    dead_zone: float = field(default=0.0, metadata={"ge": 0.0, "le": 0.9})
    time_constant_ms: float = field(default=0.0, metadata={"ge": 0.0, "le": 2000.0})
    coast_ms: float = field(default=0.0, metadata={"ge": 0.0, "le": 10_000.0})
    sag: float = field(default=0.0, metadata={"ge": 0.0, "le": 0.9})

    def check(self) -> None:
        kind = DRIVERS[self.driver]
        for role in kind.lines:
            if getattr(self, role) is None:
                raise self.error(role, f"required by driver {self.driver!r}")
        for role in ROLES:
            if role not in kind.roles and getattr(self, role) is not None:
                raise self.error(role, f"not used by driver {self.driver!r}")
        for role, gpio in self.lines:
            if gpio in BOOT_PULL_UP:
                raise self.error(
                    role,
                    f"GPIO {gpio} is pulled up at boot (GPIO 0-8 are), which drives the motor "
                    "driver until the service starts: use a GPIO from 9 to 27",
                )

    @property
    def lines(self) -> tuple[tuple[str, int], ...]:
        """``(role, gpio)`` for every motor line, in a fixed order."""
        return tuple((r, getattr(self, r)) for r in ROLES if getattr(self, r) is not None)

    @property
    def can_reverse(self) -> bool:
        return DRIVERS[self.driver].can_reverse

    @property
    def max_duty(self) -> float:
        """The highest duty whose stall current the driver can carry."""
        return min(1.0, self.driver_current_a / self.stall_current_a)

    @property
    def surface_mm_s(self) -> float:
        """The wheel's surface speed at full duty, in mm/s."""
        return math.pi * self.wheel_mm * self.wheel_rpm / 60.0

    def steady(self, duty: float) -> float:
        """The wheel's steady speed at `duty`, as a fraction of its full-duty speed (0 at or
        below the dead zone)."""
        if duty <= self.dead_zone:
            return 0.0
        return (min(duty, 1.0) - self.dead_zone) / (1 - self.dead_zone)

    def card_ms(self, duty: float) -> float:
        """How long one card blocks the beam at `duty` (the card's speed is the wheel's;
        inf at or below the dead zone)."""
        speed = self.steady(duty)
        return CARD_MM / (self.surface_mm_s * speed) * 1e3 if speed > 0 else math.inf


@dataclass(frozen=True)
class ButtonPins(PinSection):
    """The big UNO button: a switch from the pin to GND; the internal pull-up holds it high."""

    SECTION = "button"
    pin: int = field(metadata=PIN)


@dataclass(frozen=True)
class BeamPins(PinSection):
    """The exit break-beam. ``blocked = "low"`` for open-collector IR receivers (pulled up)."""

    SECTION = "beam"
    pin: int = field(metadata=PIN)
    blocked: Literal["low", "high"] = "low"


@dataclass(frozen=True)
class LedPins(PinSection):
    """The LED behind the UNO button (PWM for pulsing), through a resistor or a transistor."""

    SECTION = "button_led"
    pin: int = field(metadata=PIN)


@dataclass(frozen=True)
class RgbPins(PinSection):
    """An RGB LED (or strip driver inputs) showing the active colour."""

    SECTION = "rgb_led"
    red: int = field(metadata=PIN)
    green: int = field(metadata=PIN)
    blue: int = field(metadata=PIN)
    active_high: bool = True


@dataclass(frozen=True)
class BuzzerPins(PinSection):
    """A buzzer: ``active`` (on/off, fixed pitch) or ``tonal`` (a passive piezo driven by PWM)."""

    SECTION = "buzzer"
    pin: int = field(metadata=PIN)
    kind: Literal["active", "tonal"] = "tonal"


@dataclass(frozen=True)
class LidPins(PinSection):
    """A lid switch to GND (pulled up). ``open`` is the level the pin reads with the lid open."""

    SECTION = "lid"
    pin: int = field(metadata=PIN)
    open: Literal["high", "low"] = "high"


@dataclass(frozen=True)
class EjectorTuning(PinSection):
    """Closed-loop ejection. Times in milliseconds, speeds as PWM duty 0..1.

    A card counts on a complete beam pulse between `min_pulse_ms` (shorter is noise) and
    `max_pulse_ms` (blocked longer is a jam); clear spells shorter than `min_gap_ms` inside a
    pulse are sensor dropouts (keep it well under the clear time between two cards: a card is
    confirmed only after the beam has stayed clear that long). The hard deadline for n cards is
    ``min(max_run_ms, soft_start_ms + first_card_timeout_ms + n * per_card_ms)``.

    Pulse widths are judged at the duty the motor ran while the beam was blocked: a pulse longer
    than `double_ratio` times one card's (from ``[calibration]``, else from the wheel) counts as
    overlapping cards (two, or more for a clump), and is reported as a double. The last card is
    fed at `last_card_speed`, so a late stop overruns less. Before the retract reverses the motor
    it is braked for `brake_ms`.
    """

    SECTION = "ejector"
    speed: float = field(default=0.8, metadata=UNIT)
    start_speed: float = field(default=0.4, metadata=UNIT)
    soft_start_ms: float = field(default=120.0, metadata=MS)
    deal_speed: float = field(default=0.6, metadata=UNIT)
    last_card_speed: float = field(default=0.5, metadata=UNIT)
    min_pulse_ms: float = field(default=4.0, metadata=POSITIVE_MS)
    max_pulse_ms: float = field(default=1000.0, metadata=POSITIVE_MS)
    min_gap_ms: float = field(default=10.0, metadata=MS)
    double_ratio: float = field(default=1.5, metadata={"gt": 1.0, "le": 10.0})
    first_card_timeout_ms: float = field(default=1500.0, metadata=POSITIVE_MS)
    card_gap_timeout_ms: float = field(default=800.0, metadata=POSITIVE_MS)
    per_card_ms: float = field(default=500.0, metadata=POSITIVE_MS)
    max_run_ms: float = field(default=10_000.0, metadata=POSITIVE_MS)
    retract_ms: float = field(default=100.0, metadata={"ge": 0.0, "le": 2000.0})
    retract_speed: float = field(default=0.6, metadata=UNIT)
    brake_ms: float = field(default=30.0, metadata={"ge": 0.0, "le": 1000.0})

    def check(self) -> None:
        if self.start_speed > self.speed:
            raise self.error("start_speed", f"must be <= speed ({self.speed})")
        if self.max_pulse_ms <= self.min_pulse_ms:
            raise self.error("max_pulse_ms", f"must be > min_pulse_ms ({self.min_pulse_ms})")

    @property
    def running_speeds(self) -> dict[str, float]:
        """Every forward duty a run settles at, by key."""
        return {
            "speed": self.speed,
            "deal_speed": self.deal_speed,
            "last_card_speed": min(self.last_card_speed, self.speed),
        }

    def deadline_ms(self, cards: int) -> float:
        """The hard deadline for a run of `cards` cards."""
        budget = self.soft_start_ms + self.first_card_timeout_ms + cards * self.per_card_ms
        return min(self.max_run_ms, budget)

    def scaled(self, factor: float) -> EjectorTuning:
        """Every time multiplied by `factor`: for a simulator whose cards run `1/factor` fast."""
        return replace(self, **{f.name: getattr(self, f.name) * factor for f in _ms_fields(self)})


def _ms_fields(section: Section) -> list[Any]:
    return [f for f in fields(section) if f.name.endswith("_ms")]


@dataclass(frozen=True)
class PressTuning(PinSection):
    """Button handling: a level counts once it has been stable for `debounce_ms` (so a motor
    spike of microseconds is never a press), long press, and the stuck-button fault."""

    SECTION = "press"
    debounce_ms: float = field(default=10.0, metadata={"ge": 0.0, "le": 500.0})
    long_press_ms: float = field(default=1500.0, metadata=POSITIVE_MS)
    stuck_ms: float = field(default=10_000.0, metadata=POSITIVE_MS)

    def check(self) -> None:
        if self.long_press_ms <= self.debounce_ms:
            raise self.error("long_press_ms", f"must be > debounce_ms ({self.debounce_ms})")
        if self.stuck_ms <= self.long_press_ms:
            raise self.error("stuck_ms", f"must be > long_press_ms ({self.long_press_ms})")


@dataclass(frozen=True)
class Calibration(PinSection):
    """What `uno-attack calibrate` measured at `speed` (informational; tuning derives from it)."""

    SECTION = "calibration"
    speed: float = field(metadata=UNIT)
    samples: int = field(metadata={"ge": 1})
    cards_per_second: float = field(metadata={"ge": 0.0})
    pulse_ms_min: float = field(metadata={"ge": 0.0})
    pulse_ms_median: float = field(metadata={"ge": 0.0})
    pulse_ms_max: float = field(metadata={"ge": 0.0})
    gap_ms_median: float = field(metadata={"ge": 0.0})


_SECTIONS: dict[str, type[Section]] = {
    "motor": MotorPins,
    "button": ButtonPins,
    "beam": BeamPins,
    "button_led": LedPins,
    "rgb_led": RgbPins,
    "buzzer": BuzzerPins,
    "lid": LidPins,
    "ejector": EjectorTuning,
    "press": PressTuning,
    "calibration": Calibration,
}


@dataclass(frozen=True)
class PinProfile:
    """One physical build: fitted parts, their pins, and the tuning. Validated on construction."""

    name: str
    motor: MotorPins
    button: ButtonPins
    beam: BeamPins
    description: str = ""
    button_led: LedPins | None = None
    rgb_led: RgbPins | None = None
    buzzer: BuzzerPins | None = None
    lid: LidPins | None = None
    ejector: EjectorTuning = EjectorTuning()
    press: PressTuning = PressTuning()
    calibration: Calibration | None = None

    def __post_init__(self) -> None:
        seen: dict[int, str] = {}
        for key, pin in self.pins():
            if pin in seen:
                raise PinProfileError(f"{key}: GPIO {pin} is already used by {seen[pin]}")
            seen[pin] = key

        motor, tuning = self.motor, self.ejector
        for key, duty in tuning.running_speeds.items():
            if duty <= motor.dead_zone:
                raise PinProfileError(
                    f"ejector.{key}: duty {duty:g} does not move a card: the motor's dead zone "
                    f"is {motor.dead_zone:g} (motor.dead_zone); use a higher duty"
                )
        for key, duty in (*tuning.running_speeds.items(), ("retract_speed", tuning.retract_speed)):
            if duty > motor.max_duty + 1e-9:
                raise PinProfileError(
                    f"ejector.{key}: duty {duty:g} would let the stalled motor draw "
                    f"{duty * motor.stall_current_a:.2f} A, more than the driver's "
                    f"{motor.driver_current_a:g} A (motor.driver_current_a): at most "
                    f"{motor.max_duty:.2f}"
                )

    def pins(self) -> list[tuple[str, int]]:
        """``("section.key", gpio)`` for every fitted line."""
        result = [(f"motor.{role}", pin) for role, pin in self.motor.lines]
        for section in (self.button, self.beam, self.button_led, self.rgb_led, self.buzzer):
            result.extend(_section_pins(section))
        result.extend(_section_pins(self.lid))
        return result

    def with_ejector(self, **changes: Any) -> PinProfile:
        """A copy with some ejector tuning changed (validated)."""
        return replace(self, ejector=replace(self.ejector, **changes))

    def with_press(self, **changes: Any) -> PinProfile:
        """A copy with some press tuning changed (validated)."""
        return replace(self, press=replace(self.press, **changes))

    def one_card_ms(self, duty: float) -> float:
        """One card's steady pulse at `duty`: measured by `calibrate` if it ran, else from the
        wheel (both through the motor's dead zone; inf at or below it)."""
        cal = self.calibration
        speed = self.motor.steady(duty)
        if speed <= 0:
            return math.inf
        if cal is not None and cal.pulse_ms_median > 0 and self.motor.steady(cal.speed) > 0:
            return cal.pulse_ms_median * self.motor.steady(cal.speed) / speed
        return self.motor.card_ms(duty)

    def derived_window(self) -> dict[str, float]:
        """The pulse window this wheel (or calibration) calls for: noise under a quarter of one
        card at the fastest running duty, a jam over two and a half cards at the slowest (with
        a full hopper's sag)."""
        speeds = self.ejector.running_speeds.values()
        slowest = self.one_card_ms(min(speeds)) / (1 - self.motor.sag)
        return {
            "min_pulse_ms": max(0.5, math.floor(self.one_card_ms(max(speeds)) / 4 * 10) / 10),
            "max_pulse_ms": float(min(math.ceil(2.5 * slowest), 60_000)),
        }

    def check_against_wheel(self) -> None:
        """A single card at every running speed, and a double at the slowest, must fit the
        pulse window; raise `PinProfileError` naming the key and the numbers otherwise."""
        tuning = self.ejector
        speeds = tuning.running_speeds
        slowest = min(speeds, key=lambda k: speeds[k])
        fastest = max(speeds, key=lambda k: speeds[k])
        double = 2 * self.one_card_ms(speeds[slowest]) / (1 - self.motor.sag)
        if tuning.max_pulse_ms < double:
            raise PinProfileError(
                f"ejector.max_pulse_ms: {tuning.max_pulse_ms:g} ms is a false jam: two "
                f"overlapping cards at {slowest} {speeds[slowest]:g} block the beam for "
                f"{double:.0f} ms with this wheel ({self._wheel()}); set at least {double:.0f}"
            )
        shortest = self.one_card_ms(speeds[fastest])
        if tuning.min_pulse_ms > shortest / 4:
            raise PinProfileError(
                f"ejector.min_pulse_ms: {tuning.min_pulse_ms:g} ms would drop real cards: one "
                f"card at {fastest} {speeds[fastest]:g} blocks the beam for {shortest:.0f} ms "
                f"({self._wheel()}); set at most {shortest / 4:.0f}"
            )

    def _wheel(self) -> str:
        m = self.motor
        physics = f", dead zone {m.dead_zone:g}" if m.dead_zone else ""
        physics += f", sag {m.sag:g}" if m.sag else ""
        return f"{m.wheel_mm:g} mm wheel at {m.wheel_rpm:g} rpm{physics}"


def _section_pins(section: Section | None) -> list[tuple[str, int]]:
    if section is None:
        return []
    return [
        (f"{section.SECTION}.{f.name}", getattr(section, f.name))
        for f in fields(section)
        if f.metadata.get("pin") and getattr(section, f.name) is not None
    ]


def pin_profile_from_toml(text: str, name: str) -> PinProfile:
    """Parse and validate a pin profile called `name` (unless the text sets ``name``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PinProfileError(f"pin profile {name!r}: invalid TOML: {error}") from None
    allowed = {"name", "description", *_SECTIONS}
    for key in data:
        if key not in allowed:
            raise PinProfileError(
                f"pin profile {name!r}: unknown key {key!r} "
                f"(expected one of: {', '.join(sorted(allowed))})"
            )
    for key in ("motor", "button", "beam"):
        if key not in data:
            raise PinProfileError(f"pin profile {name!r}: missing section [{key}]")
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            raise PinProfileError(f"pin profile {name!r}: {key} must be a string")
    sections: dict[str, Any] = {
        key: build_section(cls, data[key]) for key, cls in _SECTIONS.items() if key in data
    }
    profile = PinProfile(
        name=data.get("name", name), description=data.get("description", ""), **sections
    )
    given = data.get("ejector", {})
    derived = {k: v for k, v in profile.derived_window().items() if k not in given}
    if derived:
        profile = profile.with_ejector(**derived)
    profile.check_against_wheel()
    return profile


def dump_pin_profile(profile: PinProfile) -> str:
    """The profile as TOML text that `pin_profile_from_toml` reads back to an equal profile."""
    parts = [f"name = {toml_value(profile.name)}\n"]
    if profile.description:
        parts.append(f"description = {toml_value(profile.description)}\n")
    for key in _SECTIONS:
        section = getattr(profile, key)
        if section is not None:
            parts.append("\n" + dump_section(section))
    return "".join(parts)


def hardware_dir() -> Path:
    """Where the named pin profiles live: ``$UNO_ATTACK_HARDWARE`` or the shipped hardware/."""
    configured = os.environ.get("UNO_ATTACK_HARDWARE")
    return Path(configured) if configured else shipped("hardware")


def pin_profile_names() -> list[str]:
    """The names of the pin profiles shipped in `hardware_dir()`."""
    return sorted(p.stem for p in hardware_dir().glob("*.toml"))


def load_pin_profile(name_or_path: str | Path) -> PinProfile:
    """A shipped pin profile by name (``hbridge``) or any profile file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = hardware_dir() / f"{name_or_path}.toml"
        if not path.exists():
            names = ", ".join(pin_profile_names()) or "none found"
            raise PinProfileError(
                f"unknown pin profile {str(name_or_path)!r} (shipped: {names}; or give a path)"
            )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise PinProfileError(f"cannot read pin profile {str(path)!r}: {error}") from None
    return pin_profile_from_toml(text, path.stem)
