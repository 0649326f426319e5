"""``uno-attack calibrate``: measure the real motor and cards, and derive the ejector's tuning.

Each run ejects `cards` cards at the run speed and deals `cards` at the deal speed, so every duty
the ejector uses is measured: the soft start, `speed`, `deal_speed` and the slower last card.
The runs count one card per pulse, with jams and timeouts far away (`Ejector.measuring`): what
the profile believes about the motor is what is being measured, so it must not judge yet.

Every pulse's stamps, with the duties its run set, are fitted to the motor model
(`wheel.Wheel`): the **dead zone** and one card's time at full duty come from the cards at the
different steady duties (one card is the same length of wheel travel at any duty), the **time
constant** from the cards fed while the speed was still changing (the first, spinning up; the
last, slowing down). Pulses that already look like doubles do not move the fit. The dead zone
and time constant go to ``[motor]``; the cards at the run speed, their period and gap to a
``[calibration]`` section; the window follows from them: noise is under a quarter of a card at
the fastest duty, a jam is longer than two and a half cards at the slowest (with the motor's
sag), and the timeouts allow for the slowest card. Every run's widths are logged. The result is
a complete pin profile, written where ``--write`` says.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, replace

from controller.launcher.ejector import EjectResult
from controller.launcher.errors import PinProfileError
from controller.launcher.launcher import Launcher
from controller.launcher.pins import Calibration, EjectorTuning, PinProfile
from controller.launcher.wheel import DutyLog, Wheel

log = logging.getLogger(__name__)

DOUBLE = 1.35  # a pulse this many times the median card is left out of the fit
TIME_CONSTANTS_MS = (0.0, 10.0, 20.0, 35.0, 50.0, 70.0, 100.0, 140.0, 200.0, 280.0, 400.0)


class CalibrationFailed(RuntimeError):
    """The launcher did not deliver enough cards to measure."""


@dataclass(frozen=True)
class Run:
    """One measured run: the duty it ran at, and what came back."""

    speed: float
    result: EjectResult

    def duties(self, tuning: EjectorTuning, board: bool) -> list[tuple[float, float]]:
        """The duties the run set, (ms since start, duty); rebuilt from the tuning when the
        result does not carry them (a launcher board: soft start, then the speed)."""
        if self.result.duties or not board:
            return list(self.result.duties)
        low = min(tuning.start_speed, self.speed)
        steps = 8
        return [
            (tuning.soft_start_ms * i / steps, low + (self.speed - low) * i / steps)
            for i in range(steps + 1)
        ]

    def pulses(self) -> list[tuple[float, float]]:
        """(start, end) of every counted pulse, ms since the run's start."""
        return [
            (end - width, end)
            for width, end in zip(self.result.pulse_ms, self.result.card_at_ms, strict=True)
        ]


@dataclass(frozen=True)
class Measurement:
    runs: list[Run]
    board: bool = False

    @property
    def first_card_ms(self) -> list[float]:
        return [r.result.card_at_ms[0] for r in self.runs if r.result.card_at_ms]


@dataclass(frozen=True)
class Fit:
    """The motor as the cards measured it. `card_ms`: one card at full duty; `travels`: each
    single pulse in full-duty ms; `periods`, `gaps`: from one card to the next, full-duty ms."""

    dead_zone: float
    time_constant_ms: float
    card_ms: float
    travels: list[float]
    periods: list[float]
    gaps: list[float]
    spread: float


def measure(launcher: Launcher, *, cards: int, runs: int) -> Measurement:
    """Eject and deal `runs` times `cards` cards; stop at the first run that does not count
    them all."""
    measured: list[Run] = []
    tuning = launcher.profile.ejector
    with _measuring(launcher):
        for _ in range(runs):
            for feed, speed in ((launcher.eject, tuning.speed), (launcher.deal, tuning.deal_speed)):
                result = feed(cards)
                if result.reason != "count" or result.ejected < cards:
                    raise CalibrationFailed(
                        f"run stopped early: {result.reason}: {result.detail} "
                        f"({result.ejected} of {cards}){_hint(result, speed, tuning)}; fix it "
                        "and calibrate again"
                    )
                log.info(
                    "calibration run at duty %g: pulse widths %s ms", speed, list(result.pulse_ms)
                )
                measured.append(Run(speed, result))
    return Measurement(measured, board=launcher.drive.ejector is None)


