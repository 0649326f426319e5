"""Pin profiles: which launcher parts are fitted on which GPIO pins, and how the ejector is tuned.

One profile per physical build lives in ``hardware/<name>.toml`` (see ``hardware/README.md`` for
the wiring). A profile is validated when it is loaded: unknown keys, missing keys, pins that do
not exist on the 40-pin header and pins used twice are all errors naming ``section.key``.

Sections: ``[motor]``, ``[button]``, ``[beam]`` (required); ``[button_led]``, ``[rgb_led]``,
``[buzzer]``, ``[lid]`` (optional: leave a section out when the part is not fitted);
``[ejector]`` and ``[press]`` (tuning, with defaults); ``[calibration]`` (written by
``uno-attack calibrate``). Pin numbers are BCM GPIO numbers.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from controller.launcher.errors import PinProfileError
from controller.sections import PIN, Section, build_section, dump_section, toml_value

UNIT = {"gt": 0.0, "le": 1.0}
MS = {"ge": 0.0, "le": 60_000.0}
POSITIVE_MS = {"gt": 0.0, "le": 60_000.0}

_REQUIRED = {
    "hbridge": ("forward", "backward"),
    "phase_enable": ("phase", "enable"),
    "mosfet": ("pin",),
}
_OPTIONAL = {"hbridge": ("enable",), "phase_enable": (), "mosfet": ()}


class PinSection(Section):
    """A section of a pin profile: its errors are `PinProfileError`s."""

    ERROR = PinProfileError


@dataclass(frozen=True)
class MotorPins(PinSection):
    """The feed motor's driver and its input lines.

    ``hbridge``: DRV8833 / TB6612 / L293D / L298N, ``forward`` and ``backward`` inputs and an
    optional ``enable`` (nSLEEP / STBY / EN). ``phase_enable``: PHASE/ENABLE drivers (DRV8838,
    DRV8835 in PH/EN mode). ``mosfet``: one logic-level MOSFET on ``pin``; it cannot reverse,
    so there is no retract. Every line needs a pull-down resistor (see hardware/README.md).
    """

    SECTION = "motor"
    driver: Literal["hbridge", "phase_enable", "mosfet"]
    forward: int | None = field(default=None, metadata=PIN)
    backward: int | None = field(default=None, metadata=PIN)
    enable: int | None = field(default=None, metadata=PIN)
    phase: int | None = field(default=None, metadata=PIN)
    pin: int | None = field(default=None, metadata=PIN)
    pwm: bool = True
    pwm_frequency: int = field(default=500, metadata={"ge": 10, "le": 20_000})

    def check(self) -> None:
        for role in _REQUIRED[self.driver]:
            if getattr(self, role) is None:
                raise self.error(role, f"required by driver {self.driver!r}")
        allowed = _REQUIRED[self.driver] + _OPTIONAL[self.driver]
        for role in ("forward", "backward", "enable", "phase", "pin"):
            if role not in allowed and getattr(self, role) is not None:
                raise self.error(role, f"not used by driver {self.driver!r}")

    @property
    def lines(self) -> tuple[tuple[str, int], ...]:
        """``(role, gpio)`` for every motor line, in a fixed order."""
        roles = ("enable", "forward", "backward", "phase", "pin")
        return tuple((r, getattr(self, r)) for r in roles if getattr(self, r) is not None)

    @property
    def can_reverse(self) -> bool:
        return self.driver != "mosfet"


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
    """

    SECTION = "ejector"
    speed: float = field(default=0.8, metadata=UNIT)
    start_speed: float = field(default=0.4, metadata=UNIT)
    soft_start_ms: float = field(default=120.0, metadata=MS)
    deal_speed: float = field(default=0.6, metadata=UNIT)
    min_pulse_ms: float = field(default=4.0, metadata=POSITIVE_MS)
    max_pulse_ms: float = field(default=400.0, metadata=POSITIVE_MS)
    min_gap_ms: float = field(default=10.0, metadata=MS)
    first_card_timeout_ms: float = field(default=1500.0, metadata=POSITIVE_MS)
    card_gap_timeout_ms: float = field(default=800.0, metadata=POSITIVE_MS)
    per_card_ms: float = field(default=500.0, metadata=POSITIVE_MS)
    max_run_ms: float = field(default=10_000.0, metadata=POSITIVE_MS)
    retract_ms: float = field(default=100.0, metadata={"ge": 0.0, "le": 2000.0})
    retract_speed: float = field(default=0.6, metadata=UNIT)

    def check(self) -> None:
        if self.start_speed > self.speed:
            raise self.error("start_speed", f"must be <= speed ({self.speed})")
        if self.max_pulse_ms <= self.min_pulse_ms:
            raise self.error("max_pulse_ms", f"must be > min_pulse_ms ({self.min_pulse_ms})")

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
    """Button handling: debounce lock-out, long press, and the stuck-button fault."""

    SECTION = "press"
    debounce_ms: float = field(default=20.0, metadata={"ge": 0.0, "le": 500.0})
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
    return PinProfile(
        name=data.get("name", name), description=data.get("description", ""), **sections
    )


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
    """Where the named pin profiles live: ``$UNO_ATTACK_HARDWARE`` or the repository's hardware/."""
    configured = os.environ.get("UNO_ATTACK_HARDWARE")
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "hardware"


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
