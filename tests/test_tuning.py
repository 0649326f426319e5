"""The tuning behind `uno-attack tune`: the same result however many processes play the deals,
a claim only when the check's whole interval lies within the tolerance, a race that keeps
droughts within the bound, and steering along a line of the grid. Small sizes; nothing here
judges how long anything takes (that is `python -m benchmarks engine`)."""

from __future__ import annotations

import dataclasses

import pytest

from controller.engine import Rules
from controller.policy import PROFILES
from controller.simulation import Pace, simulate
from controller.tuning import (
    Check,
    Runner,
    Table,
    Tally,
    Target,
    candidates,
    check_one,
    check_seeds,
    more,
    race,
    steered,
    tune,
)

TABLE = Table(Rules.create("attack"), 4)
HOUSE = Table(Rules.create("attack", uno_after_trade_receiver=True), 3)  # the validated path
PACE = Pace(60, 0)  # a "turn" is a minute: a tally of made-up deals reads directly


def _tally(*minutes: float, drought: int = 0) -> Tally:
    tally = Tally(PACE)
    for each in minutes:
        tally = tally.add(each, 0, drought)  # type: ignore[arg-type] - minutes as "turns"
    return tally


def _check(tally: Tally, target: Target, planned: int | None = None) -> Check:
    return Check(PROFILES["toy"], tally, 1, target, planned or tally.deals)


def test_a_check_meets_the_target_only_with_its_whole_interval_inside() -> None:
    target = Target(10, 1)
    steady = _tally(*[9.8, 10.2] * 50)  # mean 10, interval about ± 0.04
    assert _check(steady, target).meets
    assert "meets the target" in _check(steady, target).verdict()
    straddling = _tally(*[9, 12] * 8)  # mean 10.5, interval about ± 0.78: reaches past 11
    assert abs(straddling.mean - 10.5) < 1e-9 and straddling.half_width > 0.5
    assert not _check(straddling, target).meets
    assert "cannot be said to meet" in _check(straddling, target).verdict()
    outside = _tally(*[11.8, 12.2] * 50)
    assert "misses the target" in _check(outside, target).verdict()


def test_a_check_with_a_long_drought_or_stopped_early_claims_nothing() -> None:
    target = Target(10, 1, max_drought=4)
    dry = _tally(*[9.8, 10.2] * 50, drought=5)
    assert not _check(dry, target).meets and "drought of 5" in _check(dry, target).verdict()
    stopped = _check(_tally(*[9.8, 10.2] * 50), target, planned=1000)
    assert stopped.stopped_early and not stopped.meets
    assert "too far" in stopped.verdict()


def test_a_check_counts_the_deals_simulate_plays_from_its_seeds() -> None:
    target = Target(8, 1)
    made = check_one(Runner(TABLE), PROFILES["gentle"], target, seed=3, games=40, stream=2)
    ((seed, deals),) = check_seeds(3, 40, 2)
    summary = simulate(Rules.create("attack"), 4, deals, seed, PROFILES["gentle"])
    assert made.tally.deals == summary.games == 40
    assert made.minutes == summary.mean_minutes
    assert made.tally.longest_drought == summary.max_drought
    assert round(made.tally.mean_presses, 2) == summary.mean_presses
    assert check_seeds(3, 40, 1) != check_seeds(3, 40, 2)  # each check has deals of its own


def test_the_same_tuning_in_one_process_or_two() -> None:
    target = Target(9, 2, max_drought=6)
    tried = candidates(PROFILES["gentle"], target)[::8]  # a small grid
    once = tune(HOUSE, tried, target, games=8, seed=5, jobs=1, check_with=60)
    twice = tune(HOUSE, tried, target, games=8, seed=5, jobs=2, check_with=60)
    assert once.path == "validated"
    assert [(t.profile, t.tally) for t in once.trials] == [
        (t.profile, t.tally) for t in twice.trials
    ]
    assert [(c.profile, c.tally) for c in once.checks] == [
        (c.profile, c.tally) for c in twice.checks
    ]


def test_the_race_drops_whoever_breaks_the_drought_bound() -> None:
    target = Target(9, 2, max_drought=2)
    bounded = candidates(PROFILES["toy"], target)[:8]
    loose = [dataclasses.replace(p, max_drought=12, drought_floor=12) for p in bounded[:4]]
    loose = [dataclasses.replace(p, fire_probability=0.01) for p in loose]  # long droughts
    trials = race(Runner(TABLE), [*loose, *bounded], target, games=16, seed=2)
    finalists = [t for t in trials if t.tally.deals == 16]
    assert finalists and all((t.profile.max_drought or 0) <= 2 for t in finalists)
    assert all(t.longest_drought <= 2 for t in finalists)
    assert {id(t.profile) for t in trials} == {id(p) for p in [*loose, *bounded]}


def test_the_race_plays_each_round_on_deals_of_its_own() -> None:
    target = Target(9, 2)
    tried = candidates(PROFILES["toy"], target)[:3]
    trials = race(Runner(TABLE), tried, target, games=12, seed=7)
    by_profile = {id(t.profile): t.tally for t in trials}
    first = check_one(Runner(TABLE), tried[0], target, seed=7, games=4)
    assert by_profile[id(tried[0])] != first.tally  # the check's deals are not the race's


def test_steering_goes_between_the_figures_either_side_of_the_target() -> None:
    profile = PROFILES["toy"]
    low = dataclasses.replace(profile, fire_probability=0.2)
    high = dataclasses.replace(profile, fire_probability=0.3)
    played = [(low, _tally(*[8.0] * 400)), (high, _tally(*[18.0] * 400))]
    target = Target(12, 0.5)
    moved = steered(high, played[1][1], played, target)
    assert moved is not None and 0.2 < moved.fire_probability < 0.3
    # exponential between (0.2, 8) and (0.3, 18): 12 minutes at 0.2 + 0.1 * ln 1.5 / ln 2.25
    assert moved.fire_probability == pytest.approx(0.25, abs=0.001)
    assert dataclasses.replace(moved, fire_probability=0.2) == low  # only the fire moved


def test_steering_follows_the_slope_when_nothing_lies_beyond_the_target() -> None:
    profile = PROFILES["toy"]
    line = [dataclasses.replace(profile, fire_probability=p) for p in (0.1, 0.2)]
    played = [(line[0], _tally(*[4.0] * 400)), (line[1], _tally(*[8.0] * 400))]
    moved = steered(line[1], played[1][1], played, Target(10, 0.5))
    assert moved is not None and moved.fire_probability > 0.2  # up the slope, not past a jump
    assert moved.fire_probability <= 0.3
    assert steered(line[1], played[1][1], played[1:], Target(10, 0.5)) is None  # no slope


def test_a_check_carried_on_plays_only_the_deals_it_had_not_played() -> None:
    target = Target(9, 20)  # nothing stops either check early
    runner = Runner(TABLE)
    half = check_one(runner, PROFILES["gentle"], target, seed=6, games=1000, stream=1)
    whole = check_one(runner, PROFILES["gentle"], target, seed=6, games=2000, stream=1)
    carried = more(runner, half, 2000)
    assert carried.tally == whole.tally and carried.planned == 2000 and not carried.stopped_early
    assert half.tally.deals == 1000 and whole.tally != half.tally
