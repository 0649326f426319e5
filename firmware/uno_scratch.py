"""The current run's progress in the RP2040 watchdog's scratch registers 0-3 (4-7 belong to the
boot ROM), so a reset mid-run loses no card.

What survives what: the scratch registers survive a watchdog reset, ``machine.reset()`` and a
firmware crash that the watchdog ends; a power loss, a brown-out or the RUN pin clears them
(the check word then fails and `recall` says nothing). RAM survives nothing.

Layout (every value stays under 2**30, a MicroPython small int on the Pico, so the interrupt
that writes `progress` never makes a long int)::

    scratch0  MAGIC ^ job (the check word; 0 while the others change)
    scratch1  job id
    scratch2  requested << 16 | count << 1 | pending (a card left the beam, min_gap not over)
    scratch3  reason code, and MAINT_FLAG (reboot into maintenance mode)

`mem32` is ``machine.mem32`` on the Pico, anything subscriptable in tests.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

BASE = 0x40058000 + 0x0C  # WATCHDOG_BASE + SCRATCH0
MAGIC = 0x554E4F00
MAINT_FLAG = 0x100
REASONS = ("running", "count", "jam", "empty", "timeout", "stopped")


class Scratch:
    def __init__(self, mem32: Any, base: int = BASE) -> None:
        self._mem = mem32
        self._check, self._job, self._count, self._reason = base, base + 4, base + 8, base + 12

    def persist(self, job: int, requested: int, count: int, reason: str) -> None:
        """A run's start or end."""
        code = REASONS.index(reason) if reason in REASONS else len(REASONS) - 1
        mem = self._mem
        mem[self._check] = 0  # invalid while the words change
        mem[self._job] = job
        mem[self._count] = (requested << 16) | (count << 1)
        mem[self._reason] = (mem[self._reason] & MAINT_FLAG) | code
        mem[self._check] = MAGIC ^ job

    def progress(self, count: int, pending: int) -> None:
        """Each card, from the beam's hard interrupt: no allocation."""
        word = self._mem[self._count]
        self._mem[self._count] = ((word >> 16) << 16) | (count << 1) | pending

    def recall(self) -> tuple[int, int, int, str, int] | None:
        """``(job, requested, count, reason, pending)`` of the run before this reset, or None
        (none, or the power was lost)."""
        mem = self._mem
        job = mem[self._job]
        if job == 0 or mem[self._check] != (MAGIC ^ job):
            return None
        packed = mem[self._count]
        code = mem[self._reason] & 0xFF
        reason = REASONS[code] if code < len(REASONS) else "stopped"
        return job, packed >> 16, (packed >> 1) & 0x7FFF, reason, packed & 1

    def take_maintenance(self) -> bool:
        """True once if `request_maintenance` was called before this reset."""
        flagged = self._mem[self._reason] & MAINT_FLAG
        self._mem[self._reason] = self._mem[self._reason] & ~MAINT_FLAG
        return bool(flagged)

    def request_maintenance(self) -> None:
        self._mem[self._reason] = self._mem[self._reason] | MAINT_FLAG
