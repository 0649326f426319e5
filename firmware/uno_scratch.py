"""The last run's progress in the watchdog's scratch registers 0-3, so a reset mid-run loses
no card. Registers 4-7 belong to the boot ROM on both chips (it reads them at boot; the SDK's
``machine.reset()`` and watchdog write them), so four 32-bit words are all there is: they hold
**one** run, the current or last one. The last 8 runs that `STATUS job=` can answer about are
kept in RAM, which a reset clears.

What survives what: the scratch registers survive a watchdog reset, ``machine.reset()`` and a
firmware crash that the watchdog ends; a power loss, a brown-out or the RUN pin clears them.
RAM survives nothing. On an RP2350 the boot ROM also uses registers 2 and 3 for the parameters
of a one-shot reboot (into BOOTSEL, after a flash update): the checks below then reject them.

Layout version 2 (every word stays under 2**30, a MicroPython small int on the Pico, so the
interrupt that writes `progress` never makes a long int)::

    scratch0  header: TAG << 20 | VERSION << 16 | check (16 bits over scratch1 and scratch3);
              0 while the other words change
    scratch1  job id (0: no run, only the maintenance flag)
    scratch2  progress: (x ^ 0x7fff) << 15 | x, where x = count << 1 | pending (a card left the
              beam and waits out min_gap): the word checks itself
    scratch3  MAINT_FLAG (bit 16: reboot into maintenance mode; outside the check, so it can
              be set and taken without rewriting the run) | requested << 8 | reason code

A header from any other layout is discarded, never read: the version-1 layout (firmware 0.1.0)
put ``0x554e4f00 ^ job`` in scratch0, always 2**30 or more, so it can never pass for a version-2
header; and version 2's header, under 2**30, never passes version 1's check either.

`state` says what the registers held when the `Scratch` was made (at boot; `recall` looks
again): ``run``, ``none`` (empty: power-on), ``torn`` (a write cut short, or words that fail
their checks), ``old`` (another firmware's layout). `NoScratch` (state ``off``) stands in on a
chip whose registers are unknown: it touches no address, and nothing survives a reset.

`mem32` is ``machine.mem32`` on the Pico, anything subscriptable in tests.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

VERSION = 2
TAG = 0x2B5  # header bits 29..20
MAINT_FLAG = 0x10000
REASONS = ("running", "count", "jam", "empty", "timeout", "stopped")
V1_MAGIC = 0x554E4F00  # firmware 0.1.0's check word: MAGIC ^ job in scratch0


def _check(job: int, static: int) -> int:
    return (job ^ (job >> 16) ^ static ^ 0x5A5A) & 0xFFFF


def header(job: int, static: int) -> int:
    """Scratch0 for `job` and scratch3's run fields `static` (under 2**30)."""
    return (TAG << 20) | (VERSION << 16) | _check(job, static)


class Scratch:
    def __init__(self, mem32: Any, base: int) -> None:
        self._mem = mem32
        self._head, self._job, self._count, self._run = base, base + 4, base + 8, base + 12
        self.state = self._inspect()  # what the registers held when the board booted

    def persist(self, job: int, requested: int, count: int, reason: str) -> None:
        """A run's start or end."""
        code = REASONS.index(reason) if reason in REASONS else len(REASONS) - 1
        static = (min(requested, 255) << 8) | code
        mem = self._mem
        maint = self._maintenance()
        mem[self._head] = 0  # invalid while the words change
        mem[self._job] = job
        self.progress(count, 0)
        mem[self._run] = maint | static
        mem[self._head] = header(job, static)

    def progress(self, count: int, pending: int) -> None:
        """Each card, from the beam's hard interrupt: no allocation, no long int."""
        x = ((count << 1) | pending) & 0x7FFF
        self._mem[self._count] = ((x ^ 0x7FFF) << 15) | x

    def recall(self) -> tuple[int, int, int, str, int] | None:
        """``(job, requested, count, reason, pending)`` of the run before this reset, or None
        (none, power lost, torn or another layout: `state` says which)."""
        self.state = self._inspect()
        if self.state != "run":
            return None
        mem = self._mem
        x = mem[self._count] & 0x7FFF
        static = mem[self._run] & 0xFFFF
        code = static & 0xF
        reason = REASONS[code] if code < len(REASONS) else "stopped"
        return mem[self._job], static >> 8, x >> 1, reason, x & 1

    def _inspect(self) -> str:
        mem = self._mem
        head = mem[self._head] & 0xFFFFFFFF
        job = mem[self._job] & 0xFFFFFFFF
        if head == 0:
            return "none" if job == 0 else "torn"
        if head >> 30 == 1 and head == (V1_MAGIC ^ job):
            return "old"  # firmware 0.1.0's layout: its words mean other things
        if head >> 20 != TAG:
            return "torn"  # no layout of ours (a boot ROM's parameters, another program)
        if (head >> 16) & 0xF != VERSION:
            return "old"  # another version of this layout
        static = mem[self._run] & 0xFFFF
        if head != header(job, static):
            return "torn"
        word = mem[self._count] & 0xFFFFFFFF
        if word >> 15 != (word & 0x7FFF) ^ 0x7FFF:
            return "torn"
        return "run" if job else "none"

    def _maintenance(self) -> int:
        """The maintenance flag, if this layout's header vouches for it."""
        if self._inspect() not in ("run", "none"):
            return 0
        return int(self._mem[self._run] & MAINT_FLAG)

    def take_maintenance(self) -> bool:
        """True once if `request_maintenance` was called before this reset."""
        flagged = self._maintenance()
        if flagged:
            self._mem[self._run] = self._mem[self._run] & ~MAINT_FLAG
        return bool(flagged)

    def request_maintenance(self) -> None:
        """Flag the next boot as maintenance mode (keeping the run, if the words hold one)."""
        mem = self._mem
        if self._inspect() != "run":  # empty, or words we do not own: start from no run
            mem[self._head] = 0
            mem[self._job] = 0
            self.progress(0, 0)
            mem[self._run] = 0
        static = mem[self._run] & 0xFFFF
        mem[self._run] = MAINT_FLAG | static
        mem[self._head] = header(mem[self._job], static)


class NoScratch(Scratch):
    """No registers on this chip: nothing survives a reset, and `MAINT` cannot flag the next
    boot (hold the UNO button while plugging the board in instead). Touches no address."""

    def __init__(self) -> None:
        self.state = "off"

    def persist(self, job: int, requested: int, count: int, reason: str) -> None:
        pass

    def progress(self, count: int, pending: int) -> None:
        pass

    def recall(self) -> tuple[int, int, int, str, int] | None:
        return None

    def take_maintenance(self) -> bool:
        return False

    def request_maintenance(self) -> None:
        pass


def for_chip(mem32: Any, chip: Any) -> Scratch:
    """The scratch registers of `chip` (an `uno_chip.Chip`), or `NoScratch`."""
    if chip.scratch is None:
        return NoScratch()
    return Scratch(mem32, chip.scratch)
