"""Tuning an eject profile by simulation: behind `uno-attack tune`.

A target says how long a deal should last at the table ("about 12 minutes") and, optionally,
the longest run of empty presses anyone may meet ("at most 6"). The search plays the same deals
(same seed) under each candidate, a grid around a base profile: how often a press fires, the
hidden countdown that bounds droughts, and how many cards a firing press gives (the base's
counts and jackpot scaled). Every candidate that keeps the droughts within the bound is ranked
by how far its mean deal length is from the target; candidates far off on the first deals
are not played further.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from controller.engine import Rules
from controller.launcher.policy import Profile
from controller.simulation import Pace, Summary, simulate

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


@dataclass(frozen=True)
class Trial:
    """One candidate profile and what the simulated deals made of it."""

    profile: Profile
    summary: Summary

    @property
    def minutes(self) -> float:
        return self.summary.mean_minutes

    @property
    def longest_drought(self) -> int:
        return self.summary.max_drought

    def error(self, target: Target) -> float:
        return abs(self.minutes - target.minutes)

    def allowed(self, target: Target) -> bool:
        return target.max_drought is None or self.longest_drought <= target.max_drought

    def meets(self, target: Target) -> bool:
        return self.allowed(target) and self.error(target) <= target.tolerance


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


Progress = Callable[[int, int, "Trial | None"], None]
"""Told after every candidate: how many are done, of how many, and the best so far."""


def search(
    rules: Rules,
    players: int,
    profiles: Iterable[Profile],
    target: Target,
    *,
    games: int,
    seed: int,
    bot: str = "heuristic",
    pace: Pace = Pace(),  # noqa: B008 - frozen
    progress: Progress | None = None,
) -> list[Trial]:
    """Every candidate tried on the same deals, best first (droughts within the bound, then the
    closest to the target's minutes). A candidate is first screened on the first tenth of the
    deals; only those near the target play them all."""
    todo = list(profiles)
    trials: list[Trial] = []
    best: Trial | None = None
    screen = max(10, games // 10)
    for done, profile in enumerate(todo, start=1):
        trial = Trial(
            profile, simulate(rules, players, min(screen, games), seed, profile, bot, pace=pace)
        )
        if games > screen and _promising(trial, target):
            trial = Trial(profile, simulate(rules, players, games, seed, profile, bot, pace=pace))
        trials.append(trial)
        if best is None or _rank(trial, target) < _rank(best, target):
            best = trial
        if progress is not None:
            progress(done, len(todo), best)
    return sorted(trials, key=lambda trial: (_rank(trial, target), -trial.summary.games))


def _promising(trial: Trial, target: Target) -> bool:
    """Near enough on a few deals that all of them might bring it within the tolerance."""
    near = 0.1 * target.minutes + 3 * target.tolerance  # a few standard errors at 20 deals
    return trial.allowed(target) and trial.error(target) <= near


def _rank(trial: Trial, target: Target) -> tuple[bool, float]:
    return (not trial.allowed(target), trial.error(target))


def profile_toml(profile: Profile, comment: str) -> str:
    """The profile as a TOML probability table (the format `load_profile` reads)."""
    lines = [f"# {line}" for line in comment.splitlines()]
    lines.append(f"fire_probability = {profile.fire_probability!r}")
    if profile.max_drought is not None:
        lines.append(f"max_drought = {profile.max_drought}")
    if profile.drought_floor is not None:
        lines.append(f"drought_floor = {profile.drought_floor}")
    lines.append(f"tension_exponent = {float(profile.tension_exponent)!r}")
    lines += ["", "[counts]"]
    lines += [f"{cards} = {float(weight)!r}" for cards, weight in profile.counts]
    if profile.jackpot_probability:
        lines += [
            "", "[jackpot]", f"probability = {profile.jackpot_probability!r}",
            f"min = {profile.jackpot_min}", f"max = {profile.jackpot_max}",
        ]  # fmt: skip
    return "\n".join(lines) + "\n"
