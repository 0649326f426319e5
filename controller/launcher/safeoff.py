"""``uno-attack safe-off``: drive every motor line of a pin profile off, then release it.

systemd runs this after the service stops (``ExecStopPost=``), and the motor guard
(`controller.launcher.guard`) runs the same per-line code the moment a guarded process dies, so
a service that crashed or was killed mid-eject cannot leave the motor running. Each line is
claimed as an output driven low (every motor-driver input in the pin profiles is off when low;
the motor stops at once), then released, where the 10 kΩ pull-down on the driver input keeps it
low. Lines are handled one by one so one busy line does not stop the others.

A line another live process holds cannot be claimed (the kernel says EBUSY; lgpio raises
``lgpio.error('GPIO busy')``). `safe_off` then names the holder, found by a `LineUser`
seam: on the real kernel `kernel_line_user` looks through ``/proc/*/fd`` for processes that
have the GPIO chip open with a line request (``anon_inode:gpio-line``, or lgpio's v1
``gpio-linehandle`` / ``gpio-event``; kernels from 6.7 list a request's lines in
``/proc/PID/fdinfo``), and asks the chip for the line's consumer label
(``GPIO_V2_GET_LINEINFO_IOCTL``), which works without reading other users' processes.
"""

from __future__ import annotations

import fcntl
import os
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero import DigitalOutputDevice

from controller.launcher.pins import PinProfile

STOP_SERVICE = "sudo systemctl stop uno-attack"
LINE_REQUESTS = ("gpio-line", "gpio-linehandle", "gpio-event")  # anon inode names, v2 and v1
COMMAND_WIDTH = 60  # characters of a holder's command line in a message


@dataclass(frozen=True)
class Holder:
    """A process that holds a GPIO line: its pid and its command line (shortened)."""

    pid: int
    command: str = ""

    def __str__(self) -> str:
        return f"pid {self.pid}, {self.command}" if self.command else f"pid {self.pid}"


@dataclass(frozen=True)
class LineUse:
    """What is known about who holds a line."""

    holders: tuple[Holder, ...] = ()
    consumer: str = ""  # the label the holder gave the kernel ("lg" for lgpio); "" unknown
    hidden: bool = False  # some processes' descriptors could not be read (not root)


LineUser = Callable[[int], LineUse]  # a GPIO number -> who holds it


def is_busy(error: BaseException) -> bool:
    """The claim failed because another process holds the line (lgpio's 'GPIO busy')."""
    return "busy" in str(error).lower()


def busy_message(use: LineUse) -> str:
    """Why a line could not be claimed and what to do, naming the holder when known."""
    if use.holders:
        who = "; ".join(str(holder) for holder in use.holders)
        that = "that process" if len(use.holders) == 1 else "those processes"
    else:
        label = f'its consumer is "{use.consumer}"' if use.consumer else "it could not be named"
        who = f"{label}; run safe-off with sudo to see which" if use.hidden else label
        that = "that process"
    return (
        f"held by another process ({who}): stop the service first ({STOP_SERVICE}) "
        f"or {that}, then run safe-off again"
    )


def drive_line_off(gpio: int, pin_factory: Any, line_user: LineUser | None = None) -> str | None:
    """Claim `gpio` as an output driven low and release it. None if done, else why not; with
    `line_user`, a line held by another process names that process."""
    try:
        line = DigitalOutputDevice(gpio, initial_value=False, pin_factory=pin_factory)
    except Exception as error:  # lgpio's own `lgpio.error` ("GPIO busy") is neither a
        if line_user is not None and is_busy(error):  # gpiozero error nor an OSError
            try:
                use = line_user(gpio)
            except Exception:  # naming the holder is a courtesy: never let it hide the error
                use = LineUse()
            return busy_message(use)
        return f"could not claim the line: {error}"
    try:
        line.off()
    finally:
        line.close()
    return None


def safe_off(
    profile: PinProfile, pin_factory: Any, line_user: LineUser | None = None
) -> tuple[list[str], list[str]]:
    """Drive each motor line low and release it. Returns (report lines, error lines)."""
    done: list[str] = []
    errors: list[str] = []
    for role, gpio in profile.motor.lines:
        name = f"motor.{role} (GPIO{gpio})"
        problem = drive_line_off(gpio, pin_factory, line_user)
        if problem is None:
            done.append(f"{name}: driven low, released to its pull-down")
        else:
            errors.append(f"{name}: {problem}")
    return done, errors


# --- who holds a line, on the real kernel ---


def kernel_line_user(pin_factory: Any, proc: Path = Path("/proc")) -> LineUser:
    """The `LineUser` for lines of `pin_factory`'s GPIO chip (gpiozero's lgpio factory knows
    its number as ``chip``; without one, any ``/dev/gpiochip*``)."""
    chip = getattr(pin_factory, "chip", None)
    device = f"/dev/gpiochip{chip}" if isinstance(chip, int) else None

    def line_user(gpio: int) -> LineUse:
        holders, hidden = proc_holders(gpio, device, proc=proc)
        consumer = line_consumer(device, gpio) if device is not None else ""
        return LineUse(tuple(holders), consumer or "", hidden)

    return line_user


