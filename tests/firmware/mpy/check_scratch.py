"""The watchdog scratch registers on MicroPython: a run's progress survives a reset (the same
registers read back), not a power loss (registers cleared), and the interrupt's write allocates
nothing."""

from array import array

import micropython
from uno_scratch import BASE, Scratch


class Mem32:
    """``machine.mem32`` over four 32-bit registers at `BASE`."""

    def __init__(self):
        self.words = array("L", [0, 0, 0, 0])

    def __getitem__(self, address):
        return self.words[(address - BASE) >> 2]

    def __setitem__(self, address, value):
        self.words[(address - BASE) >> 2] = value & 0xFFFFFFFF


def test_progress_survives_a_reset_not_a_power_loss():
    mem = Mem32()
    Scratch(mem).persist(123456, 8, 0, "running")
    before = Scratch(mem)
    micropython.heap_lock()
    try:
        before.progress(3, 1)  # as the beam's interrupt does
    finally:
        micropython.heap_unlock()
    assert Scratch(mem).recall() == (123456, 8, 3, "running", 1)  # a reset: same registers
    Scratch(mem).persist(123456, 8, 4, "count")
    assert Scratch(mem).recall() == (123456, 8, 4, "count", 0)
    assert Scratch(Mem32()).recall() is None  # a power loss: registers cleared


def test_a_torn_write_is_not_believed():
    mem = Mem32()
    Scratch(mem).persist(77, 2, 0, "running")
    mem.words[1] = 78  # the job word changed but the check word did not
    assert Scratch(mem).recall() is None


def test_maintenance_flag_is_taken_once_and_keeps_the_run():
    mem = Mem32()
    scratch = Scratch(mem)
    scratch.persist(9, 1, 1, "count")
    scratch.request_maintenance()
    assert Scratch(mem).take_maintenance() and not Scratch(mem).take_maintenance()
    assert Scratch(mem).recall() == (9, 1, 1, "count", 0)
