"""Which chip the board is, and so where (if anywhere) its watchdog scratch registers are.

The Pico (RP2040) and the Pico 2 (RP2350) run the same firmware, but their peripherals sit at
different addresses: the RP2040's watchdog is at 0x40058000, and on the RP2350 that address is
the USB PLL (offset 0x0c, where the RP2040 keeps SCRATCH0, is the PLL's post-dividers: writing
a run's progress there would stop USB). So nothing here writes to an address before the chip is
known, and a chip this file does not know gets no register at all.

Two witnesses must agree:

* MicroPython's machine string (``sys.implementation._machine``), e.g. ``"Raspberry Pi Pico
  with RP2040"``, ``"Raspberry Pi Pico2 with RP2350"`` (``RP2350-RISCV`` on the RISC-V cores):
  the rp2 port builds it from ``MICROPY_HW_MCU_NAME``;
* the SYSINFO ``CHIP_ID`` register, at 0x40000000 on both chips (read only): bits 27..12 are
  the part number, 2 on the RP2040 and 4 on the RP2350; bits 11..0 read 0x927 on both.

The machine string is checked first, so an unknown port never has an address read at all.
"""

try:
    from typing import Any
except ImportError:  # MicroPython: no typing module, and it never evaluates annotations
    pass

CHIP_ID = 0x40000000  # SYSINFO_BASE + CHIP_ID: the same address on both chips
MANUFACTURER = 0x927  # CHIP_ID bits 11..0 on both (the RP2350 calls bit 0 its stop bit)
SCRATCH0 = 0x0C  # WATCHDOG_BASE + SCRATCH0 on both
# chip name: (CHIP_ID part number, WATCHDOG_BASE)
CHIPS = {
    "RP2040": (2, 0x40058000),
    "RP2350": (4, 0x400D8000),  # the RP2040's watchdog address is the RP2350's PLL_USB
}
UNKNOWN = "unknown"


class Chip:
    """`name` (``RP2040``, ``RP2350`` or ``unknown``); `scratch`, the address of the watchdog's
    SCRATCH0 (None: no registers may be used); `why`, said when there are none."""

    def __init__(self, name: str, scratch: int | None, why: str = "") -> None:
        self.name = name
        self.scratch = scratch
        self.why = why


def machine_name() -> str:
    """MicroPython's description of the board (the test harness replaces this function)."""
    import sys

    return str(sys.implementation._machine)


def named(machine: str) -> str:
    """The chip a machine string names (``unknown`` if none)."""
    for name in CHIPS:
        if name in machine:
            return name
    return UNKNOWN


def detect(machine: str, mem32: Any) -> Chip:
    """The chip, from the machine string and CHIP_ID. Never raises: a chip it cannot be sure of
    is ``Chip(name, None, why)``, and the board then keeps nothing across a reset."""
    name = named(machine)
    if name == UNKNOWN:
        return Chip(UNKNOWN, None, "not an RP2040 or RP2350: " + machine)
    part, watchdog = CHIPS[name]
    try:
        word = mem32[CHIP_ID] & 0xFFFFFFFF
    except Exception as error:  # a port without mem32 at that address
        return Chip(name, None, "cannot read CHIP_ID: " + type(error).__name__)
    if word & 0xFFF != MANUFACTURER or (word >> 12) & 0xFFFF != part:
        return Chip(name, None, "CHIP_ID 0x%08x is not an %s" % (word, name))
    return Chip(name, watchdog + SCRATCH0)


def chip_id(name: str, revision: int = 1) -> int:
    """The CHIP_ID word a chip reads (for fakes and tests)."""
    return (revision << 28) | (CHIPS[name][0] << 12) | MANUFACTURER
