"""The validated path's random draws, made quicker without changing one of them.

`random.Random.choice(seq)` is `seq[_randbelow(len(seq))]` and `shuffle` calls `_randbelow(i + 1)`
for i = n-1 .. 1, where `_randbelow(n)` takes `getrandbits(n.bit_length())` until it is below
n. `picker(rng)` and `shuffle(rng, cards)` make those very calls without the layers of Python
functions around them; at import they are compared with the originals on this interpreter and,
should a future `random` module draw differently, the originals are used instead.
`EjectDecider` makes the same draws as `EjectPolicy.decide` and returns only the card count.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable

from controller.policy import Profile

_BITS = tuple(n.bit_length() for n in range(1024))

Picker = Callable[[int], int]
"""`pick(n)`: the index `rng.choice` would take from a sequence of n items."""


def _quick_picker(rng: random.Random) -> Picker:
    getrandbits, bits = rng.getrandbits, _BITS
    listed = len(bits)

    def pick(n: int) -> int:
        k = bits[n] if n < listed else n.bit_length()  # (a flooded hand's groups: thousands)
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return pick


def _quick_shuffle(rng: random.Random, cards: list[int]) -> None:
    getrandbits, bits = rng.getrandbits, _BITS
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _same_draws() -> bool:
    """The quick forms draw exactly what `Random.choice` and `Random.shuffle` draw here."""
    ours, theirs = random.Random(12), random.Random(12)
    pick = _quick_picker(ours)
    for n in (*range(1, 70), 128, 200, 1000):
        a, b = list(range(n)), list(range(n))
        _quick_shuffle(ours, a)
        theirs.shuffle(b)
        if a != b or pick(n) != theirs.choice(range(n)):
            return False
    return ours.getstate() == theirs.getstate()


QUICK = len(_BITS) > 200 and _same_draws()


def picker(rng: random.Random) -> Picker:
    """`pick(n) -> index`, drawing from `rng` exactly as `rng.choice` of n items does."""
    if QUICK and type(rng) is random.Random:
        return _quick_picker(rng)
    return lambda n: rng.choice(range(n))


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """`rng.shuffle(cards)`, draw for draw."""
    if QUICK and type(rng) is random.Random and len(cards) < len(_BITS):
        _quick_shuffle(rng, cards)
    else:
        rng.shuffle(cards)


class EjectDecider:
    """`EjectPolicy(profile, rng).decide(remaining).cards`, as one call per press."""

    def __init__(self, profile: Profile, rng: random.Random) -> None:
        self.random = rng.random
        self.randint = rng.randint
        self.fire = profile.fire_probability
        self.top = profile.max_drought
        self.floor = profile.floor or 0
        self.jackpot = profile.jackpot_probability
        self.jackpot_range = (profile.jackpot_min, profile.jackpot_max)
        kept = [(k, float(w)) for k, w in profile.counts if w > 0]
        self.values = [k for k, _ in kept]
        self.cumulative = list(itertools.accumulate(w for _, w in kept))
        self.misses = 0
        self.bound = self._draw_bound()

    def _draw_bound(self) -> int | None:
        top = self.top
        if top is None:
            return None
        return top if self.floor == top else self.randint(self.floor, top)

    def __call__(self, remaining: int) -> int:
        """The cards one press gives when `remaining` could come out."""
        if self.random() < self.fire or (self.bound is not None and self.misses >= self.bound):
            wanted = self._fired()
        else:
            self.misses += 1
            return 0
        return wanted if wanted < remaining else remaining

    def _fired(self) -> int:
        self.misses = 0
        self.bound = self._draw_bound()
        if self.jackpot and self.random() < self.jackpot:
            return self.randint(*self.jackpot_range)
        x = self.random() * self.cumulative[-1]
        values = self.values
        return values[min(bisect.bisect_right(self.cumulative, x), len(values) - 1)]
