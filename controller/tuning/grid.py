"""The candidates `uno-attack tune` tries, and what it tries them for.

A target says how long a deal should last at the table ("about 12 minutes ± 0.5") and,
optionally, the longest run of empty presses anyone may meet ("at most 6"). The candidates are a
grid around a base profile: how often a press fires, the hidden countdown that bounds droughts,
and how many cards a firing press gives (the base's counts and jackpot scaled).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass

from controller.policy import Profile

FIRE_PROBABILITIES = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
COUNT_SCALES = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
DROUGHTS_WITHOUT_BOUND = (3, 4, 6, 8, 10, 12)
MAX_COUNTDOWN = 12  # no candidate lets the launcher stay dry longer than this


@dataclass(frozen=True)
class Target:
    """What the people setting up the launcher asked for."""

    minutes: float
    tolerance: float = 0.5  # minutes either side that still count as "about"
    max_drought: int | None = None  # the longest run of empty presses allowed

    def droughts(self) -> tuple[int, ...]:
        """The hidden countdowns worth trying: a longer one would break the bound itself."""
        if self.max_drought is None:
            return DROUGHTS_WITHOUT_BOUND
        return tuple(range(1, min(self.max_drought, MAX_COUNTDOWN) + 1))

    def allows(self, drought: int) -> bool:
        return self.max_drought is None or drought <= self.max_drought

    def __str__(self) -> str:
        return f"{self.minutes:g} ± {self.tolerance:g} minutes"


def candidates(base: Profile, target: Target) -> list[Profile]:
    """The grid around `base`: fire probability x countdown x card counts."""
    found = []
    for scale in COUNT_SCALES:
        counts, jackpot = _scaled_counts(base.counts, scale), _scaled_jackpot(base, scale)
        for countdown in target.droughts():
            for fire in FIRE_PROBABILITIES:
                found.append(
                    dataclasses.replace(
                        base, name=f"{base.name}-tuned", fire_probability=fire,
                        max_drought=countdown, drought_floor=countdown // 2, counts=counts,
                        **jackpot,
                    )
                )  # fmt: skip
    return found


def _scaled_counts(
    counts: tuple[tuple[int, float], ...], scale: float
) -> tuple[tuple[int, float], ...]:
    weights: dict[int, float] = defaultdict(float)
    for cards, weight in counts:
        weights[max(1, round(cards * scale))] += weight
    return tuple(sorted(weights.items()))


def _scaled_jackpot(base: Profile, scale: float) -> dict[str, int]:
    if not base.jackpot_probability:
        return {}
    low = max(1, round(base.jackpot_min * scale))
    return {"jackpot_min": low, "jackpot_max": max(low, round(base.jackpot_max * scale))}
