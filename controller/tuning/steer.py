"""Steering: a profile's fire probability moved to where its line puts the target.

A profile's *line* is the profiles that differ from it only in fire probability; along it a
deal lengthens about exponentially with the fire probability. Steering goes between the
closest figures either side of the target precise to the tolerance when the line has them,
else along the slope fitted to every deal the line played, from the profile's own figure;
never more than MAX_MOVE at once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from controller.policy import Profile

from .deals import Tally
from .grid import Target

MAX_MOVE = 0.1  # the most one steer moves the fire probability


def steady(tally: Tally, target: Target) -> bool:
    """A figure precise enough to steer from: its interval within twice the tolerance."""
    return tally.half_width <= 2 * target.tolerance


Played = Sequence[tuple[Profile, Tally]]
"""Every profile played so far and what its deals came to."""


def steered(profile: Profile, tally: Tally, played: Played, target: Target) -> Profile | None:
    """`profile` with its fire probability moved to where its line (the profiles that differ
    from it only in fire probability) puts the target. Deal length grows about exponentially
    with the fire probability: between the nearest precise figures either side of the target
    when the line has them, else along the slope fitted to every deal the line played from
    `tally`'s figure. None when there is nothing to go by, or nowhere new to go."""
    line = [(p.fire_probability, t) for p, t in played if _same_line(p, t, profile)]
    fire = _between(line, target) or _along(profile.fire_probability, tally, line, target)
    if fire is None:
        return None
    low, high = profile.fire_probability - MAX_MOVE, profile.fire_probability + MAX_MOVE
    fire = round(min(1.0, max(0.01, low, min(high, fire))), 3)
    if any(fire == p for p, _ in line):
        return None
    return dataclasses.replace(profile, fire_probability=fire)


def _between(line: Sequence[tuple[float, Tally]], target: Target) -> float | None:
    """Where the target lies between the closest precise figures below and above it (the
    lower fire probability's shorter, as a line's are): None without such a pair."""
    precise = [(p, t.mean) for p, t in line if t.half_width <= target.tolerance and t.mean > 0]
    pairs = [
        (low, high)
        for low in precise
        for high in precise
        if low[0] < high[0] and low[1] < target.minutes < high[1]
    ]
    if not pairs:
        return None
    (p0, m0), (p1, m1) = min(pairs, key=lambda pair: pair[1][0] - pair[0][0])
    share = math.log(target.minutes / m0) / math.log(m1 / m0)
    return p0 + share * (p1 - p0)


def _along(
    fire: float, tally: Tally, line: Sequence[tuple[float, Tally]], target: Target
) -> float | None:
    slope = _log_slope(line)
    if slope is None or slope <= 0 or tally.mean <= 0:
        return None
    return fire + math.log(target.minutes / tally.mean) / slope


def _same_line(other: Profile, tally: Tally, profile: Profile) -> bool:
    moved = dataclasses.replace(other, fire_probability=profile.fire_probability)
    return moved == profile and tally.deals > 0


def _log_slope(points: Sequence[tuple[float, Tally]]) -> float | None:
    """d log(minutes) / d fire probability, least squares weighted by deals (a mean's
    relative error shrinks as 1/sqrt(deals): a deal's minutes vary about as much as their
    mean)."""
    kept = [(p, math.log(t.mean), t.deals) for p, t in points if t.deals and t.mean > 0]
    weight = sum(n for _, _, n in kept)
    if len({p for p, _, _ in kept}) < 2 or not weight:
        return None
    mean_p = sum(p * n for p, _, n in kept) / weight
    mean_y = sum(y * n for _, y, n in kept) / weight
    spread = sum(n * (p - mean_p) ** 2 for p, _, n in kept)
    return sum(n * (p - mean_p) * (y - mean_y) for p, y, n in kept) / spread
