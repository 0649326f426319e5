"""Counting cards from break-beam edges: a pure state machine, fed edges with their own stamps.

A card is one *complete* pulse (beam blocked, then clear) whose width lies in the window
``min_pulse..max_pulse``: shorter pulses are noise (a fly, a flicker, motor EMI) and are
ignored; a beam blocked longer than ``max_pulse`` is a jam. A clear spell shorter than
``min_gap`` inside a pulse is a sensor dropout and does not split the card in two; the width
that is judged is the time the beam was actually blocked, so a burst of noise spikes merged
this way still adds up to noise, not to a card.

Overlapping cards (shingled by the rollers) give one long pulse. Each pulse is measured in
*cards*: the wheel travel while the beam was blocked (``pace(t0, t1)``: the ejector's
`wheel.DutyLog`, which knows the motor's dead zone and lag) over one card's travel, so the
speed the motor ran at does not matter. A pulse longer than ``double_ratio`` cards counts as
``round(length)`` cards (at least two) and as a double. One card's travel is what the recent
single cards measured (`CardReference`), so a motor that slows as the hopper fills, or a
calibration a little off, moves the reference with it instead of turning cards into doubles.

A jam is the beam blocked for longer than ``max_pulse`` *and* while the wheel moved more than
``max_travel`` (two and a half cards at the slowest running duty): while the motor stands
still (held for a late edge, or stopped to check a suspected jam) a card in the beam is no jam.

Edges arrive late (the callback thread waits for the GIL) and sometimes several at once, but
each carries the time it happened: widths and gaps are judged on those stamps only. The clock
is used for deadlines, together with the beam's level read *now*: a pulse is closed by the
clock only while the beam reads clear (a blocked beam means an edge is still on its way), and a
late edge that shows the clear spell was a dropout reopens the pulse.
"""

from __future__ import annotations

import collections
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.launcher.pins import EjectorTuning

Pace = Callable[[float, float], float]  # wheel travel between two stamps, full-speed seconds


def constant_pace(t0: float, t1: float) -> float:
    """Full duty all the time: lengths are plain times."""
    return t1 - t0


@dataclass(frozen=True)
class PulseWindow:
    """The pulse-width window in seconds; `card` is one card's travel in full-speed seconds
    (0: do not look for doubles); `max_travel` the wheel travel that makes a blocked beam a
    jam (None: `max_pulse`, the travel of a wheel at full speed all the time)."""

    min_pulse: float
    max_pulse: float
    min_gap: float
    card: float = 0.0
    double_ratio: float = 1.5
    max_travel: float | None = None

    @classmethod
    def of(
        cls, tuning: EjectorTuning, card_ms_at_full: float = 0.0, slowest: float = 1.0
    ) -> PulseWindow:
        """The window of `tuning`; `slowest` is the wheel's steady speed at the slowest
        running duty (the jam's travel is `max_pulse_ms` at that speed)."""
        return cls(
            tuning.min_pulse_ms / 1e3,
            tuning.max_pulse_ms / 1e3,
            tuning.min_gap_ms / 1e3,
            card_ms_at_full / 1e3,
            tuning.double_ratio,
            tuning.max_pulse_ms / 1e3 * slowest,
        )

    @property
    def jam_travel(self) -> float:
        return self.max_pulse if self.max_travel is None else self.max_travel

    def cards_in(self, length: float, card: float | None = None) -> int:
        """How many cards a pulse of `length` holds, against one card's `card` (the window's
        own if not given; 1 when not judging)."""
        card = self.card if card is None else card
        if self.card <= 0 or card <= 0 or length <= self.double_ratio * card:
            return 1
        return max(2, round(length / card))


class CardReference:
    """One card's travel as the last single cards measured it: the median of the last `keep`
    (once there are three), never further than `limit` times from the calibrated `card`. It
    outlives a run, so the first card of the next run is judged against it too."""

    def __init__(self, card: float, keep: int = 9, limit: float = 1.35) -> None:
        self.nominal = card
        self._limit = limit
        self._recent: collections.deque[float] = collections.deque(maxlen=keep)

    @property
    def card(self) -> float:
        if len(self._recent) < 3:
            return self.nominal
        median = statistics.median(self._recent)
        return min(max(median, self.nominal / self._limit), self.nominal * self._limit)

    def observe(self, length: float, cards: int) -> None:
        """A pulse of `length` was judged to hold `cards` cards."""
        if cards == 1:
            self._recent.append(length)


@dataclass
class _Closed:
    """A pulse closed by the clock, kept so that a late dropout edge can reopen it."""

    start: float
    end: float
    blocked_time: float
    travel: float
    verdict: str  # "card", "noise" or "overlong"
    cards: int = 0


