"""The jig's card generator, in a process of its own: its timing never waits for the launcher's
GIL, as real cards never do.

While the jig sees the motor run forward (forward line on, backward off), the generator plays
cards on the beam: a gap, then the beam blocked for `pulse` (or `double_pulse` when card number
n is in `doubles`: cards n and n+1 shingled, one long pulse), then clear. A card moves only
while the motor runs forward; it waits when the motor stops (or brakes) and is pulled back
behind the beam when it reverses. It can also put spikes of a
microsecond on the beam and the button while the motor runs, as motor noise does.

On the real jig (``UNO_HIL=1``) the process opens its own lgpio pins: it drives the jig's beam
and button outputs and reads the forward/backward sense inputs itself, so the edges are real
kernel edges with kernel stamps. On the mock jig the wires live in the test process: the
generator sends each edge with the moment it happened, and a wire thread in the test process
applies it with that stamp (late when the launcher's process is busy, as lgpio delivers).
"""

from __future__ import annotations

import multiprocessing
import random
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

SPIKE = 1e-6


@dataclass(frozen=True)
class FeedPlan:
    cards: int = 50
    pulse: float = 0.1
    gap: float = 0.08
    jam_at: int | None = None  # that card blocks the beam and never clears
    doubles: frozenset[int] = field(default_factory=frozenset)  # feeds that shoot two cards
    double_pulse: float = 0.18
    spikes_per_second: float = 0.0  # on the beam and on the button, while the motor runs
    seed: int = 0


class _Generator:
    """The card player's logic; `lines` is how it reads the motor and drives the jig."""

    def __init__(self, plan: FeedPlan, lines: Any) -> None:
        self.plan, self.lines = plan, lines
        self.rng = random.Random(plan.seed)
        self.emitted = 0
        self.spikes = 0
        self.stopped = False

    def run(self) -> None:
        plan = self.plan
        since = time.monotonic()
        while not self.stopped and self.emitted < plan.cards:
            card = self.emitted + 1
            double = card in plan.doubles and plan.cards - self.emitted >= 2
            reached = self._travel(plan.gap, since)
            if reached is None:
                since = time.monotonic()
                continue  # pulled back before it reached the beam: it comes again
            self.lines.beam(True, reached)
            if plan.jam_at == card:
                return  # jammed: the beam stays blocked
            left = self._travel(plan.double_pulse if double else plan.pulse, reached)
            self.lines.beam(False, left)  # out of the throat, or pulled back behind the beam
            since = time.monotonic() if left is None else left
            if left is not None:
                self.emitted += 2 if double else 1

    def _travel(self, seconds: float, since: float) -> float | None:
        """Move the card `seconds` of forward running: it waits while the motor stops, and is
        pulled back (None) when the motor reverses or the generator is stopped. It counts from
        `since` (when the card's last move ended) and returns the moment this travel ended: if
        this process woke late, the card did not wait for it."""
        moved = 0.0
        last = since
        while True:
            self.lines.refresh(0.001)
            now = time.monotonic()
            if self.stopped:
                return None
            for start, end, (forward, backward) in self.lines.spans(last, now):
                if backward and not forward:
                    return None
                if forward and not backward:
                    if moved + (end - start) >= seconds:
                        return start + (seconds - moved)
                    moved += end - start
                    self._maybe_spike(end - start)
            last = now

    def _maybe_spike(self, dt: float) -> None:
        rate = self.plan.spikes_per_second
        if rate > 0 and self.rng.random() < rate * dt:
            self.spikes += 1
            self.lines.spike("beam" if self.rng.random() < 0.5 else "button")


class _PipeLines:
    """Mock jig: motor levels come over the pipe, edges go back with their stamps, and the
    lines' levels are shared at once (a pin read is never late, only its edges are)."""

    def __init__(self, conn: Connection, levels: Any, generator: _Generator | None = None) -> None:
        self.conn, self.levels = conn, levels
        self.motor: list[tuple[float, tuple[bool, bool]]] = [(0.0, (False, False))]
        self.blocked = False
        self.generator = generator

    def refresh(self, timeout: float) -> None:
        while self.conn.poll(timeout):
            message = self.conn.recv()
            timeout = 0.0
            if message[0] == "motor":  # stamped when the line changed, however late it is read
                self.motor.append((message[3], (message[1], message[2])))
            elif message[0] == "stop" and self.generator is not None:
                self.generator.stopped = True

    def spans(self, since: float, until: float) -> list[tuple[float, float, tuple[bool, bool]]]:
        """The motor lines' levels from `since` to `until`, as (start, end, levels): a card
        stops when the motor did, not when this process got round to hearing of it."""
        while len(self.motor) > 1 and self.motor[1][0] <= since:
            del self.motor[0]
        spans = []
        for i, (at, levels) in enumerate(self.motor):
            end = min(until, self.motor[i + 1][0]) if i + 1 < len(self.motor) else until
            start = max(since, at)
            if start < end:
                spans.append((start, end, levels))
        return spans

    def beam(self, blocked: bool, at: float | None = None) -> None:
        self.blocked = blocked
        self.levels[0] = blocked
        self.conn.send(("beam", blocked, time.monotonic() if at is None else at))

    def spike(self, line: str) -> None:
        index = 0 if line == "beam" else 1
        level = self.blocked if line == "beam" else False
        self.levels[index] = not level
        t = time.monotonic()
        self.levels[index] = level
        self.conn.send((line, not level, t))
        self.conn.send((line, level, t + SPIKE))


