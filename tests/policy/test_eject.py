"""The eject policy: realised distributions, drought bound, capping, determinism, TOML loading."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from controller.policy import (
    PROFILES,
    EjectDecision,
    EjectPolicy,
    Profile,
    ProfileError,
    ScriptedPolicy,
    ScriptExhausted,
    load_profile,
    profile_from_toml,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "hardware" / "eject-profiles" / "party.toml"
PRESSES = 120_000

UNBOUNDED = Profile(name="unbounded", fire_probability=0.3, counts=((1, 1.0), (2, 2.0), (5, 1.0)))


def chi_square(observed: Counter[int], expected: dict[int, float], n: int) -> tuple[float, int]:
    """Pearson's statistic over bins merged from the tail until each expects >= 5 presses."""
    bins: list[tuple[float, float]] = []
    obs_acc = exp_acc = 0.0
    for k in sorted(set(expected) | set(observed)):
        obs_acc += observed.get(k, 0)
        exp_acc += expected.get(k, 0.0) * n
        if exp_acc >= 5:
            bins.append((obs_acc, exp_acc))
            obs_acc = exp_acc = 0.0
    if exp_acc or obs_acc:
        last_obs, last_exp = bins.pop()
        bins.append((last_obs + obs_acc, last_exp + exp_acc))
    stat = sum((o - e) ** 2 / e for o, e in bins)
    return stat, len(bins) - 1


