"""The check: a finalist on fresh deals, and the claim it allows.

A check plays deals no one played before (`check_seeds`: pieces of CHECK_PIECE deals with
seeds of their own, played side by side), enough for a 95 % interval of PRECISION x the
tolerance either side. A profile meets the target only when its whole interval lies within the
tolerance and no drought on those deals broke the bound. A check too far off to get there
stops early (that can only lose a claim, never make one). A check that misses near the target
is followed by one of the same profile steered along its line (`steer.steered`), on deals of its
own; one whose figure is well within the tolerance but whose interval reaches past it carries
on to twice its deals, once (`more`; that second look is why its interval is a little less
sure than 95 %: see the README).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.policy import Profile

from .deals import Runner, Tally, Z
from .grid import Target
from .racing import Trial, finalists
from .steer import steady, steered

PRECISION = 0.6  # the check aims at an interval this share of the tolerance either side
CHECK_DEALS = (1_000, 15_000)  # the fewest and the most fresh deals one check plays
CHECK_PIECE = 100  # the check's deals go in pieces this size, side by side: small enough that
# a wave keeps every process busy to its end (pieces of 500 left a core idle half the time)
CHECK_WAVES = (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1)  # shares after which a hopeless check stops
MAX_CHECKS = 4  # checks one tuning makes at most

Told = Callable[[Profile, int], None]
"""Told of a check about to start: the profile, and how many fresh deals it will play."""


@dataclass(frozen=True)
class Check:
    """A profile on fresh deals: the figures the command reports, and its verdict."""

    profile: Profile
    tally: Tally
    seed: int
    target: Target
    planned: int  # the fresh deals it was to play (fewer were played if it stopped early)
    stream: int = 0  # which of the tuning's checks: each plays deals of its own

    @property
    def minutes(self) -> float:
        return round(self.tally.mean, 2)

    @property
    def stopped_early(self) -> bool:
        return self.tally.deals < self.planned

    @property
    def half_width(self) -> float:
        return round(self.tally.half_width, 2)

    @property
    def interval(self) -> tuple[float, float]:
        mean, half = self.tally.mean, self.tally.half_width
        return round(mean - half, 2), round(mean + half, 2)

    @property
    def meets(self) -> bool:
        """It played all its deals, its whole interval lies within the tolerance, and every
        drought was within the bound."""
        target, tally = self.target, self.tally
        inside = abs(tally.mean - target.minutes) + tally.half_width <= target.tolerance
        return inside and target.allows(tally.longest_drought) and not self.stopped_early

    def verdict(self) -> str:
        target, (low, high) = self.target, self.interval
        said = f"{self.minutes} ± {self.half_width} minutes"
        if not target.allows(self.tally.longest_drought):
            return f"misses: a drought of {self.tally.longest_drought} empty presses"
        if self.stopped_early:
            return f"misses the target: {said}, too far from {target} to meet it"
        if self.meets:
            return f"meets the target: {said} lies within {target}"
        if high < target.minutes - target.tolerance or low > target.minutes + target.tolerance:
            return f"misses the target: {said} lies outside {target}"
        return f"cannot be said to meet the target: {said} reaches outside {target}"


def check_games(trial: Trial, target: Target) -> int:
    """Fresh deals enough for a 95 % interval of PRECISION x the tolerance either side, by
    the spread the race saw for this candidate (a deal's minutes vary about as much as their
    mean: thousands of deals are needed)."""
    wanted = max(target.tolerance * PRECISION, 0.01)
    spread = trial.tally.spread if trial.tally.deals > 1 else 0.0
    pieces = math.ceil((Z * spread / wanted) ** 2 / CHECK_PIECE)  # whole pieces: see `more`
    low, high = CHECK_DEALS
    return min(high, max(low, pieces * CHECK_PIECE))


def check_seeds(seed: int, games: int, stream: int = 0) -> list[tuple[int, int]]:
    """A check's fresh deals in pieces of CHECK_PIECE, as (seed, deals): the same pieces
    however many processes play them; each check of a tuning (`stream`) has deals of its own,
    none of them a round of the race's (`round_seed`)."""
    pieces = []
    for number, start in enumerate(range(0, games, CHECK_PIECE)):
        text = f"uno-attack tune {seed} check {stream} piece {number}"
        digest = hashlib.sha256(text.encode()).digest()
        pieces.append((int.from_bytes(digest[:8], "big"), min(CHECK_PIECE, games - start)))
    return pieces


def check_one(
    runner: Runner, profile: Profile, target: Target, *, seed: int, games: int, stream: int = 0
) -> Check:
    """`profile` on `games` fresh deals of `seed`, the pieces in parallel, in waves: after
    each but the last, a check that can no longer meet the target stops (stopping early can
    only lose a claim, never make one)."""
    start = Check(profile, Tally(runner.table.pace), seed, target, games, stream)
    return _played(runner, start, check_seeds(seed, games, stream), 0)


