"""A board on fake pins, on the MicroPython VM: the test plays the host (`send`, `frames`) and
the world (pins, cards)."""

from array import array

import uno_app
import uno_board
import uno_hw
import uno_proto
from fakes import WDT, FakeMachine, FakeTime

PINS = dict(uno_board.PINS)


class Rig:
    """`scratch`: a `uno_scratch.Scratch` the board keeps its run in (default: a stand-in in
    RAM, with `recall` saying what a reset would give back)."""

    def __init__(self, pins=None, recall=None, beam_blocked=False, scratch=None, **board):
        self.pins = dict(pins or PINS)
        self.time = FakeTime()
        self.machine = FakeMachine()
        if self.pins.get("lid") is not None:  # the lid starts closed: its switch pulls it low
            self.machine.Pin(self.pins["lid"]).drive(0)
        if beam_blocked:  # a card in the throat at power-up
            self.machine.Pin(self.pins["beam"]).drive(0)
        uno_hw.safe_lines(self.machine, self.pins)
        self.hw = uno_hw.Hardware(self.machine, self.pins, self.time)
        self.wdt = WDT()
        self.out = []
        self.saved = None  # (job, requested, count, reason): the run's start or end
        self.scratch = array("i", [0, 0])  # count, pending: written from the beam's interrupt
        persist, progress = self._persist, self._progress
        if scratch is not None:
            persist, progress = scratch.persist, scratch.progress
            recall = recall or scratch.recall
        self.board = uno_app.Board(
            self.hw,
            self.time,
            self.out.append,
            persist=persist,
            progress=progress,
            recall=recall or (lambda: None),
            wdt=self.wdt,
            **board,
        )
        self.seq = 100
        self.pin = self.machine.pins

    def _persist(self, job, requested, count, reason):
        self.saved = (job, requested, count, reason)
        self.scratch[0] = count
        self.scratch[1] = 0

    def _progress(self, count, pending):  # the beam's interrupt calls it: no allocation
        self.scratch[0] = count
        self.scratch[1] = pending

    def recalled(self):
        """What the scratch registers would give back after a watchdog reset."""
        if self.saved is None:
            return None
        job, requested, _count, reason = self.saved
        return job, requested, self.scratch[0], reason, self.scratch[1]

    def send(self, word, *args, seq=None):
        """One command; returns the reply frame decoded."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        before = len(self.out)
        self.board.receive(uno_proto.encode(seq, word, list(args)))
        replies = [f for f in self.frames(before) if f[1] in ("ACK", "NAK")]
        assert replies, "no reply to " + word
        return replies[-1]

    def ok(self, word, *args):
        """`send`, and the ACK's fields."""
        _n, answer, args = self.send(word, *args)
        assert answer == "ACK", "%s refused: %s" % (word, args)
        return uno_proto.fields(args)

    def frames(self, start=0):
        return [uno_proto.decode(raw) for raw in self.out[start:]]

    def events(self, word=None):
        return [
            uno_proto.fields(args)
            for _n, w, args in self.frames()
            if w not in ("ACK", "NAK") and (word is None or w == word)
        ]

    def hello(self):
        self.ok("HELLO", "proto=1", "min=1")

    def run(self, ms, step_ms=1, each=None):
        """Let `ms` pass, stepping the main loop every `step_ms`."""
        for _ in range(int(ms / step_ms)):
            self.time.advance(ms=step_ms)
            if each is not None:
                each()
            self.board.step()

    def line(self, role):
        """A motor or light line's duty, 0..1."""
        return self.pin[self.pins[role]].duty / 65535

    def history(self, role):
        return self.pin[self.pins[role]].history()


class Feeder:
    """Each card: `gap_ms` clear, then `pulse_ms` blocked, while the motor runs forward.
    `jam_at`: that card blocks the beam for good. Call `tick()` every simulated millisecond."""

    def __init__(self, rig, cards=50, pulse_ms=30, gap_ms=40, jam_at=None):
        self.rig, self.cards, self.pulse, self.gap, self.jam_at = (
            rig,
            cards,
            pulse_ms,
            gap_ms,
            jam_at,
        )
        self.out = 0
        self._phase = 0  # ms into the current card's cycle

    def tick(self):
        beam = self.rig.pin[self.rig.pins["beam"]]
        if self.cards <= 0 or self.rig.line("forward") <= 0 or self.rig.line("backward") > 0:
            if self._phase < self.gap:
                self._phase = 0  # a card not yet at the beam waits behind it
            return
        self._phase += 1
        if self._phase == self.gap:
            beam.drive(0)  # blocked (the beam reads low when blocked)
        elif self._phase == self.gap + self.pulse:
            if self.jam_at == self.out + 1:
                self._phase -= 1  # stuck in the throat
                return
            beam.drive(1)
            self.out += 1
            self.cards -= 1
            self._phase = 0