def proc_holders(
    gpio: int,
    device: str | None,
    *,
    proc: Path = Path("/proc"),
    requests: Iterable[str] = LINE_REQUESTS,
    me: int | None = None,
) -> tuple[list[Holder], bool]:
    """Processes (not this one) that have `device` (a ``/dev/gpiochipN``; None: any) open and
    hold a line request on it, and whether some processes could not be looked at.

    A request whose ``fdinfo`` lists its lines (``gpio-line:`` entries, kernel 6.7+) counts
    only if it lists `gpio`; lgpio's v1 requests list none, so a process holding any request
    on the chip counts. Exact matches win over such guesses."""
    me = os.getpid() if me is None else me
    kinds = {f"anon_inode:{kind}" for kind in requests} | {
        f"anon_inode:[{kind}]" for kind in requests
    }
    exact: list[Holder] = []
    maybe: list[Holder] = []
    hidden = False
    try:
        pids = [int(entry.name) for entry in proc.iterdir() if entry.name.isdigit()]
    except OSError:
        return [], True
    for pid in sorted(pids):
        if pid == me:
            continue
        fds = proc / str(pid) / "fd"
        try:
            names = os.listdir(fds)
        except PermissionError:
            hidden = True
            continue
        except OSError:  # gone meanwhile
            continue
        chip_open = False
        requests_here: list[str] = []
        for name in names:
            try:
                target = os.readlink(fds / name)
            except OSError:
                continue
            if target == device or (device is None and target.startswith("/dev/gpiochip")):
                chip_open = True
            elif target in kinds:
                requests_here.append(name)
        if not chip_open or not requests_here:
            continue
        listed = [_fdinfo_lines(proc / str(pid) / "fdinfo" / fd, device) for fd in requests_here]
        if any(lines is not None and gpio in lines for lines in listed):
            exact.append(describe_process(pid, proc))
        elif any(lines is None for lines in listed):
            maybe.append(describe_process(pid, proc))
    return (exact or maybe), hidden


def _fdinfo_lines(path: Path, device: str | None) -> set[int] | None:
    """The lines a request's fdinfo lists (on another chip: none), or None if it lists none."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return None
    lines: set[int] = set()
    chip = ""
    for row in text.splitlines():
        key, _, value = row.partition(":")
        if key == "gpio-chip":
            chip = value.strip()
        elif key == "gpio-line" and value.strip().isdigit():
            lines.add(int(value))
    if not lines:
        return None
    if device is not None and chip and chip != Path(device).name:
        return set()
    return lines


def describe_process(pid: int, proc: Path = Path("/proc")) -> Holder:
    """`pid` with its command line, the interpreter left out (``uno-attack run --config …``)."""
    try:
        raw = (proc / str(pid) / "cmdline").read_bytes()
    except OSError:
        return Holder(pid)
    argv = [arg.decode(errors="replace") for arg in raw.split(b"\0") if arg]
    if len(argv) > 1 and Path(argv[0]).name.startswith("python") and argv[1][:1] != "-":
        argv = argv[1:]  # a console script: its name says more than the interpreter's
    if argv:
        argv[0] = Path(argv[0]).name if argv[0].startswith("/") else argv[0]
    command = " ".join(" ".join(argv).split())  # a -c script's lines on one line
    if len(command) > COMMAND_WIDTH:
        command = command[: COMMAND_WIDTH - 1] + "…"
    return Holder(pid, command)


# GPIO_V2_GET_LINEINFO_IOCTL = _IOWR(0xB4, 0x05, struct gpio_v2_line_info): 256 bytes, the
# consumer label at 32..64, the line offset at 64, the flags (bit 0: used) at 72.
LINEINFO_V2 = 0xC100B405
LINEINFO_SIZE = 256


def line_consumer(device: str, gpio: int) -> str:
    """The consumer label the kernel keeps for `gpio` on chip `device` ("" if free or unknown)."""
    request = bytearray(LINEINFO_SIZE)
    struct.pack_into("=I", request, 64, gpio)
    try:
        fd = os.open(device, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        fcntl.ioctl(fd, LINEINFO_V2, request)
    except OSError:
        return ""
    finally:
        os.close(fd)
    return parse_line_info(bytes(request))


def parse_line_info(info: bytes) -> str:
    """The consumer label in a ``gpio_v2_line_info``, if the line is in use."""
    (flags,) = struct.unpack_from("=Q", info, 72)
    if not flags & 1:
        return ""
    return info[32:64].split(b"\0", 1)[0].decode(errors="replace")