def _hint(result: EjectResult, speed: float, tuning: EjectorTuning) -> str:
    """Why a run that stopped at its last card (empty, or stuck in the beam) may have."""
    if result.reason not in ("empty", "jam") or result.ejected != result.requested - 1:
        return ""
    last = min(speed, tuning.last_card_speed)
    return (
        f": the last card is fed at duty {last:g} (ejector.last_card_speed), and a duty inside "
        "the motor's dead zone moves no card"
    )


@contextlib.contextmanager
def _measuring(launcher: Launcher) -> Iterator[None]:
    """The launcher's ejector counts one card a pulse, with jams and timeouts far away."""
    ejector = launcher.drive.ejector
    if ejector is None:  # a launcher board counts on its own
        yield
        return
    ejector.measuring = True
    try:
        yield
    finally:
        ejector.measuring = False


def fit(m: Measurement, profile: PinProfile) -> Fit:
    """The dead zone and time constant that make every single card the same wheel travel."""
    tuning, motor = profile.ejector, profile.motor
    steady = {round(d, 3) for r in m.runs for d in _steady_duties(r, tuning, m.board)}
    slowest = min(steady)
    if len(steady) >= 2:
        zones = [i * 0.02 for i in range(int(slowest / 0.02)) if i * 0.02 < slowest - 0.02]
    else:  # one duty cannot tell a dead zone from a slow wheel: keep the profile's
        zones = [motor.dead_zone]
    coast = motor.coast_ms / 1e3
    best = min(
        (_score(m, tuning, z, tau, coast) for z in zones for tau in TIME_CONSTANTS_MS),
        key=lambda f: f.spread,
    )
    fine_zones = [best.dead_zone + d for d in (-0.015, -0.01, -0.005, 0.0, 0.005, 0.01, 0.015)]
    fine_zones = [z for z in fine_zones if 0 <= z < slowest - 0.01] if len(zones) > 1 else zones
    taus = [best.time_constant_ms * f for f in (0.7, 0.8, 0.9, 1.0, 1.12, 1.25, 1.4)]
    return min(
        (_score(m, tuning, z, tau, coast) for z in fine_zones for tau in taus),
        key=lambda f: f.spread,
    )


def _steady_duties(run: Run, tuning: EjectorTuning, board: bool) -> list[float]:
    """The duties a run held for at least a card's worth of time."""
    log = run.duties(tuning, board)
    held = []
    for (t0, d), (t1, _) in itertools.pairwise([*log, (math.inf, 0.0)]):
        if d > 0 and t1 - t0 > tuning.soft_start_ms:
            held.append(d)
    return held


def _score(m: Measurement, tuning: EjectorTuning, zone: float, tau_ms: float, coast: float) -> Fit:
    wheel = Wheel(1.0, zone, tau_ms / 1e3, coast)
    travels: list[float] = []
    periods: list[float] = []
    gaps: list[float] = []
    for run in m.runs:
        pace = DutyLog(0.0, wheel)
        for t, duty in run.duties(tuning, m.board):
            pace.set(t / 1e3, duty, free=duty == 0)
        pulses = run.pulses()
        travels.extend(pace(a / 1e3, b / 1e3) * 1e3 for a, b in pulses)
        for (_, end0), (start1, end1) in itertools.pairwise(pulses):
            periods.append(pace(end0 / 1e3, end1 / 1e3) * 1e3)
            gaps.append(pace(end0 / 1e3, start1 / 1e3) * 1e3)
    card = statistics.median(travels)
    singles = [t for t in travels if t <= DOUBLE * card] or travels
    card = statistics.median(singles)
    spread = statistics.fmean(math.log(max(t, 1e-9) / max(card, 1e-9)) ** 2 for t in singles)
    return Fit(zone, tau_ms, card, singles, periods, gaps, spread)


