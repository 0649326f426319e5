"""The simulated launcher's physics on event time: the wheel, the card stack and the beam.

A pure state machine with no threads, pins or clock of its own: it is told the drive (the
motor driver's output) with the time it changed, and moved to a time with `advance`, which
stops at each event (a beam edge, a spike of motor noise) at the exact moment it happens. The
same history of drives gives the same events and the same cards out however late, and in
however many steps, the machine is moved: a starved host delays when the edges are delivered,
never what physically happened.

Card model (in mm of card travel): after a card leaves, the next one travels `gap_mm` before
its leading edge reaches the beam, then blocks it for its length (87 mm); a *double* (a second
card shingled onto the first, trailing it by `double_offset` of a card) blocks it for longer and
two cards leave. The card moves with the wheel (`wheel.Wheel`: dead zone, spin-up lag, coast,
sag with the hopper's fill). Running the wheel backward pulls a half-fed card back behind the
beam. A jammed card stops halfway through the beam while the wheel slips.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal

from controller.launcher.pins import CARD_MM
from controller.launcher.wheel import FULL_HOPPER, Piece, Wheel

NOISE = ("beam", "button")


@dataclass(frozen=True)
class Event:
    """Something the machine did at `t`: the beam became blocked or clear (`blocked`), or a
    spike of motor noise hit the input `pin`."""

    t: float
    kind: Literal["beam", "spike"]
    blocked: bool = False
    pin: str = ""


@dataclass(frozen=True)
class Cards:
    """How the cards are fed: the clear travel between cards, doubles, a jam."""

    stack: int
    gap_mm: float = 60.0
    double_rate: float = 0.0
    double_offset: tuple[float, float] = (0.6, 1.0)
    jam_at: int | None = None


class CardMachine:
    """The wheel, the stack and the beam from time `t`. `wheel` already runs at the machine's
    time scale; `noise` is spikes per second on each input while the motor is driven."""

    def __init__(
        self, wheel: Wheel, cards: Cards, rng: random.Random, t: float, noise: dict[str, float]
    ) -> None:
        self.wheel = wheel
        self.cards = cards
        self.rng = rng
        self.t = t
        self.r = 0.0  # the wheel's speed, a fraction of its full-duty speed
        self.duty, self.free = 0.0, True  # the drive: driven at duty (0: braked), or coasting
        self.stack = cards.stack
        self.cards_out = 0
        self.cards_removed = 0
        self.doubles_fed = 0
        self.spikes = dict.fromkeys(NOISE, 0)
        self.jam_in = cards.jam_at
        self.jammed = False
        self.jam_blocked_at: float | None = None
        self.in_beam = False
        self.pos = 0.0  # mm travelled in the current card's cycle (gap, then blocked)
        self.blocked_mm = CARD_MM
        self.group = 1  # cards in the pulse now crossing (2: a double)
        self.noise = dict(noise)
        self.next_spike = dict.fromkeys(NOISE, math.inf)

    @property
    def mm_per_s(self) -> float:
        """Card travel at full duty (light hopper), mm per second."""
        return CARD_MM / self.wheel.card_s

    @property
    def fill(self) -> float:
        return min(1.0, self.stack / FULL_HOPPER)

    @property
    def running(self) -> bool:
        return self.duty != 0 and not self.free

    # --- the drive and the knobs (the caller has moved the machine to `t` first) ---

    def drive(self, t: float, duty: float, free: bool) -> None:
        self._move_to(max(t, self.t))
        self.duty, self.free = duty, free
        self._schedule_noise()

    def set_noise(self, noise: dict[str, float]) -> None:
        self.noise = dict(noise)
        self.next_spike = dict.fromkeys(NOISE, math.inf)
        self._schedule_noise()

    def _schedule_noise(self) -> None:
        for name in NOISE:
            rate = self.noise.get(name, 0.0)
            if not self.running or rate <= 0:
                self.next_spike[name] = math.inf
            elif self.next_spike[name] == math.inf:
                self.next_spike[name] = self.t + self.rng.expovariate(rate)

    def load(self, cards: int) -> None:
        self.stack = cards

    def jam_next(self) -> None:
        """The next card to reach the beam sticks (one already in it has reached it: it leaves)."""
        self.jam_in = 1

    def clear_jam(self) -> tuple[int, Event | None]:
        """A person pulls the stuck card(s) out: how many, and the beam clearing."""
        if not self.jammed:
            return 0, None
        self.jammed = False
        pulled = self.group
        self.stack -= pulled
        self.cards_removed += pulled
        self.pos = 0.0
        self.in_beam = False
        return pulled, Event(self.t, "beam", blocked=False)

    # --- moving on ---

    def advance(self, until: float) -> Event | None:
        """Move to the first event at or before `until` and return it (the machine is just
        past it), or to `until` and return None."""
        while self.t < until:
            when, what, direction = self._next(until)
            self._move_to(when)
            if what == "spike":
                return self._spike()
            if what == "boundary":
                event = self._cross(direction)
                if event is not None:
                    return event
        return None

    def next_event_at(self) -> float:
        """When the next event would happen if the drive stays as it is (inf: never)."""
        when, what, _ = self._next(math.inf)
        return when if what != "none" else math.inf

    def rest_at(self) -> float:
        """When the wheel will be at rest if the drive stays as it is (inf: never)."""
        for start, piece in self._pieces():
            if piece.duration == math.inf:
                still = piece.r0 == 0 and piece.tau == 0 and piece.decel == 0
                return start if still else math.inf
        return math.inf

    def _pieces(self) -> list[tuple[float, Piece]]:
        """The motion from now, as (start time, piece), the last one open-ended."""
        result, t = [], self.t
        for piece in self.wheel.pieces(self.r, self.duty, self.free, self.fill):
            result.append((t, piece))
            t += piece.duration
        return result

    def _next(self, until: float) -> tuple[float, str, float]:
        """The next event's time, kind ("spike", "boundary") and the card's direction then,
        or (`until`, "none", 0)."""
        spike = min(self.next_spike.values())
        limit = min(until, spike)
        for start, piece in self._pieces():
            if start >= limit:
                break
            direction = _direction(piece)
            if direction != 0 and self._movable(direction):
                distance = (self._boundary(direction) - self.pos) / self.mm_per_s
                dt = piece.time_to(distance) if distance * direction > 0 else 0.0
                if start + dt <= min(limit, start + piece.duration):
                    return start + dt, "boundary", direction
        if spike <= until:
            return spike, "spike", 0.0
        return until, "none", 0.0

    def _move_to(self, t: float) -> None:
        """Integrate the wheel and the card to `t` (no event lies before it)."""
        for start, piece in self._pieces():
            if start >= t:
                break
            span = min(piece.duration, t - start)
            direction = _direction(piece)
            if direction != 0 and self._movable(direction):
                self.pos += piece.travel(span) * self.mm_per_s
            self.r = piece.speed(span)
            if span < piece.duration:
                break
        if self.r != 0 and abs(self.r) < 1e-12:
            self.r = 0.0
        self.t = max(self.t, t)

    def _movable(self, direction: float) -> bool:
        if self.jammed:
            return False
        if direction > 0:
            return self.stack > 0
        return self.pos > 0

    def _boundary(self, direction: float) -> float:
        gap = self.cards.gap_mm
        if direction < 0:
            return gap if self.in_beam else 0.0
        if not self.in_beam:
            return gap
        return gap + self.blocked_mm / 2 if self.jam_in == 0 else gap + self.blocked_mm

    def _cross(self, direction: float) -> Event | None:
        self.pos = self._boundary(direction)
        if direction < 0:
            if self.in_beam:
                self.in_beam = False
                return Event(self.t, "beam", blocked=False)
            return None
        if not self.in_beam:
            self._feed_group()
            self.in_beam = True
            if self.jam_in is not None:
                self.jam_in -= 1
                if self.jam_in == 0:
                    self.jam_blocked_at = self.t
            return Event(self.t, "beam", blocked=True)
        if self.jam_in == 0:
            self.jammed = True
            self.jam_in = None
            return None
        self.pos = 0.0
        self.stack -= self.group
        self.cards_out += self.group
        self.in_beam = False
        return Event(self.t, "beam", blocked=False)

    def _feed_group(self) -> None:
        """Decide as the card reaches the beam whether a second one rides on it."""
        double = self.stack >= 2 and self.rng.random() < self.cards.double_rate
        if double:
            self.doubles_fed += 1
            self.blocked_mm = CARD_MM * (1 + self.rng.uniform(*self.cards.double_offset))
        else:
            self.blocked_mm = CARD_MM
        self.group = 2 if double else 1

    def _spike(self) -> Event:
        name = min(NOISE, key=lambda n: self.next_spike[n])
        self.spikes[name] += 1
        rate = self.noise.get(name, 0.0)
        self.next_spike[name] = self.t + self.rng.expovariate(rate) if rate > 0 else math.inf
        return Event(self.t, "spike", pin=name)


def _direction(piece: Piece) -> float:
    """Which way the wheel moves during `piece` (0: it stands still)."""
    if piece.r0 != 0:
        return math.copysign(1.0, piece.r0)
    if piece.tau > 0 and piece.target != 0:
        return math.copysign(1.0, piece.target)
    return 0.0
