"""A maker's first commands on the real chip, each its own `uno-attack` process as on a Pi:
`selftest` with a person (the world) pressing the button when asked, `calibrate` counting every
card it measures, and `safe-off` both beside a process that holds the motor lines (it names the
holder) and after it (the lines end low)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from .conftest import PROFILE, UNO, World, level

FORWARD, BACKWARD, ENABLE = 12, 13, 26
GPIO = ["--backend", "gpio", "--pin-profile", str(PROFILE)]
TIMEOUT = 600  # seconds: a new interpreter under software emulation takes 15-60 s to start


def test_selftest_with_a_person_pressing_when_asked(world: World) -> None:
    world("cards 5")
    before = world.out()
    process = subprocess.Popen(
        [*UNO, "selftest", *GPIO, "--interactive"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
    )  # fmt: skip
    assert process.stdout is not None
    said = []
    for line in process.stdout:
        said.append(line)
        if "Press the UNO button" in line:
            world("press")
    assert process.wait(TIMEOUT) == 0, "".join(said)
    report = "".join(said)
    assert "button press" in report and "1 card counted" in report, report
    assert world.out() - before == 1
    assert (level(FORWARD), level(BACKWARD), level(ENABLE)) == (0, 0, 0)


def test_calibrate_counts_every_card_it_measures(world: World, tmp_path: Path) -> None:
    world("cards 20")
    before = world.out()
    tuned = tmp_path / "tuned.toml"
    done = subprocess.run(
        [*UNO, "calibrate", *GPIO, "--cards", "4", "--runs", "2", "--write", str(tuned)],
        capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    assert done.returncode == 0, f"{done.stdout}{done.stderr}world: {world('state')}"
    measured = re.search(r"measured (\d+) cards", done.stdout)
    assert measured is not None and int(measured[1]) >= 8, done.stdout
    assert world.out() - before == int(measured[1]), done.stdout
    assert "[calibration]" in tuned.read_text()
    assert (level(FORWARD), level(BACKWARD)) == (0, 0)


HOLDER = """
import time
from gpiozero import Motor
from gpiozero.pins.lgpio import LGPIOFactory
motor = Motor(12, 13, enable=26, pin_factory=LGPIOFactory())
motor.forward(0.8)
print("holding", flush=True)
time.sleep(3600)
"""


def test_safe_off_beside_a_holder_names_it_and_after_it_drives_the_lines_off(
    world: World,
) -> None:
    world("released keep")  # a dead owner's levels stay, as on Raspberry Pi OS
    holder = subprocess.Popen([sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        refused = subprocess.run([*UNO, "safe-off", *GPIO], capture_output=True, text=True,
                                 timeout=TIMEOUT)  # fmt: skip
        assert refused.returncode != 0
        said = refused.stdout + refused.stderr
        assert f"pid {holder.pid}" in said and "stop the service" in said, said
        assert "Traceback" not in said
    finally:
        holder.kill()
        holder.wait(60)
    assert level(ENABLE) == 1  # the holder's level outlived it
    done = subprocess.run([*UNO, "safe-off", *GPIO], capture_output=True, text=True,
                          timeout=TIMEOUT)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert (level(FORWARD), level(BACKWARD), level(ENABLE)) == (0, 0, 0)
