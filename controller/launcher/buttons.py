"""UNO button handling: debounce, long press and the stuck-button detector, as a pure state machine.

Debounce is *leading edge with a lock-out*: the first edge of a press counts at once (a press
must feel instant: the chimes and the motor follow it within milliseconds), then edges are
ignored for `debounce_ms`; when the lock-out ends the latest level wins, so a bounce that
settles either way is followed correctly. The mock pins ignore gpiozero's ``bounce_time`` and the
real backends debounce differently, so this is done here, on timestamps, for every backend.

A button held past `stuck_ms` yields one ``stuck`` event (a fault for a person to clear), never
more presses. A button already held when the launcher starts yields no press at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from controller.launcher.pins import PressTuning

ButtonEventKind = Literal["press", "long_press", "stuck", "release"]


@dataclass(frozen=True)
class ButtonEvent:
    """One stamped button event. `seq` is the press number it belongs to (1, 2, ...; 0 for a
    button that was already held at start), `t` the monotonic time it happened, `held` how long
    the button had been down at that moment."""

    kind: ButtonEventKind
    seq: int
    t: float
    held: float = 0.0


class PressDetector:
    """Turns raw timestamped button levels into stamped `ButtonEvent`s."""

    def __init__(self, tuning: PressTuning, *, start: float, pressed: bool = False) -> None:
        self._debounce = tuning.debounce_ms / 1e3
        self._long = tuning.long_press_ms / 1e3
        self._stuck = tuning.stuck_ms / 1e3
        self.seq = 0
        self._stable = pressed
        self._raw = pressed
        self._lock_until = -math.inf
        self._down_at = start
        self._long_sent = pressed  # a button held at start is not a long press...
        self._stuck_sent = False  # ...but it can be stuck

    @property
    def pressed(self) -> bool:
        """The debounced level."""
        return self._stable

    def edge(self, t: float, pressed: bool) -> list[ButtonEvent]:
        """A raw level change at time `t` (edges must arrive in time order)."""
        events = self.poll(t)
        self._raw = pressed
        if t >= self._lock_until and pressed != self._stable:
            events.extend(self._commit(t, pressed))
        return events

    def poll(self, now: float) -> list[ButtonEvent]:
        """Events due by `now`: a level settled after a lock-out, a long press, a stuck button."""
        events: list[ButtonEvent] = []
        if now >= self._lock_until and self._raw != self._stable:
            events.extend(self._commit(self._lock_until, self._raw))
        if self._stable:
            events.extend(self._held_events(now))
        return events

    def next_deadline(self) -> float:
        """When `poll()` next has something to do (inf: only on an edge)."""
        due = [math.inf]
        if self._raw != self._stable:
            due.append(self._lock_until)
        if self._stable and not self._long_sent:
            due.append(self._down_at + self._long)
        if self._stable and not self._stuck_sent:
            due.append(self._down_at + self._stuck)
        return min(due)

    def _commit(self, t: float, pressed: bool) -> list[ButtonEvent]:
        self._stable = pressed
        self._lock_until = t + self._debounce
        if pressed:
            self.seq += 1
            self._down_at = t
            self._long_sent = self._stuck_sent = False
            return [ButtonEvent("press", self.seq, t)]
        return [ButtonEvent("release", self.seq, t, t - self._down_at)]

    def _held_events(self, now: float) -> list[ButtonEvent]:
        events = []
        if not self._long_sent and now - self._down_at >= self._long:
            self._long_sent = True
            events.append(
                ButtonEvent("long_press", self.seq, self._down_at + self._long, self._long)
            )
        if not self._stuck_sent and now - self._down_at >= self._stuck:
            self._stuck_sent = True
            events.append(ButtonEvent("stuck", self.seq, self._down_at + self._stuck, self._stuck))
        return events
