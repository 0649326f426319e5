"""``make firmware-deploy``: copy the firmware to the Pico with mpremote.

Steps: find the board (``--port``, ``$UNO_ATTACK_SERIAL_PORT``, ``/dev/uno-launcher`` or the
Pico's USB id); refuse while something else holds the port (the uno-attack service: only one
program may own it, and a deploy under a running service would stop its motor mid-game); if the
board runs our firmware, ask it (``MAINT``) to reboot into maintenance mode, where MicroPython's
REPL answers mpremote (the running firmware ignores Ctrl-C on purpose); write ``board.json`` from
the pin profile; copy ``firmware/*.py`` and ``board.json``; reset the board.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import serial

from controller.launcher.board.firmware import firmware_dir, proto
from controller.launcher.board.oneshot import exchange
from controller.launcher.board.pinmap import board_pins
from controller.launcher.board.ports import describe_search, find_port
from controller.launcher.pins import load_pin_profile

SERVICE = "uno-attack"


class DeployError(Exception):
    """A reason not to deploy, said to the person at the keyboard."""


def service_active(name: str = SERVICE) -> bool:
    """True if systemd says the service is running (False where there is no systemd)."""
    systemctl = shutil.which("systemctl")
    if systemctl is None:
        return False
    try:
        out = subprocess.run(
            [systemctl, "is-active", "--quiet", name], capture_output=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0


def check_port_free(port: str) -> None:
    """Open the port exclusively and close it again: fails if another program holds it."""
    try:
        handle = serial.Serial(port, timeout=0.1, exclusive=True)
    except (serial.SerialException, OSError) as error:
        raise DeployError(
            f"the launcher board on {port} is in use ({error}). Stop the service first: "
            f"sudo systemctl stop {SERVICE}"
        ) from None
    handle.close()


def request_maintenance(port: str, timeout: float = 1.0) -> bool:
    """If our firmware answers on `port`, send HELLO and MAINT; True if it agreed to reboot."""
    hello = [f"proto={proto.PROTOCOL}", f"min={proto.PROTOCOL_MIN}"]
    return exchange(port, [("HELLO", hello), ("MAINT", [])], timeout)


def wait_for_port(port: str, timeout: float = 10.0) -> None:
    """After a reboot the USB port disappears and comes back."""
    time.sleep(0.5)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if Path(port).exists():
            time.sleep(0.5)
            return
        time.sleep(0.1)
    raise DeployError(f"the board did not come back on {port} after rebooting")


def mpremote_command(port: str, files: Sequence[Path]) -> list[str]:
    """The mpremote call: copy every file to the board's root, then reset it."""
    return ["mpremote", "connect", port, "cp", *map(str, files), ":", "+", "reset"]


def deploy(port: str | None, profile: str | None, dry_run: bool = False) -> list[str]:
    """Deploy; returns the mpremote command run. Raises DeployError with what to do."""
    if service_active():
        raise DeployError(
            f"the {SERVICE} service is running and owns the launcher board: "
            f"sudo systemctl stop {SERVICE}, deploy, then sudo systemctl start {SERVICE}"
        )
    found = find_port(port)
    if found is None:
        raise DeployError(f"no launcher board found ({describe_search(port)}): plug it in")
    check_port_free(found)
    if request_maintenance(found) and not dry_run:
        wait_for_port(found)
    files = sorted(firmware_dir().glob("*.py"))
    with tempfile.TemporaryDirectory() as scratch:
        if profile is not None:
            pins = board_pins(load_pin_profile(profile))
            board_json = Path(scratch) / "board.json"
            board_json.write_text(json.dumps(pins, indent=1), encoding="utf-8")
            files.append(board_json)
        command = mpremote_command(found, files)
        if not dry_run:
            _run_mpremote(command)
    return command


def _run_mpremote(command: list[str]) -> None:
    executable = shutil.which("mpremote") or str(Path(sys.executable).with_name("mpremote"))
    if not Path(executable).exists():
        raise DeployError("mpremote is not installed: pip install 'uno-attack[firmware]'")
    result = subprocess.run([executable, *command[1:]], timeout=300)
    if result.returncode != 0:
        raise DeployError(
            "mpremote failed. If the board does not answer, hold the UNO button while plugging "
            "it in (maintenance mode) and try again; see firmware/README.md"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="firmware-deploy", description="Copy the launcher firmware to a Pico."
    )
    parser.add_argument("--port", help="serial port (default: found automatically)")
    parser.add_argument(
        "--profile", help="write board.json from this pin profile (default: the firmware's pins)"
    )
    parser.add_argument("--dry-run", action="store_true", help="check and print, copy nothing")
    args = parser.parse_args(argv)
    try:
        command = deploy(args.port, args.profile, dry_run=args.dry_run)
    except (DeployError, LookupError) as error:
        print(f"firmware-deploy: {error}", file=sys.stderr)
        return 1
    verb = "would run" if args.dry_run else "ran"
    print(f"firmware-deploy: {verb}: {' '.join(command)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
