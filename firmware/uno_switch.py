"""A debounced switch (the UNO button, the lid) read in an interrupt.

Debounce is *leading edge with a lock-out*, as on the Pi: the first edge of a change counts at
once (a press must feel instant), then edges are ignored for `debounce_ms`; when the lock-out
ends the pin's level wins, so a bounce that settles either way is followed correctly. The
interrupt only records changes in a preallocated ring; the main loop takes them with `take()`
and settles a change that happened during a lock-out with `poll()`.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

from array import array

RING = 16


class Switch:
    """`active_level` is the pin level that means pressed (button) or open (lid)."""

    def __init__(
        self,
        pin: Any,
        clock: Any,
        irq_off: Any,
        irq_on: Any,
        active_level: int = 0,
        debounce_ms: int = 20,
    ) -> None:
        self._pin = pin
        self._ticks = clock.ticks_ms
        self._diff = clock.ticks_diff
        self._add = clock.ticks_add
        self._irq_off = irq_off
        self._irq_on = irq_on
        self._active = active_level
        self.debounce_ms = debounce_ms
        # stable level, lock-out end, ring head, ring tail, changes committed while active
        self._s = array("i", [1 if pin.value() == active_level else 0, clock.ticks_ms(), 0, 0, 0])
        self._levels = array("b", [0] * RING)
        self._times = array("i", [0] * RING)

    @property
    def active(self) -> bool:
        """The debounced level."""
        return bool(self._s[0])

    @property
    def presses(self) -> int:
        """How many times the switch has become active since boot."""
        return int(self._s[4])

    def irq(self, pin: Any) -> None:
        """Hard IRQ on both edges: commit a change at once unless in a lock-out."""
        now = self._ticks()
        level = 1 if self._pin.value() == self._active else 0
        s = self._s
        if level != s[0] and self._diff(now, s[1]) >= 0:
            self._commit(now, level)

    def _commit(self, now: int, level: int) -> None:
        s = self._s
        s[0] = level
        s[1] = self._add(now, self.debounce_ms)
        if level:
            s[4] += 1
        head = s[2]
        self._levels[head] = level
        self._times[head] = now
        s[2] = (head + 1) % RING
        if s[2] == s[3]:
            s[3] = (s[3] + 1) % RING  # full: the oldest change is dropped

    def poll(self, now: int) -> None:
        """After a lock-out, follow the pin if it settled the other way."""
        state = self._irq_off()
        level = 1 if self._pin.value() == self._active else 0
        if level != self._s[0] and self._diff(now, self._s[1]) >= 0:
            self._commit(self._s[1], level)  # the change took effect when the lock-out ended
        self._irq_on(state)

    def take(self) -> list[tuple[bool, int, int]]:
        """``[(active, ticks_ms, count), ...]``: changes since the last call, oldest first;
        `count` is `presses` as of that change."""
        state = self._irq_off()
        s = self._s
        changes = []
        presses = s[4]
        while s[3] != s[2]:
            changes.append((bool(self._levels[s[3]]), self._times[s[3]]))
            s[3] = (s[3] + 1) % RING
        self._irq_on(state)
        result = []
        later = sum(1 for active, _ in changes if active)
        seen = presses - later
        for active, when in changes:
            if active:
                seen += 1
            result.append((active, when, seen))
        return result
