"""The Pico's entry point (MicroPython runs main.py at boot). Only this file touches the real
``machine``, ``time``, USB serial and the watchdog; the logic is in the uno_* modules.

Order matters: motor lines low first, then the rest. ``kbd_intr(-1)`` stops a stray 0x03 byte
on the serial line from interrupting the program. ``machine.WDT`` resets the board if the loop
ever stalls (it cannot be stopped once started), so to reach the REPL for an update the host
sends ``MAINT`` (``make firmware-deploy`` does) or a person holds the UNO button while plugging
the board in: the board then boots into maintenance mode, motor off, without the loop.

The chip is detected before any register is touched (`uno_chip`): the watchdog's scratch
registers are at one address on the RP2040 (Pico) and another on the RP2350 (Pico 2), where the
RP2040's address is the USB PLL. A chip that cannot be told gets no registers: the board then
runs, but keeps nothing across a reset, and says so (``mem=off`` in BOOT and HELLO).
"""

import select
import sys
import time

import machine
import micropython
import uno_board
import uno_chip
import uno_hw
import uno_scratch
from uno_app import Board

WDT_MS = 2000
MAX_ERRORS = 10  # errors in a row before the loop stops feeding the watchdog


def scratch_registers() -> tuple[uno_chip.Chip, uno_scratch.Scratch]:
    """This chip, and its watchdog scratch registers (they survive a watchdog reset, not a
    power loss), or `NoScratch` if the chip cannot be told (``mem=off`` in BOOT and HELLO
    says so; nothing is printed: stdout is the protocol's line)."""
    chip = uno_chip.detect(uno_chip.machine_name(), machine.mem32)
    return chip, uno_scratch.for_chip(machine.mem32, chip)


def maintenance_requested(pins: dict[str, object], scratch: uno_scratch.Scratch) -> bool:
    """MAINT was acknowledged before this reset, or the UNO button is held at boot."""
    flagged = scratch.take_maintenance()
    button = machine.Pin(pins["button"], machine.Pin.IN, machine.Pin.PULL_UP)
    time.sleep_ms(20)
    return flagged or button.value() == 0


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
            byte = self._in.read(1)
            if not byte:  # the stream ended (readable, but empty): nothing more now
                break
            data += byte
        return data

    def write(self, data: bytes) -> None:
        self._out.write(data)


def run() -> None:
    pins = uno_board.load()
    uno_hw.safe_lines(machine, pins)
    chip, scratch = scratch_registers()
    recalled = scratch.recall()  # before anything writes: what the last boot left
    if maintenance_requested(pins, scratch):
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
        persist=scratch.persist,
        recall=lambda: recalled,
        wdt=wdt,
        progress=scratch.progress,
        chip=chip.name,
        memory=scratch.state,
    )
    board.boot()
    loop(board, usb, hw, scratch)


def loop(board: Board, usb: UsbSerial, hw: uno_hw.Hardware, scratch: uno_scratch.Scratch) -> None:
    errors = 0
    while True:
        try:
            if usb.wait(1):
                board.receive(usb.read())
            board.step()
            if board.maintenance:
                time.sleep_ms(50)  # let the ACK leave
                scratch.request_maintenance()
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
