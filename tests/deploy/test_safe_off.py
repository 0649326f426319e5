"""`uno-attack safe-off` drives every motor line of each pin profile off (on mock pins), and
names the process that holds a line it cannot claim (on the kernel model, and by a /proc scan)."""

from __future__ import annotations

import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.cli import main
from controller.launcher.errors import PinProfileError
from controller.launcher.guard import FACTORY_ENV
from controller.launcher.pins import load_pin_profile, pin_profile_names
from controller.launcher.safeoff import (
    STOP_SERVICE,
    Holder,
    LineUse,
    busy_message,
    describe_process,
    drive_line_off,
    line_consumer,
    parse_line_info,
    proc_holders,
    safe_off,
)
from tests.dying_motor import kill, kill_strays, motor_running, slow_profile, spin, wait_running
from tests.kernel_gpio import ENV, SPEC, KernelLines, LineBusy


@pytest.mark.parametrize("name", pin_profile_names())
def test_safe_off_drives_every_motor_line_of_each_profile_off(name: str) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        profile = load_pin_profile(name)
        lines = [gpio for _, gpio in profile.motor.lines]
        assert lines
        for gpio in lines:  # a killed service left every motor line driven
            pin = factory.pin(gpio)
            pin.function = "output"
            pin.state = 1
        done, errors = safe_off(profile, factory)
        assert not errors and len(done) == len(lines)
        for gpio in lines:
            pin = factory.pin(gpio)
            assert pin.states[-1].state == 0 and pin.function == "input"
    finally:
        factory.close()


def test_safe_off_takes_the_profile_from_the_service_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[launcher]\npin_profile = "mosfet"\n')
    assert main(["safe-off", "--config", str(config), "--mock"]) == 0
    out = capsys.readouterr().out
    profile = load_pin_profile("mosfet")
    for role, gpio in profile.motor.lines:
        assert f"motor.{role} (GPIO{gpio})" in out
    config.write_text("[launcher]\npin_profil = 1\n")
    assert main(["safe-off", "--config", str(config), "--mock"]) == 2


def test_safe_off_of_a_service_without_a_launcher_has_nothing_to_stop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[launcher]\nbackend = "none"\n')
    assert main(["safe-off", "--config", str(config)]) == 0
    assert "no motor to stop" in capsys.readouterr().out


# --- a line another process holds: name it, and say to stop the service first ---


@pytest.fixture
def kernel(tmp_path: Path) -> KernelLines:
    return KernelLines.create(tmp_path / "gpiochip0.json")


@pytest.fixture(autouse=True)
def no_strays() -> Iterator[None]:
    yield
    kill_strays()


