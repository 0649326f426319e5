"""The watchdog scratch registers and the chip they belong to, on MicroPython: a run's progress
survives a reset (the same registers read back), not a power loss (registers cleared); the
interrupt's write allocates nothing; a layout from another firmware version is discarded and
said to be, never misread; an RP2350 gets its own registers, an unknown chip none."""

from array import array

import micropython
import uno_chip
import uno_proto
import uno_scratch
from rig import Feeder, Rig
from uno_scratch import NoScratch, Scratch

RP2040 = 0x40058000 + 0x0C  # the RP2040's WATCHDOG_BASE + SCRATCH0
RP2350 = 0x400D8000 + 0x0C  # the RP2350's; on the RP2350, RP2040 is the USB PLL
BASE = RP2040


class Mem32:
    """``machine.mem32`` over the four 32-bit scratch registers at `base`."""

    def __init__(self, base=BASE):
        self.base = base
        self.words = array("L", [0, 0, 0, 0])

    def __getitem__(self, address):
        return self.words[(address - self.base) >> 2]

    def __setitem__(self, address, value):
        self.words[(address - self.base) >> 2] = value & 0xFFFFFFFF


class Registers:
    """A whole address space (0 unless set), recording every address read and written."""

    def __init__(self, words=None):
        self.words = dict(words or {})
        self.read = []
        self.written = []

    def __getitem__(self, address):
        self.read.append(address)
        return self.words.get(address, 0)

    def __setitem__(self, address, value):
        self.written.append(address)
        self.words[address] = value & 0xFFFFFFFF


class Untouchable:
    """An address space that must not be touched at all."""

    def __getitem__(self, address):
        raise AssertionError("read 0x%x" % address)

    def __setitem__(self, address, value):
        raise AssertionError("wrote 0x%x" % address)


def v1_persist(mem, job, requested, count, code, maint=0):
    """Firmware 0.1.0's layout, as it wrote it (the upgrade's starting point)."""
    mem[BASE] = 0
    mem[BASE + 4] = job
    mem[BASE + 8] = (requested << 16) | (count << 1)
    mem[BASE + 12] = maint | code
    mem[BASE] = 0x554E4F00 ^ job


def v1_recall(mem):
    """Firmware 0.1.0's reading (a downgrade's)."""
    job = mem[BASE + 4]
    if job == 0 or mem[BASE] != (0x554E4F00 ^ job):
        return None
    return job, mem[BASE + 8] >> 16, (mem[BASE + 8] >> 1) & 0x7FFF


def test_progress_survives_a_reset_not_a_power_loss():
    mem = Mem32()
    Scratch(mem, BASE).persist(123456, 8, 0, "running")
    before = Scratch(mem, BASE)
    micropython.heap_lock()
    try:
        before.progress(3, 1)  # as the beam's interrupt does
    finally:
        micropython.heap_unlock()
    after = Scratch(mem, BASE)  # a reset: same registers
    assert after.recall() == (123456, 8, 3, "running", 1) and after.state == "run"
    Scratch(mem, BASE).persist(123456, 8, 4, "count")
    assert Scratch(mem, BASE).recall() == (123456, 8, 4, "count", 0)
    lost = Scratch(Mem32(), BASE)  # a power loss: registers cleared
    assert lost.recall() is None and lost.state == "none"


def test_every_word_stays_a_small_int_on_the_pico():
    mem = Mem32()
    scratch = Scratch(mem, BASE)
    for job, requested, count, reason in ((2**30 - 1, 200, 200, "timeout"), (1, 0, 0, "count")):
        scratch.persist(job, requested, count, reason)
        scratch.progress(count, 1)
        scratch.request_maintenance()
        assert max(mem.words) < 2**30, [hex(w) for w in mem.words]
        assert Scratch(mem, BASE).recall() == (job, requested, count, reason, 1)