@dataclass
class PulseCounter:
    """Counts complete card pulses. Feed `edge()` in stamp order and `poll()` as time passes."""

    window: PulseWindow
    start: float
    blocked: bool = False
    pace: Pace = constant_pace
    reference: CardReference | None = None
    count: int = 0
    noise: int = 0
    doubles: int = 0
    activity: int = 0
    widths: list[float] = field(default_factory=list)
    lengths: list[float] = field(default_factory=list)
    card_times: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)  # wheel travel from a card to the next
    last_card: float | None = None
    last_end: float | None = None  # the end of the last pulse judged, whatever the verdict
    overlong: bool = False
    _pulse_start: float | None = None
    _pulse_end: float | None = None
    _segment_start: float = 0.0
    _blocked_time: float = 0.0
    _travel: float = 0.0
    _closed: _Closed | None = None

    def __post_init__(self) -> None:
        if self.blocked:  # a card already in the throat: its pulse started now
            self._begin(self.start)

    def edge(self, t: float, blocked: bool) -> None:
        """One beam edge stamped `t` (edges from before the start and redundant ones are
        ignored)."""
        if t < self.start:
            return
        if blocked:
            self._on_blocked(t)
        elif self._pulse_start is not None and self._pulse_end is None:
            self._pulse_end = t
            self._blocked_time += t - self._segment_start
            self._travel += self.pace(self._segment_start, t)
            if self.window.min_gap <= 0:
                self._finish()

    def _on_blocked(self, t: float) -> None:
        if self._pulse_end is not None:
            if t - self._pulse_end < self.window.min_gap:
                self._pulse_end = None  # a dropout inside one card
                self._segment_start = t
                return
            self._finish()
        elif self._pulse_start is None and self._reopen(t):
            return
        if self._pulse_start is None:
            self._begin(t)
        self._closed = None

    def _begin(self, t: float) -> None:
        if self.last_card is not None and self.activity == 0:
            self.gaps.append(self.pace(self.last_card, t))
        self._pulse_start = self._segment_start = t
        self._blocked_time = self._travel = 0.0
        self.activity += 1

    def poll(self, now: float, blocked_now: bool = False) -> None:
        """Close a pulse whose beam has stayed clear for `min_gap` by `now`, if the beam reads
        clear now (`blocked_now` is its level read after the edges were taken)."""
        if (
            self._pulse_end is not None
            and not blocked_now
            and now - self._pulse_end >= self.window.min_gap
        ):
            self._finish(by_clock=True)

    def _finish(self, by_clock: bool = False) -> None:
        assert self._pulse_start is not None and self._pulse_end is not None
        closed = _Closed(
            self._pulse_start, self._pulse_end, self._blocked_time, self._travel, "card"
        )
        if closed.blocked_time < self.window.min_pulse:
            closed.verdict = "noise"
            self.noise += 1
        elif closed.blocked_time > self.window.max_pulse and closed.travel > self.window.jam_travel:
            closed.verdict = "overlong"
            self.overlong = True
        else:
            reference = self.reference
            card = reference.card if reference is not None else None
            closed.cards = self.window.cards_in(closed.travel, card)
            if reference is not None:
                reference.observe(closed.travel, closed.cards)
            self.count += closed.cards
            self.doubles += closed.cards > 1
            self.widths.append(closed.blocked_time)
            self.lengths.append(closed.travel)
            self.card_times.append(closed.end)
            self.last_card = closed.end
            self.activity = 0
        self._closed = closed if by_clock else None
        self.last_end = closed.end
        self._pulse_start = self._pulse_end = None

    def _reopen(self, t: float) -> bool:
        """A late edge shows the pulse the clock closed was only a dropout: take it back."""
        closed = self._closed
        if closed is None or t - closed.end >= self.window.min_gap:
            return False
        self._closed = None
        self.last_end = None
        if closed.verdict == "noise":
            self.noise -= 1
        elif closed.verdict == "overlong":
            self.overlong = False
        else:
            self.count -= closed.cards
            self.doubles -= closed.cards > 1
            for series in (self.widths, self.lengths, self.card_times):
                series.pop()
            self.last_card = self.card_times[-1] if self.card_times else None
        self._pulse_start, self._segment_start = closed.start, t
        self._blocked_time, self._travel = closed.blocked_time, closed.travel
        self.activity += 1
        return True

    @property
    def idle(self) -> bool:
        """The beam is clear and no pulse is pending."""
        return self._pulse_start is None

    @property
    def beam_blocked(self) -> bool:
        """The level the edges seen so far leave the beam at."""
        return self._pulse_start is not None and self._pulse_end is None

    def jammed(self, now: float, blocked_now: bool = True) -> bool:
        """Blocked for longer, and for more wheel travel, than the window allows (in a pulse
        that already ended, or now, if the beam still reads blocked: a clear edge on its way
        has the last word)."""
        if self.overlong:
            return True
        if not self.beam_blocked or not blocked_now:
            return False
        assert self._pulse_start is not None
        if now - self._pulse_start <= self.window.max_pulse:
            return False
        return self.travel(now) > self.window.jam_travel

    @property
    def pulse_start(self) -> float | None:
        """When the open pulse began (None: none is open)."""
        return self._pulse_start

    def travel(self, now: float) -> float:
        """The wheel travel of the open pulse's blocked time so far."""
        if self._pulse_start is None:
            return 0.0
        if self._pulse_end is not None:
            return self._travel
        return self._travel + self.pace(self._segment_start, now)

    def next_change(self) -> float:
        """When `poll()` or `jammed()` could next change their answer (inf: only on an edge)."""
        if self._pulse_start is None:
            return math.inf
        if self._pulse_end is not None:
            return self._pulse_end + self.window.min_gap
        left = self.window.jam_travel - self._travel
        when = getattr(self.pace, "when", None)
        far = self._segment_start + left if when is None else float(when(self._segment_start, left))
        return max(far, self._pulse_start + self.window.max_pulse) + 1e-4

    def abandon(self) -> None:
        """The beam went clear with the wheel going backward: the card in it was pulled back,
        its pulse is no card."""
        if self.beam_blocked:
            self._pulse_start = self._pulse_end = None
            self._closed = None

    def finish_at(self, end: float) -> None:
        """The wheel stopped moving cards forward at `end`: a pulse whose beam went clear by
        then is complete (that card left); one still blocked is no card (it stays in the
        throat, or the retract pulled it back)."""
        if self._pulse_end is not None and self._pulse_end <= end:
            self._finish(by_clock=True)
