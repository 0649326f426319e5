"""``uno-attack calibrate``: measure the real cards and derive the ejector's tuning from them.

Runs a few ejects at the configured speed, collects every pulse's length in wheel travel
(converted to milliseconds at the run speed, so the slower last card measures like the others)
and the times between cards, and derives the window from the *median* single card: noise is
under a quarter of it, a jam is longer than two and a half cards at the slowest running duty (so
two shingled cards are never a jam), and a pulse over `double_ratio` cards is a double. Pulses
that already look like doubles do not move the median. Every run's widths are logged. The result
is a complete pin profile with a ``[calibration]`` section, written where ``--write`` says.
"""

from __future__ import annotations

import itertools
import logging
import math
import statistics
from dataclasses import dataclass, replace

from controller.launcher.ejector import EjectResult
from controller.launcher.launcher import Launcher
from controller.launcher.pins import Calibration, EjectorTuning, PinProfile

log = logging.getLogger(__name__)


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
        at_speed = launcher.profile.one_card_ms(launcher.profile.ejector.speed)
        run_widths = [round(n * at_speed, 2) for n in result.pulse_cards]
        log.info("calibration run: pulse widths at run speed %s ms", run_widths)
        _collect(result, run_widths, widths, periods, firsts)
    return Measurement(widths, periods, firsts)


def _collect(
    result: EjectResult,
    run_widths: list[float],
    widths: list[float],
    periods: list[float],
    firsts: list[float],
) -> None:
    widths.extend(run_widths)
    times = result.card_at_ms
    periods.extend(b - a for a, b in itertools.pairwise(times))
    if times:
        firsts.append(times[0])


def single_widths(widths: list[float], double_ratio: float) -> list[float]:
    """The widths that are single cards (doubles would drag the median up)."""
    median = statistics.median(widths)
    return [w for w in widths if w <= double_ratio * median] or widths


def summarise(m: Measurement, speed: float, double_ratio: float = 1.5) -> Calibration:
    median_period = statistics.median(m.periods_ms)
    singles = single_widths(m.widths_ms, double_ratio)
    median_width = statistics.median(singles)
    return Calibration(
        speed=speed,
        samples=len(m.widths_ms),
        cards_per_second=round(1000.0 / median_period, 2),
        pulse_ms_min=round(min(singles), 2),
        pulse_ms_median=round(median_width, 2),
        pulse_ms_max=round(max(singles), 2),
        gap_ms_median=round(max(median_period - median_width, 0.0), 2),
    )


def derive_tuning(tuning: EjectorTuning, m: Measurement, cal: Calibration) -> EjectorTuning:
    """Tuning with margins around the median card that was measured."""
    period = 1000.0 / cal.cards_per_second
    card = cal.pulse_ms_median
    slowest = min(tuning.running_speeds.values())
    fastest = max(tuning.running_speeds.values())
    min_pulse = max(0.5, math.floor(card * cal.speed / fastest / 4 * 10) / 10)
    return replace(
        tuning,
        min_pulse_ms=min_pulse,
        min_gap_ms=round(max(0.5, cal.gap_ms_median / 5), 1),
        max_pulse_ms=math.ceil(2.5 * card * cal.speed / slowest),
        first_card_timeout_ms=round(max(500.0, 3 * max(m.first_card_ms)), 0),
        card_gap_timeout_ms=round(max(300.0, 4 * period), 0),
        per_card_ms=round(max(200.0, 2 * period), 0),
    )


def calibrate(launcher: Launcher, *, cards: int = 10, runs: int = 3) -> PinProfile:
    """Measure and return the launcher's profile with new tuning and a calibration section."""
    if cards < 2:
        raise ValueError("calibration needs at least 2 cards per run")
    m = measure(launcher, cards=cards, runs=runs)
    cal = summarise(m, launcher.profile.ejector.speed, launcher.profile.ejector.double_ratio)
    tuning = derive_tuning(launcher.profile.ejector, m, cal)
    return replace(launcher.profile, ejector=tuning, calibration=cal)
