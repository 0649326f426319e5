"""A debounced switch (the UNO button, the lid) read in an interrupt.

Debounce is a *stability filter*: a new level counts only once the pin has held it for
`debounce_ms`. The motor's noise couples microsecond spikes into long switch wires; a filter
that committed the first edge would turn each spike into a press charged to whoever owes one.
Here a spike comes and goes before the level is stable, so it is nothing; a bouncing contact
counts once, when it has settled. The change is dated when the stable level began (the last
bounce), not when it was confirmed.

The interrupt notes when the pin left its stable level, and commits the level it is leaving if
that one held long enough (allocation-free, as MicroPython's hard IRQs require); the main
loop's `poll()` commits a level that has held long enough; both write a preallocated ring, and
`take()` hands the changes over.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

from array import array

RING = 16

# slots of the state array
_STABLE = 0  # the debounced level: 1 active, 0 not
_PENDING = 1  # the pin differs from the stable level...
_SINCE = 2  # ...since this tick (ms)
_HEAD = 3  # ring of committed changes
_TAIL = 4
_PRESSES = 5  # changes to active since boot
_SLOTS = 6


class Switch:
    """`active_level` is the pin level that means pressed (button) or open (lid)."""

    def __init__(
        self,
        pin: Any,
        clock: Any,
        irq_off: Any,
        irq_on: Any,
        active_level: int = 0,
        debounce_ms: int = 5,
    ) -> None:
        self._pin = pin
        self._ticks = clock.ticks_ms
        self._diff = clock.ticks_diff
        self._irq_off = irq_off
        self._irq_on = irq_on
        self._active = active_level
        self.debounce_ms = debounce_ms
        self._s = array("i", [0] * _SLOTS)
        self._s[_STABLE] = self._level()
        self._levels = array("b", [0] * RING)
        self._times = array("i", [0] * RING)

    def _level(self) -> int:
        return 1 if self._pin.value() == self._active else 0

    @property
    def active(self) -> bool:
        """The debounced level."""
        return bool(self._s[_STABLE])

    @property
    def presses(self) -> int:
        """How many times the switch has become active since boot."""
        return int(self._s[_PRESSES])

    def irq(self, pin: Any) -> None:
        """Hard IRQ on both edges: a level that held long enough before this edge counts (even
        if the main loop never looked meanwhile); then note where the pin went."""
        now = self._ticks()
        s = self._s
        if s[_PENDING] and self._diff(now, s[_SINCE]) >= self.debounce_ms:
            self._commit(s[_SINCE], 1 - s[_STABLE])
        self._track(now, self._level())

    def _track(self, now: int, level: int) -> None:
        s = self._s
        if level == s[_STABLE]:
            s[_PENDING] = 0  # a spike or a bounce: back where it was
        elif not s[_PENDING]:
            s[_PENDING] = 1
            s[_SINCE] = now

    def poll(self, now: int) -> None:
        """Commit a level that has been stable for `debounce_ms` (from the main loop)."""
        state = self._irq_off()
        s = self._s
        self._track(now, self._level())  # also catches an edge whose interrupt was missed
        if s[_PENDING] and self._diff(now, s[_SINCE]) >= self.debounce_ms:
            self._commit(s[_SINCE], 1 - s[_STABLE])
        self._irq_on(state)

    def _commit(self, when: int, level: int) -> None:
        s = self._s
        s[_STABLE] = level
        s[_PENDING] = 0
        if level:
            s[_PRESSES] += 1
        head = s[_HEAD]
        self._levels[head] = level
        self._times[head] = when
        s[_HEAD] = (head + 1) % RING
        if s[_HEAD] == s[_TAIL]:
            s[_TAIL] = (s[_TAIL] + 1) % RING  # full: the oldest change is dropped

    def take(self) -> list[tuple[bool, int, int]]:
        """``[(active, ticks_ms, count), ...]``: changes since the last call, oldest first;
        `count` is `presses` as of that change."""
        state = self._irq_off()
        s = self._s
        changes = []
        presses = s[_PRESSES]
        while s[_TAIL] != s[_HEAD]:
            changes.append((bool(self._levels[s[_TAIL]]), self._times[s[_TAIL]]))
            s[_TAIL] = (s[_TAIL] + 1) % RING
        self._irq_on(state)
        result = []
        later = sum(1 for active, _ in changes if active)
        seen = presses - later
        for active, when in changes:
            if active:
                seen += 1
            result.append((active, when, seen))
        return result