def summarise(m: Measurement, f: Fit, speed: float) -> Calibration:
    """The cards at the run speed, as the fitted motor turns at it."""
    at_speed = (speed - f.dead_zone) / (1 - f.dead_zone)
    widths = [t / at_speed for t in f.travels]
    singles = [p for p in f.periods if p <= 2 * DOUBLE * f.card_ms] or f.periods
    period = statistics.median(singles) / at_speed if singles else 2 * statistics.median(widths)
    gap = statistics.median(f.gaps) / at_speed if f.gaps else period - statistics.median(widths)
    return Calibration(
        speed=speed,
        samples=sum(len(r.result.pulse_ms) for r in m.runs),  # every card measured
        cards_per_second=round(1000.0 / period, 2),
        pulse_ms_min=round(min(widths), 2),
        pulse_ms_median=round(statistics.median(widths), 2),
        pulse_ms_max=round(max(widths), 2),
        gap_ms_median=round(max(gap, 0.0), 2),
    )


def derive_tuning(profile: PinProfile, m: Measurement) -> EjectorTuning:
    """Tuning with margins around the measured card, at every duty the ejector runs."""
    cal, tuning = profile.calibration, profile.ejector
    assert cal is not None
    sag = profile.motor.sag
    speeds = tuning.running_speeds.values()
    fastest, slowest = profile.one_card_ms(max(speeds)), profile.one_card_ms(min(speeds))
    period_ms = 1000.0 / cal.cards_per_second
    slow_period = period_ms * slowest / cal.pulse_ms_median
    gap_fastest = cal.gap_ms_median * fastest / cal.pulse_ms_median
    return replace(
        tuning,
        min_pulse_ms=max(0.5, math.floor(fastest * (1 - sag) / 4 * 10) / 10),
        min_gap_ms=round(max(0.5, gap_fastest * (1 - sag) / 5), 1),
        max_pulse_ms=float(min(math.ceil(2.5 * slowest / (1 - sag)), 60_000)),
        first_card_timeout_ms=round(min(max(500.0, 3 * max(m.first_card_ms)), 60_000.0), 0),
        card_gap_timeout_ms=round(min(max(300.0, 4 * period_ms), 60_000.0), 0),
        per_card_ms=round(min(max(200.0, 2 * slow_period), 60_000.0), 0),
    )


def calibrate(launcher: Launcher, *, cards: int = 10, runs: int = 3) -> PinProfile:
    """Measure and return the launcher's profile with the motor's dead zone and time constant,
    new tuning and a calibration section."""
    if cards < 2:
        raise ValueError("calibration needs at least 2 cards per run")
    profile = launcher.profile
    m = measure(launcher, cards=cards, runs=runs)
    f = fit(m, profile)
    log.info(
        "calibration: dead zone %.3f, time constant %.0f ms, one card %.1f ms at full duty "
        "(spread %.4f)",
        f.dead_zone,
        f.time_constant_ms,
        f.card_ms,
        f.spread,
    )
    tuning = profile.ejector
    too_slow = {k: d for k, d in tuning.running_speeds.items() if d <= f.dead_zone + 0.02}
    if too_slow:
        key, duty = min(too_slow.items(), key=lambda kv: kv[1])
        raise CalibrationFailed(
            f"ejector.{key}: duty {duty:g} barely moves a card: the motor's dead zone measures "
            f"{f.dead_zone:.2f}; raise it and calibrate again"
        )
    motor = replace(
        profile.motor,
        dead_zone=round(f.dead_zone, 3),
        time_constant_ms=round(f.time_constant_ms, 1),
    )
    cal = summarise(m, f, tuning.speed)
    try:
        measured = replace(profile, motor=motor, calibration=cal)
        return replace(measured, ejector=derive_tuning(measured, m))
    except PinProfileError as error:
        raise CalibrationFailed(f"the measured motor does not fit this profile: {error}") from None
