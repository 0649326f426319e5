"""A fake ``machine`` module for booting the real ``main.py`` on MicroPython's unix port: the
pins of `fakes.FakeMachine`, registers (``mem32``) in RAM, and a watchdog that ends the
program (SystemExit) after `FEEDS` feeds, so a test can boot the board, talk to it over
stdin/stdout and see it stop."""

from array import array

from fakes import FakeMachine

FEEDS = 400
PWRON_RESET, WDT_RESET = 1, 3

_machine = FakeMachine()
_machine.Pin(8).drive(0)  # the lid switch holds its line low: the lid is closed
Pin = _machine.Pin
PWM = _machine.PWM
disable_irq = _machine.disable_irq
enable_irq = _machine.enable_irq


class _Mem32:
    """Registers in RAM (0 until written); `written` collects every address main.py wrote."""

    def __init__(self):
        self.words = {}
        self.written = set()

    def __getitem__(self, address):
        return self.words.get(address, 0)

    def __setitem__(self, address, value):
        self.words[address] = value & 0xFFFFFFFF
        self.written.add(address)


mem32 = _Mem32()
fed = array("i", [0])


class WDT:
    def __init__(self, timeout=2000):
        self.timeout = timeout

    def feed(self):
        fed[0] += 1
        if fed[0] >= FEEDS:
            raise SystemExit(0)


def reset_cause():
    return PWRON_RESET


def reset():
    raise SystemExit(0)


def pins():
    return _machine.pins