def test_a_torn_write_is_not_believed():
    mem = Mem32()
    Scratch(mem, BASE).persist(77, 2, 0, "running")
    mem.words[1] = 78  # the job word changed but the header did not
    scratch = Scratch(mem, BASE)
    assert scratch.recall() is None and scratch.state == "torn"
    mem = Mem32()
    Scratch(mem, BASE).persist(77, 2, 1, "running")
    mem.words[0] = 0  # reset between clearing the header and writing it again
    scratch = Scratch(mem, BASE)
    assert scratch.recall() is None and scratch.state == "torn"


def test_an_upgrade_discards_the_old_layout_and_says_so():
    """Firmware 0.1.0 left job 4711 with 5 cards (of 8): the new firmware must not report a
    count it cannot read (the old bug: 5 cards read as 2), but say the memory was old."""
    mem = Mem32()
    v1_persist(mem, 4711, 8, 5, 0)  # reason "running": the reset cut it short
    scratch = Scratch(mem, BASE)
    assert scratch.recall() is None and scratch.state == "old"
    assert not scratch.take_maintenance()  # the old words are no flag either
    rig = Rig(recall=scratch.recall, memory=scratch.state)
    rig.board.boot()
    (boot,) = rig.events("BOOT")
    assert boot["mem"] == "old" and boot["chip"] == "RP2040"
    assert rig.ok("HELLO", "proto=1", "min=1")["mem"] == "old"
    given = rig.ok("STATUS", "job=4711")
    assert given["reason"] == "unknown" and "ejected" not in given  # not 2, not anything
    # the new layout replaces it at the next run, and 0.1.0 (a downgrade) rejects it in turn
    scratch.persist(4712, 3, 2, "count")
    assert Scratch(mem, BASE).recall() == (4712, 3, 2, "count", 0)
    assert v1_recall(mem) is None


def test_an_old_maintenance_flag_is_not_taken_for_a_new_one():
    mem = Mem32()
    v1_persist(mem, 9, 1, 1, 1, maint=0x100)  # 0.1.0 rebooting into maintenance mode
    assert not Scratch(mem, BASE).take_maintenance()


def test_another_version_of_the_layout_is_old_not_read():
    mem = Mem32()
    Scratch(mem, BASE).persist(55, 4, 3, "count")
    mem.words[0] = (uno_scratch.TAG << 20) | (3 << 16) | (mem.words[0] & 0xFFFF)  # a version 3
    scratch = Scratch(mem, BASE)
    assert scratch.recall() is None and scratch.state == "old"


def test_rp2350_boot_rom_parameters_in_scratch_2_and_3_are_rejected():
    mem = Mem32(RP2350)
    Scratch(mem, RP2350).persist(31, 6, 4, "count")
    mem.words[2], mem.words[3] = 0x10000000, 0x00400000  # a flash-update reboot's p0, p1
    scratch = Scratch(mem, RP2350)
    assert scratch.recall() is None and scratch.state == "torn"


def test_maintenance_flag_is_taken_once_and_keeps_the_run():
    mem = Mem32()
    scratch = Scratch(mem, BASE)
    scratch.persist(9, 1, 1, "count")
    scratch.request_maintenance()
    assert Scratch(mem, BASE).take_maintenance() and not Scratch(mem, BASE).take_maintenance()
    assert Scratch(mem, BASE).recall() == (9, 1, 1, "count", 0)


def test_maintenance_from_empty_or_foreign_registers():
    for words in ([0, 0, 0, 0], [0x7FFFFFFF, 5, 12345, 0x100]):
        mem = Mem32()
        for i in range(4):
            mem.words[i] = words[i]
        Scratch(mem, BASE).request_maintenance()
        assert Scratch(mem, BASE).take_maintenance(), words
        after = Scratch(mem, BASE)
        assert after.recall() is None and after.state == "none"


