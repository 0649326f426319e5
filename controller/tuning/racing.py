"""The race: every candidate plays a few deals, the nearest go on to more.

Each round's deals are the same for every candidate in it (the round's own seed). A candidate
whose droughts broke the bound, or whose distance from the target is surely larger than the
best one's (95 % intervals apart), drops out, and at most a third of the field (KEEP) goes on to
twice as many deals, until the finalists have played `games` deals each. A candidate far off
the target costs a few deals, not hundreds: a deal's minutes vary about as much as their mean,
so what the race can tell apart with few deals is only "far off" from "maybe".
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from controller.policy import Profile

from .deals import Runner, Tally
from .grid import Target

FIRST_DEALS = 4  # every candidate's first round
KEEP = 1 / 3  # the share of the field that goes on to the next round, at most
FINALISTS = 4  # candidates that play all of the race's deals


@dataclass(frozen=True)
class Trial:
    """One candidate profile and what the race's deals made of it."""

    profile: Profile
    tally: Tally

    @property
    def minutes(self) -> float:
        return round(self.tally.mean, 2)

    @property
    def longest_drought(self) -> int:
        return self.tally.longest_drought

    def error(self, target: Target) -> float:
        return abs(self.tally.mean - target.minutes)

    def allowed(self, target: Target) -> bool:
        return target.allows(self.longest_drought)

    def nearest(self, target: Target) -> float:
        """The least distance from the target its interval allows."""
        return max(self.error(target) - self.tally.half_width, 0.0)

    def farthest(self, target: Target) -> float:
        return self.error(target) + self.tally.half_width


Progress = Callable[[int, int, "Trial | None"], None]
"""Told after every candidate's round: how many are done, of how many at most, the best yet."""


def race(
    runner: Runner,
    profiles: Iterable[Profile],
    target: Target,
    *,
    games: int,
    seed: int,
    progress: Progress | None = None,
) -> list[Trial]:
    """Every candidate, best first: those still in the race at the end (the finalists, who
    played `games` deals each) by their distance from the target, then the others by how far
    they got. Each round's deals are the same for every candidate (their own seed)."""
    trials = [Trial(profile, Tally(runner.table.pace)) for profile in profiles]
    alive, played, round_ = list(range(len(trials))), 0, 0
    shown = _Shown(progress, _planned(len(trials), games))
    while alive and played < games:
        size = min(FIRST_DEALS, games) if played == 0 else min(played, games - played)
        tasks = [(trials[i].profile, round_seed(seed, round_), size) for i in alive]
        for index, tally in runner.run(tasks):
            trial = trials[alive[index]]
            trials[alive[index]] = Trial(trial.profile, trial.tally.merged(tally))
            shown.step(_best(trials, target))
        played, round_ = played + size, round_ + 1
        last = played >= games
        alive = (_finalists if last else _survivors)(trials, alive, target)
    shown.finish()
    others = sorted(
        (t for i, t in enumerate(trials) if i not in alive),
        key=lambda t: (not t.allowed(target), -t.tally.deals, t.error(target)),
    )
    return [trials[i] for i in alive] + others


def round_seed(seed: int, round_: int) -> int:
    """The seed of a round's deals, derived from the tuning's seed (no check plays them:
    `checking.check_seeds`)."""
    digest = hashlib.sha256(f"uno-attack tune {seed} round {round_}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _survivors(trials: list[Trial], alive: list[int], target: Target) -> list[int]:
    """Those who may still be the nearest to the target: droughts within the bound, not
    surely farther than the best, and the nearest KEEP of the field at most."""
    allowed = [i for i in alive if trials[i].allowed(target)]
    if not allowed:
        return []
    best = min(trials[i].farthest(target) for i in allowed)
    near = [i for i in allowed if trials[i].nearest(target) <= best]
    near.sort(key=lambda i: trials[i].error(target))
    return near[: max(FINALISTS, math.ceil(len(alive) * KEEP))]


def _finalists(trials: list[Trial], alive: list[int], target: Target) -> list[int]:
    allowed = sorted(
        (i for i in alive if trials[i].allowed(target)), key=lambda i: trials[i].error(target)
    )
    return allowed[:FINALISTS]


def _best(trials: list[Trial], target: Target) -> Trial | None:
    played = [t for t in trials if t.tally.deals and t.allowed(target)]
    return min(played, key=lambda t: (-t.tally.deals, t.error(target)), default=None)


def _planned(candidates: int, games: int) -> int:
    """The most candidate rounds the race can take (each round keeps KEEP of the field at
    most)."""
    total, alive, played = 0, candidates, 0
    while alive and played < games:
        total += alive
        played += min(FIRST_DEALS, games) if played == 0 else min(played, games - played)
        alive = max(min(FINALISTS, alive), math.ceil(alive * KEEP))
    return total


class _Shown:
    """The race's progress: rounds not played (the field shrank faster) count as done."""

    def __init__(self, progress: Progress | None, planned: int) -> None:
        self.progress, self.planned = progress, planned
        self.done = 0
        self.best: Trial | None = None

    def step(self, best: Trial | None) -> None:
        self.done, self.best = self.done + 1, best
        if self.progress is not None:
            self.progress(min(self.done, self.planned), self.planned, best)

    def finish(self) -> None:
        if self.progress is not None and self.done < self.planned:
            self.done = self.planned
            self.progress(self.planned, self.planned, self.best)


def finalists(trials: Sequence[Trial]) -> list[Trial]:
    """The race's finalists: those that played all its deals, best first."""
    most = max((t.tally.deals for t in trials), default=0)
    return [t for t in trials[:FINALISTS] if t.tally.deals == most and most]
