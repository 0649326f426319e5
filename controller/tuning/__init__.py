"""Tuning an eject profile by simulation: behind `uno-attack tune`.

The candidates are a grid around a base profile (`grid`). They race (`racing`): every one plays a
few deals, the nearest go on to more, until a handful of finalists remain. The finalists are
then checked on fresh deals (`checking`), steered along their line of the grid when a check near
the target misses it (`steer`), until one meets the target: its whole 95 % interval on fresh
deals within the tolerance. The figures the command reports and writes are the check's.
Deals are played in worker processes (`deals.Runner`); the result never depends on how many.

A deal's minutes vary about as much as their mean (a 12-minute deal is often 4, sometimes 40),
and one profile's deals hardly say anything about another's on the same shuffles: knowing a
length within a quarter of a minute takes thousands of deals. The race spends few of them on
the many candidates far off, and the checks spend many on the few near.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from controller.policy import Profile

from .checking import Check, Told, check, check_games, check_one, check_seeds, more
from .deals import Runner, Table, Tally, play
from .grid import Target, candidates
from .racing import Progress, Trial, finalists, race, round_seed
from .steer import steered

__all__ = [
    "Check",
    "Progress",
    "Runner",
    "Table",
    "Tally",
    "Target",
    "Told",
    "Trial",
    "Tuned",
    "candidates",
    "check",
    "check_games",
    "check_one",
    "check_seeds",
    "finalists",
    "more",
    "play",
    "profile_toml",
    "race",
    "round_seed",
    "steered",
    "tune",
]


@dataclass(frozen=True)
class Tuned:
    """A whole tuning: the race's trials (finalists first) and the checks made."""

    trials: list[Trial]
    checks: list[Check]
    path: str

    @property
    def chosen(self) -> Check | None:
        """The first finalist, in the race's order, whose check meets the target."""
        return next((c for c in self.checks if c.meets), None)

    @property
    def deals(self) -> int:
        """Deals played in all: the race's and the checks'."""
        return sum(t.tally.deals for t in self.trials) + sum(c.tally.deals for c in self.checks)


def tune(
    table: Table,
    profiles: Iterable[Profile],
    target: Target,
    *,
    games: int,
    seed: int,
    jobs: int = 1,
    check_with: int | None = None,
    progress: Progress | None = None,
) -> Tuned:
    """Race the candidates, then check the finalists on fresh deals."""
    with Runner(table, jobs) as runner:
        trials = race(runner, profiles, target, games=games, seed=seed, progress=progress)
        checks = check(runner, trials, target, seed=seed, games=check_with)
    return Tuned(trials, checks, table.path)


def profile_toml(profile: Profile, comment: str, description: str = "") -> str:
    """The profile as a TOML probability table (the format `load_profile` reads)."""
    lines = [f"# {line}" for line in comment.splitlines()]
    if description:
        lines.append(f"description = {_toml_string(description)}")
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


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for one line of text)."""
    return json.dumps(text, ensure_ascii=False)
