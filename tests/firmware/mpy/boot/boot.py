"""Boot the real main.py on MicroPython with the fake machine beside this file; when its
watchdog stops the program, print every motor line's duty (``LINE <gpio> <duty>``) and every
register main.py wrote (``MEM <address> <value>``, hex).

``micropython boot.py <firmware dir> [<machine string> [<address>=<value> ...]]``: the machine
string stands in for ``sys.implementation._machine`` (default: a Pico with an RP2040, whose
CHIP_ID register then reads as that chip's); each ``address=value`` (hex) is a register's
content at power-up, e.g. scratch registers left by an older firmware.
"""

import sys

here = __file__.rsplit("/", 1)[0]
sys.path[:0] = [here, here + "/..", sys.argv[1]]

import machine  # noqa: E402  (the fake one, found first)
import uno_chip  # noqa: E402

NAME = sys.argv[2] if len(sys.argv) > 2 else "Raspberry Pi Pico with RP2040"
uno_chip.machine_name = lambda: NAME
if uno_chip.named(NAME) in uno_chip.CHIPS:
    machine.mem32.words[uno_chip.CHIP_ID] = uno_chip.chip_id(uno_chip.named(NAME))
for given in sys.argv[3:]:
    address, value = given.split("=")
    machine.mem32.words[int(address, 16)] = int(value, 16)
machine.mem32.written.clear()

try:
    import main  # noqa: F401  (runs the board until the fake watchdog ends it)
except SystemExit:
    pass
for gpio in (13, 14, 15):
    print("LINE %d %d" % (gpio, machine.pins()[gpio].duty))
for address in sorted(machine.mem32.written):
    print("MEM %x %x" % (address, machine.mem32.words[address]))
