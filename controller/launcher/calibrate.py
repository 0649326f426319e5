"""``uno-attack calibrate``: measure the real cards and derive the ejector's tuning from them.

Runs a few ejects at the configured speed, collects every counted card's beam pulse width and
the times between cards, and proposes a pulse window and timeouts with wide margins (a jam is
a pulse three times the longest seen; noise is under a third of the shortest). The result is a
complete pin profile with a ``[calibration]`` section, written where ``--write`` says.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass, replace

from controller.launcher.ejector import EjectResult
from controller.launcher.launcher import Launcher
from controller.launcher.pins import Calibration, EjectorTuning, PinProfile


class CalibrationFailed(RuntimeError):
    """The launcher did not deliver enough cards to measure."""


@dataclass(frozen=True)
class Measurement:
    widths_ms: list[float]
    periods_ms: list[float]
    first_card_ms: list[float]


def measure(launcher: Launcher, *, cards: int, runs: int) -> Measurement:
    """Eject `runs` times `cards` cards; stop at the first run that does not complete."""
    widths: list[float] = []
    periods: list[float] = []
    firsts: list[float] = []
    for _ in range(runs):
        result = launcher.eject(cards)
        if not result.complete:
            raise CalibrationFailed(
                f"run stopped early: {result.reason}: {result.detail} "
                f"({result.ejected} of {cards}); fix it and calibrate again"
            )
        _collect(result, widths, periods, firsts)
    return Measurement(widths, periods, firsts)


def _collect(
    result: EjectResult, widths: list[float], periods: list[float], firsts: list[float]
) -> None:
    widths.extend(result.pulse_ms)
    times = result.card_at_ms
    periods.extend(b - a for a, b in itertools.pairwise(times))
    if times:
        firsts.append(times[0])


def summarise(m: Measurement, speed: float) -> Calibration:
    median_period = statistics.median(m.periods_ms)
    median_width = statistics.median(m.widths_ms)
    return Calibration(
        speed=speed,
        samples=len(m.widths_ms),
        cards_per_second=round(1000.0 / median_period, 2),
        pulse_ms_min=round(min(m.widths_ms), 2),
        pulse_ms_median=round(median_width, 2),
        pulse_ms_max=round(max(m.widths_ms), 2),
        gap_ms_median=round(max(median_period - median_width, 0.0), 2),
    )


def derive_tuning(tuning: EjectorTuning, m: Measurement, cal: Calibration) -> EjectorTuning:
    """Tuning with margins around what was measured."""
    period = 1000.0 / cal.cards_per_second
    min_pulse = max(0.5, round(cal.pulse_ms_min / 3, 1))
    return replace(
        tuning,
        min_pulse_ms=min_pulse,
        min_gap_ms=round(max(0.5, cal.gap_ms_median / 5), 1),
        max_pulse_ms=round(max(3 * cal.pulse_ms_max, cal.pulse_ms_max + 50), 0),
        first_card_timeout_ms=round(max(500.0, 3 * max(m.first_card_ms)), 0),
        card_gap_timeout_ms=round(max(300.0, 4 * period), 0),
        per_card_ms=round(max(200.0, 2 * period), 0),
    )


def calibrate(launcher: Launcher, *, cards: int = 10, runs: int = 3) -> PinProfile:
    """Measure and return the launcher's profile with new tuning and a calibration section."""
    if cards < 2:
        raise ValueError("calibration needs at least 2 cards per run")
    m = measure(launcher, cards=cards, runs=runs)
    cal = summarise(m, launcher.profile.ejector.speed)
    tuning = derive_tuning(launcher.profile.ejector, m, cal)
    return replace(launcher.profile, ejector=tuning, calibration=cal)
