"""UNO button handling: debounce, long press and the stuck-button detector, as a pure state machine.

Debounce is *settle time*: a level counts only once it has been stable for `debounce_ms`, judged
on the edges' own stamps. A spike of microseconds from the motor's noise is therefore never a
press (nor a release in the middle of one), and contact bounce is simply waited out; the press
is stamped with the time its level began. The mock pins ignore gpiozero's ``bounce_time`` and
the real backends debounce differently, so this is done here, on timestamps, for every backend.

Edges reach the detector late and in bursts (they wait for the GIL), so the clock alone cannot
say a level has held: `poll(now, level)` also takes the level read from the pin *now*, and
settles nothing while it disagrees with the last edge seen (an edge is still on its way). A level
the clock settled can still be proved wrong by an edge that straggles in later but happened
before that moment: if it shows the level had not really held for `debounce_ms` (the first edge
was a spike's, and a real press began just after), the detector goes back to the level before
and the event already sent stands for the real one when it settles (no second press, no
release in between). If the level had held, the stragglers are history as usual (a whole press
that happened while the clock was deciding is still a press).

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
    """Turns raw stamped button levels into stamped `ButtonEvent`s.

    `settle` overrides the tuning's `debounce_ms` (in seconds): a launcher board that has
    already filtered its button passes 0.
    """

    def __init__(
        self,
        tuning: PressTuning,
        *,
        start: float,
        pressed: bool = False,
        settle: float | None = None,
    ) -> None:
        self._settle = tuning.debounce_ms / 1e3 if settle is None else settle
        self._long = tuning.long_press_ms / 1e3
        self._stuck = tuning.stuck_ms / 1e3
        self.seq = 0
        self._stable = pressed
        self._raw = pressed
        self._raw_since = start
        self._decided_at = -math.inf  # the clock time of the last level settled by poll()
        self._premise: tuple[float, bool] | None = None  # (since, level before) of that decision
        self._owed = False  # an event was sent early: the next settled change is that event
        self._down_at = start
        self._long_sent = pressed  # a button held at start is not a long press...
        self._stuck_sent = False  # ...but it can be stuck

    @property
    def pressed(self) -> bool:
        """The debounced level."""
        return self._stable

    @property
    def raw(self) -> bool:
        """The level the last edge left the button at."""
        return self._raw

    def edge(self, t: float, pressed: bool) -> list[ButtonEvent]:
        """A raw level change stamped `t` (edges must arrive in stamp order)."""
        self._check_premise(t)
        events = self._settled_by(t)  # the level before this edge held until t
        if self._stable:
            events.extend(self._held_events(t))
        if pressed != self._raw:
            self._raw, self._raw_since = pressed, max(t, self._raw_since)
        return events

    def poll(self, now: float, level: bool | None = None) -> list[ButtonEvent]:
        """Events due by `now`. `level` is the button read from its pin now (None: trust the
        edges seen so far); while it differs from the last edge, an edge is on its way."""
        if level is not None and level != self._raw:
            return []
        before, since = self._stable, self._raw_since
        events = self._settled_by(now)
        if self._stable != before:
            self._decided_at, self._premise = now, (since, before)
        if self._stable:
            events.extend(self._held_events(now))
        return events

    def next_deadline(self) -> float:
        """When `poll()` next has something to do (inf: only on an edge)."""
        due = [math.inf]
        if self._raw != self._stable:
            due.append(self._raw_since + self._settle)
        if self._stable and not self._long_sent:
            due.append(self._down_at + self._long)
        if self._stable and not self._stuck_sent:
            due.append(self._down_at + self._stuck)
        return min(due)

    def _check_premise(self, t: float) -> None:
        """The first edge after a level settled by the clock: did that level really hold?"""
        premise, self._premise = self._premise, None
        if premise is None or t > self._decided_at:
            return
        since, before = premise
        if t - since < self._settle:  # it did not: that decision is re-made from the edges
            self._stable, self._owed = before, True

    def _settled_by(self, t: float) -> list[ButtonEvent]:
        if self._raw == self._stable or t - self._raw_since < self._settle:
            return []
        return self._commit(self._raw_since, self._raw)

    def _commit(self, t: float, pressed: bool) -> list[ButtonEvent]:
        self._stable = pressed
        if self._owed:  # sent already, a little early: only its time is corrected
            self._owed = False
            if pressed:
                self._down_at = t
            return []
        if pressed:
            self.seq += 1
            self._down_at = t
            self._long_sent = self._stuck_sent = False
            return [ButtonEvent("press", self.seq, t)]
        return [ButtonEvent("release", self.seq, t, t - self._down_at)]

    def _held_events(self, now: float) -> list[ButtonEvent]:
        if self._raw != self._stable:  # on its way up: not held any more unless it settles back
            now = min(now, self._raw_since)
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
