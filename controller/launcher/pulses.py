"""Counting cards from break-beam edges: a pure state machine, fed timestamped edges.

A card is one *complete* pulse (beam blocked, then clear) whose width lies in the window
``min_pulse..max_pulse``: shorter pulses are noise (a fly, a flicker, motor EMI) and are
ignored; a beam blocked longer than ``max_pulse`` is a jam. A clear spell shorter than
``min_gap`` inside a pulse is a sensor dropout and does not split the card in two; the width
that is judged is the time the beam was actually blocked, so a burst of noise spikes merged
this way still adds up to noise, not to a card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from controller.launcher.pins import EjectorTuning


@dataclass(frozen=True)
class PulseWindow:
    """The pulse-width window in seconds."""

    min_pulse: float
    max_pulse: float
    min_gap: float

    @classmethod
    def of(cls, tuning: EjectorTuning) -> PulseWindow:
        return cls(tuning.min_pulse_ms / 1e3, tuning.max_pulse_ms / 1e3, tuning.min_gap_ms / 1e3)


@dataclass
class PulseCounter:
    """Counts complete card pulses. Feed `edge()` in time order and `poll()` as time passes."""

    window: PulseWindow
    start: float
    blocked: bool = False
    count: int = 0
    noise: int = 0
    activity: int = 0
    widths: list[float] = field(default_factory=list)
    card_times: list[float] = field(default_factory=list)
    last_card: float | None = None
    overlong: bool = False
    _pulse_start: float | None = None
    _pulse_end: float | None = None
    _segment_start: float = 0.0
    _blocked_time: float = 0.0

    def __post_init__(self) -> None:
        if self.blocked:  # a card already in the throat: its pulse started now
            self._begin(self.start)

    def edge(self, t: float, blocked: bool) -> None:
        """One beam edge at time `t` (redundant edges are ignored)."""
        if blocked:
            self._on_blocked(t)
        elif self._pulse_start is not None and self._pulse_end is None:
            self._pulse_end = t
            self._blocked_time += t - self._segment_start
            if self.window.min_gap <= 0:
                self._finish()

    def _on_blocked(self, t: float) -> None:
        if self._pulse_end is not None:
            if t - self._pulse_end < self.window.min_gap:
                self._pulse_end = None  # a dropout inside one card
                self._segment_start = t
                return
            self._finish()
        if self._pulse_start is None:
            self._begin(t)

    def _begin(self, t: float) -> None:
        self._pulse_start = self._segment_start = t
        self._blocked_time = 0.0
        self.activity += 1

    def poll(self, now: float) -> None:
        """Close a pulse whose beam has stayed clear for `min_gap`."""
        if self._pulse_end is not None and now - self._pulse_end >= self.window.min_gap:
            self._finish()

    def _finish(self) -> None:
        assert self._pulse_start is not None and self._pulse_end is not None
        width = self._blocked_time
        if width < self.window.min_pulse:
            self.noise += 1
        elif width > self.window.max_pulse:
            self.overlong = True
        else:
            self.count += 1
            self.widths.append(width)
            self.card_times.append(self._pulse_end)
            self.last_card = self._pulse_end
            self.activity = 0
        self._pulse_start = self._pulse_end = None

    @property
    def idle(self) -> bool:
        """The beam is clear and no pulse is pending."""
        return self._pulse_start is None

    def jammed(self, now: float) -> bool:
        """Blocked longer than the window allows (now, or in a pulse that already ended)."""
        if self.overlong:
            return True
        blocked_since = self._pulse_start if self._pulse_end is None else None
        return blocked_since is not None and now - blocked_since > self.window.max_pulse

    def next_change(self) -> float:
        """When `poll()` or `jammed()` could next change their answer (inf: only on an edge)."""
        if self._pulse_start is None:
            return math.inf
        if self._pulse_end is not None:
            return self._pulse_end + self.window.min_gap
        return self._pulse_start + self.window.max_pulse + 1e-4
