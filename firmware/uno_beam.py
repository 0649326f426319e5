"""Counting cards at the exit break-beam in a hard interrupt, with no allocation.

A card is one *complete* pulse (beam blocked, then clear) whose blocked time lies in the window
``min_pulse_us..max_pulse_us``: shorter is noise, blocked longer is a jam. A clear spell shorter
than ``min_gap_us`` inside a pulse is a sensor dropout and does not split the card in two, so a
pulse is only confirmed once the beam has stayed clear that long: the interrupt confirms it when
the next pulse begins, `poll()` from the main loop when time passes. Same rules as the Pi's
``controller/launcher/pulses.py``; the tests feed both the same edges.

The interrupt handler touches only preallocated integer arrays and small ints (tick counts),
as MicroPython's hard IRQs require. When the run's last card is confirmed inside the interrupt
(the next card's edge arrived first) it calls `on_limit` (the motor's ``off``) at once, so a
stalled main loop can never let one more card through. The main loop reads the arrays between
``irq_off()`` and ``irq_on(state)`` (``machine.disable_irq`` / ``enable_irq`` on the Pico).

`on_progress(count, pending)` is called (from the interrupt, or from `poll`) whenever the count
changes or a card has cleared the beam and waits out `min_gap_us` to be confirmed (`pending`
1). The board writes both to the watchdog's scratch registers, so a reset at any instant of a
run loses no card: a pending card whose beam is still clear after the reset has left.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

from array import array

# slots of the state array
_LEVEL = 0  # the beam's last level: 1 blocked, 0 clear
_ARMED = 1  # counting (a run is going)
_IN = 2  # a pulse is open
_ENDED = 3  # ...and the beam went clear: waiting min_gap to confirm it
_START = 4  # when the pulse began (ticks_us)
_END = 5  # when the beam went clear
_SEG = 6  # when the current blocked segment began
_BLOCKED = 7  # blocked time so far in this pulse (us)
_COUNT = 8  # cards counted
_NOISE = 9  # pulses too short
_OVERLONG = 10  # a pulse longer than the window ended: a jam
_ACTIVITY = 11  # pulses begun since the last card
_LAST = 12  # when the last card cleared the beam
_MIN = 13  # the window, us
_MAX = 14
_GAP = 15
_LIMIT = 16  # stop the motor from the interrupt when this many cards are counted (0: never)
_SLOTS = 17

RING = 32  # widths and times of the last RING cards, for CARD events


class Beam:
    """The pulse counter on one input pin. `blocked_level` is the pin level when blocked."""

    def __init__(
        self, pin: Any, clock: Any, irq_off: Any, irq_on: Any, blocked_level: int = 0
    ) -> None:
        self._pin = pin
        self._ticks = clock.ticks_us
        self._diff = clock.ticks_diff
        self._irq_off = irq_off
        self._irq_on = irq_on
        self._blocked_level = blocked_level
        self._s = array("i", [0] * _SLOTS)
        self.on_limit = None  # called from the interrupt when the limit is reached
        self.on_progress = None  # on_progress(count, pending), from the interrupt too
        self.widths = array("i", [0] * RING)
        self.times = array("i", [0] * RING)
        self._s[_LEVEL] = 1 if pin.value() == blocked_level else 0
        self.set_window(4000, 400000, 10000)

    def set_window(self, min_pulse_us: int, max_pulse_us: int, min_gap_us: int) -> None:
        state = self._irq_off()
        self._s[_MIN] = min_pulse_us
        self._s[_MAX] = max_pulse_us
        self._s[_GAP] = min_gap_us
        self._irq_on(state)

    # --- the interrupt handler (hard IRQ: no allocation, no exceptions) ---

    def irq(self, pin: Any) -> None:
        s = self._s
        now = self._ticks()
        level = 1 if self._pin.value() == self._blocked_level else 0
        if level == s[_LEVEL]:
            return  # a redundant edge (two edges closer than the handler)
        s[_LEVEL] = level
        if s[_ARMED]:
            self._edge(now, level)

    def _edge(self, now: int, blocked: int) -> None:
        s = self._s
        if blocked:
            if s[_ENDED]:
                if self._diff(now, s[_END]) < s[_GAP]:
                    s[_ENDED] = 0  # a dropout inside one card
                    s[_SEG] = now
                    self._report(0)
                    return
                self._finish()
            if not s[_IN]:
                self._begin(now)
        elif s[_IN] and not s[_ENDED]:
            s[_ENDED] = 1
            s[_END] = now
            s[_BLOCKED] += self._diff(now, s[_SEG])
            if s[_GAP] <= 0:
                self._finish()
            elif s[_MIN] <= s[_BLOCKED] <= s[_MAX]:
                self._report(1)  # a card, unless the beam blocks again within min_gap

    def _begin(self, now: int) -> None:
        s = self._s
        s[_IN] = 1
        s[_ENDED] = 0
        s[_START] = now
        s[_SEG] = now
        s[_BLOCKED] = 0
        s[_ACTIVITY] += 1

    def _finish(self) -> None:
        s = self._s
        width = s[_BLOCKED]
        if width < s[_MIN]:
            s[_NOISE] += 1
        elif width > s[_MAX]:
            s[_OVERLONG] = 1
        else:
            slot = s[_COUNT] % RING
            self.widths[slot] = width
            self.times[slot] = s[_END]
            s[_COUNT] += 1
            s[_LAST] = s[_END]
            s[_ACTIVITY] = 0
            if s[_LIMIT] and s[_COUNT] >= s[_LIMIT] and self.on_limit is not None:
                self.on_limit()
        s[_IN] = 0
        s[_ENDED] = 0
        self._report(0)

    def _report(self, pending: int) -> None:
        if self.on_progress is not None:
            self.on_progress(self._s[_COUNT], pending)

    # --- the main loop's side ---

    def arm(self, now: int, limit: int = 0) -> None:
        """Start counting from zero at `now`; a card already in the throat starts a pulse.
        At `limit` cards (0: none) `on_limit` is called from the interrupt."""
        state = self._irq_off()
        s = self._s
        s[_LIMIT] = limit
        for slot in (_IN, _ENDED, _BLOCKED, _COUNT, _NOISE, _OVERLONG, _ACTIVITY):
            s[slot] = 0
        s[_LAST] = now
        s[_LEVEL] = 1 if self._pin.value() == self._blocked_level else 0
        if s[_LEVEL]:
            self._begin(now)
        s[_ARMED] = 1
        self._irq_on(state)

    def disarm(self) -> None:
        """Stop counting. A card that has already cleared the beam has left: it is confirmed
        now rather than after min_gap."""
        state = self._irq_off()
        if self._s[_ARMED] and self._s[_ENDED]:
            self._finish()
        self._s[_ARMED] = 0
        self._irq_on(state)

    def poll(self, now: int) -> None:
        """Confirm a pulse whose beam has stayed clear for min_gap."""
        state = self._irq_off()
        s = self._s
        if s[_ARMED] and s[_ENDED] and self._diff(now, s[_END]) >= s[_GAP]:
            self._finish()
        self._irq_on(state)

    def snapshot(self) -> tuple[int, int, int, bool, bool, int | None, int]:
        """``(count, noise, activity, idle, overlong, blocked_since or None, last_card)``,
        read consistently."""
        state = self._irq_off()
        s = self._s
        since = s[_START] if s[_IN] and not s[_ENDED] else None
        result = (
            s[_COUNT],
            s[_NOISE],
            s[_ACTIVITY],
            not s[_IN],
            bool(s[_OVERLONG]),
            since,
            s[_LAST],
        )
        self._irq_on(state)
        return result

    def jammed(self, now: int) -> bool:
        """Blocked longer than the window allows (now, or in a pulse that already ended)."""
        _count, _noise, _activity, _idle, overlong, since, _last = self.snapshot()
        if overlong:
            return True
        return since is not None and self._diff(now, since) > self._s[_MAX]

    def hold(self) -> int:
        """Interrupts off (pair with `release`): for a check-then-act the IRQ must not split."""
        return int(self._irq_off())

    def release(self, state: int) -> None:
        self._irq_on(state)

    @property
    def blocked(self) -> bool:
        return bool(self._pin.value() == self._blocked_level)

    @property
    def count(self) -> int:
        return int(self._s[_COUNT])

    @property
    def pending(self) -> bool:
        """A card has cleared the beam and waits out min_gap to be confirmed."""
        state = self._irq_off()
        s = self._s
        waiting = bool(s[_ARMED] and s[_ENDED] and s[_MIN] <= s[_BLOCKED] <= s[_MAX])
        self._irq_on(state)
        return waiting