def more(runner: Runner, made: Check, games: int) -> Check:
    """The check `made` (all of its deals played) carried on to `games` deals: the pieces it
    played are the first of the longer check's (whole pieces), and are not played again."""
    pieces = check_seeds(made.seed, games, made.stream)
    done = len(check_seeds(made.seed, made.planned, made.stream))
    assert pieces[:done] == check_seeds(made.seed, made.planned, made.stream), "whole pieces"
    return _played(runner, dataclasses.replace(made, planned=games), pieces, done)


def _played(runner: Runner, made: Check, pieces: list[tuple[int, int]], done: int) -> Check:
    tally, target = made.tally, made.target
    for share in CHECK_WAVES:
        end = math.ceil(len(pieces) * share)
        if end <= done:
            continue
        wave = pieces[done:end]
        tallies = dict(runner.run([(made.profile, seed, deals) for seed, deals in wave]))
        for index in range(len(wave)):  # in order: the same sums however they were played
            tally = tally.merged(tallies[index])
        done = end
        if done < len(pieces) and _hopeless(tally, target, made.planned):
            break
    return dataclasses.replace(made, tally=tally)


def _hopeless(tally: Tally, target: Target, games: int) -> bool:
    """Whether the mean is surely too far from the target for the interval `games` deals
    will have to lie within the tolerance."""
    final_half_width = Z * tally.spread / math.sqrt(games)
    room = target.tolerance - final_half_width  # where the final mean must lie
    return abs(tally.mean - target.minutes) - tally.half_width > room


def check_order(finalists: Sequence[Trial], target: Target) -> list[Trial]:
    """The finalists, the cheapest to confirm first: by the deals their check would need if
    the race's figure were right (near the target and steady deals first)."""

    def cost(trial: Trial) -> float:
        room = max(target.tolerance - trial.error(target), 1e-9)
        return (trial.tally.spread / room) ** 2

    return sorted(finalists, key=cost)


def check(
    runner: Runner,
    trials: Sequence[Trial],
    target: Target,
    *,
    seed: int,
    games: int | None = None,
    told: Told | None = None,
) -> list[Check]:
    """The finalists (`check_order`) on fresh deals until one meets the target, every check
    on deals of its own, at most MAX_CHECKS. A finalist the race puts outside the tolerance,
    and a checked profile near the target that misses it, are steered first: their fire
    probability moved to where their line puts the target (`steered`). Every check made;
    `told` hears of each before it starts."""
    checks = _Checks(runner, target, seed, games, told, [(t.profile, t.tally) for t in trials])
    for trial in check_order(finalists(trials), target):
        if checks.settle(trial):
            break
    return checks.made


@dataclass
class _Checks:
    """The checks of one tuning, made one after another."""

    runner: Runner
    target: Target
    seed: int
    games: int | None  # fresh deals per check; None: `check_games` decides
    told: Told | None
    played: list[tuple[Profile, Tally]]  # every profile played, for steering
    made: list[Check] = dataclasses.field(default_factory=list)

    def settle(self, trial: Trial) -> bool:
        """Check the finalist, steered as long as that helps: whether one met the target."""
        target = self.target
        profile: Profile | None = trial.profile
        if trial.nearest(target) > target.tolerance:
            profile = steered(trial.profile, trial.tally, self.played, target)
        while profile is not None and len(self.made) < MAX_CHECKS:
            made = self._one(profile, self.games or check_games(trial, target))
            if made.meets:
                return True
            self.played.append((profile, made.tally))
            profile = steered(profile, made.tally, self.played, target) if _near(made) else None
        return False

    def _one(self, profile: Profile, deals: int) -> Check:
        """One check, carried on to twice the deals if it almost met the target."""
        self._tell(profile, deals)
        made = check_one(
            self.runner, profile, self.target, seed=self.seed, games=deals, stream=len(self.made)
        )
        if self.games is None and _almost(made) and deals < CHECK_DEALS[1]:
            self._tell(profile, min(2 * deals, CHECK_DEALS[1]))
            made = more(self.runner, made, min(2 * deals, CHECK_DEALS[1]))
        self.made.append(made)
        return made

    def _tell(self, profile: Profile, deals: int) -> None:
        if self.told is not None:
            self.told(profile, deals)


def _near(checked: Check) -> bool:
    """A check precise enough, and near enough the target, to steer by."""
    target = checked.target
    near = abs(checked.tally.mean - target.minutes) <= 3 * target.tolerance
    return near and steady(checked.tally, target)


def _almost(checked: Check) -> bool:
    """All its deals played, its figure well within the tolerance but its interval reaching
    past it: the profile very likely meets the target, and more deals will show it."""
    target, tally = checked.target, checked.tally
    within = abs(tally.mean - target.minutes) <= target.tolerance / 2
    return within and not checked.meets and not checked.stopped_early and target.allows(
        tally.longest_drought
    )  # fmt: skip
