"""The Pico's entry point (MicroPython runs main.py at boot). Only this file touches the real
``machine``, ``time``, USB serial and the watchdog; the logic is in the uno_* modules.

Order matters: motor lines low first, then the rest. ``kbd_intr(-1)`` stops a stray 0x03 byte
on the serial line from interrupting the program. ``machine.WDT`` resets the board if the loop
ever stalls (it cannot be stopped once started), so to reach the REPL for an update the host
sends ``MAINT`` (``make firmware-deploy`` does) or a person holds the UNO button while plugging
the board in: the board then boots into maintenance mode, motor off, without the loop.
"""

import select
import sys
import time

import machine
import micropython
import uno_board
import uno_hw
from uno_app import Board

WDT_MS = 2000
MAX_ERRORS = 10  # errors in a row before the loop stops feeding the watchdog
# The RP2040 watchdog's scratch registers 0-3 (4-7 belong to the boot ROM): they survive a
# watchdog or software reset, not a power loss or a brown-out.
SCRATCH = 0x40058000 + 0x0C
_CHECK, _JOB, _COUNT, _REASON = SCRATCH, SCRATCH + 4, SCRATCH + 8, SCRATCH + 12
MAGIC = 0x554E4F00
MAINT_FLAG = 0x100
REASONS = ("running", "count", "jam", "empty", "timeout", "stopped")


def persist(job: int, requested: int, count: int, reason: str) -> None:
    """Record a run's start or end where a watchdog reset cannot erase it."""
    code = REASONS.index(reason) if reason in REASONS else len(REASONS) - 1
    machine.mem32[_CHECK] = 0  # invalid while the words change
    machine.mem32[_JOB] = job
    machine.mem32[_COUNT] = (requested << 16) | (count << 1)
    machine.mem32[_REASON] = code
    machine.mem32[_CHECK] = MAGIC ^ job


def progress(count: int, pending: int) -> None:
    """Each card, from the beam's hard interrupt: small ints and preallocated addresses only
    (the register holds < 2**24, so no long int is ever made)."""
    word = machine.mem32[_COUNT]
    machine.mem32[_COUNT] = ((word >> 16) << 16) | (count << 1) | pending


def recall() -> tuple[int, int, int, str, int] | None:
    """``(job, requested, count, reason, pending)`` of the last run before this reset, if the
    scratch registers still hold it (a power loss clears them)."""
    job = machine.mem32[_JOB]
    if machine.mem32[_CHECK] != (MAGIC ^ job) or job == 0:
        return None
    packed = machine.mem32[_COUNT]
    code = machine.mem32[_REASON] & 0xFF
    reason = REASONS[code] if code < len(REASONS) else "stopped"
    return job, packed >> 16, (packed >> 1) & 0x7FFF, reason, packed & 1


def maintenance_requested(pins: dict[str, object]) -> bool:
    """MAINT was acknowledged before this reset, or the UNO button is held at boot."""
    flagged = machine.mem32[_REASON] & MAINT_FLAG
    machine.mem32[_REASON] = machine.mem32[_REASON] & ~MAINT_FLAG
    button = machine.Pin(pins["button"], machine.Pin.IN, machine.Pin.PULL_UP)
    time.sleep_ms(20)
    return bool(flagged) or button.value() == 0


def reset_cause() -> str:
    cause = machine.reset_cause()
    if cause == machine.WDT_RESET:
        return "wdt"
    if cause == machine.PWRON_RESET:
        return "power"
    return "other"


def boot_id() -> int:
    import os

    return int.from_bytes(os.urandom(3), "big") or 1


class UsbSerial:
    """The USB CDC serial port MicroPython gives the REPL, used for the protocol."""

    def __init__(self) -> None:
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer

    def wait(self, ms: int) -> bool:
        return bool(self._poll.poll(ms))

    def read(self) -> bytes:
        data = b""
        while len(data) < 128 and self._poll.poll(0):
            data += self._in.read(1)
        return data

    def write(self, data: bytes) -> None:
        self._out.write(data)


def run() -> None:
    pins = uno_board.load()
    uno_hw.safe_lines(machine, pins)
    if maintenance_requested(pins):
        print("uno-attack: maintenance mode, motor off; the REPL is yours")
        return
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=WDT_MS)
    usb = UsbSerial()
    hw = uno_hw.Hardware(machine, pins, time)
    board = Board(
        hw,
        time,
        usb.write,
        reset_cause=reset_cause(),
        boot_id=boot_id(),
        persist=persist,
        recall=recall,
        wdt=wdt,
        progress=progress,
    )
    board.boot()
    loop(board, usb, hw)


def loop(board: Board, usb: UsbSerial, hw: uno_hw.Hardware) -> None:
    errors = 0
    while True:
        try:
            if usb.wait(1):
                board.receive(usb.read())
            board.step()
            if board.maintenance:
                time.sleep_ms(50)  # let the ACK leave
                machine.mem32[_REASON] = machine.mem32[_REASON] | MAINT_FLAG
                machine.reset()
            errors = 0
        except Exception as error:
            board.fail(error)
            errors += 1
            if errors >= MAX_ERRORS:
                hw.safe()
                while True:  # the watchdog resets the board, motor off
                    time.sleep_ms(100)


try:
    run()
finally:
    uno_hw.safe_lines(machine, uno_board.load())