def test_safe_off_while_the_motor_runs_names_the_holder_and_what_to_do(
    kernel: KernelLines,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A launcher process runs the motor on the kernel model (EBUSY between processes, as the
    kernel does); `safe-off` on the same lines cannot take them from it, and says whose they
    are. The kernel model knows each line's owner: that stands in for the /proc scan."""
    profile = slow_profile(tmp_path / "slow.toml")
    child = spin(kernel, tmp_path / "slow.toml")
    wait_running(child, kernel, profile)
    monkeypatch.setenv(FACTORY_ENV, SPEC)
    monkeypatch.setenv(ENV, str(kernel.path))
    monkeypatch.setattr(
        "controller.cli.launcher.kernel_line_user",
        lambda factory: lambda gpio: LineUse((describe_process(kernel.owner(gpio)),), "lg"),
    )
    argv = ["safe-off", "--backend", "gpio", "--pin-profile", str(tmp_path / "slow.toml")]
    assert main(argv) == 1
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == len(profile.motor.lines)
    for (role, gpio), line in zip(profile.motor.lines, errors, strict=True):
        assert line.startswith(f"safe-off: error: motor.{role} (GPIO{gpio}): held by another ")
        assert f"(pid {child.pid}, python" in line and "-m tests.dying_motor" in line
        assert f"stop the service first ({STOP_SERVICE}) or that process" in line
        assert line.endswith("then run safe-off again")
    assert motor_running(kernel, profile), "safe-off never takes a line from a live owner"
    kill(child)


def test_busy_message_without_a_name_says_how_to_get_one() -> None:
    assert busy_message(LineUse(consumer="lg", hidden=True)) == (
        'held by another process (its consumer is "lg"; run safe-off with sudo to see which): '
        f"stop the service first ({STOP_SERVICE}) or that process, then run safe-off again"
    )
    two = busy_message(LineUse((Holder(7, "uno-attack run"), Holder(9))))
    assert two.startswith("held by another process (pid 7, uno-attack run; pid 9): ")
    assert "or those processes" in two


class BusyPins(MockFactory):  # type: ignore[misc]
    """Pins whose claim fails as lgpio's does, or with another error."""

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def pin(self, spec: object, **kwargs: object) -> None:
        raise LineBusy(self.message)


def test_a_failing_lookup_never_hides_the_error_and_other_errors_stay_as_they_were() -> None:
    def broken(gpio: int) -> LineUse:
        raise PermissionError("no")

    pins = BusyPins("'GPIO busy'")
    try:
        assert drive_line_off(12, pins, broken) == busy_message(LineUse())
        assert drive_line_off(12, pins) == "could not claim the line: 'GPIO busy'"  # the guard
    finally:
        pins.close()
    pins = BusyPins("'bad GPIO number'")
    try:
        assert drive_line_off(12, pins, broken) == "could not claim the line: 'bad GPIO number'"
    finally:
        pins.close()


def fake_process(proc: Path, pid: int, argv: list[str], fds: dict[str, str],
                 fdinfo: dict[str, str] | None = None) -> None:  # fmt: skip
    """A /proc/PID with a command line and descriptors (symlinks to what the kernel shows)."""
    (proc / str(pid) / "fd").mkdir(parents=True)
    (proc / str(pid) / "fdinfo").mkdir()
    (proc / str(pid) / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")
    for fd, target in fds.items():
        (proc / str(pid) / "fd" / fd).symlink_to(target)
    for fd, text in (fdinfo or {}).items():
        (proc / str(pid) / "fdinfo" / fd).write_text(text)


SERVICE = ["/opt/uno-attack/venv/bin/python3", "/opt/uno-attack/venv/bin/uno-attack", "run",
           "--config", "/etc/uno-attack/config.toml"]  # fmt: skip


def test_proc_scan_finds_lgpio_holders_of_the_chip_and_skips_the_rest(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    fake_process(proc, 100, SERVICE, {"3": "/dev/gpiochip0", "5": "anon_inode:gpio-linehandle"})
    guard = ["/opt/uno-attack/venv/bin/python3", "-m", "controller.launcher.guard", "12"]
    fake_process(proc, 101, guard, {"3": "/dev/gpiochip0"})  # the chip open, no line claimed
    fake_process(
        proc,
        102,
        ["gpiomon", "gpiochip4", "3"],
        {"3": "/dev/gpiochip4", "4": "anon_inode:gpio-line"},
    )  # another chip
    fake_process(proc, 200, ["me"], {"3": "/dev/gpiochip0", "4": "anon_inode:gpio-line"})
    (proc / "self").mkdir()
    holders, hidden = proc_holders(12, "/dev/gpiochip0", proc=proc, me=200)
    assert (
        holders == [Holder(100, "uno-attack run --config /etc/uno-attack/config.toml")]
        and not hidden
    )
    assert [h.pid for h in proc_holders(3, None, proc=proc, me=200)[0]] == [100, 102]


def test_proc_scan_uses_the_lines_a_request_lists(tmp_path: Path) -> None:
    """Kernels from 6.7 list a request's lines in fdinfo: a process holding other lines on the
    chip is not named, and one listing this line wins over guesses."""
    proc = tmp_path / "proc"
    listed = "pos:\t0\nflags:\t02000002\ngpio-chip:\tgpiochip0\ngpio-line:\t{}\n"
    fake_process(
        proc,
        10,
        ["gpioset", "-c", "gpiochip0", "5=1"],
        {"3": "/dev/gpiochip0", "4": "anon_inode:gpio-line"},
        {"4": listed.format(5)},
    )
    assert proc_holders(12, "/dev/gpiochip0", proc=proc, me=1) == ([], False)
    fake_process(proc, 11, SERVICE, {"3": "/dev/gpiochip0", "6": "anon_inode:gpio-linehandle"})
    assert [h.pid for h in proc_holders(12, "/dev/gpiochip0", proc=proc, me=1)[0]] == [11]
    fake_process(
        proc,
        12,
        ["gpioset", "-c", "gpiochip0", "12=1"],
        {"3": "/dev/gpiochip0", "4": "anon_inode:gpio-line"},
        {"4": listed.format(12)},
    )
    assert [h.pid for h in proc_holders(12, "/dev/gpiochip0", proc=proc, me=1)[0]] == [12]


HOLD = """
import os, sys
chip = open(sys.argv[1])
event = os.eventfd(0)
print("held", flush=True)
sys.stdin.read()
"""


def test_proc_scan_works_on_the_real_proc(tmp_path: Path) -> None:
    """The same scan over this machine's /proc: a process with the "chip" (a file here) open
    and an anonymous-inode descriptor (an eventfd standing in for a line request)."""
    chip = tmp_path / "gpiochip0"
    chip.write_text("")
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(chip)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == b"held\n"
        holders, _ = proc_holders(12, str(chip), requests=("eventfd",))
        assert [h.pid for h in holders] == [child.pid]
        assert holders[0].command.startswith("python") and "-c" in holders[0].command
        assert proc_holders(12, str(tmp_path / "gpiochip9"), requests=("eventfd",))[0] == []
    finally:
        child.kill()
        child.wait()


def test_line_info_gives_the_consumer_of_a_used_line() -> None:
    info = bytearray(256)
    info[32:34] = b"lg"
    struct.pack_into("=Q", info, 72, 1 | 8)  # used, output
    assert parse_line_info(bytes(info)) == "lg"
    struct.pack_into("=Q", info, 72, 0)
    assert parse_line_info(bytes(info)) == ""
    assert line_consumer("/dev/gpiochip-that-is-not-there", 12) == ""


def test_a_holder_is_described_on_one_short_line(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    script = "\nimport time\nfrom gpiozero import Motor\n" + "x = 1\n" * 40
    fake_process(proc, 5, ["/usr/bin/python3", "-c", script], {})
    command = describe_process(5, proc).command
    assert "\n" not in command and command.startswith("python3 -c import time from gpiozero")
    assert len(command) == 60 and command.endswith("…")
    assert describe_process(6, proc) == Holder(6)  # gone: the pid alone


# --- a service of several tables ([[tables]]): every table's motor, each reported by its id ---

LAUNCHER = '[launcher]\npin_profile = "mosfet"  # not [[tables]]\'s: the gpio table has its own\n'
WINDOW = '[[tables]]\nid = "window"\nlauncher = "gpio"\npin_profile = "phase-enable"\n'
CORNER = '[[tables]]\nid = "corner"\nlauncher = "board"\nserial_number = "E6614103E7"\n'
SPARE = '[[tables]]\nid = "spare"\nlauncher = "board"\nserial_number = "E66138935F"\n'
OTHERS = '[[tables]]\nid = "demo"\nlauncher = "sim"\n[[tables]]\nid = "typed"\n'
TABLES = LAUNCHER + WINDOW + CORNER + SPARE + OTHERS

PORTS = {"E6614103E7": "/dev/ttyACM0"}  # "spare"'s board is not plugged in


class OneBusyLine(MockFactory):  # type: ignore[misc]
    """Mock pins on which one line is held by another process (as lgpio says it)."""

    def __init__(self, busy: int | None = None) -> None:
        super().__init__(pin_class=MockPWMPin)
        self.busy = busy

    def pin(self, spec: object, **kwargs: object) -> object:
        if spec == self.busy:
            raise LineBusy("'GPIO busy'")
        return super().pin(spec, **kwargs)


def left_driven(factory: MockFactory, lines: list[int]) -> list[object]:
    """The lines as a killed service left them: outputs driven high."""
    pins = []
    for gpio in lines:
        pin = factory.pin(gpio)
        pin.function = "output"
        pin.state = 1
        pins.append(pin)
    return pins


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ports told SAFE; boards are found by serial number in `PORTS`, and acknowledge."""
    ports: list[str] = []

    def safe(port: str) -> bool:
        ports.append(port)
        return True

    monkeypatch.setattr("controller.cli.safe_off.board_port", PORTS.get)
    monkeypatch.setattr("controller.cli.safe_off.tell_safe", safe)
    return ports


def test_safe_off_stops_every_table_of_a_service_with_several(
    tmp_path: Path,
    told: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pins = OneBusyLine()
    monkeypatch.setattr("controller.cli.launcher.sim_pin_factory", lambda: pins)
    profile = load_pin_profile("phase-enable")
    driven = left_driven(pins, [gpio for _, gpio in profile.motor.lines])
    config = tmp_path / "config.toml"
    config.write_text(TABLES)
    assert main(["safe-off", "--config", str(config), "--mock"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    for role, gpio in profile.motor.lines:  # the table's own pin profile, not [launcher]'s
        assert f"safe-off (table window, mock pins): motor.{role} (GPIO{gpio}): driven low" in out
    assert [pin.states[-1].state for pin in driven] == [0, 0]  # type: ignore[attr-defined]
    assert all(pin.states[-2].state == 1 for pin in driven)  # type: ignore[attr-defined]
    assert told == ["/dev/ttyACM0"]
    assert lines[len(driven) :] == [
        "safe-off (table corner, board): the launcher board on /dev/ttyACM0 stopped its motor "
        "and driver",
        "safe-off (table spare, board): no launcher board with serial number E66138935F found; "
        "nothing is driving a motor",
        "safe-off (table demo, sim): the simulated launcher has no motor to stop",
        "safe-off (table typed, none): no launcher, no motor to stop",
    ]


def test_a_failure_at_one_table_still_handles_every_other_and_exits_1(
    tmp_path: Path,
    told: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The first board does not acknowledge and one of the gpio table's lines is busy: the other
    line still goes low, the other board is still told SAFE, the others still reported."""
    profile = load_pin_profile("phase-enable")
    (free_role, free), (busy_role, busy) = profile.motor.lines
    pins = OneBusyLine(busy)
    monkeypatch.setattr("controller.cli.launcher.sim_pin_factory", lambda: pins)
    (line,) = left_driven(pins, [free])

    def silent_corner(port: str) -> bool:
        told.append(port)
        return port != "/dev/ttyACM0"

    monkeypatch.setattr("controller.cli.safe_off.tell_safe", silent_corner)
    monkeypatch.setitem(PORTS, "E66138935F", "/dev/ttyACM1")
    config = tmp_path / "config.toml"
    config.write_text(LAUNCHER + CORNER + WINDOW + SPARE + OTHERS)  # gpio after the failure
    assert main(["safe-off", "--config", str(config), "--mock"]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "safe-off: error: table corner: the launcher board on /dev/ttyACM0 did not acknowledge "
        "SAFE; it stops its motor by itself after 3 s without the Pi",
        f"safe-off: error: table window: motor.{busy_role} (GPIO{busy}): could not claim the "
        "line: 'GPIO busy'",
    ]
    assert told == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert "safe-off (table spare, board): the launcher board on /dev/ttyACM1 stopped" in out
    assert f"safe-off (table window, mock pins): motor.{free_role} (GPIO{free}): driven" in out
    assert line.states[-1].state == 0  # type: ignore[attr-defined]
    for table in ("demo", "typed"):
        assert f"safe-off (table {table}, " in out


def test_a_table_whose_lookup_or_pins_fail_is_its_own_error() -> None:
    """Several boards where one is expected, a port that cannot be opened, a pin profile that
    cannot be loaded: each is that table's error, and the next table is still handled."""
    from controller.cli.safe_off import board_safe_off, table_safe_off
    from controller.cli.tables import plans
    from controller.config import parse_config
    from controller.launcher.board.ports import AmbiguousPort

    def ambiguous(serial_number: str | None) -> str | None:
        raise AmbiguousPort("several RP2040 boards are plugged in")

    def unopenable(port: str) -> bool:
        raise OSError(f"could not open port {port}")

    assert board_safe_off(None, ambiguous) == (
        [],
        ["launcher board: several RP2040 boards are plugged in"],
    )
    assert board_safe_off("E66", lambda number: "/dev/ttyACM3", unopenable) == (
        [],
        ["launcher board: could not open port /dev/ttyACM3"],
    )
    assert board_safe_off(None, lambda number: None) == (
        ["no launcher board found; nothing is driving a motor"],
        [],
    )

    def broken_profile(name: str) -> tuple[list[str], list[str], str]:
        raise PinProfileError(f"unknown pin profile {name!r}")

    window, corner = plans(parse_config(TABLES))[:2]
    outcome = table_safe_off(window, broken_profile)
    assert outcome.errors == ["unknown pin profile 'phase-enable'"] and not outcome.done
    outcome = table_safe_off(corner, broken_profile, lambda n: None)
    assert outcome.done and not outcome.errors  # not plugged in: nothing to stop