class _RealLines:
    """Real jig: the process's own lgpio pins (gpiozero devices on the jig's GPIOs)."""

    def __init__(self, pins: dict[str, Any]) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice
        from gpiozero.pins.lgpio import LGPIOFactory

        factory = LGPIOFactory()
        self.clear_high = pins["beam_clear_high"]
        self._beam = DigitalOutputDevice(
            pins["beam"], initial_value=self.clear_high, pin_factory=factory
        )
        self._button = DigitalOutputDevice(pins["button"], initial_value=True, pin_factory=factory)
        self._forward = DigitalInputDevice(pins["forward"], pull_up=False, pin_factory=factory)
        self._backward = DigitalInputDevice(pins["backward"], pull_up=False, pin_factory=factory)
        self.blocked = False

    def refresh(self, timeout: float) -> None:
        time.sleep(timeout)

    def spans(self, since: float, until: float) -> list[tuple[float, float, tuple[bool, bool]]]:
        """The motor lines as they read now (a real pin read is never late)."""
        return [(since, until, self._levels())]

    def _levels(self) -> tuple[bool, bool]:
        """A PWM line toggles: a line is on if it reads high at any moment in 4 ms."""
        forward = backward = False
        end = time.monotonic() + 0.004
        while time.monotonic() < end and not (forward and backward):
            forward = forward or bool(self._forward.value)
            backward = backward or bool(self._backward.value)
        return forward, backward

    def beam(self, blocked: bool, at: float | None = None) -> None:
        self.blocked = blocked  # a real pin: the kernel stamps it now
        self._beam.value = blocked != self.clear_high

    def spike(self, line: str) -> None:
        device = self._beam if line == "beam" else self._button
        device.toggle()
        device.toggle()


def generate(
    conn: Connection, plan: FeedPlan, real_pins: dict[str, Any] | None, levels: Any
) -> None:
    """The generator process: play `plan` until the cards run out or the parent says stop."""
    lines: Any = _PipeLines(conn, levels) if real_pins is None else _RealLines(real_pins)
    generator = _Generator(plan, lines)
    if isinstance(lines, _PipeLines):
        lines.generator = generator
    else:
        threading.Thread(target=_stop_on_message, args=(conn, generator), daemon=True).start()
    conn.send(("ready",))
    generator.run()
    while not generator.stopped:  # out of cards (or jammed): wait to be told to stop
        lines.refresh(0.01)
    conn.send(("done", generator.emitted, generator.spikes))


def _stop_on_message(conn: Connection, generator: _Generator) -> None:
    while conn.recv()[0] != "stop":
        pass
    generator.stopped = True


class CardFeeder:
    """Runs the generator process against `jig` (see the module doc); `close()` stops it and
    sets `emitted` (cards played) and `spikes`."""

    def __init__(self, jig: Any, *, real: bool = False, **plan: Any) -> None:
        self.jig = jig
        self.plan = FeedPlan(**plan)
        self.emitted = self.spikes = 0
        spawn = multiprocessing.get_context("spawn")
        self._conn, child = spawn.Pipe()
        pins = jig.lend_to_feeder() if real else None
        levels = spawn.Array("b", 2, lock=False)  # beam blocked, button pressed: live
        self._process = spawn.Process(
            target=generate, args=(child, self.plan, pins, levels), name="jig-cards", daemon=True
        )
        self._process.start()
        if self._conn.recv() != ("ready",):
            raise RuntimeError("the jig's card generator did not start")
        self._stop = threading.Event()
        self._done: tuple[Any, ...] | None = None
        self._sending = threading.Lock()
        if not real:  # the motor lines' levels go out from the thread that changes them, at once
            jig.on_motor = self._send_motor
            self._send_motor()
            jig.set_live("beam", lambda: levels[0])
            jig.set_live("button", lambda: levels[1])
        self._wire = threading.Thread(target=self._run_wire, daemon=True)
        self._wire.start()

    def _send_motor(self, *_: object) -> None:
        with self._sending:  # read under the lock: a stale reading never overtakes a new one
            if not self._stop.is_set():
                self._conn.send(("motor", *self.jig.motor_levels(), time.monotonic()))

    def _run_wire(self) -> None:
        """Mock jig: the generator's edges onto the wires, with their stamps."""
        while True:
            while self._conn.poll(0.01):
                message = self._conn.recv()
                if message[0] == "done":
                    self._done = message
                    return
                line, level, stamp = message
                self.jig.drive_line(line, level, at=stamp)

    def close(self) -> None:
        self.jig.on_motor = None
        self.jig.set_live("beam", None)
        self.jig.set_live("button", None)
        with self._sending:
            self._stop.set()
            self._conn.send(("stop",))
        self._wire.join(timeout=10)
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()
        if self._done is not None:
            self.emitted, self.spikes = self._done[1], self._done[2]
        self.jig.take_back_from_feeder()