def test_chip_detection():
    cases = (
        ("Raspberry Pi Pico with RP2040", "RP2040", "RP2040", RP2040),
        ("Raspberry Pi Pico W with RP2040", "RP2040", "RP2040", RP2040),
        ("Raspberry Pi Pico2 with RP2350", "RP2350", "RP2350", RP2350),
        ("Raspberry Pi Pico2 with RP2350-RISCV", "RP2350", "RP2350", RP2350),
        ("Raspberry Pi Pico with RP2040", "RP2350", "RP2040", None),  # they disagree: none
        ("Raspberry Pi Pico2 with RP2350", "RP2040", "RP2350", None),
    )
    for machine, real, name, scratch in cases:
        mem = Registers({uno_chip.CHIP_ID: uno_chip.chip_id(real, revision=2)})
        chip = uno_chip.detect(machine, mem)
        assert (chip.name, chip.scratch) == (name, scratch), (machine, real)
        assert mem.read == [uno_chip.CHIP_ID] and not mem.written  # read CHIP_ID, wrote nothing
        assert chip.scratch is not None or "CHIP_ID" in chip.why
    other = uno_chip.detect("linux [GCC 14.2.1] version", Untouchable())  # not even read
    assert (other.name, other.scratch) == ("unknown", None) and "linux" in other.why
    odd = uno_chip.detect("Raspberry Pi Pico with RP2040", Registers())  # CHIP_ID reads 0
    assert odd.scratch is None


def test_an_rp2350_keeps_its_run_in_its_own_registers_never_in_the_usb_pll():
    mem = Registers({uno_chip.CHIP_ID: uno_chip.chip_id("RP2350")})
    chip = uno_chip.detect("Raspberry Pi Pico2 with RP2350", mem)
    scratch = uno_scratch.for_chip(mem, chip)
    scratch.persist(8, 2, 0, "running")
    scratch.progress(1, 1)
    scratch.request_maintenance()
    assert set(mem.written) == {RP2350, RP2350 + 4, RP2350 + 8, RP2350 + 12}
    assert not [a for a in mem.read + mem.written if 0x40058000 <= a < 0x40059000]
    again = uno_scratch.for_chip(mem, chip)
    assert again.recall() == (8, 2, 1, "running", 1)


def test_an_unknown_chip_touches_no_address_and_keeps_nothing():
    chip = uno_chip.detect("Some Board with RP9999", Untouchable())
    scratch = uno_scratch.for_chip(Untouchable(), chip)
    assert isinstance(scratch, NoScratch) and scratch.state == "off"
    scratch.persist(1, 2, 0, "running")
    scratch.progress(1, 0)
    scratch.request_maintenance()
    assert scratch.recall() is None and not scratch.take_maintenance()
    rig = Rig(recall=scratch.recall, chip=chip.name, memory=scratch.state)
    rig.board.boot()
    assert rig.events("BOOT")[0]["mem"] == "off" and rig.events("BOOT")[0]["chip"] == "unknown"


def test_a_reset_mid_run_through_the_real_registers_loses_no_card():
    """The board writes the real layout (the beam's interrupt with the heap locked), a 'reset'
    builds a new board on the same registers and pins, and it knows the run to the card."""
    for at in (150, 171, 176, 190, 240, 262):
        mem = Mem32()
        rig = Rig(scratch=Scratch(mem, BASE))
        rig.hello()
        feeder = Feeder(rig, pulse_ms=30, gap_ms=40)
        rig.send("EJECT", "job=42", "n=8", "deadline=9000")
        rig.run(at, each=feeder.tick)
        scratch = Scratch(mem, BASE)
        after = Rig(
            scratch=scratch, beam_blocked=rig.hw.beam.blocked, memory=scratch.state
        )  # fmt: skip
        after.board.boot()
        assert after.events("BOOT")[0]["mem"] == "run"
        after.hello()
        given = after.ok("STATUS", "job=42")
        assert (given["reason"], given["ejected"]) == ("reset", str(feeder.out)), (at, given)
        _n, word, args = after.send("EJECT", "job=42", "n=8", "deadline=5000")
        assert word == "ACK" and "dup=1" in args  # never started twice
        assert uno_proto.fields(args)["reason"] == "reset"