def chi_square_critical(df: int, z: float = 3.0902) -> float:
    """Upper 0.1 % point of chi-square (Wilson-Hilferty approximation)."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def run(profile: Profile, seed: int, presses: int, remaining: int = 10_000) -> list[EjectDecision]:
    policy = EjectPolicy(profile, random.Random(seed))
    return [policy.decide(remaining) for _ in range(presses)]


@pytest.mark.parametrize("name", ["toy", "gentle", "brutal", "unbounded"])
def test_policy_distribution_matches_profile(name: str) -> None:
    profile = UNBOUNDED if name == "unbounded" else PROFILES[name]
    decisions = run(profile, seed=20260, presses=PRESSES)
    observed = Counter(d.cards for d in decisions)
    stat, df = chi_square(observed, profile.distribution(), PRESSES)
    assert df >= 3
    assert stat < chi_square_critical(df), (stat, df, observed)


def test_policy_chi_square_detects_a_small_mismatch() -> None:
    toy = PROFILES["toy"]
    nearby = Profile(**{**toy.__dict__, "name": "nearby", "fire_probability": 0.27})
    observed = Counter(d.cards for d in run(nearby, seed=20260, presses=PRESSES))
    stat, df = chi_square(observed, toy.distribution(), PRESSES)
    assert stat > chi_square_critical(df)


def test_policy_draw_one_always_one_card() -> None:
    decisions = run(PROFILES["draw-one"], seed=1, presses=5_000)
    assert {(d.cards, d.reason) for d in decisions} == {(1, "fire")}


def test_policy_toy_looks_like_the_toy() -> None:
    toy = PROFILES["toy"]
    counts = toy.count_distribution()
    assert 0.25 <= toy.fire_rate() <= 0.35
    assert 3 <= max(counts, key=lambda k: counts[k]) <= 8
    assert max(k for k, _ in toy.counts) == 12
    assert 0 < toy.jackpot_probability <= 0.05
    assert toy.max_drought == 8


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_policy_drought_bound_never_exceeded(name: str) -> None:
    profile = PROFILES[name]
    decisions = run(profile, seed=7, presses=PRESSES)
    longest = max(
        (
            len(list(group))
            for miss, group in itertools.groupby(d.cards == 0 for d in decisions)
            if miss
        ),
        default=0,
    )
    assert profile.max_drought is not None
    assert longest <= profile.max_drought
    if profile.max_drought:
        assert longest == profile.max_drought  # the bound is reached, not just respected
        assert any(d.reason == "countdown" for d in decisions)


def test_policy_cards_never_exceed_remaining() -> None:
    rng = random.Random(3)
    policy = EjectPolicy(PROFILES["brutal"], random.Random(4))
    for _ in range(50_000):
        remaining = rng.randrange(0, 16)
        decision = policy.decide(remaining)
        assert decision.cards == min(decision.wanted, remaining)
        if decision.wanted and remaining == 0:
            assert decision.reason == "empty"
        elif decision.wanted > remaining:
            assert decision.reason == "capped"
        else:
            assert decision.reason in {"miss", "fire", "countdown", "jackpot"}
        assert 0.0 <= decision.tension <= 1.0


def test_policy_negative_remaining_is_an_error() -> None:
    with pytest.raises(ValueError, match="remaining"):
        EjectPolicy(PROFILES["toy"], random.Random(0)).decide(-1)


def test_policy_same_seed_same_sequence() -> None:
    assert run(PROFILES["toy"], 99, 5_000) == run(PROFILES["toy"], 99, 5_000)
    assert run(PROFILES["toy"], 99, 5_000) != run(PROFILES["toy"], 100, 5_000)


def test_policy_reset_restarts_the_countdown() -> None:
    policy = EjectPolicy(PROFILES["toy"], random.Random(5))
    while policy.decide(100).cards != 0:
        pass
    assert policy.tension > 0
    policy.reset()
    assert policy.tension == 0


def test_policy_tension_rises_until_the_forced_fire() -> None:
    profile = Profile(name="fixed", fire_probability=0.0, max_drought=4, counts=((2, 1.0),))
    policy = EjectPolicy(profile, random.Random(0))
    tensions = [policy.tension]
    reasons = []
    for _ in range(5):
        decision = policy.decide(100)
        tensions.append(decision.tension)
        reasons.append(decision.reason)
    assert reasons == ["miss"] * 4 + ["countdown"]
    assert tensions[:5] == sorted(tensions[:5]) and tensions[4] == 1.0
    assert tensions[5] == 0.0


def test_policy_jackpot_reason_and_range() -> None:
    profile = Profile(
        name="jp",
        fire_probability=1.0,
        counts=((1, 1.0),),
        jackpot_probability=0.5,
        jackpot_min=10,
        jackpot_max=12,
    )
    decisions = run(profile, seed=2, presses=2_000)
    jackpots = [d for d in decisions if d.reason == "jackpot"]
    assert 800 < len(jackpots) < 1200
    assert {d.cards for d in jackpots} == {10, 11, 12}


def test_scripted_policy_plays_back_and_runs_out() -> None:
    policy = ScriptedPolicy([0, 3, 5, 2])
    got = [policy.decide(4) for _ in range(3)] + [policy.decide(0)]
    assert [(d.cards, d.wanted, d.reason) for d in got] == [
        (0, 0, "miss"),
        (3, 3, "fire"),
        (4, 5, "capped"),
        (0, 2, "empty"),
    ]
    with pytest.raises(ScriptExhausted, match="ran out after 4 presses"):
        policy.decide(10)
    policy.reset()
    assert policy.left == 4 and policy.decide(10).cards == 0


def test_scripted_policy_rejects_negative_values() -> None:
    with pytest.raises(ValueError, match="script values"):
        ScriptedPolicy([1, -1])


GOOD = {"name": "p", "fire_probability": 0.5, "counts": ((1, 1.0),)}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"fire_probability": 1.5}, "fire_probability"),
        ({"fire_probability": True}, "fire_probability"),
        ({"fire_probability": 0.0}, "fire_probability"),
        ({"counts": ()}, "counts"),
        ({"counts": ((0, 1.0),)}, "counts: card count"),
        ({"counts": ((1, 1.0), (1, 2.0))}, "appears twice"),
        ({"counts": ((1, -1.0),)}, "weight for 1"),
        ({"counts": ((1, 0.0),)}, "must not all be zero"),
        ({"max_drought": -1}, "max_drought"),
        ({"max_drought": 2.5}, "max_drought"),
        ({"drought_floor": 2}, "drought_floor needs max_drought"),
        ({"max_drought": 3, "drought_floor": 4}, "drought_floor"),
        ({"jackpot_probability": 2.0}, "jackpot_probability"),
        ({"jackpot_probability": 0.1, "jackpot_min": 0, "jackpot_max": 3}, "jackpot_min"),
        ({"jackpot_probability": 0.1, "jackpot_min": 5, "jackpot_max": 3}, "jackpot_max"),
        ({"tension_exponent": 0}, "tension_exponent"),
    ],
)
def test_profile_validation_names_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(ProfileError, match=field):
        Profile(**{**GOOD, **change})  # type: ignore[arg-type]


def test_profile_error_is_a_value_error() -> None:
    assert issubclass(ProfileError, ValueError)


def test_profile_from_toml_example_file() -> None:
    profile = load_profile(str(EXAMPLE))
    assert profile.name == "party"
    assert profile.max_drought == 6 and profile.drought_floor == 3
    assert dict(profile.counts)[4] == 9
    assert (profile.jackpot_min, profile.jackpot_max) == (10, 15)


def test_profile_from_toml_without_base() -> None:
    text = "fire_probability = 0.5\nmax_drought = 3\n[counts]\n1 = 1\n2 = 3\n"
    profile = profile_from_toml(text, "mine")
    assert profile == Profile(
        name="mine", fire_probability=0.5, max_drought=3, counts=((1, 1), (2, 3))
    )


def test_profile_from_toml_base_overrides() -> None:
    profile = profile_from_toml('base = "gentle"\nmax_drought = 4\n', "g4")
    assert profile.counts == PROFILES["gentle"].counts and profile.max_drought == 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('base = "toy"\nfire_prob = 0.3\n', "unknown key 'fire_prob'"),
        ('base = "toy"\n[jackpot]\nchance = 0.1\n', "unknown key 'jackpot.chance'"),
        ('base = "toy"\n[counts]\nthree = 1\n', "unknown key 'counts.three'"),
        ('base = "toy"\ncounts = 3\n', "counts must be a table"),
        ('base = "toy"\njackpot = 3\n', "jackpot must be a table"),
        ('base = "nope"\n', "base must be one of"),
        ("fire_probability = 0.3\n", "counts is required"),
        ("[counts]\n1 = 1\n", "fire_probability is required"),
        ('base = "toy"\nmax_drought = "8"\n', "max_drought"),
        ("fire_probability = = 1\n", "invalid TOML"),
    ],
)
def test_profile_from_toml_errors(text: str, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        profile_from_toml(text, "bad")


def test_load_profile_by_name_and_errors(tmp_path: Path) -> None:
    assert load_profile("brutal") is PROFILES["brutal"]
    with pytest.raises(ProfileError, match="unknown eject profile 'wild'"):
        load_profile("wild")
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(str(tmp_path / "missing.toml"))
