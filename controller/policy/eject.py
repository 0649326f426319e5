"""The eject policy: how many cards one press of the UNO button yields.

This is the product's "random eject behaviour". The original toy indexes a notched disc on every
press, so it fires on some presses and not others, never keeps players waiting forever, and
shoots several cards when it does fire. A policy reproduces that from a `Profile` (pure data) and
an injected `random.Random`. A policy (`EjectPolicy`, `ScriptedPolicy`) reads no clock and does
no I/O, so a seed replays a game exactly and the simulators can call it hundreds of thousands of
times a second. Files are read only to get a profile: `load_profile` reads a custom profile's
``.toml`` file, and a table's shelf of custom profiles (`controller.policy.custom_profiles`)
reads the ones in its folders.

The model, per press:

1. With probability `fire_probability` the launcher fires.
2. Otherwise, if the *hidden countdown* has run out it fires anyway (reason ``"countdown"``); the
   countdown is the number of empty presses allowed before a forced fire, drawn uniformly from
   ``drought_floor..max_drought`` after every fire, so droughts are bounded but not predictable.
   ``max_drought`` unset means no bound.
3. A firing press draws its count from `counts` (weights by number of cards), or, with
   probability `jackpot_probability`, a jackpot burst uniform in ``jackpot_min..jackpot_max``.
4. The launcher never asks for more cards than remain (reason ``"capped"``, or ``"empty"``).

`tension` is 0 right after a fire and rises to 1 as the hidden countdown nears zero (raised to
`tension_exponent` to shape the curve); the lights and chimes speed up with it.

Custom profiles are TOML probability tables. Every key is optional except where noted; ``base``
starts from a built-in profile and overrides what the file sets. Unknown keys are errors::

    description = "Ours: quick deals"  # optional: one line the set-up page shows
    base = "toy"                # optional: start from a built-in profile
    fire_probability = 0.25     # chance that a press fires (0..1; required without base)
    max_drought = 8             # most empty presses in a row; omit for no bound
    drought_floor = 4           # hidden countdown drawn from drought_floor..max_drought
    tension_exponent = 1.5      # tension = progress ** exponent

    [counts]                    # cards when it fires: relative weights (required without base)
    1 = 3
    2 = 6
    3 = 10

    [jackpot]                   # a rare burst when it fires
    probability = 0.02
    min = 12
    max = 20

`profile_from_toml(text, name)` parses such a text; `load_profile(name_or_path)` returns a built-in
profile by name or reads a ``.toml`` file (named after its file stem). A table finds custom
profiles by name in its folders: `controller.policy.custom_profiles`.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

__all__ = [
    "PROFILES",
    "EjectDecision",
    "EjectPolicy",
    "Policy",
    "Profile",
    "ProfileError",
    "ScriptExhausted",
    "ScriptedPolicy",
    "load_profile",
    "profile_from_toml",
]


class ProfileError(ValueError):
    """An eject profile is invalid; the message names the offending field or key."""


class ScriptExhausted(IndexError):
    """A `ScriptedPolicy` was asked for more presses than its script holds."""


@dataclass(frozen=True)
class Profile:
    """The data describing one eject distribution. Validated on construction.

    `counts` holds ``(cards, weight)`` pairs for a firing press; weights need not sum to 1.
    """

    name: str
    fire_probability: float
    counts: tuple[tuple[int, float], ...]
    max_drought: int | None = None
    drought_floor: int | None = None
    jackpot_probability: float = 0.0
    jackpot_min: int = 0
    jackpot_max: int = 0
    tension_exponent: float = 1.0

    def __post_init__(self) -> None:
        _check_name(self.name)
        _check_probability("fire_probability", self.fire_probability)
        _check_counts(self.counts)
        _check_drought(self.max_drought, self.drought_floor, self.fire_probability)
        _check_jackpot(self.jackpot_probability, self.jackpot_min, self.jackpot_max)
        if not _is_number(self.tension_exponent) or self.tension_exponent <= 0:
            raise ProfileError(f"tension_exponent must be > 0, got {self.tension_exponent!r}")

    @property
    def floor(self) -> int | None:
        """The smallest hidden countdown (``drought_floor``, defaulting to ``max_drought``)."""
        return self.max_drought if self.drought_floor is None else self.drought_floor

    def fire_rate(self) -> float:
        """The long-run fraction of presses that fire (exact, from the renewal structure)."""
        return 1.0 / self._mean_cycle()

    def count_distribution(self) -> dict[int, float]:
        """P(k cards | the press fires), jackpot included."""
        total = sum(w for _, w in self.counts)
        jackpot = self.jackpot_probability
        dist = {k: (1.0 - jackpot) * w / total for k, w in self.counts if w > 0}
        if jackpot > 0:
            size = self.jackpot_max - self.jackpot_min + 1
            for k in range(self.jackpot_min, self.jackpot_max + 1):
                dist[k] = dist.get(k, 0.0) + jackpot / size
        return dict(sorted(dist.items()))

    def distribution(self) -> dict[int, float]:
        """P(k cards) for one press in the long run, with unlimited cards remaining."""
        rate = self.fire_rate()
        dist = {0: 1.0 - rate}
        for k, p in self.count_distribution().items():
            dist[k] = rate * p
        return dist

    def _mean_cycle(self) -> float:
        """Expected presses from one fire to the next (inclusive)."""
        p = self.fire_probability
        if self.max_drought is None:
            return 1.0 / p
        bounds = range(self.floor or 0, self.max_drought + 1)
        return sum(_mean_presses(p, b) for b in bounds) / len(bounds)


def _mean_presses(p: float, bound: int) -> float:
    """Expected presses until a fire when at most `bound` empty presses may precede it."""
    return sum((1.0 - p) ** j for j in range(bound + 1))


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ProfileError(f"name must be a non-empty string, got {name!r}")


def _check_probability(field_name: str, value: object) -> None:
    if not (isinstance(value, int | float) and _is_number(value) and 0.0 <= value <= 1.0):
        raise ProfileError(f"{field_name} must be a number within 0..1, got {value!r}")


def _check_counts(counts: object) -> None:
    if not isinstance(counts, tuple) or not counts:
        raise ProfileError("counts must be a non-empty table of cards = weight")
    seen: set[int] = set()
    total = 0.0
    for pair in counts:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise ProfileError(f"counts entries must be (cards, weight) pairs, got {pair!r}")
        k, w = pair
        if not (isinstance(k, int) and _is_int(k) and k >= 1):
            raise ProfileError(f"counts: card count must be an integer >= 1, got {k!r}")
        if k in seen:
            raise ProfileError(f"counts: card count {k} appears twice")
        seen.add(k)
        if not (isinstance(w, int | float) and _is_number(w) and w >= 0):
            raise ProfileError(f"counts: weight for {k} must be a number >= 0, got {w!r}")
        total += w
    if total <= 0:
        raise ProfileError("counts: the weights must not all be zero")


def _check_drought(max_drought: object, floor: object, fire_probability: float) -> None:
    if max_drought is None:
        if floor is not None:
            raise ProfileError("drought_floor needs max_drought")
        if fire_probability <= 0:
            raise ProfileError("fire_probability is 0 and max_drought is unset: it never fires")
        return
    if not (isinstance(max_drought, int) and _is_int(max_drought) and max_drought >= 0):
        raise ProfileError(f"max_drought must be an integer >= 0, got {max_drought!r}")
    if floor is not None and not (isinstance(floor, int) and _is_int(floor) and floor >= 0):
        raise ProfileError(f"drought_floor must be an integer >= 0, got {floor!r}")
    if floor is not None and floor > max_drought:
        raise ProfileError(f"drought_floor must be <= max_drought ({max_drought}), got {floor}")


def _check_jackpot(probability: float, low: object, high: object) -> None:
    _check_probability("jackpot_probability", probability)
    if probability == 0:
        return
    if not (isinstance(low, int) and _is_int(low) and low >= 1):
        raise ProfileError(f"jackpot_min must be an integer >= 1, got {low!r}")
    if not (isinstance(high, int) and _is_int(high) and high >= low):
        raise ProfileError(f"jackpot_max must be an integer >= jackpot_min, got {high!r}")


def _weights(pairs: Mapping[int, float]) -> tuple[tuple[int, float], ...]:
    return tuple(sorted(pairs.items()))


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        # Like the Mattel launcher: ~29 % of presses fire, never more than 8 empty in a row,
        # usually 3-8 cards with a tail to 12, and a 2 % jackpot of 12-20.
        Profile(
            name="toy",
            fire_probability=0.25,
            max_drought=8,
            drought_floor=4,
            counts=_weights(
                {1: 3, 2: 6, 3: 10, 4: 12, 5: 12, 6: 11, 7: 9, 8: 7, 9: 4, 10: 3, 11: 2, 12: 1}
            ),
            jackpot_probability=0.02,
            jackpot_min=12,
            jackpot_max=20,
            tension_exponent=1.5,
        ),
        # Young players: fires a little more often, one to four cards, no jackpot.
        Profile(
            name="gentle",
            fire_probability=0.3,
            max_drought=6,
            drought_floor=3,
            counts=_weights({1: 5, 2: 4, 3: 2, 4: 1}),
            tension_exponent=1.0,
        ),
        # Grown-ups who asked for it: frequent, heavy bursts and a bigger jackpot.
        Profile(
            name="brutal",
            fire_probability=0.4,
            max_drought=5,
            drought_floor=2,
            counts=_weights(
                {3: 2, 4: 4, 5: 7, 6: 9, 7: 9, 8: 8, 9: 6, 10: 4, 11: 3, 12: 2, 13: 1, 14: 1, 15: 1}
            ),
            jackpot_probability=0.05,
            jackpot_min=15,
            jackpot_max=25,
            tension_exponent=2.0,
        ),
        # Classic UNO with the launcher as the draw pile: every press gives exactly one card.
        Profile(name="draw-one", fire_probability=1.0, max_drought=0, counts=((1, 1.0),)),
    )
}


@dataclass(frozen=True)
class EjectDecision:
    """What a press decided: `wanted` cards drawn, `cards` = min(wanted, remaining).

    `reason` is one of ``miss``, ``fire``, ``countdown`` (the drought bound forced it),
    ``jackpot``, ``capped`` (fewer remained) and ``empty`` (none remained); `tension` is the
    policy's tension *after* this press, for the lights.
    """

    cards: int
    wanted: int
    reason: str
    tension: float


class Policy(Protocol):
    """What the launcher and the simulator need from a policy."""

    def decide(self, remaining: int) -> EjectDecision: ...

    @property
    def tension(self) -> float: ...

    def reset(self) -> None: ...


def _finish(wanted: int, reason: str, remaining: int, tension: float) -> EjectDecision:
    if remaining < 0:
        raise ValueError(f"remaining must be >= 0, got {remaining}")
    if wanted > 0 and remaining == 0:
        reason = "empty"
    elif wanted > remaining:
        reason = "capped"
    return EjectDecision(min(wanted, remaining), wanted, reason, tension)


@dataclass
class _Table:
    """Cumulative weights for fast weighted draws."""

    values: list[int] = field(default_factory=list)
    cumulative: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, pairs: Sequence[tuple[int, float]]) -> _Table:
        kept = [(k, float(w)) for k, w in pairs if w > 0]
        return cls([k for k, _ in kept], list(itertools.accumulate(w for _, w in kept)))

    def draw(self, rng: random.Random) -> int:
        x = rng.random() * self.cumulative[-1]
        return self.values[min(bisect.bisect_right(self.cumulative, x), len(self.values) - 1)]


class EjectPolicy:
    """Random eject decisions from a `Profile` and an injected RNG (seed it to replay)."""

    def __init__(self, profile: Profile, rng: random.Random) -> None:
        self.profile = profile
        self._rng = rng
        self._table = _Table.of(profile.counts)
        self._misses = 0
        self._bound: int | None = None
        self.reset()

    def reset(self) -> None:
        """Start a fresh cycle: no misses, a new hidden countdown."""
        self._misses = 0
        self._bound = self._draw_bound()

    @property
    def tension(self) -> float:
        """0 right after a fire, rising to 1 when the next press is certain to fire."""
        p = self.profile.fire_probability
        if self._bound is None:
            progress = 1.0 - (1.0 - p) ** self._misses
        elif self._bound == 0:
            progress = 1.0
        else:
            progress = self._misses / self._bound
        return float(progress**self.profile.tension_exponent)

    def decide(self, remaining: int) -> EjectDecision:
        """Decide one press; never asks for more than `remaining` cards."""
        if remaining < 0:
            raise ValueError(f"remaining must be >= 0, got {remaining}")
        if self._rng.random() < self.profile.fire_probability:
            wanted, reason = self._fire("fire")
        elif self._bound is not None and self._misses >= self._bound:
            wanted, reason = self._fire("countdown")
        else:
            self._misses += 1
            wanted, reason = 0, "miss"
        return _finish(wanted, reason, remaining, self.tension)

    def _fire(self, reason: str) -> tuple[int, str]:
        profile = self.profile
        self._misses = 0
        self._bound = self._draw_bound()
        if profile.jackpot_probability and self._rng.random() < profile.jackpot_probability:
            return self._rng.randint(profile.jackpot_min, profile.jackpot_max), "jackpot"
        return self._table.draw(self._rng), reason

    def _draw_bound(self) -> int | None:
        top = self.profile.max_drought
        if top is None:
            return None
        floor = self.profile.floor or 0
        return top if floor == top else self._rng.randint(floor, top)


class ScriptedPolicy:
    """Plays back a fixed list of k values: for tests and scenario replays."""

    def __init__(self, script: Sequence[int]) -> None:
        for k in script:
            if not _is_int(k) or k < 0:
                raise ValueError(f"script values must be integers >= 0, got {k!r}")
        self._script = tuple(script)
        self._next = 0

    @property
    def tension(self) -> float:
        """Scripts have no countdown: always 0."""
        return 0.0

    @property
    def left(self) -> int:
        """Presses left in the script."""
        return len(self._script) - self._next

    def reset(self) -> None:
        """Rewind to the start of the script."""
        self._next = 0

    def decide(self, remaining: int) -> EjectDecision:
        if self._next >= len(self._script):
            raise ScriptExhausted(
                f"scripted policy ran out after {len(self._script)} presses; add more values"
            )
        wanted = self._script[self._next]
        self._next += 1
        return _finish(wanted, "fire" if wanted else "miss", remaining, 0.0)


# --- TOML loading (the parser lives in profile_toml; these are the stable entry points) ---


def profile_from_toml(text: str, name: str) -> Profile:
    """Build a profile called `name` from a TOML probability table (format: module docstring)."""
    from controller.policy.profile_toml import parse_profile

    return parse_profile(text, name)


def load_profile(name_or_path: str) -> Profile:
    """A built-in profile by name, or a custom one from a ``.toml`` file (named by its stem)."""
    if name_or_path in PROFILES:
        return PROFILES[name_or_path]
    path = Path(name_or_path)
    if path.suffix != ".toml" and not path.exists():
        raise ProfileError(
            f"unknown eject profile {name_or_path!r}: use one of {', '.join(PROFILES)} "
            "or a path to a .toml file"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ProfileError(f"cannot read eject profile {name_or_path!r}: {error}") from None
    return profile_from_toml(text, path.stem)
